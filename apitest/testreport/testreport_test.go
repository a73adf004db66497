package testreport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/apitest/testreport"
	"github.com/specgate/specgate/internal/browsertest"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
)

const token = "tok-3f9a1c"

// pets is a small service for ../testdata/pets.yaml: right on most
// operations, a wrong body type on GET /pets/1, a 429 twice on GET
// /health before its answer.
func pets() http.Handler {
	var limited atomic.Int32
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, "/v1")
		if path != "/health" && r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case path == "/health":
			if limited.Add(1) <= 2 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "up")
		case path == "/pets" && r.Method == "GET":
			w.Header().Set("X-Total", "1")
			fmt.Fprint(w, `[{"id": 1, "name": "Rex"}]`)
		case path == "/pets":
			w.WriteHeader(http.StatusCreated)
			fmt.Fprint(w, `{"id": 2, "name": "Tom"}`)
		case path == "/pets/1":
			fmt.Fprint(w, `{"id": "1", "name": "Rex"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"code": 404, "message": "no pet %s"}`, strings.TrimPrefix(path, "/pets/"))
		}
	})
}

// writeReports runs the tests of ../testdata/pets.yaml against pets()
// and writes every report format to dir; it returns the run's summary.
func writeReports(t *testing.T, dir string) *apitest.Summary {
	t.Helper()
	srv := httptest.NewServer(pets())
	defer srv.Close()
	p, err := apitest.NewPlan(context.Background(), apitest.Options{
		Specs:   []apitest.SpecSource{{Path: filepath.Join("..", "testdata", "pets.yaml"), Name: "pets.yaml", Credentials: map[string]string{"bearer": token}}},
		BaseURL: srv.URL,
		Retry:   httpx.RetryPolicy{MaxRetries: 3, MaxWait: time.Second},
		Getenv:  func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	outputs := append(reports.DefaultOutputs(dir), reports.Output{Format: "summary", Path: filepath.Join(dir, "summary.txt")})
	s, err := reports.NewSink(outputs...)
	if err != nil {
		t.Fatal(err)
	}
	sink := testreport.NewSink(s, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: "test"}})
	sum := p.Run(context.Background(), sink)
	if err := sink.Err(); err != nil {
		t.Fatal(err)
	}
	return sum
}

