package contract_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// needValidation skips a test whose expectations come from validating
// values against schemas, until the schema package validates.
func needValidation(t *testing.T) {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "probe.yaml",
		[]byte("openapi: 3.1.0\ninfo: {title: p, version: '1'}\npaths: {}\ncomponents: {schemas: {S: {type: integer}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	works := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		s, err := schema.NewSet(doc).Compile(doc.Root.Root.Get("components").Get("schemas").Get("S"), spec.Path{"components", "schemas", "S"})
		return err == nil && len(s.Validate("x", schema.Request)) > 0
	}
	if !works() {
		t.Skip("the schema package does not validate yet")
	}
}

// problemHead is what a test asserts of a problem whose message ends in
// the schema package's words: where, key, path, keyword, the start of the
// message (up to the path it names) and the place of the rule.
func problemHead(p contract.Problem) string {
	msg := p.Message
	if i := strings.Index(msg, ": "); i >= 0 {
		msg = msg[:i+2]
	}
	loc := ""
	if p.Schema.File != nil {
		loc = fmt.Sprintf(" (%s:%d:%d)", p.Schema.File.Name, p.Schema.Range.Start.Line, p.Schema.Range.Start.Col)
	}
	return fmt.Sprintf("%s %q %s %s: %s…%s", p.In, p.Key, p.JSONPath(), p.Keyword, msg, loc)
}

// TestRequestStatusOrder answers a request with several faults by the
// first of Prism's order: 404, 405, 401, 415, 406, then 400/422.
func TestRequestStatusOrder(t *testing.T) {
	c := newContract(t, loadFixture(t, "check-3.1.yaml"), contract.Options{})
	json := http.Header{"Content-Type": {"application/json"}}
	cases := []struct {
		name   string
		req    contract.Request
		status int
		in     []contract.In
		allow  string
	}{
		{"no route", contract.Request{Method: "GET", Path: "/cats"}, 404, []contract.In{contract.InPath}, ""},
		{"method", contract.Request{Method: "POST", Path: "/pets/1"}, 405, []contract.In{contract.InMethod}, "GET,PUT"},
		{"unsupported and not acceptable and bad parameter", contract.Request{Method: "PUT", Path: "/pets/x",
			Header: http.Header{"Content-Type": {"text/plain"}, "Accept": {"text/html"}}, Body: []byte("hi")},
			415, []contract.In{contract.InContentType, contract.InAccept, contract.InPath}, ""},
		{"not acceptable and bad parameter", contract.Request{Method: "GET", Path: "/pets/x", Header: http.Header{"Accept": {"image/png"}}},
			406, []contract.In{contract.InAccept, contract.InPath}, ""},
		{"acceptable through a wildcard", contract.Request{Method: "GET", Path: "/pets/1", Header: http.Header{"Accept": {"text/*"}}}, 200, nil, ""},
		{"bad parameter, 400 declared", contract.Request{Method: "PUT", Path: "/pets/x", Header: json, Body: []byte(`{"id":1,"name":"a"}`)},
			400, []contract.In{contract.InPath}, ""},
		{"bad body, 422 declared", contract.Request{Method: "POST", Path: "/maybe", Header: json, Body: []byte(`{`)},
			422, []contract.In{contract.InBody}, ""},
		{"bad body, 400 and 422 declared", contract.Request{Method: "PUT", Path: "/maybe", Header: json, Body: []byte(`{`)},
			400, []contract.In{contract.InBody}, ""},
		{"no declared error status", contract.Request{Method: "GET", Path: "/pets/x"}, 400, []contract.In{contract.InPath}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.CheckRequest(&tc.req)
			var in []contract.In
			for _, p := range res.Problems {
				in = append(in, p.In)
			}
			if res.Status != tc.status || fmt.Sprint(in) != fmt.Sprint(tc.in) || strings.Join(res.Allow, ",") != tc.allow {
				t.Errorf("status %d, problems in %v, allow %q; want %d %v %q\n%v", res.Status, in, res.Allow, tc.status, tc.in, tc.allow, res.Problems)
			}
		})
	}
}

