package apitest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// TestOneAcceptHeader: a request carries one Accept header, however an
// example or a declared header parameter spells its name (names are
// case-insensitive, RFC 9110 §5.1): an example's value wins over the
// response type the test expects, as the exact spelling does, and the
// expected response type over a generated parameter's value.
func TestOneAcceptHeader(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path] = append(seen[r.URL.Path], r.Header.Values("Accept")...)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := runPlan(t, Options{
		Specs:    []SpecSource{{Path: "testdata/accept/api.yaml"}},
		Examples: []string{"testdata/accept/examples"},
		BaseURL:  srv.URL,
	})
	for _, r := range c.results {
		if r.Outcome != Passed {
			t.Errorf("%s: %s %s %s", r.Test.Title(), r.Outcome, r.Message(), r.Error)
		}
	}
	for path, want := range map[string][]string{
		"/generated": {"application/json"},
		"/example":   {"application/*"},
		"/exact":     {"application/*"},
	} {
		if got := seen[path]; !slices.Equal(got, want) {
			t.Errorf("GET %s carried Accept %q, want %q", path, got, want)
		}
	}
}
