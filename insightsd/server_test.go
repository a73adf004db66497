package insightsd

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/internal/exchangetest"
)

// clock is a test clock that moves a second per reading, so that
// submissions are ordered.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

func newServer(t *testing.T, dir, token string) (*Server, *httptest.Server) {
	t.Helper()
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	srv, err := New(Options{Dir: dir, Token: token, MaxBodySize: 1 << 20, Version: "test", Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(conform(t, srv.Handler()))
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return srv, ts
}

func submission(id, repo, branch, kind string, results ...insights.SpecResult) *insights.Submission {
	return &insights.Submission{SchemaVersion: 1, ID: id, Command: "test", Kind: kind,
		Tool: insights.Tool{Name: "specgate", Version: "test"},
		CI:   insights.CI{RepoID: repo, Branch: branch, Commit: "c-" + id, BuildID: "b-" + id}, Results: append([]insights.SpecResult{}, results...)}
}

func specResult(spec, status string, used ...string) insights.SpecResult {
	return insights.SpecResult{Spec: insights.SpecRef{ID: spec, Path: spec}, Status: status, UsedOperations: used}
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) problem(t *testing.T) (kind, detail string) {
	t.Helper()
	if ct := a.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json (body %s)", ct, a.body)
	}
	var p struct{ Type, Detail string }
	if err := json.Unmarshal(a.body, &p); err != nil {
		t.Fatal(err)
	}
	return p.Type[strings.LastIndexByte(p.Type, '#')+1:], p.Detail
}

func do(t *testing.T, method, url string, body []byte, header map[string]string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, data := exchangetest.Send(t, req)
	return answer{resp.StatusCode, resp.Header, data}
}

var jsonHeader = map[string]string{"Content-Type": "application/json"}

func submit(t *testing.T, ts *httptest.Server, s *insights.Submission) answer {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, "POST", ts.URL+"/v1/submissions", data, jsonHeader)
}

func results(t *testing.T, a answer) []insights.Result {
	t.Helper()
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	var rs insights.Results
	if err := json.Unmarshal(a.body, &rs); err != nil {
		t.Fatal(err)
	}
	return rs.Results
}

func summary(rs []insights.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s %s %s %s %s", r.CI.RepoID, r.Spec.ID, r.Kind, r.Status, r.SubmissionID))
	}
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

