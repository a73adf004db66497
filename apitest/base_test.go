package apitest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// A base URL without a path gets the servers' prefix; one with a path,
// "/" included, replaces it, so that a service mounted at the root (or
// behind a gateway's route) is tested without editing the spec.
func TestBaseURLPath(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct{ base, want string }{
		{srv.URL, "/api/ping"},
		{srv.URL + "/", "/ping"},
		{srv.URL + "/v2", "/v2/ping"},
		{srv.URL + "/v2/", "/v2/ping"},
	} {
		got = nil
		c := runPlan(t, Options{Specs: []SpecSource{{Path: "testdata/servers/prefixed.yaml"}}, BaseURL: tc.base,
			Getenv: func(string) string { return "" }})
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("--testBaseURL %s: the service got %q, want %q", tc.base, got, tc.want)
		}
		if len(c.results) != 1 || c.results[0].Outcome != Passed {
			t.Errorf("--testBaseURL %s: %d results, %v", tc.base, len(c.results), c.results)
		}
	}
}
