package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/exchangetest"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/internal/outputtest"
	"github.com/specgate/specgate/internal/schematest"
)

// testMock is a mock serving on a loopback port until the test ends.
type testMock struct {
	*Server
	url  string
	logs *outputtest.Buffer
}

func start(t testing.TB, opts Options) *testMock {
	t.Helper()
	if opts.WatchInterval == 0 {
		opts.WatchInterval = -1
	}
	m, stop := serve(t, opts)
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return m
}

// serve starts a mock with opts on a loopback port, logging to m.logs
// unless opts has a logger; stop shuts it down (saving its state file)
// and gives Serve's error.
func serve(t testing.TB, opts Options) (m *testMock, stop func() error) {
	t.Helper()
	logs := &outputtest.Buffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}
	srv, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ln, err := httpx.Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	return &testMock{Server: srv, url: httpx.BaseURL(ln.Addr()), logs: logs}, func() error {
		cancel()
		return <-done
	}
}

func petsMock(t testing.TB) *testMock {
	return start(t, Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}})
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) any {
	t.Helper()
	v, err := contract.DecodeJSON(r.body)
	if err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return v
}

func (r response) problem(t testing.TB, status int, kind string) httpx.Problem {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json: %s", ct, r.body)
	}
	var p httpx.Problem
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Type != ProblemTypes+kind || p.Status != status {
		t.Fatalf("problem %+v, want kind %s", p, kind)
	}
	return p
}

func (m *testMock) do(t testing.TB, method, path string, header map[string]string, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, m.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, data := exchangetest.Send(t, req)
	return response{status: resp.StatusCode, header: resp.Header, body: data}
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Requests that break the contract get the status a real service would
// send; where the operation declares no response for it, a problem naming
// what is wrong.
func TestContractFailures(t *testing.T) {
	m := petsMock(t)
	tests := []struct {
		name         string
		method, path string
		header       map[string]string
		body         string
		status       int
		kind         string
		detail       string
		allow        string
	}{
		{"no route", "GET", "/v1/cats", nil, "", 404, kindNotFound, "no operation of the specification matches GET /v1/cats", ""},
		{"outside the prefix", "GET", "/pets", nil, "", 404, kindNotFound, "matches GET /pets; testdata/pets.yaml serves its operations under /v1: GET /v1/pets", ""},
		{"another prefix", "GET", "/v2/pets/7", nil, "", 404, kindNotFound, "serves its operations under /v1: GET /v1/pets/7", ""},
		{"method", "PATCH", "/v1/pets/1", nil, "", 405, kindMethodNotAllowed, "/v1/pets/1 does not declare PATCH", "GET, HEAD, DELETE"},
		{"no credentials", "DELETE", "/v1/pets/1", nil, "", 401, kindUnauthorized, "no credentials; the operation accepts a bearer token (Authorization: Bearer <token>) (bearer)", ""},
		{"wrong scheme", "DELETE", "/v1/pets/1", map[string]string{"Authorization": "Basic dTpw"}, "", 401, kindUnauthorized, "accepts a bearer token", ""},
		{"no alternative", "GET", "/v1/secret", map[string]string{"Authorization": "Basic !!"}, "", 401, kindUnauthorized, "an API key in header X-Api-Key (apiKey), or HTTP basic credentials", ""},
		{"content type", "POST", "/v1/pets", map[string]string{"Content-Type": "text/plain"}, "name=Rex", 415, kindUnsupportedMedia, `content-type: "text/plain" is not accepted; the operation accepts application/json`, ""},
		{"accept", "GET", "/v1/pets", map[string]string{"Accept": "application/xml"}, "", 406, kindNotAcceptable, `accept: none of "application/xml" is offered; the operation answers application/json`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.do(t, tt.method, tt.path, tt.header, tt.body)
			p := r.problem(t, tt.status, tt.kind)
			if !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("detail %q, want %q", p.Detail, tt.detail)
			}
			if got := r.header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
			if p.Instance != tt.path || p.RequestID == "" {
				t.Errorf("instance %q, request id %q", p.Instance, p.RequestID)
			}
		})
	}
}

