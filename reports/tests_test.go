package reports_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/reports"
)

// sinkRun writes run through a Sink into dir, in every format, its tests
// added one at a time, and returns the files by format.
func sinkRun(t *testing.T, run *reports.Run, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	var outs []reports.Output
	for _, f := range reports.TestFormats {
		files[f] = filepath.Join(dir, "report."+f)
		outs = append(outs, reports.Output{Format: f, Path: files[f]})
	}
	sink, err := reports.NewSink(outs...)
	if err != nil {
		t.Fatal(err)
	}
	head := *run
	head.Tests, head.Coverage = nil, nil
	writeTests(t, sink, &head, run)
	return files
}

// writeTests begins sink with head, adds run's tests one at a time and
// ends it with run's coverage.
func writeTests(t *testing.T, sink *reports.Sink, head, run *reports.Run) {
	t.Helper()
	if err := sink.Begin(head); err != nil {
		t.Fatal(err)
	}
	for i := range run.Tests {
		if err := sink.Add(&run.Tests[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sink.End(run.Coverage); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The Sink writes, a test at a time, what the writers write of the same
// run held in memory: one writer per format.
func TestSinkWritesWhatTheWritersWrite(t *testing.T) {
	run := testResults(t)
	files := sinkRun(t, run, t.TempDir())
	for format, w := range map[string]reports.Writer{"ctrf": reports.WriteCTRF, "junit": reports.WriteJUnit, "html": reports.WriteHTML,
		"json": reports.WriteJSON, "summary": reports.WriteStylish} {
		if got, want := readFile(t, files[format]), write(t, w, run); !bytes.Equal(got, want) {
			t.Errorf("%s: the Sink wrote\n%s\nthe writer writes\n%s", format, got, want)
		}
	}
}

// TestTestRunGolden compares a test run in every format with
// testdata/golden/tests.<format>; -update rewrites them.
func TestTestRunGolden(t *testing.T) {
	run := testResults(t)
	for format, w := range map[string]reports.Writer{"ctrf.json": reports.WriteCTRF, "junit.xml": reports.WriteJUnit,
		"html": reports.WriteHTML, "json": reports.WriteJSON, "summary.txt": reports.WriteStylish} {
		t.Run(format, func(t *testing.T) {
			checkGolden(t, "tests."+format, write(t, w, run))
		})
	}
}

// ctrfDoc is the part of a CTRF report the tests read.
type ctrfDoc struct {
	ReportFormat, SpecVersion string
	Results                   struct {
		Summary struct{ Tests, Passed, Failed, Skipped, Pending, Other, Flaky, Suites, Start, Stop, Duration int64 }
		Tests   []struct {
			Name, Status, RawStatus, Message, FilePath, Type string
			Duration                                         int64
			Suite, Tags                                      []string
			Labels                                           map[string]string
			Retries                                          int
			Flaky                                            bool
			RetryAttempts                                    []struct {
				Attempt  int
				Status   string
				Duration int64
				Message  string
			}
			Extra struct {
				Outputs []struct {
					Attempt  int
					Request  struct{ Method, URL string }
					Response *struct {
						Status  int
						Headers map[string][]string
						Body    *struct{ Text string }
					}
					Error string
				}
				Fixtures []struct {
					Name, Phase, Status string
					Outputs             []struct{ Request struct{ Method string } }
				}
				Problems []reports.Problem
				Checks   []string
			}
		}
		Extra struct {
			CoverageMetrics []struct {
				SpecFile                                                                  string
				CoveredOperations, OperationsAfterFilters, TotalOperations, MissingInSpec int
				Operations                                                                []struct {
					Path, Method, Status, Coverage string
					Tests                          int
				}
			}
		}
	}
}

func TestTestRunCTRF(t *testing.T) {
	doc := write(t, reports.WriteCTRF, testResults(t))
	for _, schema := range []string{"ctrf.schema.json", "ctrf-schema-0.0.json"} {
		if errs := matchSchema(t, doc, schema); errs != nil {
			t.Errorf("the test run's CTRF does not match %s:\n%s", schema, strings.Join(errs, "\n"))
		}
	}
	var rep ctrfDoc
	if err := json.Unmarshal(doc, &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Results.Summary
	if got := fmt.Sprint(s.Tests, s.Passed, s.Failed, s.Skipped, s.Flaky, s.Suites, s.Stop-s.Start, s.Duration); got != "9 5 3 1 1 2 75 75" {
		t.Errorf("summary tests, passed, failed, skipped, flaky, suites, stop-start, duration = %s, want 9 5 3 1 1 2 75 75", got)
	}
	tests := rep.Results.Tests
	get := tests[0]
	if get.Name != "GET /pets -> 200" || get.Type != "contract" || get.FilePath != "pets.yaml" || get.Duration != 5 ||
		fmt.Sprint(get.Tags) != "[path:/pets method:GET status:200 responseContentType:application/json]" ||
		fmt.Sprint(get.Labels) != "map[method:GET path:/pets responseContentType:application/json status:200]" {
		t.Errorf("first test = %+v", get)
	}
	if o := get.Extra.Outputs; len(o) != 1 || o[0].Request.Method != "GET" || o[0].Request.URL != "http://pets.test/pets" ||
		o[0].Response == nil || o[0].Response.Status != 200 || o[0].Response.Body.Text != `[{"id":1,"name":"Rex <the dog> & co"}]` {
		t.Errorf("first test's outputs = %+v", o)
	}
	// The retried test: outputs is an array with each attempt, the attempt
	// before the last is in retryAttempts, and it is flaky.
	slow := tests[4]
	if o := slow.Extra.Outputs; len(o) != 2 || o[0].Attempt != 1 || o[0].Response.Status != 429 || o[1].Attempt != 2 || o[1].Response.Status != 200 {
		t.Errorf("the retried test's outputs = %+v", o)
	}
	if slow.Retries != 1 || len(slow.RetryAttempts) != 1 || slow.RetryAttempts[0].Status != "failed" || slow.RetryAttempts[0].Attempt != 1 || !slow.Flaky {
		t.Errorf("the retried test = retries %d, attempts %+v, flaky %v", slow.Retries, slow.RetryAttempts, slow.Flaky)
	}
	post := tests[1]
	if f := post.Extra.Fixtures; len(f) != 2 || f[0].Phase != "before" || f[0].Status != "passed" || f[1].Phase != "after" ||
		f[1].Status != "failed" || len(f[1].Outputs) != 1 || f[1].Outputs[0].Request.Method != "DELETE" {
		t.Errorf("fixtures = %+v", f)
	}
	if p := tests[5].Extra.Problems; len(p) != 1 || p[0] != (reports.Problem{In: "body", Path: "$.id", Keyword: "type", Message: "must be integer, found string", Schema: "slow.yaml:18:15"}) {
		t.Errorf("problems = %+v", p)
	}
	if c := tests[3].Extra.Checks; fmt.Sprint(c) != "[status_code_conformance response_schema_conformance]" {
		t.Errorf("the producer's extra is lost: %v", c)
	}
	if down := tests[7]; down.Status != "failed" || len(down.Extra.Outputs) != 1 || down.Extra.Outputs[0].Response != nil ||
		down.Extra.Outputs[0].Error != "dial tcp 127.0.0.1:9: connection refused" {
		t.Errorf("a request that could not be sent = %+v", down)
	}
	if skipped := tests[6]; skipped.Status != "skipped" || skipped.Extra.Outputs != nil {
		t.Errorf("a skipped test = %+v", skipped)
	}
	cov := rep.Results.Extra.CoverageMetrics
	if len(cov) != 2 {
		t.Fatalf("coverage of %d specs, want 2", len(cov))
	}
	// pets.yaml: GET /pets, POST /pets and GET /pets/{id} covered; DELETE
	// /pets/{id} left out by filters; the 404 is missing in the spec.
	if c := cov[0]; c.SpecFile != "pets.yaml" || c.CoveredOperations != 3 || c.OperationsAfterFilters != 3 || c.TotalOperations != 4 ||
		c.MissingInSpec != 1 || len(c.Operations) != 6 || c.Operations[5].Coverage != "missing in spec" || c.Operations[5].Status != "404" {
		t.Errorf("pets.yaml coverage = %+v", c)
	}
	if c := cov[1]; c.CoveredOperations != 2 || c.OperationsAfterFilters != 4 || c.TotalOperations != 4 {
		t.Errorf("slow.yaml coverage = %+v", c)
	}
}

// DecodeCTRF reads back every test the CTRF writer wrote, and what the
// report says of its run.
func TestDecodeCTRFRoundTrip(t *testing.T) {
	run := testResults(t)
	doc := write(t, reports.WriteCTRF, run)
	var got []reports.Test
	head, err := reports.DecodeCTRF(bytes.NewReader(doc), func(test *reports.Test) error {
		got = append(got, *test)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(run.Tests) {
		t.Fatalf("read %d tests, wrote %d", len(got), len(run.Tests))
	}
	for i := range got {
		want := run.Tests[i]
		// Headers decode as the model holds them; times come back in
		// milliseconds, as the fixture has them.
		if !reflect.DeepEqual(normalize(got[i]), normalize(want)) {
			g, _ := json.MarshalIndent(normalize(got[i]), "", " ")
			w, _ := json.MarshalIndent(normalize(want), "", " ")
			t.Errorf("test %d read back as\n%s\nwritten as\n%s", i, g, w)
		}
	}
	if head.Tool.Name != "specgate" || head.Kind != reports.Contract || head.Summary.Tests != 9 || head.Summary.Failed != 3 ||
		!head.Summary.Start.Equal(fixed) || head.Summary.Stop.Sub(head.Summary.Start) != 75*time.Millisecond {
		t.Errorf("run = %+v", head)
	}
	if !reflect.DeepEqual(head.Coverage, run.Coverage) {
		t.Errorf("coverage read back as %+v", head.Coverage)
	}
}

// normalize makes a test comparable: times in UTC, extra values as JSON
// decodes them.
func normalize(t reports.Test) reports.Test {
	utc := func(tm time.Time) time.Time {
		if tm.IsZero() {
			return tm
		}
		return tm.UTC()
	}
	t.Start = utc(t.Start)
	xs := func(in []reports.Exchange) []reports.Exchange {
		out := slices.Clone(in)
		for i := range out {
			out[i].Start = utc(out[i].Start)
		}
		return out
	}
	t.Outputs = xs(t.Outputs)
	t.Attempts = slices.Clone(t.Attempts)
	for i := range t.Attempts {
		t.Attempts[i].Start = utc(t.Attempts[i].Start)
	}
	t.Fixtures = slices.Clone(t.Fixtures)
	for i := range t.Fixtures {
		t.Fixtures[i].Start = utc(t.Fixtures[i].Start)
		t.Fixtures[i].Outputs = xs(t.Fixtures[i].Outputs)
	}
	if t.Extra != nil {
		data, _ := json.Marshal(t.Extra)
		t.Extra = nil
		json.Unmarshal(data, &t.Extra)
	}
	return t
}

type junitTests struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Time    string `xml:"time,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error   *struct{} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestTestRunJUnit(t *testing.T) {
	var doc junitTests
	if err := xml.Unmarshal(write(t, reports.WriteJUnit, testResults(t)), &doc); err != nil {
		t.Fatal(err)
	}
	// The last test is of pets.yaml again: tests that do not come together
	// make suites of their own.
	if doc.Tests != 9 || doc.Failures != 2 || doc.Errors != 1 || len(doc.Suites) != 3 {
		t.Fatalf("tests %d, failures %d, errors %d, suites %d; want 9, 2, 1, 3", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites))
	}
	pets, slow, again := doc.Suites[0], doc.Suites[1], doc.Suites[2]
	if pets.Name != "pets.yaml" || pets.Tests != 4 || pets.Failures != 1 || slow.Name != "slow.yaml" || slow.Tests != 4 ||
		slow.Failures != 1 || slow.Errors != 1 || slow.Skipped != 1 || again.Name != "pets.yaml" || again.Tests != 1 {
		t.Errorf("suites = %+v", doc.Suites)
	}
	c := pets.Cases[0]
	if c.Name != "GET /pets -> 200" || c.Time != "0.005" || c.Failure != nil || !strings.Contains(c.SystemOut, "> GET http://pets.test/pets\n") ||
		!strings.Contains(c.SystemOut, "< 200 OK\n") || !strings.Contains(c.SystemOut, "< Content-Type: application/json\n") {
		t.Errorf("passed case = %+v", c)
	}
	broken := slow.Cases[1]
	if broken.Failure == nil || broken.Failure.Type != "response_schema_conformance" ||
		broken.Failure.Message != "response_schema_conformance: the body of the 500 response does not match its schema" ||
		!strings.Contains(broken.Failure.Text, "body $.id: must be integer, found string (schema at slow.yaml:18:15)") {
		t.Errorf("failed case = %+v", broken)
	}
	if s := slow.Cases[2].Skipped; s == nil || s.Message != "no example and --generate is off" {
		t.Errorf("skipped case = %+v", slow.Cases[2])
	}
	if slow.Cases[3].Error == nil {
		t.Errorf("a request that could not be sent is an error: %+v", slow.Cases[3])
	}
}

func TestTestRunJSON(t *testing.T) {
	var doc struct {
		Tool    reports.Tool
		Kind    string
		Tests   []struct{ Name, Status string }
		Summary struct{ Tests, Passed, Failed, Skipped, Flaky, Duration int }
		Doc     []reports.CoverageReport `json:"coverage"`
	}
	if err := json.Unmarshal(write(t, reports.WriteJSON, testResults(t)), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tool.Version != "1.2.3" || doc.Kind != "contract" || len(doc.Tests) != 9 || doc.Tests[3].Status != "failed" ||
		doc.Summary.Tests != 9 || doc.Summary.Failed != 3 || doc.Summary.Duration != 75 || len(doc.Doc) != 2 || doc.Doc[0].Covered != 3 {
		t.Errorf("json report = %+v", doc)
	}
}

func TestTestRunSummary(t *testing.T) {
	want := `FAIL GET /pets/{id} -> 404 (not declared): status_code_conformance: 404 is not a status GET /pets/{id} declares
FAIL GET /broken -> 500: response_schema_conformance: the body of the 500 response does not match its schema
     body $.id: must be integer, found string (schema at slow.yaml:18:15)
FAIL GET /down -> 200: dial tcp 127.0.0.1:9: connection refused

pets.yaml  3 of 3 operations covered (100%), 4 in the specification, 1 missing in spec
slow.yaml  2 of 4 operations covered (50%), 4 in the specification
9 tests: 5 passed, 3 failed, 1 skipped, 1 flaky in 75ms
`
	if got := string(write(t, reports.WriteStylish, testResults(t))); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

// A brief summary names the failed tests alone: the progress of the run
// printed their messages as they came.
func TestTestRunBriefSummary(t *testing.T) {
	run := testResults(t)
	var b bytes.Buffer
	sink, err := reports.NewSink(reports.Output{Format: "summary", W: &b, Brief: true})
	if err != nil {
		t.Fatal(err)
	}
	writeTests(t, sink, &reports.Run{Tool: run.Tool, Kind: run.Kind, Start: fixed}, run)
	got, _, _ := strings.Cut(b.String(), "\n\n")
	want := `FAIL GET /pets/{id} -> 404 (not declared)
FAIL GET /broken -> 500
FAIL GET /down -> 200`
	if got != want {
		t.Errorf("brief summary:\n%s\nwant:\n%s", got, want)
	}
}

// Tests added from many goroutines at once are all written, each whole.
func TestSinkConcurrentAdds(t *testing.T) {
	run := testResults(t)
	dir := t.TempDir()
	sink, err := reports.NewSink(reports.DefaultOutputs(dir)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Begin(&reports.Run{Tool: run.Tool, Kind: run.Kind, Start: fixed}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				test := run.Tests[(g+i)%len(run.Tests)]
				test.Name = fmt.Sprintf("worker %d test %d", g, i)
				if err := sink.Add(&test); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	sum, err := sink.End(run.Coverage)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	head, err := reports.DecodeCTRF(bytes.NewReader(readFile(t, filepath.Join(dir, "ctrf-report.json"))), func(test *reports.Test) error {
		names[test.Name] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tests != 400 || len(names) != 400 || head.Summary.Tests != 400 {
		t.Errorf("summary %d tests, %d distinct in the report, report summary %d; want 400", sum.Tests, len(names), head.Summary.Tests)
	}
	var doc junitTests
	if err := xml.Unmarshal(readFile(t, filepath.Join(dir, "junit.xml")), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range doc.Suites {
		n += len(s.Cases)
		if len(s.Cases) != s.Tests {
			t.Errorf("suite %s says %d tests and has %d cases", s.Name, s.Tests, len(s.Cases))
		}
	}
	if n != 400 || doc.Tests != 400 {
		t.Errorf("junit has %d cases, says %d tests; want 400", n, doc.Tests)
	}
}

// A Sink's memory does not grow with the number of tests: 10,000 tests
// with 2 KB bodies (20 MB of bodies in each report) hold no more than a
// few megabytes while they are written, the html and junit made from the
// CTRF read back.
func TestSinkMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 60 MB of reports")
	}
	dir := t.TempDir()
	sink, err := reports.NewSink(append(reports.DefaultOutputs(dir), reports.Output{Format: "json", Path: filepath.Join(dir, "report.json")})...)
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Begin(&reports.Run{Tool: reports.Tool{Name: "specgate", Version: "test"}, Kind: reports.Contract, Start: fixed}); err != nil {
		t.Fatal(err)
	}
	body := reports.BodyOf([]byte(strings.Repeat(`{"id":1,"name":"pet"},`, 90)))
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const n = 10000
	var before, peak uint64
	for i := range n {
		path := fmt.Sprintf("/things%d/{id}", i%1000)
		test := reports.Test{Name: fmt.Sprintf("GET %s #%d", path, i), Suite: []string{"big.yaml"}, Type: reports.Contract,
			Status: reports.Passed, Start: fixed, Duration: time.Millisecond,
			Operation: reports.OperationKey{Path: path, Method: "GET", Status: "200", ResponseType: "application/json"},
			Outputs: []reports.Exchange{{Attempt: 1, Request: reports.Request{Method: "GET", URL: "http://x.test" + path},
				Response: &reports.Response{Status: 200, Body: body}}}}
		if err := sink.Add(&test); err != nil {
			t.Fatal(err)
		}
		switch i {
		case 1000:
			before = heap()
		case n / 2, n - 1:
			peak = max(peak, heap())
		}
	}
	if _, err := sink.End(nil); err != nil {
		t.Fatal(err)
	}
	grown := int64(peak) - int64(before)
	if grown > 4<<20 {
		t.Errorf("the heap grew by %d KB while %d tests were added", grown>>10, n-1000)
	}
	t.Logf("heap %d KB after 1,000 tests, %d KB at most after", before>>10, peak>>10)
	info, err := os.Stat(filepath.Join(dir, "report.html"))
	if err != nil || info.Size() < n*2000 {
		t.Errorf("the html report has %v bytes for %d tests (%v)", info.Size(), n, err)
	}
}

func TestSinkMisuse(t *testing.T) {
	if _, err := reports.NewSink(reports.Output{Format: "sarif", Path: "x"}); err == nil || !strings.Contains(err.Error(), `unknown test report format "sarif"`) {
		t.Errorf("NewSink(sarif) = %v", err)
	}
	if _, err := reports.NewSink(reports.Output{Format: "ctrf"}); err == nil {
		t.Error("an output without a path or a writer was accepted")
	}
	sink, err := reports.NewSink(reports.Output{Format: "ctrf", W: new(bytes.Buffer)})
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Add(&reports.Test{Name: "x"}); err == nil {
		t.Error("Add before Begin was accepted")
	}
	// A report file that cannot be created fails Begin.
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, nil, 0o644)
	sink, _ = reports.NewSink(reports.Output{Format: "ctrf", Path: filepath.Join(blocked, "ctrf.json")})
	if err := sink.Begin(&reports.Run{}); err == nil {
		t.Error("Begin wrote a report under a file")
	}
	sink.Close()
}

func TestDecodeCTRFErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"reportFormat": "JUnit", "results": {"tests": []}}`, `line 1, column 18: reportFormat is "JUnit", not "CTRF"`},
		{"{\n  \"results\": {\"tests\": []}}", `line 1, column 1: reportFormat is "", not "CTRF"`},
		{`{"reportFormat": "CTRF", "results": {"tests": [{"name": 3}]}}`, "line 1, column 57: name is a JSON number"},
		{`{"reportFormat": "CTRF", "results": {"tests": [`, "line 1, column 48: the report ends too soon"},
		{"{\"reportFormat\": \"CTRF\",\n \"results\": {\"tests\": [", "line 2, column 24: the report ends too soon"},
		{`[1, 2]`, `line 1, column 2: expected "{", found [`},
	} {
		_, err := reports.DecodeCTRF(strings.NewReader(tc.doc), func(*reports.Test) error { return nil })
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("DecodeCTRF(%s) = %v, want %q", tc.doc, err, tc.want)
		}
	}
	stop := fmt.Errorf("enough")
	if _, err := reports.DecodeCTRF(bytes.NewReader(write(t, reports.WriteCTRF, testResults(t))), func(*reports.Test) error { return stop }); err != stop {
		t.Errorf("the callback's error came back as %v", err)
	}
}

func TestBodyOf(t *testing.T) {
	if reports.BodyOf(nil) != nil {
		t.Error("an empty body is kept")
	}
	if b := reports.BodyOf([]byte("héllo")); b.Text != "héllo" || b.Size != 6 || b.Base64 != "" || b.Truncated {
		t.Errorf("text body = %+v", b)
	}
	if b := reports.BodyOf([]byte{0xff, 0x00, 0x10}); b.Base64 != "/wAQ" || b.Text != "" || b.Size != 3 {
		t.Errorf("binary body = %+v", b)
	}
	// A body over the limit keeps its first MaxBody bytes, without the
	// character the limit cuts.
	long := strings.Repeat("a", reports.MaxBody-1) + "é" + "tail"
	if b := reports.BodyOf([]byte(long)); !b.Truncated || b.Size != len(long) || len(b.Text) != reports.MaxBody-1 {
		t.Errorf("long body: truncated %v, size %d, kept %d", b.Truncated, b.Size, len(b.Text))
	}
}

func TestCoverageMetrics(t *testing.T) {
	row := func(path, method, status string, cs reports.CoverageStatus) reports.CoverageRow {
		return reports.CoverageRow{OperationKey: reports.OperationKey{Path: path, Method: method, Status: status}, Status: cs}
	}
	c := reports.Coverage{Spec: "a.yaml", Operations: []reports.CoverageRow{
		row("/a", "GET", "200", reports.NotCovered), row("/a", "GET", "404", reports.Covered), // one operation, covered
		row("/b", "GET", "200", reports.NotTested),
		row("/c", "PUT", "200", reports.NotCovered),
		row("/c", "PUT", "418", reports.MissingInSpec),
	}}
	if got := c.Metrics(); got != (reports.CoverageMetrics{Spec: "a.yaml", Covered: 1, AfterFilters: 2, Total: 3, MissingInSpec: 1}) {
		t.Errorf("metrics = %+v", got)
	}
}

// A run without tests writes its tests as an empty array on one line, in
// CTRF and in the json report.
func TestTestRunWithoutTests(t *testing.T) {
	run := &reports.Run{Tool: reports.Tool{Name: "specgate", Version: "1.2.3"}, Kind: reports.Contract, Start: fixed, Tests: []reports.Test{}}
	for format, tt := range map[string]struct {
		w    reports.Writer
		want string
	}{
		"ctrf": {reports.WriteCTRF, "\n    \"tests\": [],\n    \"summary\": {"},
		"json": {reports.WriteJSON, "\n  \"tests\": [],\n  \"summary\": {"},
	} {
		doc := write(t, tt.w, run)
		if !strings.Contains(string(doc), tt.want) || !json.Valid(doc) {
			t.Errorf("%s report of no tests lacks %q:\n%s", format, tt.want, doc)
		}
	}
}
