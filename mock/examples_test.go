package mock

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

func shopMock(t testing.TB, opts Options) *testMock {
	opts.Specs = []SpecSource{{Path: "testdata/shop.yaml"}}
	return start(t, opts)
}

// checker checks the mock's answers against the spec it serves, as a
// client would.
type checker struct {
	c *contract.Contract
}

func newChecker(t testing.TB, path string) *checker {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := contract.New(doc, schema.NewSet(doc), contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &checker{c: c}
}

// valid fails the test when r is not a valid answer to method path.
func (k *checker) valid(t testing.TB, method, path string, r response) {
	t.Helper()
	rt, err := k.c.Route(method, path)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if probs := k.c.CheckResponse(rt.Op, &contract.Response{Status: r.status, Header: r.header, Body: r.body, Method: method}); len(probs) > 0 {
		t.Errorf("%s %s: the answer %d %s breaks the contract: %v", method, path, r.status, r.body, probs)
	}
}

// External examples match requests by typed values, in every place a
// request carries them, and answer in the statuses they are written for.
func TestExampleMatching(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	json := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name         string
		method, path string
		header       map[string]string
		body         string
		status       int
		want         string // the body, compacted when JSON
		wantHeader   string // a header the answer has, "Name: value"
	}{
		// "2" and "7" in the example are the integers the schema says.
		{"query and header typed", "GET", "/items?page=2&tag=a&tag=b", map[string]string{"X-Tenant": "7"}, "", 200, `[{"id":2,"name":"second page"}]`, ""},
		{"a value differs", "GET", "/items?page=2&tag=a&tag=c", map[string]string{"X-Tenant": "7"}, "", 200, "", ""},
		{"a 404 example for its request", "GET", "/items/999", nil, "", 404, `{"message":"no item 999"}`, ""},
		{"echo typed by the schema", "GET", "/items/77", nil, "", 200, `{"id":77,"name":"item 77"}`, ""},
		{"415 example", "POST", "/items", map[string]string{"Content-Type": "text/plain"}, "an item", 415, `{"message":"send JSON"}`, ""},
		{"415 example needs its body", "POST", "/items", map[string]string{"Content-Type": "text/plain"}, "other", 415, "", ""},
		{"405 example", "TRACE", "/items", nil, "", 405, `{"message":"no TRACE here"}`, "X-Why: no tracing"},
		{"partial completed", "POST", "/items", json, `{"id": 1, "name": "partial", "price": 3}`, 201, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.do(t, tt.method, tt.path, tt.header, tt.body)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.want != "" && compact(r.json(t)) != tt.want {
				t.Errorf("body %s, want %s", r.body, tt.want)
			}
			if tt.name == "a value differs" && strings.Contains(string(r.body), "second page") {
				t.Errorf("an example answered a request it does not match: %s", r.body)
			}
			if tt.wantHeader != "" {
				name, value, _ := strings.Cut(tt.wantHeader, ": ")
				if r.header.Get(name) != value {
					t.Errorf("header %s = %q, want %q", name, r.header.Get(name), value)
				}
			}
			if tt.status < 300 {
				k.valid(t, tt.method, tt.path, r)
			}
		})
	}
	// The partial example's response is completed from the schema and
	// keeps what it writes.
	r := m.do(t, "POST", "/items", json, `{"id": 1, "name": "partial"}`)
	v, _ := r.json(t).(map[string]any)
	if v["name"] != "partial" || v["id"] == nil {
		t.Errorf("partial answer %s, want the name echoed and an id generated", r.body)
	}
}

// An example that does not give a valid answer is skipped (logged with
// where it is written), and the mock answers from the schema instead.
func TestInvalidExampleSkipped(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	for range 3 {
		r := m.do(t, "GET", "/items/3", nil, "")
		if r.status != 200 || strings.Contains(string(r.body), "Broken") {
			t.Fatalf("answer %d %s, want a generated item", r.status, r.body)
		}
		k.valid(t, "GET", "/items/3", r)
	}
	logs := m.logs.String()
	if !strings.Contains(logs, `"example skipped: it does not give a valid answer"`) || !strings.Contains(logs, `"example":"broken"`) ||
		!strings.Contains(logs, "testdata/shop.yaml:") || !strings.Contains(logs, "$.id") {
		t.Errorf("the log does not say which example was skipped, where and why:\n%s", logs)
	}
	if n := strings.Count(logs, "example skipped"); n != 1 {
		t.Errorf("the skipped example was logged %d times, want once:\n%s", n, logs)
	}
	// Asked for by name, it is an internal error, not an invalid answer.
	r := m.do(t, "GET", "/items/3", map[string]string{"Prefer": "example=broken"}, "")
	r.problem(t, 500, kindInternal)
}

