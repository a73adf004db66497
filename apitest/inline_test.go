package apitest

import (
	"context"
	"net/http"
	"net/http/httptest"
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
		p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: path}}, BaseURL: srv.URL, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		c := &collect{}
		p.Run(context.Background(), c)
		return c
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