// TestCheckResponse checks responses against their operation: status,
// headers, content type and presence of a body.
func TestCheckResponse(t *testing.T) {
	doc := loadFixture(t, "check-3.1.yaml")
	c := newContract(t, doc, contract.Options{})
	get := findOp(t, doc, "get", "/pets/{id}")
	put := findOp(t, doc, "put", "/pets/{id}")
	ok := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "X-Rate-Limit": {"5"}}
	cases := []struct {
		name string
		op   *spec.Operation
		res  contract.Response
		want []string
	}{
		{"valid", get, contract.Response{Status: 200, Header: ok, Body: []byte(`{"id":1,"name":"Rex"}`)}, nil},
		{"missing required header", get, contract.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"id":1,"name":"Rex"}`)}, []string{
			`header "X-Rate-Limit" $ required: response header X-Rate-Limit: missing, and required (testdata/check-3.1.yaml:12:13)`,
		}},
		{"header of the wrong type", get, contract.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}, "X-Rate-Limit": {"many"}}, Body: []byte(`{"id":1,"name":"Rex"}`)}, []string{
			`header "X-Rate-Limit" $ type: response header X-Rate-Limit: expected integer, got "many" (testdata/check-3.1.yaml:12:53)`,
		}},
		{"range status", get, contract.Response{Status: 201, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte("made")}, nil},
		{"range status, undeclared content type", get, contract.Response{Status: 202, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}, []string{
			`content-type "" $ undeclared: content-type: "application/json" is not declared; response 2XX declares text/plain (testdata/check-3.1.yaml:18:9)`,
		}},
		{"no content declared, none sent", get, contract.Response{Status: 404}, nil},
		{"no content declared, a body sent", get, contract.Response{Status: 404, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>gone</p>")}, []string{
			`body "" $ undeclared: response body: response 404 declares no content, got 11 bytes of text/html (testdata/check-3.1.yaml:22:9)`,
		}},
		{"default for an undeclared status", get, contract.Response{Status: 500, Header: http.Header{"Content-Type": {"application/problem+json"}}, Body: []byte(`{"title":"boom"}`)}, nil},
		{"status declared by no response", put, contract.Response{Status: 500}, []string{
			`status "" $ undeclared: status 500 is not declared by PUT /pets/{id} (declared: 200, 400) (testdata/check-3.1.yaml:33:7)`,
		}},
		{"no content type", get, contract.Response{Status: 200, Header: http.Header{"X-Rate-Limit": {"5"}}, Body: []byte(`{"id":1,"name":"Rex"}`)}, []string{
			`content-type "" $ required: content-type: the response has a body but no Content-Type; response 200 declares application/json (testdata/check-3.1.yaml:9:9)`,
		}},
		{"empty body where content is declared", get, contract.Response{Status: 200, Header: ok}, []string{
			`body "" $ required: response body is empty; response 200 declares application/json (testdata/check-3.1.yaml:9:9)`,
		}},
		{"HEAD has no body", get, contract.Response{Status: 200, Header: http.Header{"X-Rate-Limit": {"5"}}, Method: "HEAD"}, nil},
		{"malformed JSON", get, contract.Response{Status: 200, Header: ok, Body: []byte(`{"id":1,`)}, []string{
			`body "" $ syntax: response body: not application/json: line 1, column 9: unexpected end of JSON input (testdata/check-3.1.yaml:16:13)`,
		}},
		{"foreign operation", &spec.Operation{Method: "get", Path: "/x"}, contract.Response{Status: 200}, []string{
			`status "" $ undeclared: contract: GET /x is not an operation of testdata/check-3.1.yaml`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sameLines(t, problemLines(c.CheckResponse(tc.op, &tc.res)), tc.want)
		})
	}
}

// TestResponseBodiesValidated validates response bodies as responses:
// readOnly properties required, writeOnly ones not, a top-level null
// matching a nullable schema.
func TestResponseBodiesValidated(t *testing.T) {
	needValidation(t)
	doc := loadFixture(t, "check-3.1.yaml")
	c := newContract(t, doc, contract.Options{})
	get := findOp(t, doc, "get", "/pets/{id}")
	maybe := findOp(t, doc, "get", "/maybe")
	json := http.Header{"Content-Type": {"application/json"}, "X-Rate-Limit": {"5"}}
	cases := []struct {
		name string
		op   *spec.Operation
		body string
		want []string
	}{
		{"valid", get, `{"id":1,"name":"Rex"}`, nil},
		{"readOnly property required in a response", get, `{"name":"Rex"}`, []string{
			`body "" $ required: response body $: … (testdata/check-3.1.yaml:67:18)`,
		}},
		{"nested failure", get, `{"id":1,"name":""}`, []string{
			`body "" $.name minLength: response body $.name: … (testdata/check-3.1.yaml:70:30)`,
		}},
		{"null where the schema is nullable", maybe, `null`, nil},
		{"null where it is not", get, `null`, []string{
			`body "" $ type: response body $: … (testdata/check-3.1.yaml:66:7)`,
		}},
		{"header below its minimum", get, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := json
			body := []byte(tc.body)
			if tc.body == "" {
				h = http.Header{"Content-Type": {"application/json"}, "X-Rate-Limit": {"0"}}
				body = []byte(`{"id":1,"name":"Rex"}`)
				tc.want = []string{`header "X-Rate-Limit" $ minimum: response header X-Rate-Limit: … (testdata/check-3.1.yaml:12:68)`}
			}
			var got []string
			for _, p := range c.CheckResponse(tc.op, &contract.Response{Status: 200, Header: h, Body: body}) {
				got = append(got, problemHead(p))
			}
			sameLines(t, got, tc.want)
		})
	}
}

// TestRequestBodiesValidated validates request bodies as requests:
// readOnly properties not required.
func TestRequestBodiesValidated(t *testing.T) {
	needValidation(t)
	c := newContract(t, loadFixture(t, "check-3.1.yaml"), contract.Options{})
	json := http.Header{"Content-Type": {"application/json"}}
	res := c.CheckRequest(&contract.Request{Method: "PUT", Path: "/pets/1", Header: json, Body: []byte(`{"name":"Rex","secret":"s"}`)})
	if !res.OK() {
		t.Errorf("readOnly id required in a request: %v", res.Problems)
	}
	res = c.CheckRequest(&contract.Request{Method: "PUT", Path: "/pets/1", Header: json, Body: []byte(`{"name":5}`)})
	var got []string
	for _, p := range res.Problems {
		got = append(got, problemHead(p))
	}
	sameLines(t, got, []string{`body "" $.name type: request body $.name: … (testdata/check-3.1.yaml:70:16)`})
	if res.Status != http.StatusBadRequest {
		t.Errorf("status %d, want 400 (declared)", res.Status)
	}
}

// TestContentHeader reads a response header described by content as JSON
// and checks it against the content's schema.
func TestContentHeader(t *testing.T) {
	doc := loadFixture(t, "headers-3.1.yaml")
	c := newContract(t, doc, contract.Options{})
	op := findOp(t, doc, "get", "/content-header")
	check := func(v string) []string {
		return problemLines(c.CheckResponse(op, &contract.Response{Status: 200, Header: http.Header{"X-Filter": {v}}}))
	}
	sameLines(t, check(`{"q":"a"}`), nil)
	sameLines(t, check(`{"q":`), []string{
		`header "X-Filter" $ syntax: response header X-Filter: not application/json: line 1, column 6: unexpected end of JSON input (testdata/headers-3.1.yaml:10:13)`,
	})
	if doc.Views().Operations[len(doc.Views().Operations)-1].Responses[0].Headers[0].Schema != nil {
		t.Error("the views' header was changed")
	}
	needValidation(t)
	var got []string
	for _, p := range c.CheckResponse(op, &contract.Response{Status: 200, Header: http.Header{"X-Filter": {`{}`}}}) {
		got = append(got, problemHead(p))
	}
	sameLines(t, got, []string{`header "X-Filter" $ required: response header X-Filter: … (testdata/headers-3.1.yaml:14:53)`})
}
