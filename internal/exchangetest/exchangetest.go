// Package exchangetest sends a test's request to a server on loopback and
// reads the whole answer, so that the test asserts on status, headers and
// body. Only tests import it.
package exchangetest

import (
	"io"
	"net/http"
	"testing"
)

// Send sends req with http.DefaultClient and reads the answer's body to
// its end; it fails the test when the request cannot be sent or its
// answer read.
func Send(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", req.Method, req.URL, err)
	}
	return resp, body
}