func TestSubmitAndQuery(t *testing.T) {
	dir := t.TempDir()
	_, ts := newServer(t, dir, "")
	for _, s := range []*insights.Submission{
		submission("orders-run-1", "acme/orders", "main", "contract", specResult("specs/orders.yaml", "passed")),
		submission("orders-run-2", "acme/orders", "feature", "contract", specResult("specs/orders.yaml", "failed"), specResult("specs/pets.yaml", "passed")),
		submission("web-mock-01", "acme/web", "main", "stub-usage", specResult("specs/orders.yaml", "passed", "GET /orders", "POST /orders")),
		submission("web-mock-02", "acme/web", "main", "stub-usage", specResult("specs/orders.yaml", "passed", "GET /orders")),
		submission("billing-mock", "acme/billing", "main", "stub-usage", specResult("specs/orders.yaml", "passed", "POST /orders")),
	} {
		a := submit(t, ts, s)
		if a.status != http.StatusCreated {
			t.Fatalf("%s: status %d: %s", s.ID, a.status, a.body)
		}
		if loc := a.header.Get("Location"); loc != "/v1/submissions/"+s.ID {
			t.Errorf("Location %q", loc)
		}
	}

	equal(t, "latest", summary(results(t, do(t, "GET", ts.URL+"/v1/results/latest", nil, nil))), []string{
		"acme/billing specs/orders.yaml stub-usage passed billing-mock",
		"acme/orders specs/orders.yaml contract failed orders-run-2",
		"acme/orders specs/pets.yaml contract passed orders-run-2",
		"acme/web specs/orders.yaml stub-usage passed web-mock-02",
	})
	equal(t, "latest on main", summary(results(t, do(t, "GET", ts.URL+"/v1/results/latest?repoId=acme/orders&branch=main", nil, nil))), []string{
		"acme/orders specs/orders.yaml contract passed orders-run-1",
	})
	equal(t, "history", summary(results(t, do(t, "GET", ts.URL+"/v1/results/history?spec=specs/orders.yaml&kind=contract", nil, nil))), []string{
		"acme/orders specs/orders.yaml contract failed orders-run-2",
		"acme/orders specs/orders.yaml contract passed orders-run-1",
	})
	equal(t, "history limited", summary(results(t, do(t, "GET", ts.URL+"/v1/results/history?spec=specs/orders.yaml&limit=1", nil, nil))), []string{
		"acme/billing specs/orders.yaml stub-usage passed billing-mock",
	})

	// Consumers come from each repository's latest mock run: web's second
	// run no longer calls POST /orders.
	consumers := func(query string) []string {
		a := do(t, "GET", ts.URL+"/v1/consumers?"+query, nil, nil)
		if a.status != 200 {
			t.Fatalf("status %d: %s", a.status, a.body)
		}
		var c insights.Consumers
		if err := json.Unmarshal(a.body, &c); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, op := range c.Operations {
			var names []string
			for _, cs := range op.Consumers {
				names = append(names, cs.RepoID+"@"+cs.SubmissionID)
			}
			out = append(out, op.Operation+": "+strings.Join(names, " "))
		}
		return out
	}
	equal(t, "consumers asked", consumers("spec=specs/orders.yaml&operation=POST+/orders&operation=GET+/orders&operation=DELETE+/orders"), []string{
		"POST /orders: acme/billing@billing-mock",
		"GET /orders: acme/web@web-mock-02",
		"DELETE /orders: ",
	})
	equal(t, "consumers of every operation", consumers("spec=specs/orders.yaml"), []string{
		"GET /orders: acme/web@web-mock-02",
		"POST /orders: acme/billing@billing-mock",
	})
	equal(t, "consumers of another spec", consumers("spec=specs/pets.yaml&operation=get+/pets"), []string{"get /pets: "})

	a := do(t, "GET", ts.URL+"/v1/submissions/web-mock-01", nil, nil)
	var got insights.Submission
	if err := json.Unmarshal(a.body, &got); err != nil || got.ID != "web-mock-01" || got.CI.RepoID != "acme/web" {
		t.Errorf("stored submission: %v %+v", err, got)
	}

	// A restarted service answers the same from its folder.
	_, ts2 := newServer(t, dir, "")
	equal(t, "latest after a restart", summary(results(t, do(t, "GET", ts2.URL+"/v1/results/latest?kind=stub-usage", nil, nil))), []string{
		"acme/billing specs/orders.yaml stub-usage passed billing-mock",
		"acme/web specs/orders.yaml stub-usage passed web-mock-02",
	})
}

func TestDuplicateSubmission(t *testing.T) {
	srv, ts := newServer(t, t.TempDir(), "")
	s := submission("retried-1", "acme/orders", "main", "contract", specResult("a.yaml", "passed"))
	first := submit(t, ts, s)
	second := submit(t, ts, s)
	if first.status != http.StatusCreated || second.status != http.StatusCreated {
		t.Fatalf("statuses %d, %d; want 201, 201", first.status, second.status)
	}
	if first.header.Get("Idempotent-Replayed") != "" || second.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("Idempotent-Replayed %q, %q", first.header.Get("Idempotent-Replayed"), second.header.Get("Idempotent-Replayed"))
	}
	var r1, r2 insights.Receipt
	json.Unmarshal(first.body, &r1)
	json.Unmarshal(second.body, &r2)
	if r1.Duplicate || !r2.Duplicate || !r1.ReceivedAt.Equal(r2.ReceivedAt) {
		t.Errorf("receipts %+v, %+v", r1, r2)
	}
	if n := srv.Store().Count(); n != 1 {
		t.Errorf("%d submissions stored, want 1", n)
	}

	// Other content under the same id is a conflict, not a replay: the
	// first content stays.
	other := submission("retried-1", "acme/orders", "main", "contract", specResult("a.yaml", "failed"))
	conflict := submit(t, ts, other)
	if conflict.status != http.StatusConflict {
		t.Fatalf("other content under a used id: %d %s; want 409", conflict.status, conflict.body)
	}
	if kind, detail := conflict.problem(t); kind != "conflict" || detail != `submission "retried-1" exists with other content: an id names one submission; send other content under another id` {
		t.Errorf("problem %s: %s", kind, detail)
	}
	if rs := results(t, do(t, "GET", ts.URL+"/v1/results/latest", nil, nil)); len(rs) != 1 || rs[0].Status != "passed" {
		t.Errorf("after the conflict: %v", summary(rs))
	}
}

