package reports

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/internal/english"
)

// A test run is written as its tests come, so that memory does not grow
// with their number: a Sink takes the run (Begin), each test (Add) and the
// coverage (End), and writes every format asked for. CTRF, json and the
// terminal summary are written as the tests come. The junit and html
// formats put counts and filter choices before the tests, so they are
// written at the end from the CTRF report read again a test at a time (a
// temporary one when CTRF itself was not asked for): the Sink keeps only
// counts, the suites' sizes and the filters' choices.

// TestFormats are the formats of a test run, in the order of the
// documentation.
var TestFormats = []string{"ctrf", "junit", "html", "json", "summary"}

// Output is one format of a test run and where it goes: a file at Path,
// or W.
type Output struct {
	Format string
	Path   string
	W      io.Writer
	// Brief makes the summary name each failed test without its message
	// and problem: for a run whose progress printed them as they came.
	Brief bool
}

// DefaultOutputs are the report files of a test run in dir: CTRF, JUnit
// and HTML.
func DefaultOutputs(dir string) []Output {
	return []Output{
		{Format: "ctrf", Path: filepath.Join(dir, "ctrf-report.json")},
		{Format: "junit", Path: filepath.Join(dir, "junit.xml")},
		{Format: "html", Path: filepath.Join(dir, "report.html")},
	}
}

// Sink writes the reports of a test run as its tests come. It is safe for
// concurrent use: tests run in parallel may Add at once.
type Sink struct {
	outputs []Output

	mu      sync.Mutex
	run     *Run
	tally   tally
	closers []io.Closer
	files   []*os.File // opened for outputs with a Path, in outputs order
	ctrfs   []*ctrfWriter
	spool   string // the CTRF file junit and html are made from
	temp    string // a temporary spool to remove
	json    *jsonWriter
	summary *summaryWriter
	err     error
	state   int // 0 new, 1 begun, 2 ended
}

// NewSink checks the outputs; nothing is written before Begin.
func NewSink(outputs ...Output) (*Sink, error) {
	if len(outputs) == 0 {
		return nil, errors.New("no report to write")
	}
	for _, o := range outputs {
		if !slices.Contains(TestFormats, o.Format) {
			return nil, fmt.Errorf("unknown test report format %q (known: %s)", o.Format, strings.Join(TestFormats, ", "))
		}
		if (o.Path == "") == (o.W == nil) {
			return nil, fmt.Errorf("the %s report needs a path or a writer, and not both", o.Format)
		}
	}
	return &Sink{outputs: outputs}, nil
}

// Begin opens the reports and writes their beginnings. run gives the tool,
// the kind and the start; its Tests and Coverage are not read (the Sink
// takes them one at a time), and its Elapsed, when set by End, gives the
// end of the run.
func (s *Sink) Begin(run *Run) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != 0 {
		return errors.New("reports: Begin called twice")
	}
	s.state, s.run = 1, run
	s.tally.start(run)
	var needSpool bool
	for _, o := range s.outputs {
		needSpool = needSpool || o.Format == "junit" || o.Format == "html"
	}
	for _, o := range s.outputs {
		w := o.W
		if o.Path != "" {
			f, err := create(o.Path)
			if err != nil {
				return s.fail(err)
			}
			s.closers = append(s.closers, f)
			s.files = append(s.files, f)
			w = f
			if o.Format == "ctrf" && s.spool == "" {
				s.spool = o.Path
			}
		}
		var err error
		switch o.Format {
		case "ctrf":
			var c *ctrfWriter
			if c, err = newCTRFWriter(w, run); err == nil {
				s.ctrfs = append(s.ctrfs, c)
			}
		case "json":
			s.json, err = newJSONWriter(w, run)
		case "summary":
			s.summary = &summaryWriter{w: w, brief: o.Brief}
		}
		if err != nil {
			return s.fail(err)
		}
	}
	if needSpool && s.spool == "" {
		f, err := os.CreateTemp("", "specgate-tests-*.ctrf.json")
		if err != nil {
			return s.fail(err)
		}
		s.closers = append(s.closers, f)
		s.spool, s.temp = f.Name(), f.Name()
		c, err := newCTRFWriter(f, run)
		if err != nil {
			return s.fail(err)
		}
		s.ctrfs = append(s.ctrfs, c)
	}
	return nil
}

