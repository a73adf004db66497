package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/httpx"
)

// petService is the service of testdata/pets.yaml, written as a careful
// team would, with switches that make it wrong in one way each.
type petService struct {
	token string // the bearer token it accepts; "" accepts any

	wrongStatus   bool   // POST /pets answers 200 instead of 201
	wrongBodyType bool   // GET /pets/1 gives its id as a string
	missingHeader bool   // GET /pets leaves X-Total out
	serverError   bool   // GET /pets answers 500
	ignoresAuth   bool   // no credentials needed
	retryAfter    string // GET /health answers 429 twice with this Retry-After first
	lenient       bool   // accepts invalid data as if it were valid

	mu      sync.Mutex
	limited map[string]int
	calls   atomic.Int32
}

func (s *petService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	problem := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"code": status, "message": msg})
	}
	allow := func(methods ...string) bool {
		if slices.Contains(methods, r.Method) {
			return true
		}
		w.Header().Set("Allow", strings.Join(methods, ", "))
		problem(http.StatusMethodNotAllowed, "method not allowed")
		return false
	}
	authorized := func() bool {
		if s.ignoresAuth {
			return true
		}
		auth := r.Header.Get("Authorization")
		tok, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || tok == "" || s.token != "" && tok != s.token {
			w.Header().Set("WWW-Authenticate", "Bearer")
			problem(http.StatusUnauthorized, "unauthorized")
			return false
		}
		return true
	}
	writeJSON := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	switch {
	case path == "/health":
		if !allow("GET") {
			return
		}
		if s.retryAfter != "" {
			s.mu.Lock()
			n := s.limited[r.URL.Path]
			if s.limited == nil {
				s.limited = map[string]int{}
			}
			s.limited[r.URL.Path] = n + 1
			s.mu.Unlock()
			if n < 2 {
				w.Header().Set("Retry-After", s.retryAfter)
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "up")
	case path == "/pets":
		if !allow("GET", "POST") || !authorized() {
			return
		}
		if r.Method == "GET" {
			limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
			id := r.Header.Get("X-Request-Id")
			if !s.lenient && (err != nil || limit < 1 || limit > 100 || id == "" || len(id) > 36) {
				problem(http.StatusBadRequest, "limit must be an integer from 1 to 100, X-Request-Id is required")
				return
			}
			if s.serverError {
				problem(http.StatusInternalServerError, "database down")
				return
			}
			if !s.missingHeader {
				w.Header().Set("X-Total", "1")
			}
			writeJSON(http.StatusOK, []any{map[string]any{"id": 1, "name": "Rex"}})
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" && !s.lenient {
			problem(http.StatusUnsupportedMediaType, "send JSON")
			return
		}
		var body map[string]any
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		err := dec.Decode(&body)
		if !s.lenient {
			name, ok := body["name"].(string)
			_, tagOK := body["tag"].(string)
			bad := err != nil || !ok || name == "" || len(name) > 50 || body["tag"] != nil && !tagOK
			for k := range body {
				bad = bad || k != "name" && k != "tag"
			}
			if bad {
				problem(http.StatusUnprocessableEntity, "a pet needs a name of 1 to 50 characters, and nothing but a tag besides")
				return
			}
		}
		status := http.StatusCreated
		if s.wrongStatus {
			status = http.StatusOK
		}
		body["id"] = 2
		if body["name"] == nil {
			body["name"] = "x"
		}
		writeJSON(status, body)
	case strings.HasPrefix(path, "/pets/"):
		if !allow("GET") || !authorized() {
			return
		}
		id, err := strconv.Atoi(strings.TrimPrefix(path, "/pets/"))
		switch {
		case err != nil:
			problem(http.StatusBadRequest, "petId must be an integer")
		case id == 1 && s.wrongBodyType:
			writeJSON(http.StatusOK, map[string]any{"id": "1", "name": "Rex"})
		case id == 1:
			writeJSON(http.StatusOK, map[string]any{"id": 1, "name": "Rex"})
		default:
			writeJSON(http.StatusNotFound, map[string]any{"code": 404, "message": fmt.Sprintf("no pet %d", id)})
		}
	default:
		problem(http.StatusNotFound, "no route")
	}
}