// TestDuplicateAfterRestart: a restarted service still tells a replay from
// a conflict, for submissions it indexed and for ones it recovered from
// their files.
func TestDuplicateAfterRestart(t *testing.T) {
	dir := t.TempDir()
	_, ts := newServer(t, dir, "")
	s := submission("kept-0001", "acme/orders", "main", "contract", specResult("a.yaml", "passed"))
	if a := submit(t, ts, s); a.status != http.StatusCreated {
		t.Fatalf("%d %s", a.status, a.body)
	}
	ts.Close()
	// The index is lost: the submission is recovered from its file.
	for _, lose := range []bool{false, true} {
		if lose {
			if err := os.Remove(filepath.Join(dir, indexFile)); err != nil {
				t.Fatal(err)
			}
		}
		_, ts := newServer(t, dir, "")
		if a := submit(t, ts, s); a.status != http.StatusCreated || a.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("index lost %v: the same content: %d %v", lose, a.status, a.header)
		}
		other := submission("kept-0001", "acme/orders", "main", "contract", specResult("a.yaml", "failed"))
		if a := submit(t, ts, other); a.status != http.StatusConflict {
			t.Errorf("index lost %v: other content: %d %s", lose, a.status, a.body)
		}
	}
}

func gzipped(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func TestBadRequests(t *testing.T) {
	_, ts := newServer(t, t.TempDir(), "")
	good, _ := json.Marshal(submission("good-0001", "acme/orders", "main", "contract"))
	mutate := func(f func(s *insights.Submission)) []byte {
		s := submission("good-0002", "acme/orders", "main", "contract", specResult("a.yaml", "passed"))
		f(s)
		data, _ := json.Marshal(s)
		return data
	}
	bomb := gzipped(bytes.Repeat([]byte(" "), 2<<20)) // 2 MiB of spaces, a few KiB compressed
	for _, tc := range []struct {
		name   string
		method string
		path   string
		body   []byte
		header map[string]string
		status int
		kind   string
		detail string
	}{
		{"not JSON", "POST", "/v1/submissions", good, map[string]string{"Content-Type": "text/plain"}, 415, "unsupported-media-type", `a submission is application/json, not "text/plain"`},
		{"broken JSON", "POST", "/v1/submissions", []byte("{\n  \"id\": 1,,\n}"), jsonHeader, 400, "bad-request", "line 2, column 11: invalid character ','"},
		{"wrong type", "POST", "/v1/submissions", []byte(`{"schemaVersion": "1"}`), jsonHeader, 400, "bad-request", "schemaVersion is a JSON string, where a int goes"},
		{"unknown version", "POST", "/v1/submissions", mutate(func(s *insights.Submission) { s.SchemaVersion = 2 }), jsonHeader, 400, "bad-request", "schemaVersion 2 is not supported: this service reads 1"},
		{"id naming a path", "POST", "/v1/submissions", mutate(func(s *insights.Submission) { s.ID = "../../etc/passwd" }), jsonHeader, 400, "bad-request", `id "../../etc/passwd" must be 8 to 64 letters`},
		{"no repository", "POST", "/v1/submissions", mutate(func(s *insights.Submission) { s.CI.RepoID = "" }), jsonHeader, 400, "bad-request", "ci.repoId is required"},
		{"unknown kind", "POST", "/v1/submissions", mutate(func(s *insights.Submission) { s.Kind = "lint" }), jsonHeader, 400, "bad-request", `kind "lint" is not one of contract, stub-usage`},
		{"members missing", "POST", "/v1/submissions", []byte(`{"schemaVersion": 1, "id": "abcdefgh", "command": "test", "kind": "contract", "ci": {"repoId": "a"}, "results": null}`), jsonHeader, 400, "bad-request", "a submission needs tool, results, reports"},
		{"white space in a filter", "GET", "/v1/results/latest?repoId=acme+web", nil, nil, 400, "bad-request", `repoId "acme web" must not contain white space`},
		{"long spec", "GET", "/v1/consumers?spec=" + strings.Repeat("s", 2049), nil, nil, 400, "bad-request", "spec is longer than 2048 bytes"},
		{"result without spec", "POST", "/v1/submissions", mutate(func(s *insights.Submission) { s.Results[0].Spec.ID = "" }), jsonHeader, 400, "bad-request", "results[0].spec.id is required"},
		{"too large", "POST", "/v1/submissions", bytes.Repeat([]byte(" "), 2<<20), jsonHeader, 413, "request-too-large", "larger than the 1 MiB limit (--max-body-size)"},
		{"gzip bomb", "POST", "/v1/submissions", bomb, map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}, 413, "request-too-large", "1 MiB limit"},
		{"not gzip", "POST", "/v1/submissions", good, map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}, 400, "bad-request", "the body is not gzip"},
		{"brotli", "POST", "/v1/submissions", good, map[string]string{"Content-Type": "application/json", "Content-Encoding": "br"}, 415, "unsupported-media-type", `Content-Encoding "br" is not gzip or identity`},
		{"GET submissions", "GET", "/v1/submissions", nil, nil, 405, "method-not-allowed", "/v1/submissions does not take GET; it takes POST"},
		{"no such submission", "GET", "/v1/submissions/nothere01", nil, nil, 404, "not-found", `no submission "nothere01"`},
		{"not a submission id", "GET", "/v1/submissions/a.b", nil, nil, 400, "bad-request", `"a.b" is not a submission id`},
		{"no such endpoint", "GET", "/v2/results", nil, nil, 404, "not-found", "no such endpoint"},
		{"history without spec", "GET", "/v1/results/history", nil, nil, 400, "bad-request", "spec is required"},
		{"history limit", "GET", "/v1/results/history?spec=a&limit=0", nil, nil, 400, "bad-request", `limit "0" must be a whole number from 1 to 1000`},
		{"unknown kind asked", "GET", "/v1/results/latest?kind=lint", nil, nil, 400, "bad-request", `kind "lint" is not one of`},
		{"consumers without spec", "GET", "/v1/consumers?operation=GET+/a", nil, nil, 400, "bad-request", "spec is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := do(t, tc.method, ts.URL+tc.path, tc.body, tc.header)
			if a.status != tc.status {
				t.Fatalf("status %d, want %d: %s", a.status, tc.status, a.body)
			}
			kind, detail := a.problem(t)
			if kind != tc.kind || !strings.Contains(detail, tc.detail) {
				t.Errorf("problem %s %q, want %s containing %q", kind, detail, tc.kind, tc.detail)
			}
			if tc.status == 405 && a.header.Get("Allow") != "POST" {
				t.Errorf("Allow %q", a.header.Get("Allow"))
			}
		})
	}
}

