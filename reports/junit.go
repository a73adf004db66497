package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/level"
)

type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr,omitempty"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string           `xml:"name,attr"`
		Tests      int              `xml:"tests,attr"`
		Failures   int              `xml:"failures,attr"`
		Errors     int              `xml:"errors,attr"`
		Skipped    int              `xml:"skipped,attr"`
		Time       string           `xml:"time,attr,omitempty"`
		Timestamp  string           `xml:"timestamp,attr,omitempty"`
		Properties *junitProperties `xml:"properties"`
		Cases      []junitCase      `xml:"testcase"`
	}
	junitProperties struct {
		Property []junitProperty `xml:"property"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		XMLName   xml.Name      `xml:"testcase"`
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		Skipped   *junitSkipped `xml:"skipped,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr,omitempty"`
	}
)

// WriteJUnit writes JUnit XML. For lint: one test suite per file and one
// test case per rule that ran on it; a case fails when the rule reported a
// finding at or above the fail severity, and lower ones are listed in its
// system-out; a file that could not be loaded (or whose rules timed out)
// has one case for that, with an error. For compat: a suite per
// specification, a case per change (see fileTests). For a test run: a
// suite per test suite, a case per test, its exchanges in system-out.
func WriteJUnit(w io.Writer, run *Run) error {
	if run.Files == nil && (run.Tests != nil || run.Coverage != nil) {
		return writeTests(w, run, junitStream)
	}
	doc := junitSuites{Name: run.Tool.Name}
	if run.Elapsed > 0 {
		doc.Time = seconds(run.Elapsed)
	}
	for i := range run.Files {
		f := &run.Files[i]
		suite := junitSuite{Name: f.Name}
		if f.Verdict != nil {
			suite.Name = suiteName([]string{string(Compat), f.Name})
		}
		if !run.Start.IsZero() {
			suite.Timestamp = junitTimestamp(run.Start)
		}
		if m, ok := f.Maturity(); ok && f.Verdict == nil {
			suite.Properties = &junitProperties{[]junitProperty{{"format", f.Format}, {"maturity", m.Level}}}
		}
		tests := run.fileTests(f)
		for j := range tests {
			tc := junitCaseOf(&tests[j])
			if f.Verdict == nil {
				lintCase(&tc, &tests[j], f)
			}
			tc.Classname, tc.Time = f.Name, "0"
			suite.count(tc)
			suite.Cases = append(suite.Cases, tc)
		}
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		doc.Suites = append(doc.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// lintCase words the case of a rule on a file as lint reports do: named
// by the rule (the suite names the file), a failure summed up by its
// counts, an error by the file's problem and the pipeline rule.
func lintCase(tc *junitCase, t *Test, f *File) {
	tc.Name = strings.TrimSuffix(tc.Name, " in "+f.Name)
	found, _ := t.Extra["outputs"].([]JSONDiagnostic)
	if len(found) == 0 {
		return
	}
	switch {
	case tc.Error != nil:
		tc.Error.Message, tc.Error.Type = found[0].Message, found[0].RuleID
	case tc.Failure != nil:
		var c counts
		for _, d := range found {
			sev, _ := level.ParseSeverity(d.Severity)
			c.add(&Finding{Severity: sev})
		}
		tc.Failure.Message = c.String()
	}
}

// count adds a case to the suite's counts.
func (s *junitSuite) count(tc junitCase) {
	s.Tests++
	switch {
	case tc.Error != nil:
		s.Errors++
	case tc.Failure != nil:
		s.Failures++
	case tc.Skipped != nil:
		s.Skipped++
	}
}

// junitCaseOf is a test as a JUnit case: an error when it could not run,
// a failure when it failed, skipped when it did not run; its message in
// the failure, or in system-out when it passed with one, and its HTTP
// exchanges in system-out.
func junitCaseOf(t *Test) junitCase {
	tc := junitCase{Name: t.Name, Classname: suiteName(t.Suite), File: t.File, Time: seconds(t.Duration)}
	text := t.Message
	if len(t.Problems) > 0 {
		var b strings.Builder
		b.WriteString(text)
		for _, p := range t.Problems {
			if saidIn(text, p) {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(problemLine(p))
		}
		text = b.String()
	}
	first, _, _ := strings.Cut(text, "\n")
	switch {
	case t.Errored:
		tc.Error = &junitProblem{Message: first, Type: t.RawStatus, Text: text}
	case t.Status == Failed:
		tc.Failure = &junitProblem{Message: first, Type: t.RawStatus, Text: text}
	case t.Status == Skipped || t.Status == Pending:
		tc.Skipped = &junitSkipped{Message: first}
	case text != "":
		tc.SystemOut = text
	}
	if out := exchangesText(t.Outputs); out != "" {
		if tc.SystemOut != "" {
			out = tc.SystemOut + "\n\n" + out
		}
		tc.SystemOut = out
	}
	return tc
}

// saidIn reports whether a test's message already says a problem, with
// its place: the problem is not written a second time.
func saidIn(message string, p Problem) bool {
	_, what, ok := strings.Cut(p.Message, ": ")
	return ok && strings.Contains(message, what) && (p.Schema == "" || strings.Contains(message, "(schema at "+p.Schema+")"))
}

// problemLine is a problem on one line: "body $.id: must be an integer
// (schema at api.yaml:30:15)".
func problemLine(p Problem) string {
	var b strings.Builder
	b.WriteString(p.In)
	if p.Path != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Path)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	if p.Schema != "" {
		b.WriteString(" (schema at " + p.Schema + ")")
	}
	return b.String()
}

// exchangesText writes exchanges as HTTP messages, for logs.
func exchangesText(xs []Exchange) string {
	if len(xs) == 0 {
		return ""
	}
	var b strings.Builder
	for i, hx := range htmlExchanges(xs) {
		if i > 0 {
			b.WriteString("\n")
		}
		switch {
		case hx.Probe != "":
			fmt.Fprintf(&b, "--- probe by %s\n", hx.Probe)
		case hx.Attempt > 0:
			fmt.Fprintf(&b, "--- attempt %d\n", hx.Attempt)
		}
		b.WriteString("> " + strings.ReplaceAll(strings.TrimSuffix(hx.Request, "\n"), "\n", "\n> ") + "\n")
		if hx.Response != "" {
			b.WriteString("< " + strings.ReplaceAll(strings.TrimSuffix(hx.Response, "\n"), "\n", "\n< ") + "\n")
		}
		if hx.Error != "" {
			b.WriteString("! " + hx.Error + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// junitWriter writes a test run's JUnit from its tests read again at the
// end (see testSource): the counts of each suite, which JUnit puts before
// its cases, are known by then.
type junitWriter struct {
	w   io.Writer
	enc *xml.Encoder
}

func (j *junitWriter) write(run *Run, t *tally, source testSource) error {
	if _, err := io.WriteString(j.w, xml.Header); err != nil {
		return err
	}
	j.enc = xml.NewEncoder(j.w)
	j.enc.Indent("", "  ")
	root := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{
		{Name: xml.Name{Local: "name"}, Value: run.Tool.Name},
		{Name: xml.Name{Local: "tests"}, Value: fmt.Sprint(t.sum.Tests)},
		{Name: xml.Name{Local: "failures"}, Value: fmt.Sprint(t.failures)},
		{Name: xml.Name{Local: "errors"}, Value: fmt.Sprint(t.errors)},
	}}
	if !t.sum.Start.IsZero() {
		root.Attr = append(root.Attr, xml.Attr{Name: xml.Name{Local: "time"}, Value: seconds(t.sum.Stop.Sub(t.sum.Start))})
	}
	if err := j.enc.EncodeToken(root); err != nil {
		return err
	}
	runs, left := t.runs, 0
	var open *suiteRun
	err := source(func(test *Test) error {
		if left == 0 {
			if open != nil {
				if err := j.enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "testsuite"}}); err != nil {
					return err
				}
			}
			if len(runs) == 0 {
				return fmt.Errorf("junit: more tests than were counted")
			}
			open, runs = &runs[0], runs[1:]
			left = open.tests
			if err := j.enc.EncodeToken(open.element()); err != nil {
				return err
			}
		}
		left--
		return j.enc.Encode(junitCaseOf(test))
	})
	if err != nil {
		return err
	}
	if open != nil {
		if err := j.enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "testsuite"}}); err != nil {
			return err
		}
	}
	if err := j.enc.EncodeToken(root.End()); err != nil {
		return err
	}
	if err := j.enc.Flush(); err != nil {
		return err
	}
	_, err = io.WriteString(j.w, "\n")
	return err
}

// suiteRun is a run of consecutive tests of one suite: one JUnit test
// suite. Tests of one suite that do not come together make several.
type suiteRun struct {
	name                             string
	tests, failures, errors, skipped int
	time                             time.Duration
	start                            time.Time // of its first test
}

func (s *suiteRun) element() xml.StartElement {
	attr := func(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }
	e := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{
		attr("name", s.name), attr("tests", fmt.Sprint(s.tests)), attr("failures", fmt.Sprint(s.failures)),
		attr("errors", fmt.Sprint(s.errors)), attr("skipped", fmt.Sprint(s.skipped)), attr("time", seconds(s.time)),
	}}
	if !s.start.IsZero() {
		e.Attr = append(e.Attr, attr("timestamp", junitTimestamp(s.start)))
	}
	return e
}

func junitTimestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", d.Seconds())
}