// collect is a Sink that keeps every result.
type collect struct {
	info    *RunInfo
	results []*Result
	summary *Summary
}

func (c *collect) Begin(info *RunInfo) { c.info = info }
func (c *collect) Result(r *Result)    { c.results = append(c.results, r) }
func (c *collect) End(s *Summary)      { c.summary = s }

// byTitle finds a result by its test's title.
func (c *collect) byTitle(t *testing.T, title string) *Result {
	t.Helper()
	for _, r := range c.results {
		if r.Test.Title() == title {
			return r
		}
	}
	var titles []string
	for _, r := range c.results {
		titles = append(titles, r.Test.Title())
	}
	t.Fatalf("no test %q; the run had:\n%s", title, strings.Join(titles, "\n"))
	return nil
}

func (c *collect) failedChecks(r *Result) []string {
	var out []string
	for _, f := range r.Failures {
		out = append(out, f.Check)
	}
	return out
}

// runPlan plans opts and runs every test of the plan, failing the test
// when no plan can be made.
func runPlan(t *testing.T, opts Options) *collect {
	t.Helper()
	p, err := NewPlan(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	c := &collect{}
	p.Run(context.Background(), c)
	return c
}

// runPets runs testdata/pets.yaml against svc with opts on top of the
// defaults of these tests.
func runPets(t *testing.T, svc http.Handler, opts Options) *collect {
	t.Helper()
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	if opts.Specs == nil {
		opts.Specs = []SpecSource{{Path: "testdata/pets.yaml", Credentials: map[string]string{"bearer": "s3cret-token"}}}
	}
	opts.BaseURL = srv.URL
	if opts.Retry == (httpx.RetryPolicy{}) {
		opts.Retry = httpx.RetryPolicy{MaxRetries: 3, MaxWait: 5 * time.Second, DefaultWait: 10 * time.Millisecond}
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	return runPlan(t, opts)
}

func TestCorrectServicePasses(t *testing.T) {
	for _, negative := range []bool{false, true} {
		c := runPets(t, &petService{token: "s3cret-token"}, Options{Negative: negative, Parallel: 4})
		if c.summary.Failed != 0 || c.summary.Tests == 0 {
			for _, r := range c.results {
				if r.Outcome != Passed {
					t.Errorf("negative=%v: %s: %s\n%s", negative, r.Test.Title(), r.Outcome, r.Message())
				}
			}
		}
		want := []string{
			"GET /pets -> 200 application/json (generated)",
			"POST /pets [application/json] -> 201 application/json (generated)",
			"GET /pets/{petId} -> 200 application/json (example: found)",
			"GET /pets/{petId} -> 404 application/json (example: missing)",
			"GET /health -> 200 text/plain (generated)",
		}
		for _, title := range want {
			if r := c.byTitle(t, title); r.Outcome != Passed {
				t.Errorf("%s: %s %s", title, r.Outcome, r.Message())
			}
		}
		if !negative && c.summary.Tests != len(want) {
			t.Errorf("%d tests, want %d", c.summary.Tests, len(want))
		}
		if negative && c.summary.Tests < len(want)+10 {
			t.Errorf("--negative ran only %d tests", c.summary.Tests)
		}
	}
}

// TestWrongServicesFail runs services that are wrong in one way each: the
// right test fails, by the right check, with a message that says where.
func TestWrongServicesFail(t *testing.T) {
	cases := []struct {
		name    string
		svc     *petService
		test    string
		checks  []string
		message string
	}{
		{"wrong status", &petService{wrongStatus: true},
			"POST /pets [application/json] -> 201 application/json (generated)", []string{"status_code_conformance"},
			"status 200 is not declared by POST /pets (declared: 201, 400)"},
		{"wrong body type", &petService{wrongBodyType: true},
			"GET /pets/{petId} -> 200 application/json (example: found)", []string{"response_schema_conformance", "example_body_match"},
			"$.id"},
		{"missing header", &petService{missingHeader: true},
			"GET /pets -> 200 application/json (generated)", []string{"response_headers_conformance"},
			"X-Total"},
		{"server error", &petService{serverError: true},
			"GET /pets -> 200 application/json (generated)", []string{"not_a_server_error", "status_code_conformance"},
			"the service answered 500 Internal Server Error"},
		{"ignores auth", &petService{ignoresAuth: true},
			"GET /pets -> 200 application/json (generated)", []string{"ignored_auth"},
			"the operation requires credentials, yet the service answered 200 to the request without them"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := runPets(t, tc.svc, Options{})
			r := c.byTitle(t, tc.test)
			if r.Outcome != Failed {
				t.Fatalf("%s passed against a service with a %s", tc.test, tc.name)
			}
			if got := c.failedChecks(r); !slices.Equal(got, tc.checks) {
				t.Errorf("failed checks %v, want %v\n%s", got, tc.checks, r.Message())
			}
			if !strings.Contains(r.Message(), tc.message) {
				t.Errorf("message %q does not say %q", r.Message(), tc.message)
			}
			for _, other := range c.results {
				if other != r && other.Outcome == Failed && !(tc.name == "ignores auth" && slices.Equal(c.failedChecks(other), []string{"ignored_auth"})) {
					t.Errorf("%s failed too: %s", other.Test.Title(), other.Message())
				}
			}
		})
	}
}

// TestRetriesEachFormOfRetryAfter answers 429 twice with each form of
// Retry-After: the test passes after two retries, and every attempt is
// kept.
func TestRetriesEachFormOfRetryAfter(t *testing.T) {
	forms := map[string]string{
		"seconds":   "0",
		"HTTP date": time.Now().Add(-time.Second).UTC().Format(http.TimeFormat),
		"ISO-8601":  time.Now().Add(-time.Second).UTC().Format(time.RFC3339),
	}
	for name, value := range forms {
		t.Run(name, func(t *testing.T) {
			c := runPets(t, &petService{retryAfter: value}, Options{Filter: "PATH=/health"})
			r := c.byTitle(t, "GET /health -> 200 text/plain (generated)")
			if r.Outcome != Passed || r.Retries() != 2 || len(r.Attempts) != 3 {
				t.Fatalf("%s after %d retries: %s", r.Outcome, r.Retries(), r.Message())
			}
			for i, a := range r.Attempts[:2] {
				if a.Response.Status != 429 || !strings.Contains(a.Retry, "Retry-After") {
					t.Errorf("attempt %d: %d, retry note %q", i+1, a.Response.Status, a.Retry)
				}
			}
			if c.summary.Retries != 2 {
				t.Errorf("the summary counts %d retries", c.summary.Retries)
			}
		})
	}
}

func TestTokensAreMasked(t *testing.T) {
	c := runPets(t, &petService{token: "s3cret-token", ignoresAuth: true}, Options{})
	for _, r := range c.results {
		var buf bytes.Buffer
		json.NewEncoder(&buf).Encode(r)
		if strings.Contains(buf.String(), "s3cret-token") {
			t.Errorf("%s shows the token: %s", r.Test.Title(), buf.String())
		}
	}
	r := c.byTitle(t, "GET /pets -> 200 application/json (generated)")
	found := false
	for _, h := range r.Attempts[0].Request.Headers {
		if h.Name == "Authorization" {
			found = true
			if h.Value != "Bearer ****" {
				t.Errorf("Authorization reads %q", h.Value)
			}
		}
	}
	if !found {
		t.Error("the request had no Authorization header")
	}
}

func TestUnreachableService(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there now
	p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: srv.URL, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	c := &collect{}
	sum := p.Run(context.Background(), c)
	if sum.Failed != sum.Tests || sum.Tests == 0 {
		t.Errorf("%d of %d tests failed", sum.Failed, sum.Tests)
	}
	for _, r := range c.results {
		if !strings.Contains(r.Error, "the service could not be reached") || !strings.Contains(r.Error, "connection refused") || len(r.Failures) != 0 {
			t.Errorf("%s: %q", r.Test.Title(), r.Error)
		}
	}
	r := c.byTitle(t, "GET /health -> 200 text/plain (generated)")
	if want := "GET " + srv.URL + "/v1/health: the service could not be reached: "; !strings.HasPrefix(r.Error, want) {
		t.Errorf("error %q does not start with %q", r.Error, want)
	}
}

func TestSlowService(t *testing.T) {
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	})
	client, err := httpx.NewClient(httpx.ClientOptions{Timeout: 100 * time.Millisecond, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	c := runPets(t, slow, Options{Client: client, Filter: "PATH=/health"})
	r := c.byTitle(t, "GET /health -> 200 text/plain (generated)")
	if r.Outcome != Failed || !strings.HasSuffix(r.Error, "/v1/health: no response within 100ms") {
		t.Errorf("%s: %q", r.Outcome, r.Error)
	}
}

// TestRetryAfterTooLong: a service that asks to wait longer than allowed
// gets no further attempt, and the test says why.
func TestRetryAfterTooLong(t *testing.T) {
	c := runPets(t, &petService{retryAfter: "3600"}, Options{Filter: "PATH=/health"})
	r := c.byTitle(t, "GET /health -> 200 text/plain (generated)")
	if r.Outcome != Failed || len(r.Attempts) != 1 {
		t.Fatalf("%s after %d attempts", r.Outcome, len(r.Attempts))
	}
	if !strings.Contains(r.Message(), `status_code_conformance: status 429 is not declared by GET /health (declared: 200) (schema at testdata/pets.yaml:83:7) (429 with Retry-After "3600" asks for a wait of 1h0m0s, longer than the longest allowed (5s): not retried)`) {
		t.Errorf("message: %s", r.Message())
	}
}

// requestsOf lists what a run sent, in plan order.
func requestsOf(c *collect) []string {
	var out []string
	for _, r := range c.results {
		for _, a := range r.Attempts {
			b := ""
			if a.Request.Body != nil {
				b = a.Request.Body.Text
			}
			out = append(out, r.Test.Title()+" "+a.Request.Method+" "+strings.SplitN(a.Request.URL, "/v1", 2)[1]+" "+b)
		}
	}
	return out
}

// TestDeterministic: the same seed sends the same requests whatever the
// parallelism; another seed sends others.
func TestDeterministic(t *testing.T) {
	svc := &petService{token: "s3cret-token"}
	one := requestsOf(runPets(t, svc, Options{Negative: true, Seed: 7}))
	four := requestsOf(runPets(t, svc, Options{Negative: true, Seed: 7, Parallel: 4}))
	if !slices.Equal(one, four) {
		t.Errorf("parallel 4 sent other requests:\n%s\n---\n%s", strings.Join(one, "\n"), strings.Join(four, "\n"))
	}
	other := requestsOf(runPets(t, svc, Options{Negative: true, Seed: 8}))
	if slices.Equal(one, other) {
		t.Error("seeds 7 and 8 sent the same requests")
	}
}

// TestShardsSplitTheRun: the shards of a run hold every test once, and a
// test sends the same request in its shard as in the whole run.
func TestShardsSplitTheRun(t *testing.T) {
	svc := &petService{token: "s3cret-token"}
	whole := requestsOf(runPets(t, svc, Options{Negative: true}))
	var parts []string
	for i := 1; i <= 3; i++ {
		part := requestsOf(runPets(t, svc, Options{Negative: true, Shard: Shard{Index: i, Count: 3}}))
		if len(part) == 0 || len(part) == len(whole) {
			t.Errorf("shard %d/3 sent %d of %d requests", i, len(part), len(whole))
		}
		parts = append(parts, part...)
	}
	slices.Sort(parts)
	sorted := slices.Sorted(slices.Values(whole))
	if !slices.Equal(parts, sorted) {
		t.Errorf("the shards together sent:\n%s\nthe whole run:\n%s", strings.Join(parts, "\n"), strings.Join(sorted, "\n"))
	}
}

func TestFiltersAndMaxTests(t *testing.T) {
	svc := &petService{token: "s3cret-token"}
	c := runPets(t, svc, Options{Negative: true, Filter: "METHOD=POST", FilterNot: "STATUS=415"})
	for _, r := range c.results {
		if r.Test.Method != "POST" || r.Test.Status == "415" {
			t.Errorf("%s ran", r.Test.Title())
		}
	}
	if len(c.results) < 5 {
		t.Errorf("only %d POST tests", len(c.results))
	}
	c = runPets(t, svc, Options{Negative: true, MaxTests: 3})
	if len(c.results) != 3 || c.summary.Tests != 3 {
		t.Errorf("--max-tests 3 ran %d", len(c.results))
	}
	// Coverage still counts every operation the filters select.
	covered, after, total, _ := c.summary.Coverage[0].Counts()
	if covered == 0 || after <= covered || total < after {
		t.Errorf("coverage after 3 tests: %d covered, %d after filters, %d in all", covered, after, total)
	}
}

func TestBadInput(t *testing.T) {
	noEnv := func(string) string { return "" }
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"missing spec", Options{Specs: []SpecSource{{Path: "testdata/none.yaml"}}, BaseURL: "http://127.0.0.1:1"}, "testdata/none.yaml: "},
		{"no base URL", Options{Specs: []SpecSource{{Path: "testdata/refusals/accounts.yaml"}}}, "testdata/refusals/accounts.yaml: no base URL: give --testBaseURL, the spec's baseUrl in specgate.yaml, or an absolute URL among the spec's servers"},
		{"bad base URL", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "ftp://x"}, `base URL "ftp://x" of testdata/pets.yaml is not an http(s) URL with a host`},
		{"bad filter", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1", Filter: "PATH="}, "--filter: filter \"PATH=\": column 6: expected a value for PATH"},
		{"unknown check", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1", Checks: []string{"status_code"}}, `unknown check "status_code": the checks are not_a_server_error, status_code_conformance`},
		{"malformed example", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1", Examples: []string{"testdata/bad_examples"}}, "testdata/bad_examples/status.json:3:31: "},
		{"unrouted example", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1", Examples: []string{"testdata/stray_examples"}}, `testdata/stray_examples/stray.json:1:1: example "stray": no operation of testdata/pets.yaml matches GET /cats`},
		{"AsyncAPI", Options{Specs: []SpecSource{{Path: "../../shared/corpus/asyncapi-streetlights-kafka-2.6.yml"}}, BaseURL: "http://127.0.0.1:1"}, "is AsyncAPI 2.6.0: contract tests read OpenAPI 2.0 and 3.x specs"},
	}
	for _, tc := range cases {
		tc.opts.Getenv = noEnv
		_, err := NewPlan(context.Background(), tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant it to say %q", tc.name, err, tc.want)
		}
	}
}

// TestVariations sends, with Options.Variations, every optional parameter
// of an operation in a test of its own.
func TestVariations(t *testing.T) {
	c := runLoop(t, "testdata/loop/schemas.yaml", false)
	for _, r := range c.results {
		if strings.Contains(r.Test.Name, "optional") {
			t.Errorf("%s ran without Variations", r.Test.Title())
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") == "" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items": [], "total": 0, "next": %q}`, r.URL.RawQuery)
	}))
	defer srv.Close()
	p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/loop/schemas.yaml"}}, BaseURL: srv.URL,
		Variations: true, Filter: "PATH=/pets && METHOD=GET", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	col := &collect{}
	p.Run(context.Background(), col)
	plain := col.byTitle(t, "GET /pets -> 200 application/json (generated)")
	all := col.byTitle(t, "GET /pets -> 200 application/json (generated: with every optional parameter)")
	if plain.Outcome != Passed || all.Outcome != Passed {
		t.Fatalf("%s %s / %s %s", plain.Outcome, plain.Message(), all.Outcome, all.Message())
	}
	if !strings.Contains(all.Attempts[0].Request.URL, "limit=") || strings.Contains(plain.Attempts[0].Request.URL, "limit=") {
		t.Errorf("requests: %s and %s", plain.Attempts[0].Request.URL, all.Attempts[0].Request.URL)
	}
}

// TestInvalidExampleValues: values an example writes that its own schema
// rejects (GitHub shows null for an object) are not held against a
// service, which cannot send them; valid ones are.
func TestInvalidExampleValues(t *testing.T) {
	state := "done"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == "POST" {
			w.WriteHeader(http.StatusAccepted)
			fmt.Fprint(w, `{}`)
			return
		}
		fmt.Fprintf(w, `{"state": %q}`, state)
	}))
	defer srv.Close()
	run := func() *collect {
		return runPlan(t, Options{Specs: []SpecSource{{Path: "testdata/invalid_example.yaml"}}, BaseURL: srv.URL, Getenv: func(string) string { return "" }})
	}
	c := run()
	for _, r := range c.results {
		if r.Outcome != Passed {
			t.Errorf("%s: %s", r.Test.Title(), r.Message())
		}
	}
	state = "queued"
	r := run().byTitle(t, "GET /jobs/{id} -> 200 application/json (example: seven)")
	if r.Outcome != Failed || !strings.Contains(r.Message(), `example_body_match: the body does not match example "seven": $.state: expected "done", found "queued"`) {
		t.Errorf("%s: %s", r.Outcome, r.Message())
	}
}

// Without a base URL, a spec is tested at its first server with an
// absolute URL, its variables at their defaults, and the run says so. With KeepGoing, a spec
// that has no address anywhere is left out with its error and the others
// run.
func TestBaseURLFromServers(t *testing.T) {
	noEnv := func(string) string { return "" }
	p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}, {Path: "testdata/servers/variables.yaml"}}, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p.Info() {
		got = append(got, fmt.Sprintf("%s %v", s.BaseURL, s.BaseURLFromServers))
	}
	if want := []string{"https://pets.example.com/v1 true", "https://eu.api.example.com:8443/v2 true"}; !slices.Equal(got, want) {
		t.Errorf("base URLs %q, want %q", got, want)
	}
	p, err = NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1", Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if info := p.Info()[0]; info.BaseURL != "http://127.0.0.1:1" || info.BaseURLFromServers {
		t.Errorf("a given base URL: %+v", info)
	}

	keep := Options{Specs: []SpecSource{{Path: "testdata/refusals/accounts.yaml"}, {Path: "testdata/servers/variables.yaml"}}, Getenv: noEnv, KeepGoing: true}
	p, err = NewPlan(context.Background(), keep)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Info()) != 1 || p.Info()[0].Name != "testdata/servers/variables.yaml" {
		t.Errorf("specs of the run: %+v", p.Info())
	}
	if left := p.Left(); len(left) != 1 || !strings.HasPrefix(left[0].Error(), "testdata/refusals/accounts.yaml: no base URL") {
		t.Errorf("left out: %v", left)
	}
	keep.Specs = keep.Specs[:1]
	if _, err := NewPlan(context.Background(), keep); err == nil || !strings.Contains(err.Error(), "accounts.yaml: no base URL") {
		t.Errorf("no spec left: %v", err)
	}
}