func TestGzipSubmission(t *testing.T) {
	srv, ts := newServer(t, t.TempDir(), "")
	data, _ := json.Marshal(submission("zipped-01", "acme/orders", "main", "contract", specResult("a.yaml", "passed")))
	a := do(t, "POST", ts.URL+"/v1/submissions", gzipped(data), map[string]string{"Content-Type": "application/json; charset=utf-8", "Content-Encoding": "gzip"})
	if a.status != 201 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	if srv.Store().Count() != 1 {
		t.Error("not stored")
	}
}

func TestToken(t *testing.T) {
	_, ts := newServer(t, t.TempDir(), "s3cret-token")
	data, _ := json.Marshal(submission("tokened-1", "acme/orders", "main", "contract"))
	for _, tc := range []struct {
		name, auth string
		status     int
		detail     string
	}{
		{"none", "", 401, "this service requires a bearer token (SPECGATE_INSIGHTS_TOKEN on the client)"},
		{"wrong", "Bearer nope", 401, "the bearer token is not the one this service accepts"},
		{"basic", "Basic czNjcmV0LXRva2Vu", 401, "the bearer token is not the one this service accepts"},
		{"right", "Bearer s3cret-token", 201, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/json"}
			if tc.auth != "" {
				h["Authorization"] = tc.auth
			}
			a := do(t, "POST", ts.URL+"/v1/submissions", data, h)
			if a.status != tc.status {
				t.Fatalf("status %d, want %d: %s", a.status, tc.status, a.body)
			}
			if tc.status == 401 {
				if _, detail := a.problem(t); detail != tc.detail {
					t.Errorf("detail %q, want %q", detail, tc.detail)
				}
				if a.header.Get("WWW-Authenticate") == "" {
					t.Error("no WWW-Authenticate")
				}
			}
		})
	}
	// Reads need the token too; the health checks do not.
	if a := do(t, "GET", ts.URL+"/v1/results/latest", nil, nil); a.status != 401 {
		t.Errorf("latest without a token: %d", a.status)
	}
	a := do(t, "GET", ts.URL+"/health/info", nil, nil)
	var info Info
	if err := json.Unmarshal(a.body, &info); err != nil || a.status != 200 || !info.TokenRequired || info.Status != "pass" ||
		len(info.Checks["store"]) != 1 || info.Checks["store"][0].ObservedValue != 1 || a.header.Get("Content-Type") != "application/health+json" {
		t.Errorf("health/info %d %s", a.status, a.body)
	}
	if a := do(t, "GET", ts.URL+"/health", nil, nil); a.status != 200 || strings.TrimSpace(string(a.body)) != `{"status":"pass"}` {
		t.Errorf("health %d %s", a.status, a.body)
	}
}

