package contract_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/specgate/specgate/contract"
)

// TestConcurrentChecks checks requests and responses from many goroutines
// at once on a fresh contract, so that schemas are compiled on first use
// concurrently (run with -race).
func TestConcurrentChecks(t *testing.T) {
	doc := loadFixture(t, "check-3.1.yaml")
	c := newContract(t, doc, contract.Options{})
	get := findOp(t, doc, "get", "/pets/{id}")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				req := &contract.Request{Method: "PUT", Path: "/pets/1", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"name":"Rex"}`)}
				if (g+i)%2 == 0 {
					req = &contract.Request{Method: "GET", Path: "/pets/x"}
				}
				res := c.CheckRequest(req)
				if want := map[bool]int{true: 400, false: 200}[req.Method == "GET"]; res.Status != want {
					t.Errorf("%s %s: %d, want %d: %v", req.Method, req.Path, res.Status, want, res.Problems)
					return
				}
				probs := c.CheckResponse(get, &contract.Response{Status: 200, Body: []byte(`{"id":1,"name":"Rex"}`),
					Header: http.Header{"Content-Type": {"application/json"}, "X-Rate-Limit": {"3"}}})
				if len(probs) != 0 {
					t.Error(probs)
					return
				}
			}
		}()
	}
	wg.Wait()
}
