package apitest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// An inline pair is compared by value only when its request and response
// examples share a name: the unnamed values (Swagger's x-example and
// response examples, OpenAPI's example) illustrate each place on its own,
// and a service that answers "a" to the documented request is right.
func TestDocumentationExamplesAreHeldToTheirSchema(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`"a"`))
	}))
	defer srv.Close()
	run := func(path string) *collect {
		return runPlan(t, Options{Specs: []SpecSource{{Path: path}}, BaseURL: srv.URL, Getenv: func(string) string { return "" }})
	}
	swagger := run("testdata/inline/fruit_swagger.yaml")
	if r := swagger.byTitle(t, "GET /fruit/{id} -> 200 application/json (example: GET /fruit/{id})"); r.Outcome != Passed {
		t.Errorf("the Swagger 2.0 documentation example: %s %s", r.Outcome, r.Message())
	}
	named := run("testdata/inline/fruit_named.yaml")
	r := named.byTitle(t, "GET /fruit/{id} -> 200 application/json (example: first)")
	if got := named.failedChecks(r); r.Outcome != Failed || len(got) != 1 || got[0] != "example_body_match" {
		t.Errorf("the named pair: %s %v, want example_body_match to fail (%s)", r.Outcome, got, r.Message())
	}
	if r := named.byTitle(t, "GET /fruit/{id} -> 200 application/json (example: GET /fruit/{id})"); r.Outcome != Passed {
		t.Errorf("the unnamed pair: %s %s", r.Outcome, r.Message())
	}
}

// An example of an operation told apart by a query written into its path
// key (formapi's /templates/{id}?full=true) sends that query once.
func TestExampleOfAPathWithAQuery(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("full") == "true" {
			w.Write([]byte(`{"id": "tpl_1", "fields": []}`))
			return
		}
		w.Write([]byte(`{"id": "tpl_1"}`))
	}))
	defer srv.Close()
	c := runPlan(t, Options{Specs: []SpecSource{{Path: "testdata/inline/path_query.yaml"}}, BaseURL: srv.URL, Getenv: func(string) string { return "" }})
	for _, title := range []string{
		"GET /templates/{id} -> 200 application/json (example: getTemplate)",
		"GET /templates/{id}?full=true -> 200 application/json (example: getFullTemplate)",
	} {
		if r := c.byTitle(t, title); r.Outcome != Passed {
			t.Errorf("%s: %s %s", title, r.Outcome, r.Message())
		}
	}
	slices.Sort(got)
	if want := []string{"/templates/tpl_1", "/templates/tpl_1?full=true"}; !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
}

// An XML example written as a whole document (Azure's $metadata) is
// compared with the answer as a document: the same elements, attributes
// and text, whatever the spacing between elements and the order of
// attributes; a document that differs fails, naming where.
func TestXMLDocumentExample(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		fails      string
	}{
		{"the same document, spaced otherwise", `<?xml version="1.0" encoding="utf-8"?>
<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
  <edmx:DataServices>
    <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="Policy">
      <EntityType Name="PolicyState"><Property Type="Edm.DateTimeOffset" Name="Timestamp"></Property></EntityType>
    </Schema>
  </edmx:DataServices>
</edmx:Edmx>`, ""},
		{"another attribute value", `<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices><Schema Namespace="Policy" xmlns="http://docs.oasis-open.org/odata/ns/edm"><EntityType Name="PolicyState"><Property Name="Timestamp" Type="Edm.String"/></EntityType></Schema></edmx:DataServices></edmx:Edmx>`,
			`/Edmx/DataServices/Schema/EntityType/Property: attribute Type: expected "Edm.DateTimeOffset", found "Edm.String"`},
		{"an element missing", `<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices><Schema Namespace="Policy" xmlns="http://docs.oasis-open.org/odata/ns/edm"><EntityType Name="PolicyState"/></Schema></edmx:DataServices></edmx:Edmx>`,
			`/Edmx/DataServices/Schema/EntityType: expected element Property, found the end of EntityType`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/xml")
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c := runPlan(t, Options{Specs: []SpecSource{{Path: "testdata/inline/xml_document.yaml"}}, BaseURL: srv.URL, Getenv: func(string) string { return "" }})
			r := c.byTitle(t, "GET /$metadata -> 200 application/xml (example: metadata)")
			if tt.fails == "" {
				if r.Outcome != Passed {
					t.Errorf("%s %s", r.Outcome, r.Message())
				}
				return
			}
			if got := c.failedChecks(r); r.Outcome != Failed || !slices.Equal(got, []string{"example_body_match"}) || !strings.Contains(r.Message(), tt.fails) {
				t.Errorf("%s %v %s, want example_body_match to fail with %q", r.Outcome, got, r.Message(), tt.fails)
			}
		})
	}
}