// A transient example whose matcher says times: 2 answers twice.
func TestTransientTimes(t *testing.T) {
	m := shopMock(t, Options{})
	h := map[string]string{"X-Once": "yes"}
	for i := range 3 {
		r := m.do(t, "GET", "/items/5", h, "")
		limited := strings.Contains(string(r.body), "limited")
		if limited != (i < 2) {
			t.Errorf("request %d: %s", i+1, r.body)
		}
	}
}

// Invalid parameters or body get 400, or 422 where the operation declares
// 422 and not 400, in the form the operation declares for that status.
func TestRefusalStatus(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	json := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name         string
		method, path string
		body         string
		status       int
		kind         string
		contentType  string // "" for no body
	}{
		{"declares 422 only", "POST", "/items", `{"id": "x", "name": "n"}`, 422, kindUnprocessable, "application/json"},
		{"declares 400 and 422", "PUT", "/items/1", `{"id": "x", "name": "n"}`, 400, kindBadRequest, ""},
		{"declares 400 only", "DELETE", "/items/x", "", 400, kindBadRequest, ""},
		{"declares neither", "PATCH", "/items/1", `{"name": 5}`, 400, kindBadRequest, "application/problem+json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := json
			if tt.body == "" {
				h = nil
			}
			r := m.do(t, tt.method, tt.path, h, tt.body)
			if tt.contentType == "application/problem+json" {
				if p := r.problem(t, tt.status, tt.kind); len(p.Errors) == 0 {
					t.Errorf("problem without errors: %+v", p)
				}
				return
			}
			if r.status != tt.status || r.header.Get("Content-Type") != tt.contentType || (tt.contentType == "") != (len(r.body) == 0) {
				t.Errorf("%d %q %s, want %d %q", r.status, r.header.Get("Content-Type"), r.body, tt.status, tt.contentType)
			}
			if got := r.header.Get(ProblemHeader); !strings.HasPrefix(got, tt.kind+": ") {
				t.Errorf("%s %q, want the kind %s", ProblemHeader, got, tt.kind)
			}
			k.valid(t, tt.method, tt.path, r)
		})
	}
}

// Answers in XML and in a form are written by the schema, and read back
// by the contract as valid.
func TestEncodedAnswers(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	for _, tt := range []struct{ path, accept, contentType, contains string }{
		{"/items/4", "application/xml", "application/xml", `<item id="`},
		{"/items", "application/xml", "application/xml", "<items>"},
		{"/forms", "", "application/x-www-form-urlencoded", "a="},
		// Without an Accept header, JSON is preferred among the media
		// types declared.
		{"/items/4", "", "application/json", `"id":`},
	} {
		h := map[string]string{}
		if tt.accept != "" {
			h["Accept"] = tt.accept
		}
		r := m.do(t, "GET", tt.path, h, "")
		if r.status != 200 || r.header.Get("Content-Type") != tt.contentType || !strings.Contains(string(r.body), tt.contains) {
			t.Errorf("GET %s: %d %s %s", tt.path, r.status, r.header.Get("Content-Type"), r.body)
		}
		k.valid(t, "GET", tt.path, r)
	}
}