func TestReportsOfARun(t *testing.T) {
	dir := t.TempDir()
	sum := writeReports(t, dir)
	if sum.Tests != 5 || sum.Failed != 1 {
		t.Fatalf("%d tests, %d failed", sum.Tests, sum.Failed)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "ctrf-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Valid against the official CTRF schema.
	c := jsonschema.NewCompiler()
	schemaFile := filepath.Join("..", "..", "..", "shared", "ctrf", "ctrf.schema.json")
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Skip("no CTRF schema beside the repository:", err)
	}
	sdoc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("ctrf.schema.json", sdoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("ctrf.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the CTRF report does not match the CTRF schema: %v", err)
	}
	// A failing report must fail the schema too: the validator works.
	broken := bytes.Replace(doc, []byte(`"status": "failed"`), []byte(`"status": "broken"`), 1)
	if inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(broken)); sch.Validate(inst) == nil {
		t.Error("a test of status broken passed the CTRF schema")
	}

	var rep struct {
		Results struct {
			Tests []struct {
				Name          string   `json:"name"`
				Status        string   `json:"status"`
				Tags          []string `json:"tags"`
				Retries       int      `json:"retries"`
				RetryAttempts []struct {
					Status  string `json:"status"`
					Message string `json:"message"`
				} `json:"retryAttempts"`
				Extra struct {
					Outputs []struct {
						Attempt int    `json:"attempt"`
						Probe   string `json:"probe"`
						Request struct {
							Method  string              `json:"method"`
							URL     string              `json:"url"`
							Headers map[string][]string `json:"headers"`
						} `json:"request"`
						Response struct {
							Status int `json:"status"`
						} `json:"response"`
					} `json:"outputs"`
					Problems []struct {
						Path    string `json:"path"`
						Message string `json:"message"`
					} `json:"problems"`
				} `json:"extra"`
			} `json:"tests"`
			Extra struct {
				CoverageMetrics []struct {
					Covered    int `json:"coveredOperations"`
					After      int `json:"operationsAfterFilters"`
					Total      int `json:"totalOperations"`
					Operations []struct {
						Path     string `json:"path"`
						Method   string `json:"method"`
						Status   string `json:"status"`
						Coverage string `json:"coverage"`
					} `json:"operations"`
				} `json:"coverageMetrics"`
			} `json:"extra"`
		} `json:"results"`
	}
	if err := json.Unmarshal(doc, &rep); err != nil {
		t.Fatal(err)
	}
	tests := map[string]int{}
	for i, tt := range rep.Results.Tests {
		tests[tt.Name] = i
	}
	health := rep.Results.Tests[tests["GET /health -> 200 text/plain (generated)"]]
	if health.Status != "passed" || health.Retries != 2 || len(health.RetryAttempts) != 2 || len(health.Extra.Outputs) != 3 {
		t.Errorf("GET /health: %s after %d retries, %d retryAttempts, %d outputs", health.Status, health.Retries, len(health.RetryAttempts), len(health.Extra.Outputs))
	}
	if len(health.RetryAttempts) > 0 && !strings.HasPrefix(health.RetryAttempts[0].Message, `429: 429 with Retry-After "0": retried after 0s`) {
		t.Errorf("retry attempt message %q", health.RetryAttempts[0].Message)
	}
	found := rep.Results.Tests[tests["GET /pets/{petId} -> 200 application/json (example: found)"]]
	wantTags := []string{"example", "path:/pets/{petId}", "method:GET", "status:200", "responseContentType:application/json"}
	if found.Status != "failed" || fmt.Sprint(found.Tags) != fmt.Sprint(wantTags) {
		t.Errorf("GET /pets/{petId}: %s, tags %v", found.Status, found.Tags)
	}
	paths := ""
	for _, p := range found.Extra.Problems {
		paths += p.Path + " "
	}
	if !strings.Contains(paths, "$.id") {
		t.Errorf("the problems of the wrong body name no $.id: %+v", found.Extra.Problems)
	}
	// The request, then ignored_auth's probe without credentials, labelled
	// as such and not as a second attempt (a retry).
	if out := found.Extra.Outputs; len(out) != 2 || out[0].Request.Headers["Authorization"][0] != "Bearer ****" || out[0].Response.Status != 200 ||
		out[0].Attempt != 1 || out[0].Probe != "" ||
		out[1].Request.Headers["Authorization"] != nil || out[1].Response.Status != 401 ||
		out[1].Attempt != 0 || out[1].Probe != "ignored_auth: the request again, without its credentials" {
		t.Errorf("outputs: %+v", out)
	}
	cov := rep.Results.Extra.CoverageMetrics
	if len(cov) != 1 || cov[0].Total != 4 || cov[0].Covered != 4 || cov[0].After != 4 {
		t.Errorf("coverage metrics: %+v", cov)
	}

	// No report shows the token.
	for _, name := range []string{"ctrf-report.json", "junit.xml", "report.html", "summary.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(token)) {
			t.Errorf("%s shows the token", name)
		}
	}
	// JUnit: one testcase per test, the failure named.
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err := xml.Unmarshal(data, &suites); err != nil || suites.Tests != 5 || suites.Failures != 1 {
		t.Errorf("junit.xml: %d tests, %d failures (%v)", suites.Tests, suites.Failures, err)
	}
	// The failure says its problem once, with the schema's place.
	var cases struct {
		Cases []struct {
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	xml.Unmarshal(data, &cases)
	failures := 0
	for _, c := range cases.Cases {
		if c.Failure == nil {
			continue
		}
		failures++
		if n := strings.Count(c.Failure.Text, "expected integer"); n != 1 || !strings.Contains(c.Failure.Text, "$.id: expected integer, found string \"1\" (schema at ") {
			t.Errorf("the JUnit failure says the problem %d times, want once with its place:\n%s", n, c.Failure.Text)
		}
	}
	if failures != 1 {
		t.Errorf("%d JUnit failures read, want 1", failures)
	}
	if !bytes.Contains(data, []byte("--- attempt 1&#xA;&gt; GET ")) || !bytes.Contains(data, []byte("--- probe by ignored_auth: the request again, without its credentials&#xA;&gt; GET ")) {
		t.Errorf("junit.xml does not label ignored_auth's probe as one")
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !bytes.Contains(html, []byte("Probe by ignored_auth: the request again, without its credentials: request")) {
		t.Errorf("report.html does not label ignored_auth's probe")
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if !strings.Contains(string(summary), "5 tests: 4 passed, 1 failed") {
		t.Errorf("summary:\n%s", summary)
	}
}

// TestHTMLReportInBrowser opens the html report of a real run in headless
// Chromium: every test is a row, the method filter narrows them, and a
// test's request shows its masked credentials. It skips without
// chromedriver, unless SPECGATE_REQUIRE_BROWSER is set.
func TestHTMLReportInBrowser(t *testing.T) {
	driver := browsertest.Chromedriver(t)
	dir := t.TempDir()
	writeReports(t, dir)
	b := browsertest.Start(t, driver, filepath.Join(dir, "profile"))
	b.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "report.html"))}).String())

	rows := func() string {
		return fmt.Sprint(b.Script(`return Array.from(document.querySelectorAll("#tests tbody tr[data-status]:not([hidden])"), function (r) { return r.dataset.status; }).length`))
	}
	if got := rows(); got != "5" {
		t.Errorf("%s test rows shown, want 5", got)
	}
	b.Script(`var s = document.getElementById("tests-filter-method"); s.value = "POST"; s.dispatchEvent(new Event("change", {bubbles: true})); return null`)
	if got := rows(); got != "1" {
		t.Errorf("with method POST, %s rows shown, want 1", got)
	}
	b.Script(`var s = document.getElementById("tests-filter-method"); s.value = ""; s.dispatchEvent(new Event("change", {bubbles: true})); return null`)
	got := fmt.Sprint(b.Script(`var rows = Array.from(document.querySelectorAll("#tests tbody tr[data-status=failed]"));
		if (rows.length !== 1) { return "failed rows: " + rows.length; }
		var d = rows[0].querySelector("details"); d.open = true;
		return d.querySelector("pre.request").innerText;`))
	if !strings.Contains(got, "GET ") || !strings.Contains(got, "/v1/pets/1") || !strings.Contains(got, "Authorization: Bearer ****") {
		t.Errorf("the failed test's request reads %q", got)
	}
}
