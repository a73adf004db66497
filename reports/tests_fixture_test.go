package reports_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/reports"
)

// petsServer is a small service on loopback for the test-run fixtures: it
// answers GET /pets, GET /pets/{id} (404 for 0), POST /pets, a 429 on the
// first GET /slow and 200 after it, and a 500 with a wrong body on GET
// /broken.
func petsServer(t *testing.T) *httptest.Server {
	var slow atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pets", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":1,"name":"Rex <the dog> & co"}]`)
	})
	mux.HandleFunc("GET /pets/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.PathValue("id") == "0" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":404,"message":"no pet 0"}`)
			return
		}
		io.WriteString(w, `{"id":1,"name":"Rex"}`)
	})
	mux.HandleFunc("POST /pets", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		w.Write(body)
	})
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		if slow.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"id":"seven"}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// fixed is the start of the fixture run; exchanges and tests are placed
// after it at whole milliseconds, so that reports are the same on every
// run and CTRF (in milliseconds) reads them back exactly.
var fixed = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// exchange sends a real request to srv and records it as a report does:
// headers that vary from run to run (Date, the port in the URL) are
// replaced by fixed values.
func exchange(t *testing.T, srv *httptest.Server, attempt int, at time.Duration, method, path, contentType, body string) reports.Exchange {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	x := reports.Exchange{Attempt: attempt, Start: fixed.Add(at), Duration: 3 * time.Millisecond,
		Request: reports.Request{Method: method, URL: "http://pets.test" + path, Headers: req.Header.Clone(), Body: reports.BodyOf([]byte(body))}}
	resp, err := srv.Client().Do(req)
	if err != nil {
		x.Error = err.Error()
		return x
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	headers := resp.Header.Clone()
	headers.Set("Date", "Wed, 04 Mar 2026 05:06:07 GMT")
	x.Response = &reports.Response{Status: resp.StatusCode, Headers: headers, Body: reports.BodyOf(data)}
	return x
}

// testResults is a contract-test run of two specs against petsServer:
// passed tests, a failed one with problems, a 404 the spec does not
// declare, a retried one, one with fixtures, a skipped one, one whose
// request could not be sent and a second test of the first operation,
// with the coverage of each spec.
func testResults(t *testing.T) *reports.Run {
	srv := petsServer(t)
	key := func(path, method, reqType, status, respType string) reports.OperationKey {
		return reports.OperationKey{Path: path, Method: method, RequestType: reqType, Status: status, ResponseType: respType}
	}
	ms := time.Millisecond
	suite := []string{"pets.yaml"}
	tests := []reports.Test{
		{Name: "GET /pets -> 200", Suite: suite, Type: reports.Contract, Status: reports.Passed, Start: fixed, Duration: 5 * ms,
			File: "pets.yaml", Line: 7, Operation: key("/pets", "GET", "", "200", "application/json"),
			Outputs: []reports.Exchange{exchange(t, srv, 1, 0, "GET", "/pets", "", "")}},
		{Name: "POST /pets -> 201", Suite: suite, Type: reports.Contract, Status: reports.Passed, Start: fixed.Add(10 * ms), Duration: 4 * ms,
			File: "pets.yaml", Line: 20, Operation: key("/pets", "POST", "application/json", "201", "application/json"),
			Outputs: []reports.Exchange{exchange(t, srv, 1, 10*ms, "POST", "/pets", "application/json", `{"name":"Tom"}`)},
			Fixtures: []reports.Fixture{
				{Name: "create owner", Phase: "before", Status: reports.Passed, Start: fixed.Add(8 * ms), Duration: ms,
					Outputs: []reports.Exchange{exchange(t, srv, 0, 8*ms, "POST", "/pets", "application/json", `{"name":"owner"}`)}},
				{Name: "delete pet", Phase: "after", Status: reports.Failed, Start: fixed.Add(15 * ms), Duration: ms, Message: "expected 204, got 405",
					Outputs: []reports.Exchange{exchange(t, srv, 0, 15*ms, "DELETE", "/pets", "", "")}},
			}},
		{Name: "GET /pets/{id} -> 200", Suite: suite, Type: reports.Contract, Status: reports.Passed, Start: fixed.Add(20 * ms), Duration: 2 * ms,
			File: "pets.yaml", Line: 40, Operation: key("/pets/{id}", "GET", "", "200", "application/json"),
			Outputs: []reports.Exchange{exchange(t, srv, 1, 20*ms, "GET", "/pets/1", "", "")}},
		{Name: "GET /pets/{id} -> 404 (not declared)", Suite: suite, Type: reports.Contract, Status: reports.Failed, RawStatus: "status_code_conformance",
			Start: fixed.Add(30 * ms), Duration: 2 * ms, Message: "status_code_conformance: 404 is not a status GET /pets/{id} declares",
			File: "pets.yaml", Line: 40, Operation: key("/pets/{id}", "GET", "", "404", "application/json"),
			Outputs: []reports.Exchange{exchange(t, srv, 1, 30*ms, "GET", "/pets/0", "", "")},
			Extra:   map[string]any{"checks": []any{"status_code_conformance", "response_schema_conformance"}}},
		{Name: "GET /slow -> 200", Suite: []string{"slow.yaml"}, Type: reports.Contract, Status: reports.Passed, Start: fixed.Add(40 * ms), Duration: 12 * ms,
			File: "slow.yaml", Line: 5, Operation: key("/slow", "GET", "", "200", "text/plain"),
			Attempts: []reports.Attempt{{Attempt: 1, Status: reports.Failed, Start: fixed.Add(40 * ms), Duration: 3 * ms, Message: "429 Too Many Requests; retried after 0 s"}},
			Outputs:  []reports.Exchange{exchange(t, srv, 1, 40*ms, "GET", "/slow", "", ""), exchange(t, srv, 2, 48*ms, "GET", "/slow", "", "")}},
		{Name: "GET /broken -> 500", Suite: []string{"slow.yaml"}, Type: reports.Contract, Status: reports.Failed, RawStatus: "response_schema_conformance",
			Start: fixed.Add(60 * ms), Duration: 2 * ms, Message: "response_schema_conformance: the body of the 500 response does not match its schema",
			File: "slow.yaml", Line: 12, Operation: key("/broken", "GET", "", "500", "application/json"),
			Outputs:  []reports.Exchange{exchange(t, srv, 1, 60*ms, "GET", "/broken", "", "")},
			Problems: []reports.Problem{{In: "body", Path: "$.id", Keyword: "type", Message: "must be integer, found string", Schema: "slow.yaml:18:15"}}},
		{Name: "DELETE /slow -> 204", Suite: []string{"slow.yaml"}, Type: reports.Contract, Status: reports.Skipped, Message: "no example and --generate is off",
			File: "slow.yaml", Line: 8, Operation: key("/slow", "DELETE", "", "204", "")},
		{Name: "GET /down -> 200", Suite: []string{"slow.yaml"}, Type: reports.Contract, Status: reports.Failed, Errored: true, RawStatus: "error",
			Start: fixed.Add(70 * ms), Duration: ms, Message: "dial tcp 127.0.0.1:9: connection refused",
			File: "slow.yaml", Line: 30, Operation: key("/down", "GET", "", "200", "application/json"),
			Outputs: []reports.Exchange{{Attempt: 1, Start: fixed.Add(70 * ms), Duration: ms,
				Request: reports.Request{Method: "GET", URL: "http://127.0.0.1:9/down"}, Error: "dial tcp 127.0.0.1:9: connection refused"}}},
		// A second test of the first operation, last: reports group it with
		// the first.
		{Name: "GET /pets?limit=1 -> 200", Suite: suite, Type: reports.Contract, Status: reports.Passed, Start: fixed.Add(72 * ms), Duration: 2 * ms,
			File: "pets.yaml", Line: 7, Operation: key("/pets", "GET", "", "200", "application/json"),
			Outputs: []reports.Exchange{exchange(t, srv, 1, 72*ms, "GET", "/pets?limit=1", "", "")}},
	}
	coverage := []reports.Coverage{
		{Spec: "pets.yaml", Operations: []reports.CoverageRow{
			{OperationKey: key("/pets", "GET", "", "200", "application/json"), Status: reports.Covered, Tests: 2},
			{OperationKey: key("/pets", "POST", "application/json", "201", "application/json"), Status: reports.Covered, Tests: 1},
			{OperationKey: key("/pets", "POST", "application/xml", "201", "application/json"), Status: reports.NotCovered},
			{OperationKey: key("/pets/{id}", "GET", "", "200", "application/json"), Status: reports.Covered, Tests: 1},
			{OperationKey: key("/pets/{id}", "DELETE", "", "204", ""), Status: reports.NotTested},
			{OperationKey: key("/pets/{id}", "GET", "", "404", "application/json"), Status: reports.MissingInSpec, Tests: 1},
		}},
		{Spec: "slow.yaml", Operations: []reports.CoverageRow{
			{OperationKey: key("/slow", "GET", "", "200", "text/plain"), Status: reports.Covered, Tests: 1},
			{OperationKey: key("/slow", "DELETE", "", "204", ""), Status: reports.NotCovered, Tests: 1},
			{OperationKey: key("/broken", "GET", "", "500", "application/json"), Status: reports.Covered, Tests: 1},
			{OperationKey: key("/down", "GET", "", "200", "application/json"), Status: reports.NotCovered, Tests: 1},
		}},
	}
	return &reports.Run{Tool: reports.Tool{Name: "specgate", Version: "1.2.3"}, Kind: reports.Contract,
		Start: fixed, Elapsed: 75 * time.Millisecond, Tests: tests, Coverage: coverage}
}
