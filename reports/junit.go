package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/specgate/specgate/linter"
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
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes JUnit XML: one test suite per file and one test case
// per rule that ran on it. A case fails when the rule reported a diagnostic
// at or above the fail severity; lower ones are listed in its system-out.
// A file that could not be loaded (or whose rules timed out) has one case
// for that, with an error.
func WriteJUnit(w io.Writer, run *Run) error {
	doc := junitSuites{Name: run.Tool.Name}
	if run.Elapsed > 0 {
		doc.Time = seconds(run)
	}
	for _, r := range run.Results {
		suite := junitSuite{Name: r.File}
		if !run.Start.IsZero() {
			suite.Timestamp = run.Start.UTC().Format("2006-01-02T15:04:05")
		}
		if m, ok := Maturity(r); ok {
			suite.Properties = &junitProperties{[]junitProperty{{"format", r.Format}, {"maturity", m.Level}}}
		}
		for _, g := range run.byRule(r) {
			tc := junitCase{Name: g.RuleID, Classname: r.File, File: r.File, Time: "0"}
			text := diagnosticLines(g.Diagnostics)
			switch {
			case r.Err != nil:
				tc.Error = &junitProblem{Message: g.Diagnostics[0].Message, Type: g.RuleID, Text: text}
				suite.Errors++
			case run.groupFailed(g):
				c := countAll(g.Diagnostics)
				tc.Failure = &junitProblem{Message: c.String(), Type: worstSeverity(g.Diagnostics), Text: text}
				suite.Failures++
			case text != "":
				tc.SystemOut = text
			}
			suite.Cases = append(suite.Cases, tc)
		}
		suite.Tests = len(suite.Cases)
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

// diagnosticLines lists diagnostics for test logs, one a line:
// "file:line:col severity message (pointer)".
func diagnosticLines(ds []linter.Diagnostic) string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s %s %s", location(d.File, d), d.Severity, d.Message)
		if d.Pointer != "" {
			b.WriteString(" (" + d.Pointer + ")")
		}
	}
	return b.String()
}

func worstSeverity(ds []linter.Diagnostic) string {
	worst := ds[0].Severity
	for _, d := range ds {
		worst = max(worst, d.Severity)
	}
	return worst.String()
}

func seconds(run *Run) string {
	return fmt.Sprintf("%.3f", run.Elapsed.Seconds())
}
