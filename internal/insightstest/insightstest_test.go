package insightstest

import (
	"net/http"
	"testing"

	"github.com/specgate/specgate/insightsd"
)

// The front answers what it takes; the service answers the rest, here its
// health endpoint.
func TestServe(t *testing.T) {
	_, ts := Serve(t, insightsd.Options{Dir: t.TempDir()}, func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/busy" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	for path, want := range map[string]int{"/busy": http.StatusServiceUnavailable, "/health": http.StatusOK} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
}
