package apitest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestExampleHeaderValues sends the headers of an example and of its
// fixture as OpenAPI serializes them: a declared header by its style or
// content, a fixture's list as comma-separated items and its object as
// JSON text, <, > and & as written; a null header is undefined and not
// sent at all, nor is a fixture's null query parameter.
func TestExampleHeaderValues(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var got []string
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range r.Header {
				if strings.HasPrefix(k, "X-") && !yield(k) {
					return
				}
			}
		}) {
			got = append(got, k+": "+strings.Join(r.Header.Values(k), " | "))
		}
		if r.URL.RawQuery != "" {
			got = append(got, "?"+r.URL.RawQuery)
		}
		seen[r.Method+" "+r.URL.Path] = got
		switch r.Method + " " + r.URL.Path {
		case "GET /seed":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"filter": {"q": "<a&b>"}}`))
		case "POST /seed":
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	defer srv.Close()
	c := runPlan(t, Options{
		Specs:    []SpecSource{{Path: "testdata/header_values/api.yaml"}},
		Examples: []string{"testdata/header_values/examples"},
		BaseURL:  srv.URL,
		Filter:   "PATH=/things",
	})
	r := c.byTitle(t, "GET /things -> 200 (example: things)")
	if r.Outcome != Passed {
		t.Fatalf("%s: %s %s", r.Outcome, r.Message(), r.Error)
	}
	for _, tc := range []struct {
		req  string
		want []string
	}{
		{"POST /seed", []string{`X-List: 1,<x>`, `X-Obj: {"q":"<a&b>"}`, `X-Text: <a&b>`, "?keep=%3Ca%26b%3E"}},
		{"GET /things", []string{`X-Filter: {"q":"<a&b>"}`, `X-Note: <x&y>`, `X-Tags: a,b`}},
	} {
		if got := seen[tc.req]; !slices.Equal(got, tc.want) {
			t.Errorf("%s carried\n%q\nwant\n%q", tc.req, got, tc.want)
		}
	}
}
