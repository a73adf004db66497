package arazzo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// A base URL without a path gets the operation's server prefix (the shop's
// /api); one with a path, a lone "/" included, replaces it, as a contract
// test's does: http://svc/ calls a service mounted at the root. The same
// holds for Options.BaseURL and a source's own Options.BaseURLs.
func TestBaseURLPath(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	c := checked(t, "testdata/shop.arazzo.yaml")
	for _, tc := range []struct{ base, want string }{
		{srv.URL, "/api/login"},
		{srv.URL + "/", "/login"},
		{srv.URL + "/v2", "/v2/login"},
		{srv.URL + "/v2/", "/v2/login"},
	} {
		for name, opts := range map[string]Options{"BaseURL": {BaseURL: tc.base}, "BaseURLs": {BaseURLs: map[string]string{"shop": tc.base}}} {
			opts.Inputs = map[string]map[string]any{"login": {"user": "alice"}}
			opts.Sleep = func(context.Context, time.Duration) error { return nil }
			r, err := NewRunner(c, opts)
			if err != nil {
				t.Fatal(err)
			}
			var sent []string
			r.Run(context.Background(), []string{"login"}, func(sr *StepResult) {
				for _, x := range sr.Exchanges {
					u, err := url.Parse(x.URL)
					if err != nil || x.Status != http.StatusNotFound {
						t.Errorf("exchange %s: status %d, %v", x.URL, x.Status, err)
						continue
					}
					sent = append(sent, u.Path)
				}
			})
			if len(sent) != 1 || sent[0] != tc.want {
				t.Errorf("%s %s: the step sent to %q, want %q", name, tc.base, sent, tc.want)
			}
		}
	}
}
