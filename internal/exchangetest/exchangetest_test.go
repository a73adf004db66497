package exchangetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Send gives the answer's status, headers and whole body, and the server
// receives the request as written.
func TestSend(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Got", r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Sent"))
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, strings.Repeat(string(body), 3))
	}))
	defer ts.Close()
	req, _ := http.NewRequest("PUT", ts.URL+"/pets", strings.NewReader("ab"))
	req.Header.Set("X-Sent", "yes")
	resp, body := Send(t, req)
	if resp.StatusCode != http.StatusTeapot || resp.Header.Get("X-Got") != "PUT /pets yes" || string(body) != "ababab" {
		t.Errorf("answer %d %q %q", resp.StatusCode, resp.Header.Get("X-Got"), body)
	}
}