// HEAD is answered wherever GET is declared: GET's status and headers,
// Content-Length included, without the body.
func TestHead(t *testing.T) {
	m := petsMock(t)
	get := m.do(t, "GET", "/v1/pets/1", nil, "")
	head := m.do(t, "HEAD", "/v1/pets/1", nil, "")
	if head.status != 200 || len(head.body) != 0 || head.header.Get("Content-Type") != "application/json" ||
		head.header.Get("Content-Length") != get.header.Get("Content-Length") {
		t.Errorf("HEAD: %d %v %q; GET: %v", head.status, head.header, head.body, get.header)
	}
	// A path without GET still refuses HEAD.
	r := m.do(t, "HEAD", "/v1/secret/x", nil, "")
	if r.status != 404 {
		t.Errorf("HEAD of no path: %d", r.status)
	}
	r = m.do(t, "HEAD", "/v1/pets", map[string]string{"Accept": "text/csv"}, "")
	if r.status != 406 || len(r.body) != 0 {
		t.Errorf("HEAD with an Accept it cannot answer: %d %q", r.status, r.body)
	}
}

// Where the operation declares the refusal's status, the refusal is that
// response (here its example), and the X-Specgate-Problem header and the
// log say why, naming the JSON path of each failure.
func TestInvalidBody(t *testing.T) {
	m := petsMock(t)
	json := map[string]string{"Content-Type": "application/json"}
	for _, tt := range []struct{ name, body, why string }{
		{"missing property", `{"nickname": "Rex"}`, "unprocessable-entity: POST /pets: request body"},
		{"missing body", "", "unprocessable-entity: POST /pets: request body is required (application/json)"},
		{"malformed body", "{", "unprocessable-entity: POST /pets: request body: not application/json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := m.do(t, "POST", "/v1/pets", json, tt.body)
			if r.status != 422 || r.header.Get("Content-Type") != "application/json" || compact(r.json(t)) != `{"message":"invalid pet"}` {
				t.Errorf("%d %s %s, want the declared 422 and its example", r.status, r.header.Get("Content-Type"), r.body)
			}
			if got := r.header.Get(ProblemHeader); !strings.HasPrefix(got, tt.why) {
				t.Errorf("%s: %q, want %q", ProblemHeader, got, tt.why)
			}
		})
	}
	logs := m.logs.String()
	if !strings.Contains(logs, `"problem":"unprocessable-entity"`) || !strings.Contains(logs, `"keyword":"required"`) {
		t.Errorf("the log does not say why the request was refused:\n%s", logs)
	}
}

// Inline examples pair by name: the parameter example "dog" selects the
// response example "dog".
func TestInlinePairing(t *testing.T) {
	m := petsMock(t)
	for path, want := range map[string]string{
		"/v1/pets/1": `{"id":1,"name":"Tom"}`,
		"/v1/pets/2": `{"id":2,"name":"Rex"}`,
	} {
		r := m.do(t, "GET", path, nil, "")
		if r.status != 200 || compact(r.json(t)) != want || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("GET %s: %d %s %s, want %s", path, r.status, r.header.Get("Content-Type"), r.body, want)
		}
	}
	r := m.do(t, "GET", "/v1/pets", nil, "")
	if r.status != 200 || compact(r.json(t)) != `[{"id":1,"name":"Tom"}]` {
		t.Errorf("GET /v1/pets: %d %s", r.status, r.body)
	}
}

