// Package insightstest runs specgate's insights service (insightsd) on
// loopback for the tests of its clients (the insights package, the CLI's
// send-report and ci), with a hook in front of it that may answer a
// request itself: a failure to retry, a slow or broken answer. Only tests
// import it.
package insightstest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/specgate/specgate/insightsd"
)

// Serve starts an insights service with opts behind a loopback server,
// both closed when the test ends. front sees each request first and
// answers it itself when it returns true; the service answers the rest.
func Serve(t testing.TB, opts insightsd.Options, front func(w http.ResponseWriter, r *http.Request) bool) (*insightsd.Server, *httptest.Server) {
	t.Helper()
	srv, err := insightsd.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !front(w, r) {
			srv.Handler().ServeHTTP(w, r)
		}
	}))
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return srv, ts
}