// An XML answer is an XML document, a string schema's value written as
// the text of its root element (named by xml.name, else by the component
// the schema refers to, else root); an example written as a document is
// sent as it is when its schema reads it, and skipped when not.
func TestXMLAnswers(t *testing.T) {
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/xml.yaml"}}})
	k := newChecker(t, "testdata/xml.yaml")
	for _, tt := range []struct{ path, want string }{
		{"/text", "…<root>"},
		{"/metadata", "<MetadataDocument>the metadata</MetadataDocument>"},
		{"/pet", "<Pet><id>1</id><name>Tom</name></Pet>"},
		{"/bad-pet", "…<Pet><id>"},
		{"/count", "42"},
	} {
		r := m.do(t, "GET", tt.path, nil, "")
		body := strings.TrimPrefix(string(r.body), `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
		if part, ok := strings.CutPrefix(tt.want, "…"); r.status != 200 || ok && !strings.HasPrefix(body, part) || !ok && body != tt.want {
			t.Errorf("GET %s: %d %s, want %s", tt.path, r.status, r.body, tt.want)
		}
		k.valid(t, "GET", tt.path, r)
	}
	if logs := m.logs.String(); !strings.Contains(logs, "example skipped") || !strings.Contains(logs, "xml.yaml:") {
		t.Errorf("the invalid document was not reported:\n%s", logs)
	}
	for _, media := range []string{"multipart/form-data", "application/x-www-form-urlencoded", "application/xml", "application/octet-stream", "text/plain"} {
		path := "/no-schema?as=" + media
		r := m.do(t, "GET", path, map[string]string{"Accept": media}, "")
		if r.status != 200 || len(r.body) == 0 || !strings.HasPrefix(r.header.Get("Content-Type"), media) {
			t.Errorf("%s without a schema: %d %s %q", media, r.status, r.header.Get("Content-Type"), r.body)
		}
		k.valid(t, "GET", path, r)
	}
}

// The answer is in the declared media type that the Accept header
// matched, parameters and all.
func TestAcceptWithParameters(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	for accept, want := range map[string]string{
		"application/json;stream=watch": `application/json;stream=watch {"type":"ADDED"}`,
		"application/json":              `application/json {"kind":"List"}`,
		"":                              `application/json {"kind":"List"}`,
	} {
		r := m.do(t, "GET", "/events", map[string]string{"Accept": accept}, "")
		if got := r.header.Get("Content-Type") + " " + compact(r.json(t)); got != want {
			t.Errorf("Accept %q: %s, want %s", accept, got, want)
		}
		k.valid(t, "GET", "/events", r)
	}
}

// Operations of one path told apart by a query written into their paths
// answer the requests that have it.
func TestQueryInPath(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	for path, fields := range map[string]bool{"/templates/t1?full=true": true, "/templates/t1": false} {
		r := m.do(t, "GET", path, nil, "")
		if got, _ := r.json(t).(map[string]any); r.status != 200 || (got["fields"] != nil) != fields {
			t.Errorf("GET %s: %d %s", path, r.status, r.body)
		}
		k.valid(t, "GET", path, r)
	}
}

// A schema's example answers unless Prefer: dynamic=true asks for values
// built from its keywords.
func TestPreferDynamic(t *testing.T) {
	m := shopMock(t, Options{})
	k := newChecker(t, "testdata/shop.yaml")
	if r := m.do(t, "GET", "/quote", nil, ""); compact(r.json(t)) != `{"text":"carpe diem"}` {
		t.Errorf("without Prefer: %s, want the schema's example", r.body)
	}
	for _, prefer := range []string{"dynamic=true", "dynamic=true", "dynamic"} {
		r := m.do(t, "GET", "/quote", map[string]string{"Prefer": prefer}, "")
		k.valid(t, "GET", "/quote", r)
		if strings.Contains(string(r.body), "carpe diem") {
			t.Errorf("Prefer: %s: %s, want a value built from the schema's keywords", prefer, r.body)
		}
	}
}

// A generative mock answers from the schemas even where an example
// matches; one with strict examples answers only from examples.
func TestGenerativeAndStrictExamples(t *testing.T) {
	gen := shopMock(t, Options{Generative: true})
	r := gen.do(t, "GET", "/items/999", nil, "")
	if r.status != 200 {
		t.Errorf("generative: %d %s, want a generated 200", r.status, r.body)
	}
	strict := shopMock(t, Options{StrictExamples: true})
	if r := strict.do(t, "GET", "/items/999", nil, ""); r.status != 404 {
		t.Errorf("strict, an example's request: %d %s", r.status, r.body)
	}
	p := strict.do(t, "GET", "/items/12", nil, "").problem(t, http.StatusBadRequest, kindNoExample)
	if !strings.Contains(p.Detail, "no example matches the request") {
		t.Errorf("detail %q", p.Detail)
	}
}