// Add writes one test.
func (s *Sink) Add(t *Test) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.state != 1 {
		return errors.New("reports: Add outside Begin and End")
	}
	s.tally.add(t)
	for _, c := range s.ctrfs {
		if err := c.add(t); err != nil {
			return s.fail(err)
		}
	}
	if s.json != nil {
		if err := s.json.add(t); err != nil {
			return s.fail(err)
		}
	}
	if s.summary != nil {
		s.summary.add(t)
	}
	return nil
}

// End writes the ends of the reports with the coverage of each
// specification, then the junit and html reports, closes the files and
// returns the counts of the run.
func (s *Sink) End(coverage []Coverage) (TestSummary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.tally.sum, s.err
	}
	if s.state != 1 {
		return s.tally.sum, errors.New("reports: End without Begin")
	}
	s.state = 2
	defer s.removeTemp()
	run := s.run
	sum := s.tally.finish(run)
	for _, c := range s.ctrfs {
		if err := c.end(run, sum, coverage); err != nil {
			return sum, s.fail(err)
		}
	}
	if s.json != nil {
		if err := s.json.end(sum, coverage); err != nil {
			return sum, s.fail(err)
		}
	}
	source := ctrfSource(s.spool)
	f := 0
	for _, o := range s.outputs {
		w := o.W
		if o.Path != "" {
			w = s.files[f]
			f++
		}
		var err error
		switch o.Format {
		case "junit":
			err = (&junitWriter{w: w}).write(run, &s.tally, source)
		case "html":
			err = writeTestsHTML(w, run, &s.tally, coverage, source)
		case "summary":
			err = s.summary.end(run, sum, coverage)
		}
		if err != nil {
			return sum, s.fail(err)
		}
	}
	return sum, s.close()
}

// Close abandons a run that will not End: the reports are closed as they
// are, and a temporary spool removed.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.removeTemp()
	if s.state == 2 {
		return nil
	}
	s.state = 2
	return s.close()
}

func (s *Sink) close() error {
	var errs []error
	for _, c := range s.closers {
		if err := c.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
			errs = append(errs, err)
		}
	}
	s.closers = nil
	return errors.Join(errs...)
}

func (s *Sink) removeTemp() {
	if s.temp != "" {
		s.close()
		os.Remove(s.temp)
		s.temp = ""
	}
}

// fail keeps the first error; every later call returns it.
func (s *Sink) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	return s.err
}

// create opens a report file for writing, making its folder.
func create(path string) (*os.File, error) {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	return os.Create(path)
}

// tally is what a Sink keeps of the tests it has seen.
type tally struct {
	sum              TestSummary
	failures, errors int // junit's: failed tests that ran, tests that could not
	suites           map[string]bool
	runs             []suiteRun
	choices          testChoices
	end              time.Time // of the last test
}

func (t *tally) start(run *Run) {
	t.sum.Start = run.Start
	t.suites = map[string]bool{}
}

func (t *tally) add(test *Test) {
	t.sum.add(test)
	name := suiteName(test.Suite)
	t.suites[name] = true
	if len(t.runs) == 0 || t.runs[len(t.runs)-1].name != name {
		t.runs = append(t.runs, suiteRun{name: name, start: test.Start})
	}
	r := &t.runs[len(t.runs)-1]
	r.tests++
	r.time += test.Duration
	tc := junitCaseOf(&Test{Status: test.Status, Errored: test.Errored})
	switch {
	case tc.Error != nil:
		r.errors++
		t.errors++
	case tc.Failure != nil:
		r.failures++
		t.failures++
	case tc.Skipped != nil:
		r.skipped++
	}
	t.choices.add(test)
	if !test.Start.IsZero() {
		if end := test.Start.Add(test.Duration); end.After(t.end) {
			t.end = end
		}
	}
}

// finish sets the end of the run: its start and Elapsed when the producer
// set them, else the end of its last test.
func (t *tally) finish(run *Run) TestSummary {
	t.sum.Suites = len(t.suites)
	switch {
	case !run.Start.IsZero() && run.Elapsed > 0:
		t.sum.Stop = run.Start.Add(run.Elapsed)
	case !run.Start.IsZero():
		t.sum.Stop = run.Start
		if t.end.After(run.Start) {
			t.sum.Stop = t.end
		}
	}
	return t.sum
}

