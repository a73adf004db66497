package apitest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// orderService is the service of testdata/auth/auth.yaml: it accepts the
// credentials it was given, per scheme, and notes what each request
// carried.
type orderService struct {
	bearer []string // tokens accepted for oauth and openIdConnect
	basic  string   // user:password
	key    string   // X-API-Key
	mu     sync.Mutex
	seen   map[string][]string // "GET /orders" → credentials seen
}

func (s *orderService) note(r *http.Request, what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string][]string{}
	}
	k := r.Method + " " + r.URL.Path
	s.seen[k] = append(s.seen[k], what)
}

func (s *orderService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	deny := func() { w.WriteHeader(http.StatusUnauthorized) }
	bearerOK := func() bool {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.note(r, "Authorization: "+r.Header.Get("Authorization"))
		return ok && slices.Contains(s.bearer, tok)
	}
	switch r.Method + " " + r.URL.Path {
	case "GET /orders":
		if !bearerOK() {
			deny()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items": ["o-17"]}`)
	case "POST /orders":
		s.note(r, "Authorization: "+r.Header.Get("Authorization"))
		if r.Header.Get("Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte(s.basic)) {
			deny()
			return
		}
		w.WriteHeader(http.StatusCreated)
	case "DELETE /orders":
		s.note(r, "X-API-Key: "+r.Header.Get("X-API-Key")+"; Authorization: "+r.Header.Get("Authorization"))
		if r.Header.Get("X-API-Key") != s.key {
			deny()
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case "GET /reports":
		s.note(r, "query: "+r.URL.RawQuery+"; Cookie: "+r.Header.Get("Cookie"))
		if r.URL.Query().Get("api_key") == "" {
			deny()
		}
	case "GET /session":
		c, err := r.Cookie("sid")
		s.note(r, fmt.Sprintf("cookie: %v %v; Authorization: %s", c, err, r.Header.Get("Authorization")))
		if err != nil || !bearerOK() {
			deny()
		}
	case "GET /alt":
		if !bearerOK() {
			deny()
		}
	case "GET /public":
		s.note(r, "query: "+r.URL.RawQuery+"; Authorization: "+r.Header.Get("Authorization")+"; X-Trace: "+r.Header.Get("X-Trace"))
	default:
		http.NotFound(w, r)
	}
}

func runAuth(t *testing.T, svc http.Handler, opts Options, env map[string]string) *collect {
	t.Helper()
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	if opts.Specs == nil {
		opts.Specs = []SpecSource{{Path: "testdata/auth/auth.yaml"}}
	}
	opts.BaseURL = srv.URL
	opts.Getenv = func(k string) string { return env[k] }
	return runPlan(t, opts)
}

// resultsJSON is every result as JSON, to look for secrets in.
func resultsJSON(c *collect) string {
	var buf bytes.Buffer
	for _, r := range c.results {
		json.NewEncoder(&buf).Encode(r)
	}
	return buf.String()
}

// TestCredentialsPerScheme sends each operation the credentials of its
// own security requirement, in the form the product specification's table
// gives, from specgate.yaml, the environment or a placeholder.
func TestCredentialsPerScheme(t *testing.T) {
	svc := &orderService{bearer: []string{"oauth-tok", "specgate-token"}, basic: "ops:pa55", key: "env-key"}
	c := runAuth(t, svc, Options{Specs: []SpecSource{{Path: "testdata/auth/auth.yaml",
		Credentials: map[string]string{"oauth": "oauth-tok", "basic": "ops:pa55"}}}},
		map[string]string{"key": "env-key"})
	for _, r := range c.results {
		if r.Outcome != Passed {
			t.Errorf("%s: %s %s", r.Test.Title(), r.Outcome, r.Message())
		}
	}
	want := map[string][]string{
		// global security, oauth2: the token from specgate.yaml; then
		// ignored_auth sends it without.
		"GET /orders": {"Authorization: Bearer oauth-tok", "Authorization: "},
		// operation security replaces the global one: basic, encoded
		"POST /orders": {"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("ops:pa55")), "Authorization: "},
		// the environment variable named after the scheme, and no oauth
		"DELETE /orders": {"X-API-Key: env-key; Authorization: ", "X-API-Key: ; Authorization: "},
		// the first alternative: a query key, a placeholder
		"GET /reports": {"query: api_key=specgate-api-key; Cookie: ", "query: ; Cookie: "},
		// both schemes of one alternative: a cookie and openIdConnect
		"GET /session": {"cookie: sid=specgate-api-key <nil>; Authorization: Bearer specgate-token", "Authorization: Bearer specgate-token", "cookie:  http: named cookie not present; Authorization: "},
		"GET /public":  {"query: ; Authorization: ; X-Trace: "},
		// the first alternative: bearerB, a placeholder
		"GET /alt": {"Authorization: Bearer specgate-token", "Authorization: "},
	}
	for k, w := range want {
		if got := svc.seen[k]; !slices.Equal(got, w) {
			t.Errorf("%s carried %q, want %q", k, got, w)
		}
	}
	out := resultsJSON(c)
	for _, secret := range []string{"oauth-tok", "env-key", "ops:pa55", base64.StdEncoding.EncodeToString([]byte("ops:pa55"))} {
		if strings.Contains(out, secret) {
			t.Errorf("the results show %q", secret)
		}
	}
	// A placeholder is no secret: shown, it says that none was given.
	if !strings.Contains(out, "api_key=specgate-api-key") {
		t.Errorf("the results do not show the placeholder API key sent in the query")
	}
}

// A service that refuses the placeholder credential fails its tests with
// why: the warning before the run names each scheme that has none (and
// that an operation requires) and how to give one, and a 401 or 403
// failure adds it.
func TestPlaceholderCredentialRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") == "real-key" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	plan := func(env map[string]string) *Plan {
		p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/auth/keyed.yaml"}}, BaseURL: srv.URL,
			Getenv: func(k string) string { return env[k] }, Checks: []string{"status_code_conformance"}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := plan(nil)
	want := []string{`testdata/auth/keyed.yaml: no credential for security scheme key (sending "specgate-api-key"): set the environment variable key=…, or give it in specgate.yaml's securitySchemes (docs/test.md, Authentication)`}
	if got := p.Warnings(); !slices.Equal(got, want) {
		t.Errorf("warnings %q\nwant %q", got, want)
	}
	c := &collect{}
	p.Run(context.Background(), c)
	if len(c.results) != 1 || c.results[0].Outcome != Failed {
		t.Fatalf("want one failed test, got %d results", len(c.results))
	}
	msg := c.results[0].Message()
	if want := "status 401 is not declared by DELETE /items (declared: 204) (schema at testdata/auth/keyed.yaml:8:7) (the request carried the placeholder credential of key, none being given: set the environment variable key=…, or give it in specgate.yaml's securitySchemes (docs/test.md, Authentication))"; !strings.Contains(msg, want) {
		t.Errorf("message %q\nwant it to contain %q", msg, want)
	}
	// With the credential given: no warning, no hint, and it is masked.
	p = plan(map[string]string{"key": "real-key"})
	if got := p.Warnings(); len(got) != 0 {
		t.Errorf("warnings with the credential given: %q", got)
	}
	c = &collect{}
	p.Run(context.Background(), c)
	if len(c.results) != 1 || c.results[0].Outcome != Passed || strings.Contains(resultsJSON(c), "real-key") {
		t.Errorf("with the credential: %s %s", c.results[0].Outcome, c.results[0].Message())
	}
}

func TestConfiguredSchemeTheSpecLacks(t *testing.T) {
	_, err := NewPlan(context.Background(), Options{BaseURL: "http://127.0.0.1:1", Getenv: func(string) string { return "" },
		Specs: []SpecSource{{Path: "testdata/auth/auth.yaml", Credentials: map[string]string{"oAuth": "x"}}}})
	want := `credentials are configured for security scheme "oAuth", which testdata/auth/auth.yaml does not declare in components.securitySchemes (it has basic, bearerB, cookieKey, key, oauth, oidc, queryKey)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestExamplesCarryTheirOwnCredentials runs two examples of one operation,
// one with a valid token and one with an expired one, each from its own
// template: the service is right to accept one and refuse the other.
func TestExamplesCarryTheirOwnCredentials(t *testing.T) {
	svc := &orderService{bearer: []string{"good-tok"}}
	c := runAuth(t, svc, Options{Examples: []string{"testdata/auth/valid_invalid"}, Filter: "PATH=/orders && METHOD=GET"},
		map[string]string{"VALID_TOKEN": "good-tok"})
	ok := c.byTitle(t, "GET /orders -> 200 application/json (example: list_ok)")
	expired := c.byTitle(t, "GET /orders -> 401 (example: list_expired)")
	for _, r := range []*Result{ok, expired} {
		if r.Outcome != Passed {
			t.Errorf("%s: %s", r.Test.Title(), r.Message())
		}
	}
	if got := svc.seen["GET /orders"]; !slices.Contains(got, "Authorization: Bearer good-tok") || !slices.Contains(got, "Authorization: Bearer expired-tok") {
		t.Errorf("the service saw %q", got)
	}
	if out := resultsJSON(c); strings.Contains(out, "good-tok") || strings.Contains(out, "expired-tok") {
		t.Error("the results show a token")
	}
	// An example's Authorization header, in any case, serves every bearer
	// scheme of the operation's alternatives.
	c = runAuth(t, svc, Options{Examples: []string{"testdata/auth/valid_invalid"}, Filter: "PATH=/alt"},
		map[string]string{"VALID_TOKEN": "good-tok"})
	if r := c.byTitle(t, "GET /alt -> 200 (example: alt_ok)"); r.Outcome != Passed {
		t.Errorf("%s: %s", r.Test.Title(), r.Message())
	}
	if got := svc.seen["GET /alt"]; len(got) == 0 || got[0] != "Authorization: Bearer good-tok" {
		t.Errorf("GET /alt carried %q", got)
	}
	// A service that accepts the expired token fails the 401 example.
	lax := &orderService{bearer: []string{"good-tok", "expired-tok"}}
	c = runAuth(t, lax, Options{Examples: []string{"testdata/auth/valid_invalid"}, Filter: "PATH=/orders && METHOD=GET"},
		map[string]string{"VALID_TOKEN": "good-tok"})
	r := c.byTitle(t, "GET /orders -> 401 (example: list_expired)")
	if r.Outcome != Failed || !strings.Contains(r.Message(), `example_status: expected 401, as example "list_expired" gives`) {
		t.Errorf("against a service that takes the expired token: %s %s", r.Outcome, r.Message())
	}
}

// TestFixtureCapturesAToken gets a token from a token endpoint of another
// service in a before fixture, sends it, and runs the after fixture with a
// value captured from the test's own response.
func TestFixtureCapturesAToken(t *testing.T) {
	var tokenCalls []string
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		tokenCalls = append(tokenCalls, r.Method+" "+r.URL.Path+" "+r.PostForm.Encode())
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token": "fixture-tok", "expires_in": 3600}`)
	}))
	defer auth.Close()
	svc := &orderService{bearer: []string{"fixture-tok"}}
	c := runAuth(t, svc, Options{Examples: []string{"testdata/auth/fixtures"}, Filter: "PATH=/orders && METHOD=GET"},
		map[string]string{"AUTH_URL": auth.URL})
	r := c.byTitle(t, "GET /orders -> 200 application/json (example: list_with_token)")
	if r.Outcome != Passed {
		t.Fatalf("%s: %s", r.Outcome, r.Message())
	}
	if len(tokenCalls) != 1 || tokenCalls[0] != "POST /token client_id=specgate&grant_type=client_credentials" {
		t.Errorf("the token endpoint got %q", tokenCalls)
	}
	if got := svc.seen["GET /public"]; !slices.Equal(got, []string{"query: last=o-17; Authorization: ; X-Trace: "}) {
		t.Errorf("the after fixture sent %q", got)
	}
	if len(r.Fixtures) != 2 || r.Fixtures[0].Phase != "before" || r.Fixtures[1].Phase != "after" ||
		!slices.Equal(r.Fixtures[0].Captures, []string{"token"}) || r.Fixtures[1].Outcome != Passed {
		t.Errorf("fixtures: %+v", r.Fixtures)
	}
	if out := resultsJSON(c); strings.Contains(out, "fixture-tok") {
		t.Errorf("the results show the captured token: %s", out)
	}
	// The token endpoint down: the test fails, saying which fixture.
	auth.Close()
	c = runAuth(t, svc, Options{Examples: []string{"testdata/auth/fixtures"}, Filter: "PATH=/orders && METHOD=GET"},
		map[string]string{"AUTH_URL": auth.URL})
	r = c.byTitle(t, "GET /orders -> 200 application/json (example: list_with_token)")
	if r.Outcome != Failed || !strings.Contains(r.Error, "before fixture 1 (testdata/auth/fixtures/list_with_token.json:3:5) failed: POST "+auth.URL+"/token: the service could not be reached") {
		t.Errorf("%s: %q", r.Outcome, r.Error)
	}
	if len(r.Attempts) != 0 {
		t.Errorf("the test's request was sent after its fixture failed")
	}
}

func TestStrictMode(t *testing.T) {
	svc := &orderService{}
	opts := Options{Examples: []string{"testdata/auth/strict"}, Filter: "PATH=/public"}
	c := runAuth(t, svc, opts, nil)
	if r := c.byTitle(t, "GET /public -> 200 (example: trace)"); r.Outcome != Passed {
		t.Errorf("lenient: %s %s", r.Outcome, r.Message())
	}
	if got := svc.seen["GET /public"]; !slices.Equal(got, []string{"query: ; Authorization: ; X-Trace: generated-TRACE_ID"}) {
		t.Errorf("lenient: the service saw %q", got)
	}
	opts.StrictMode = true
	c = runAuth(t, svc, opts, nil)
	r := c.byTitle(t, "GET /public -> 200 (example: trace)")
	if r.Outcome != Failed || !strings.Contains(r.Error, "testdata/auth/strict/trace.json:2:80") || !strings.Contains(r.Error, "strict mode forbids generating it") {
		t.Errorf("strict: %s %q", r.Outcome, r.Error)
	}
}