// TestHealthFails: a store whose folder is gone fails the health checks.
func TestHealthFails(t *testing.T) {
	dir := t.TempDir()
	_, ts := newServer(t, dir, "")
	os.RemoveAll(filepath.Join(dir, "submissions"))
	if a := do(t, "GET", ts.URL+"/health", nil, nil); a.status != 503 || strings.TrimSpace(string(a.body)) != `{"status":"fail"}` {
		t.Errorf("health %d %s", a.status, a.body)
	}
	a := do(t, "GET", ts.URL+"/health/info", nil, nil)
	var info Info
	if err := json.Unmarshal(a.body, &info); err != nil || a.status != 503 || info.Status != "fail" || !strings.Contains(info.Checks["store"][0].Output, "no such file") {
		t.Errorf("health/info %d %s", a.status, a.body)
	}
}

// TestStoreRecovery: a crash between writing a submission and its index
// line, or in the middle of a line, loses nothing that was acknowledged.
func TestStoreRecovery(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"first-001", "second-02", "third-003"} {
		sub := submission(id, "acme/orders", "main", "contract", specResult("a.yaml", "passed"))
		raw, _ := json.Marshal(sub)
		if _, _, err := s.Add(sub, raw, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	index := filepath.Join(dir, indexFile)
	data, _ := os.ReadFile(index)
	lines := strings.SplitAfter(string(data), "\n")
	// The third submission's line is lost, and a fourth is torn halfway.
	torn := lines[0] + lines[1] + lines[2][:len(lines[2])/2]
	if err := os.WriteFile(index, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := s.Count(); n != 3 {
		t.Fatalf("%d submissions after recovery, want 3", n)
	}
	got := summary(s.History(Filter{Spec: "a.yaml"}, 10))
	equal(t, "history after recovery", got, []string{
		"acme/orders a.yaml contract passed third-003",
		"acme/orders a.yaml contract passed second-02",
		"acme/orders a.yaml contract passed first-001",
	})
	data, _ = os.ReadFile(index)
	if n := strings.Count(string(data), "\n"); n != 3 || !strings.HasSuffix(string(data), "\n") {
		t.Errorf("index has %d lines after recovery:\n%s", n, data)
	}
	// A corrupt line in the middle is an error that names it.
	os.WriteFile(index, []byte(lines[0]+"garbage\n"+lines[1]), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "line 2 is not an index record") {
		t.Errorf("corrupt index: %v", err)
	}
}

// TestJSONErrorsPlaced: a submission's JSON errors name the line and the
// column (in characters) where the offending byte or value starts, and a
// value of the wrong type names its member, however deep it is and
// whatever precedes it.
func TestJSONErrorsPlaced(t *testing.T) {
	_, ts := newServer(t, t.TempDir(), "")
	for _, tc := range []struct {
		name, body, detail, field string
	}{
		{"syntax", "{\n  \"id\": 1,,\n}", `line 2, column 11: invalid character ','`, ""},
		{"syntax after other characters", `{"tool": {"name": "é€"}, "id": "x" "y"}`, `line 1, column 36: invalid character '"' after object key:value pair`, ""},
		{"a string where a number goes", `{"schemaVersion": "1"}`, `line 1, column 19: schemaVersion is a JSON string, where a int goes`, "schemaVersion"},
		{"a long string", "{\"id\": \"x\",\n  \"schemaVersion\": \"a \\\"quoted\\\" é string\"}", `line 2, column 20: schemaVersion is a JSON string`, "schemaVersion"},
		{"an array where a number goes", "{\"ci\": {\n  \"repoId\": \"r\",\n  \"runAttempt\": [1, 2]}}", `line 3, column 17: ci.runAttempt is a JSON array`, "ci.runAttempt"},
		{"an object in a list of strings", "{\"results\": [{\"usedOperations\": [\"GET /a\",\n    {\"op\": 1}]}]}", `line 2, column 5: results.usedOperations is a JSON object`, "results.usedOperations"},
		{"a number in an object", `{"ci": {"metadata": {"a": "b", "c": 12.5}}}`, `line 1, column 37: ci.metadata is a JSON number`, "ci.metadata"},
		// A time that does not parse names its member and where its value starts.
		{"a start that is not a time", "{\"tool\": {\"name\": \"é\"},\n  \"start\": \"yesterday\"}", `line 2, column 12: start is "yesterday", where an RFC 3339 time goes`, "start"},
		{"a stop that is a number", `{"start": "2026-11-27T10:00:00Z", "stop": 12}`, `line 1, column 43: stop is 12, where an RFC 3339 time goes`, "stop"},
		{"a report's time", "{\"reports\": {\"specMetadata\": {\n  \"generatedAt\": \"2026-13-01T00:00:00Z\"}}}", `line 2, column 18: reports.specMetadata.generatedAt is "2026-13-01T00:00:00Z", where an RFC 3339 time goes (month out of range)`, "reports.specMetadata.generatedAt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := do(t, "POST", ts.URL+"/v1/submissions", []byte(tc.body), jsonHeader)
			if a.status != 400 {
				t.Fatalf("status %d, want 400: %s", a.status, a.body)
			}
			var p struct {
				Detail, Field string
				Line, Column  int
			}
			if err := json.Unmarshal(a.body, &p); err != nil {
				t.Fatal(err)
			}
			if want := "the body is not a submission: " + tc.detail; !strings.HasPrefix(p.Detail, want) {
				t.Errorf("detail %q, want it to start %q", p.Detail, want)
			}
			if place := fmt.Sprintf("line %d, column %d: ", p.Line, p.Column); !strings.HasPrefix(tc.detail, place) {
				t.Errorf("line %d and column %d, where the detail says %q", p.Line, p.Column, tc.detail)
			}
			if p.Field != tc.field {
				t.Errorf("field %q, want %q", p.Field, tc.field)
			}
		})
	}
}