// testSource yields a run's tests in order, each time it is called.
type testSource func(yield func(*Test) error) error

// ctrfSource reads the tests of a CTRF file, one at a time.
func ctrfSource(path string) testSource {
	return func(yield func(*Test) error) error {
		_, err := ReadCTRF(path, func(t *Test) error { return yield(t) })
		return err
	}
}

// streamFormat is a format of a test run held in memory.
type streamFormat int

const (
	ctrfStream streamFormat = iota
	jsonStream
	summaryStream
	junitStream
	htmlStream
)

// writeTests writes a test run held in memory (run.Tests) in one format.
func writeTests(w io.Writer, run *Run, format streamFormat) error {
	var t tally
	t.start(run)
	for i := range run.Tests {
		t.add(&run.Tests[i])
	}
	sum := t.finish(run)
	source := func(yield func(*Test) error) error {
		for i := range run.Tests {
			if err := yield(&run.Tests[i]); err != nil {
				return err
			}
		}
		return nil
	}
	switch format {
	case junitStream:
		return (&junitWriter{w: w}).write(run, &t, source)
	case htmlStream:
		return writeTestsHTML(w, run, &t, run.Coverage, source)
	case summaryStream:
		s := &summaryWriter{w: w}
		for i := range run.Tests {
			s.add(&run.Tests[i])
		}
		return s.end(run, sum, run.Coverage)
	case jsonStream:
		j, err := newJSONWriter(w, run)
		if err != nil {
			return err
		}
		if err := source(j.add); err != nil {
			return err
		}
		return j.end(sum, run.Coverage)
	}
	c, err := newCTRFWriter(w, run)
	if err != nil {
		return err
	}
	if err := source(c.add); err != nil {
		return err
	}
	return c.end(run, sum, run.Coverage)
}

// writeTestsHTML writes a test run's page: its head, a row per test read
// from source, its tail.
func writeTestsHTML(w io.Writer, run *Run, t *tally, cov []Coverage, source testSource) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	page := testsPage(run, t.sum, cov, &t.choices)
	tmpl := htmlTemplate()
	if err := tmpl.ExecuteTemplate(bw, "tests-head", page); err != nil {
		return err
	}
	err := source(func(test *Test) error {
		return tmpl.ExecuteTemplate(bw, "test-row", newHTMLTest(test))
	})
	if err != nil {
		return err
	}
	if err := tmpl.ExecuteTemplate(bw, "tests-tail", page); err != nil {
		return err
	}
	return bw.Flush()
}

// jsonWriter writes a test run's json report as the tests come: the run,
// the tests as CTRF has them, then the summary and the coverage.
type jsonWriter struct {
	*jsonPieces
}

// jsonSummary counts the tests of a run in its json report.
type jsonSummary struct {
	Tests      int   `json:"tests"`
	Passed     int   `json:"passed"`
	Failed     int   `json:"failed"`
	Skipped    int   `json:"skipped"`
	Pending    int   `json:"pending"`
	Other      int   `json:"other"`
	Flaky      int   `json:"flaky"`
	Suites     int   `json:"suites"`
	DurationMS int64 `json:"duration"`
}

func newJSONWriter(w io.Writer, run *Run) (*jsonWriter, error) {
	j := &jsonWriter{newJSONPieces(w)}
	j.bw.WriteString("{\n  \"tool\": ")
	if err := j.value(run.Tool, "  "); err != nil {
		return nil, err
	}
	if run.Kind != "" {
		j.bw.WriteString(",\n  \"kind\": \"" + string(run.Kind) + "\"")
	}
	if !run.Start.IsZero() {
		j.bw.WriteString(",\n  \"start\": \"" + run.Start.UTC().Format(time.RFC3339Nano) + "\"")
	}
	j.bw.WriteString(",\n  \"tests\": [")
	return j, nil
}

func (j *jsonWriter) add(t *Test) error {
	return j.item(ctrfTestOf(t), "    ")
}