// Prefer and its query equivalents choose the answer.
func TestPrefer(t *testing.T) {
	m := petsMock(t)
	tests := []struct {
		name   string
		path   string
		prefer string
		status int
		body   string
	}{
		{"code", "/v1/pets/1", "code=404", 404, `{"message":"no such pet"}`},
		{"example", "/v1/pets/1", "example=dog", 200, `{"id":2,"name":"Rex"}`},
		{"both", "/v1/pets/9", "code=404, example=missing", 404, `{"message":"no such pet"}`},
		{"query code", "/v1/pets/1?__code=404", "", 404, `{"message":"no such pet"}`},
		{"query example", "/v1/pets/1?__example=dog", "", 200, `{"id":2,"name":"Rex"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.prefer != "" {
				h["Prefer"] = tt.prefer
			}
			r := m.do(t, "GET", tt.path, h, "")
			if r.status != tt.status || compact(r.json(t)) != tt.body {
				t.Errorf("%d %s, want %d %s", r.status, r.body, tt.status, tt.body)
			}
		})
	}
	r := m.do(t, "GET", "/v1/pets/1", map[string]string{"Prefer": "example=bird"}, "")
	p := r.problem(t, 404, kindNoAnswer)
	if !strings.Contains(p.Detail, `no example named "bird"`) || !strings.Contains(p.Detail, "cat, dog, missing") {
		t.Errorf("detail %q", p.Detail)
	}
	r = m.do(t, "GET", "/v1/pets/1", map[string]string{"Prefer": "code=418"}, "")
	if p := r.problem(t, 404, kindNoAnswer); !strings.Contains(p.Detail, "declares no response 418 (it declares 200, 404)") {
		t.Errorf("detail %q", p.Detail)
	}
	r = m.do(t, "GET", "/v1/pets/1", map[string]string{"Prefer": "code=abc"}, "")
	r.problem(t, 400, kindNoAnswer)
}

// A request body example pairs with the response example of its name,
// and a response may echo the request.
func TestBodyPairingAndEcho(t *testing.T) {
	m := petsMock(t)
	h := map[string]string{"Content-Type": "application/json"}
	r := m.do(t, "POST", "/v1/pets", h, `{"name": "Rex"}`)
	if r.status != 201 || compact(r.json(t)) != `{"id":7,"name":"Rex"}` || r.header.Get("Location") == "" {
		t.Errorf("rex: %d %s %v", r.status, r.body, r.header)
	}
	h["Prefer"] = "example=echo"
	r = m.do(t, "POST", "/v1/pets", h, `{"name": "Fido"}`)
	if r.status != 201 || compact(r.json(t)) != `{"id":8,"name":"Fido"}` || r.header.Get("X-Echo") != "made Fido" {
		t.Errorf("echo: %d %s %v", r.status, r.body, r.header)
	}
	delete(h, "Prefer")
	r = m.do(t, "POST", "/v1/pets", h, `{"name": "Tom"}`)
	if r.status != 201 || compact(r.json(t)) != `{"id":8,"name":"Tom"}` {
		t.Errorf("echo by its matcher: %d %s", r.status, r.body)
	}
}

// External example files match on method, path and headers, add their
// headers and delay, and a transient one answers once.
func TestExternalExamples(t *testing.T) {
	m := petsMock(t)
	start := time.Now()
	r := m.do(t, "GET", "/v1/pets/42", map[string]string{"X-Trace": "t1"}, "")
	if r.status != 200 || compact(r.json(t)) != `{"id":42,"name":"Answer"}` || r.header.Get("X-Source") != "file" {
		t.Errorf("pet-42: %d %s %v", r.status, r.body, r.header)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("answered in %s, before the example's 150 ms delay", d)
	}
	if r := m.do(t, "GET", "/v1/pets/42", nil, ""); r.header.Get("X-Source") == "file" {
		t.Errorf("pet-42 without its header matched: %s", r.body)
	}
	if r := m.do(t, "GET", "/v1/pets/43", nil, ""); compact(r.json(t)) != `{"id":43,"name":"Once"}` {
		t.Errorf("first /pets/43: %s", r.body)
	}
	if r := m.do(t, "GET", "/v1/pets/43", nil, ""); compact(r.json(t)) == `{"id":43,"name":"Once"}` {
		t.Errorf("the transient example answered twice")
	}
	if !strings.Contains(m.logs.String(), `"example":"pet-42"`) || !strings.Contains(m.logs.String(), `"operation":"GET /pets/{petId}"`) {
		t.Errorf("log lines lack the operation and example:\n%s", m.logs.String())
	}
}

// Expectations added at run time answer the requests they match before
// the spec's examples, and are cleared by DELETE.
func TestExpectations(t *testing.T) {
	m := petsMock(t)
	exp := `{"http-request": {"method": "GET", "path": "/pets/1"}, "http-response": {"status": 200, "body": {"id": 1, "name": "Scenario"}}}`
	r := m.do(t, "POST", ReservedPrefix+"expectations", map[string]string{"Content-Type": "application/json"}, exp)
	if r.status != 201 {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	if r := m.do(t, "GET", "/v1/pets/1", nil, ""); compact(r.json(t)) != `{"id":1,"name":"Scenario"}` {
		t.Errorf("with the expectation: %s", r.body)
	}
	if r := m.do(t, "DELETE", ReservedPrefix+"expectations", nil, ""); r.status != 204 {
		t.Errorf("DELETE: %d", r.status)
	}
	if r := m.do(t, "GET", "/v1/pets/1", nil, ""); compact(r.json(t)) != `{"id":1,"name":"Tom"}` {
		t.Errorf("after DELETE: %s", r.body)
	}
	r = m.do(t, "POST", ReservedPrefix+"expectations", nil, "{\n  \"http-request\": {\"method\": \"GET\", \"path\": \"/nowhere\"},\n  \"http-response\": {\"status\": 200}\n}")
	p := r.problem(t, 400, kindBadRequest)
	if p.Line != 2 || !strings.Contains(p.Detail, "GET /nowhere matches no operation") {
		t.Errorf("problem %+v", p)
	}
	// An expectation that breaks the spec would never answer: refused,
	// with each problem and where it is written.
	bad := "{\n  \"http-request\": {\"method\": \"POST\", \"path\": \"/pets\", \"body\": {\"name\": 7}},\n" +
		"  \"http-response\": {\"status\": 201, \"headers\": {\"Location\": \"/pets/1\"}, \"body\": {\"id\": \"one\", \"name\": \"Rex\"}}\n}"
	r = m.do(t, "POST", ReservedPrefix+"expectations", map[string]string{"Content-Type": "application/json"}, bad)
	p = r.problem(t, 400, kindBadRequest)
	if p.Line != 2 || len(p.Errors) != 2 || p.Errors[0].Path != "$.http-request.body.name" || p.Errors[1].Path != "$.http-response.body.id" ||
		!strings.Contains(p.Detail, "the expectation breaks testdata/pets.yaml (POST /pets)") {
		t.Errorf("problem %+v", p)
	}
	if r := m.do(t, "GET", ReservedPrefix+"expectations", nil, ""); string(r.body) != "[]\n" {
		t.Errorf("the refused expectation was kept: %s", r.body)
	}
	// An undeclared 4xx is allowed, as in example files.
	teapot := `{"http-request": {"method": "GET", "path": "/pets/5"}, "http-response": {"status": 418, "body": {"short": "and stout"}}}`
	if r := m.do(t, "POST", ReservedPrefix+"expectations", map[string]string{"Content-Type": "application/json"}, teapot); r.status != 201 {
		t.Errorf("an undeclared 4xx: %d %s", r.status, r.body)
	}
	m.do(t, "PUT", ReservedPrefix+"expectations", nil, "").problem(t, 405, kindMethodNotAllowed)
	m.do(t, "GET", ReservedPrefix+"nothing", nil, "").problem(t, 404, kindNotFound)
}

// A body beyond the limit is refused with 413 before it is read.
func TestBodyTooLarge(t *testing.T) {
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, MaxBodySize: 1 << 20})
	req, _ := http.NewRequest("POST", m.url+"/v1/pets", io.LimitReader(zeros{}, 100<<20))
	req.ContentLength = 100 << 20
	req.Header.Set("Content-Type", "application/json")
	resp, body := exchangetest.Send(t, req)
	r := response{status: resp.StatusCode, header: resp.Header, body: body}
	if p := r.problem(t, 413, kindTooLarge); !strings.Contains(p.Detail, "1 MiB limit") {
		t.Errorf("detail %q", p.Detail)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// A spec that fails to load is an error naming its file, line and column;
// so is a malformed example file.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	os.WriteFile(broken, []byte("openapi: 3.1.0\ninfo: [unclosed\n"), 0o644)
	exDir := filepath.Join(dir, "ex")
	os.MkdirAll(exDir, 0o755)
	os.WriteFile(filepath.Join(exDir, "bad.json"), []byte("{\n  \"http-request\": {\"method\": \"GET\", \"path\": \"/pets\"},\n  \"http-response\": {\"status\": \"ok\"}\n}\n"), 0o644)
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"unparseable spec", Options{Specs: []SpecSource{{Path: broken}}}, broken + ":2:1: invalid YAML"},
		{"missing spec", Options{Specs: []SpecSource{{Path: filepath.Join(dir, "none.yaml")}}}, "none.yaml: no such file"},
		{"malformed example", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, Examples: []string{exDir}},
			filepath.Join(exDir, "bad.json") + ":3:31: status must be an integer such as 200, found a string"},
		{"claimed twice", Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}, {Path: "testdata/other.yaml"}}},
			"testdata/other.yaml:7:5: GET /v1/pets is also served by testdata/pets.yaml (testdata/pets.yaml:9:5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.opts)
			var le *LoadError
			if !errors.As(err, &le) && tt.name != "missing spec" && tt.name != "unparseable spec" {
				t.Fatalf("error %v (%T), want a *LoadError", err, err)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	// Under prefixes of their own, the two specs serve together.
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}, {Path: "testdata/other.yaml", Prefix: "/other"}}})
	if r := m.do(t, "GET", "/other/pets", nil, ""); r.status != 200 {
		t.Errorf("GET /other/pets: %d %s", r.status, r.body)
	}
	addrs := m.Addresses("http://h")
	if len(addrs) != 2 || addrs[0].URL != "http://h/v1" || addrs[1].URL != "http://h/other" {
		t.Errorf("addresses %+v", addrs)
	}
}

// rewrite replaces a file whole, as an editor that saves by renaming
// does (a reader sees the old or the new file, never a part of it), and
// moves its modification time on by a second, so that the change shows
// on file systems whose times are coarse.
func rewrite(t testing.TB, path string, data []byte) {
	t.Helper()
	old, err := os.Stat(path)
	tmp := path + ".tmp"
	if werr := os.WriteFile(tmp, data, 0o644); werr != nil {
		t.Fatal(werr)
	}
	if err == nil {
		later := old.ModTime().Add(time.Second)
		if cerr := os.Chtimes(tmp, later, later); cerr != nil {
			t.Fatal(cerr)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// eventually waits until cond holds, polling; the test fails after 10 s.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A changed spec is swapped in; one that no longer loads leaves the last
// good one serving, and the health endpoint says so.
func TestHotReload(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "api.yaml")
	write := func(title string) {
		spec := "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /hello:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              example: {greeting: " + title + "}\n"
		rewrite(t, p, []byte(spec))
	}
	write("one")
	m := start(t, Options{Specs: []SpecSource{{Path: p}}, WatchInterval: 20 * time.Millisecond})
	if r := m.do(t, "GET", "/hello", nil, ""); compact(r.json(t)) != `{"greeting":"one"}` {
		t.Fatalf("before: %s", r.body)
	}
	write("two")
	eventually(t, "the reload", func() bool { return compact(m.do(t, "GET", "/hello", nil, "").json(t)) == `{"greeting":"two"}` })
	rewrite(t, p, []byte("openapi: 3.1.0\npaths: [broken\n"))
	eventually(t, "the failed reload", func() bool { return strings.Contains(m.logs.String(), "reload failed") })
	if r := m.do(t, "GET", "/hello", nil, ""); compact(r.json(t)) != `{"greeting":"two"}` {
		t.Errorf("after a failed reload: %s", r.body)
	}
	var h Health
	json.Unmarshal(m.do(t, "GET", ReservedPrefix+"health", nil, "").body, &h)
	if h.Status != "warn" || !strings.Contains(h.Output, "api.yaml:2:") || h.Reloads != 1 || h.ReloadErrors != 1 {
		t.Errorf("health %+v", h)
	}
}

// The stub-usage report counts each operation's and example's hits.
func TestUsageReport(t *testing.T) {
	m := petsMock(t)
	m.do(t, "GET", "/v1/pets/1", nil, "")
	m.do(t, "GET", "/v1/pets/1", nil, "")
	m.do(t, "GET", "/v1/nothing", nil, "")
	rep := m.Usage()
	if rep.Summary.Operations != 5 || rep.Summary.OperationsHit != 1 || rep.Unrouted != 1 {
		t.Errorf("summary %+v, unrouted %d", rep.Summary, rep.Unrouted)
	}
	for _, op := range rep.Operations {
		if op.Path != "/pets/{petId}" || op.Method != "GET" {
			continue
		}
		if op.Hits != 2 || op.Examples[0].Name != "pet-42" {
			t.Errorf("GET /pets/{petId}: %+v", op)
		}
		for _, e := range op.Examples {
			if (e.Name == "cat") != (e.Hits == 2) {
				t.Errorf("example %s hit %d times", e.Name, e.Hits)
			}
		}
	}
	dir := t.TempDir()
	files, err := m.WriteUsage(dir, "test")
	if err != nil || len(files) != 2 {
		t.Fatalf("WriteUsage: %v %v", files, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, UsageCTRFFile))
	if errs := schematest.Complaints(t, data, "../../shared/ctrf/ctrf.schema.json"); errs != nil {
		t.Errorf("the stub-usage CTRF does not match the CTRF schema:\n%s", strings.Join(errs, "\n"))
	}
	var ctrf struct {
		Results struct {
			Summary struct{ Tests, Passed, Skipped int }
			Tests   []struct {
				Name, Status string
				Extra        struct {
					Hits     int
					Examples []struct {
						Name string
						Hits int
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &ctrf); err != nil || ctrf.Results.Summary.Tests != 5 || ctrf.Results.Summary.Passed != 1 || ctrf.Results.Summary.Skipped != 4 {
		t.Errorf("CTRF %+v (%v)", ctrf.Results.Summary, err)
	}
	for _, ts := range ctrf.Results.Tests {
		if ts.Name == "GET /pets/{petId}" && (ts.Status != "passed" || ts.Extra.Hits != 2) {
			t.Errorf("CTRF test %+v", ts)
		}
	}
	if !strings.Contains(string(data), `"coverageMetrics"`) && !strings.Contains(string(data), `"coveredOperations"`) {
		t.Errorf("the CTRF report has no coverage metrics:\n%s", data)
	}
	// The JSON report is the usage as read, indented by two spaces.
	data, _ = os.ReadFile(filepath.Join(dir, UsageJSONFile))
	var usage UsageReport
	if err := json.Unmarshal(data, &usage); err != nil || usage.Summary != rep.Summary || !strings.HasPrefix(string(data), "{\n  \"") {
		t.Errorf("stub-usage JSON (%v):\n%s", err, data)
	}
}

// A thousand connections at once get their answers and the mock goes on.
func TestManyConnections(t *testing.T) {
	m := petsMock(t)
	const n = 1000
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.DialTimeout("tcp", strings.TrimPrefix(m.url, "http://"), 10*time.Second)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			io.WriteString(c, "GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			b, err := io.ReadAll(c)
			if err != nil || !bytes.HasPrefix(b, []byte("HTTP/1.1 200")) {
				errs <- errors.New("bad answer: " + string(b) + " " + errString(err))
			}
		}()
	}
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed == 0 {
			t.Errorf("first failure: %v", err)
		}
		failed++
	}
	if failed > 0 {
		t.Errorf("%d of %d connections failed", failed, n)
	}
	if r := m.do(t, "GET", ReservedPrefix+"health", nil, ""); r.status != 200 {
		t.Errorf("health after the burst: %d", r.status)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
