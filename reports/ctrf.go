package reports

import (
	"io"
	"time"

	"github.com/specgate/specgate/linter"
)

// CTRFSpecVersion is the version of the Common Test Report Format written.
const CTRFSpecVersion = "0.0.0"

type (
	ctrfReport struct {
		ReportFormat string      `json:"reportFormat"`
		SpecVersion  string      `json:"specVersion"`
		Timestamp    string      `json:"timestamp,omitempty"`
		GeneratedBy  string      `json:"generatedBy"`
		Results      ctrfResults `json:"results"`
	}
	ctrfResults struct {
		Tool    ctrfTool    `json:"tool"`
		Summary ctrfSummary `json:"summary"`
		Tests   []ctrfTest  `json:"tests"`
		Extra   ctrfRunInfo `json:"extra"`
	}
	ctrfTool struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
		Extra   Tool   `json:"extra"`
	}
	ctrfSummary struct {
		Tests    int    `json:"tests"`
		Passed   int    `json:"passed"`
		Failed   int    `json:"failed"`
		Skipped  int    `json:"skipped"`
		Pending  int    `json:"pending"`
		Other    int    `json:"other"`
		Suites   int    `json:"suites"`
		Start    int64  `json:"start"`
		Stop     int64  `json:"stop"`
		Duration int64  `json:"duration"`
		Extra    counts `json:"extra"`
	}
	ctrfTest struct {
		Name      string   `json:"name"`
		Status    string   `json:"status"`
		Duration  int64    `json:"duration"`
		Suite     []string `json:"suite"`
		Message   string   `json:"message,omitempty"`
		Line      int      `json:"line,omitempty"`
		RawStatus string   `json:"rawStatus"`
		Tags      []string `json:"tags,omitempty"`
		Type      string   `json:"type"`
		FilePath  string   `json:"filePath"`
		Extra     ctrfLint `json:"extra"`
	}
	// ctrfLint is the lint detail of one test: the rule, and its
	// diagnostics on the file as the json format writes them.
	ctrfLint struct {
		RuleID   string           `json:"ruleId"`
		Title    string           `json:"title"`
		Severity string           `json:"severity,omitempty"`
		Category string           `json:"category,omitempty"`
		Maturity string           `json:"maturity,omitempty"`
		DocURL   string           `json:"docUrl,omitempty"`
		File     string           `json:"file"`
		Format   string           `json:"format,omitempty"`
		Outputs  []JSONDiagnostic `json:"outputs"`
	}
	ctrfRunInfo struct {
		Errors   int           `json:"errors"`
		Warnings int           `json:"warnings"`
		Files    []FileSummary `json:"files"`
	}
)

// WriteCTRF writes a CTRF report: one test per rule and file, failed when
// the rule reported a diagnostic at or above the fail severity (or the file
// did not load). Each test's extra holds the rule and its diagnostics, in an
// outputs array; the run's extra holds the per-file summary with maturity.
// Rules are evaluated together, so tests carry no duration of their own.
func WriteCTRF(w io.Writer, run *Run) error {
	s := Summarize(run.Results)
	rep := ctrfReport{
		ReportFormat: "CTRF", SpecVersion: CTRFSpecVersion, GeneratedBy: run.Tool.Name,
		Results: ctrfResults{
			Tool:    ctrfTool{Name: run.Tool.Name, Version: run.Tool.Version, Extra: run.Tool},
			Summary: ctrfSummary{Suites: len(run.Results), Extra: counts{s.Errors, s.Warnings}},
			Tests:   []ctrfTest{},
			Extra:   ctrfRunInfo{Errors: s.Errors, Warnings: s.Warnings, Files: s.PerFile},
		},
	}
	if !run.Start.IsZero() {
		rep.Timestamp = run.Start.UTC().Format(time.RFC3339)
		rep.Results.Summary.Start = run.Start.UnixMilli()
		rep.Results.Summary.Stop = run.Start.Add(run.Elapsed).UnixMilli()
		rep.Results.Summary.Duration = run.Elapsed.Milliseconds()
	}
	for _, r := range run.Results {
		for _, g := range run.byRule(r) {
			rep.Results.Tests = append(rep.Results.Tests, run.ctrfTest(r, g))
		}
	}
	sum := &rep.Results.Summary
	sum.Tests = len(rep.Results.Tests)
	for _, t := range rep.Results.Tests {
		if t.Status == "failed" {
			sum.Failed++
		} else {
			sum.Passed++
		}
	}
	return writeIndentedJSON(w, rep)
}

func (run *Run) ctrfTest(r linter.Result, g ruleGroup) ctrfTest {
	title, _ := run.ruleText(g.RuleID)
	t := ctrfTest{
		Name: g.RuleID + " in " + r.File, Status: "passed", Suite: []string{r.File}, RawStatus: "pass",
		Type: "lint", FilePath: r.File,
		Extra: ctrfLint{RuleID: g.RuleID, Title: title, File: r.File, Format: r.Format, Outputs: []JSONDiagnostic{}},
	}
	if rule := run.Rule(g.RuleID); rule != nil {
		t.Extra.Severity, t.Extra.Category, t.Extra.Maturity = rule.Severity.String(), rule.Category, rule.Maturity
		t.Extra.DocURL = linter.DocsURL + rule.ID + ".md"
		t.Tags = []string{rule.Category, rule.Maturity}
	}
	if len(g.Diagnostics) == 0 {
		return t
	}
	for _, d := range g.Diagnostics {
		t.Extra.Outputs = append(t.Extra.Outputs, jsonDiagnostic(d))
	}
	t.Message = diagnosticLines(g.Diagnostics)
	t.Line = int(g.Diagnostics[0].Range.Start.Line)
	t.RawStatus = worstSeverity(g.Diagnostics)
	if run.groupFailed(g) {
		t.Status = "failed"
	}
	return t
}