func (j *jsonWriter) end(s TestSummary, cov []Coverage) error {
	j.endItems("  ")
	j.bw.WriteString("],\n  \"summary\": ")
	sum := jsonSummary{Tests: s.Tests, Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, Pending: s.Pending,
		Other: s.Other, Flaky: s.Flaky, Suites: s.Suites}
	if !s.Start.IsZero() && !s.Stop.IsZero() {
		sum.DurationMS = s.Stop.Sub(s.Start).Milliseconds()
	}
	if err := j.value(sum, "  "); err != nil {
		return err
	}
	j.bw.WriteString(",\n  \"coverage\": ")
	if err := j.value(coverageReports(cov), "  "); err != nil {
		return err
	}
	j.bw.WriteString("\n}\n")
	return j.bw.Flush()
}

// summaryMaxFailures caps the failed tests the terminal summary names.
const summaryMaxFailures = 20

// summaryWriter writes the terminal summary of a test run: its failed
// tests (up to summaryMaxFailures), each specification's coverage, then
// the counts.
type summaryWriter struct {
	w        io.Writer
	brief    bool
	failures []string
	failed   int
}

func (s *summaryWriter) add(t *Test) {
	if t.Status != Failed {
		return
	}
	s.failed++
	if len(s.failures) < summaryMaxFailures {
		line := "FAIL " + t.Name
		if s.brief {
			s.failures = append(s.failures, line)
			return
		}
		if msg, _, _ := strings.Cut(t.Message, "\n"); msg != "" {
			line += ": " + msg
		}
		if len(t.Problems) > 0 {
			line += "\n     " + problemLine(t.Problems[0])
			if n := len(t.Problems) - 1; n > 0 {
				line += fmt.Sprintf(" (and %s)", english.Count(n, "more problem", "more problems"))
			}
		}
		s.failures = append(s.failures, line)
	}
}

func (s *summaryWriter) end(run *Run, sum TestSummary, cov []Coverage) error {
	paint := painter(run.Color)
	var b bytes.Buffer
	for _, f := range s.failures {
		b.WriteString(paint(ansiRed, f[:4]) + f[4:] + "\n")
	}
	if more := s.failed - len(s.failures); more > 0 {
		fmt.Fprintf(&b, "… and %s: see the reports\n", english.Count(more, "more failed test", "more failed tests"))
	}
	if len(s.failures) > 0 {
		b.WriteString("\n")
	}
	for i := range cov {
		m := cov[i].Metrics()
		fmt.Fprintf(&b, "%s  %s of %d %s covered", cov[i].Spec, paint(ansiBold, fmt.Sprint(m.Covered)), m.AfterFilters, english.Noun(m.AfterFilters, "operation", "operations"))
		if m.AfterFilters > 0 {
			fmt.Fprintf(&b, " (%d%%)", m.Covered*100/m.AfterFilters)
		}
		fmt.Fprintf(&b, ", %d in the specification", m.Total)
		if m.MissingInSpec > 0 {
			fmt.Fprintf(&b, ", %s", paint(ansiYellow, fmt.Sprintf("%d missing in spec", m.MissingInSpec)))
		}
		b.WriteString("\n")
	}
	status := paint(ansiGreen, fmt.Sprintf("%d passed", sum.Passed))
	if sum.Failed > 0 {
		status += ", " + paint(ansiRed, fmt.Sprintf("%d failed", sum.Failed))
	} else {
		status += ", 0 failed"
	}
	fmt.Fprintf(&b, "%s: %s", english.Count(sum.Tests, "test", "tests"), status)
	for _, n := range []struct {
		n    int
		word string
	}{{sum.Skipped, "skipped"}, {sum.Pending, "pending"}, {sum.Other, "other"}, {sum.Flaky, "flaky"}} {
		if n.n > 0 {
			fmt.Fprintf(&b, ", %d %s", n.n, n.word)
		}
	}
	if !sum.Start.IsZero() && sum.Stop.After(sum.Start) {
		fmt.Fprintf(&b, " in %s", sum.Stop.Sub(sum.Start).Round(time.Millisecond))
	}
	b.WriteString("\n")
	_, err := s.w.Write(b.Bytes())
	return err
}
