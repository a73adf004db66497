package arazzo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// A base URL without a path gets the operation's server prefix (the shop's
// /api); one with a path, a lone "/" included, replaces it, as a contract
// test's does: http://svc/ calls a service mounted at the root.
func TestBaseURLPath(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	c := checked(t, "testdata/shop.arazzo.yaml")
	for _, tc := range []struct{ base, want string }{
		{srv.URL, "/api/login"},
		{srv.URL + "/", "/login"},
		{srv.URL + "/v2", "/v2/login"},
		{srv.URL + "/v2/", "/v2/login"},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		for _, opts := range []Options{{BaseURL: tc.base}, {BaseURLs: map[string]string{"shop": tc.base}}} {
			opts.Inputs = map[string]map[string]any{"login": {"user": "alice"}}
			opts.Sleep = func(context.Context, time.Duration) error { return nil }
			r, err := NewRunner(c, opts)
			if err != nil {
				t.Fatal(err)
			}
			r.Run(context.Background(), []string{"login"}, func(*StepResult) {})
		}
		mu.Lock()
		if len(got) != 2 || got[0] != tc.want || got[1] != tc.want {
			t.Errorf("base URL %s: the service got %q, want %q from BaseURL and from BaseURLs", tc.base, got, tc.want)
		}
		mu.Unlock()
	}
}
