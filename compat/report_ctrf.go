package compat

import (
	"io"
	"strings"
)

// ctrfSpecVersion is the version of the Common Test Report Format written:
// that of the CTRF JSON Schema the report is valid against (the lint
// reports' CTRF is the same version).
const ctrfSpecVersion = "0.0.0"

// CTRF (Common Test Report Format, https://ctrf.io) report: each breaking
// change, and each warning in strict mode, is a failed test carrying
// specFile:lineNumber:columnNumber and its rule; other warnings are tests
// with status "other"; a specification without failing changes is one
// passed test, one that could not be checked a failed (error) or skipped
// test. Info-level changes are not tests.

type ctrfReport struct {
	ReportFormat string      `json:"reportFormat"`
	SpecVersion  string      `json:"specVersion"`
	GeneratedBy  string      `json:"generatedBy"`
	Results      ctrfResults `json:"results"`
}

type ctrfResults struct {
	Tool    ctrfTool       `json:"tool"`
	Summary ctrfSummary    `json:"summary"`
	Tests   []ctrfTest     `json:"tests"`
	Extra   map[string]any `json:"extra"`
}

type ctrfTool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type ctrfSummary struct {
	Tests    int   `json:"tests"`
	Passed   int   `json:"passed"`
	Failed   int   `json:"failed"`
	Skipped  int   `json:"skipped"`
	Pending  int   `json:"pending"`
	Other    int   `json:"other"`
	Start    int64 `json:"start"`
	Stop     int64 `json:"stop"`
	Duration int64 `json:"duration"`
}

type ctrfTest struct {
	Name      string      `json:"name"`
	Status    string      `json:"status"`
	Duration  int64       `json:"duration"`
	Message   string      `json:"message,omitempty"`
	RawStatus string      `json:"rawStatus,omitempty"`
	FilePath  string      `json:"filePath,omitempty"`
	Line      int         `json:"line,omitempty"`
	Suite     []string    `json:"suite,omitempty"`
	Tags      []string    `json:"tags,omitempty"`
	Type      string      `json:"type"`
	Extra     *ctrfChange `json:"extra,omitempty"`
}

// ctrfChange is the extra of a test that is a change: where it is
// (specFile:lineNumber:columnNumber) and the rule it violates.
type ctrfChange struct {
	SpecFile      string        `json:"specFile"`
	LineNumber    int           `json:"lineNumber"`
	ColumnNumber  int           `json:"columnNumber"`
	Location      string        `json:"location"`
	Side          string        `json:"side"`
	Operations    []string      `json:"operations"`
	RuleViolation ctrfViolation `json:"ruleViolation"`
}

type ctrfViolation struct {
	Rule    string `json:"rule"`
	Level   string `json:"level"`
	Message string `json:"message"`
	Why     string `json:"why"`
}

// ctrfOutput is one entry of results.extra.outputs: the verdict on one
// specification.
type ctrfOutput struct {
	Spec    string  `json:"spec"`
	Base    string  `json:"base"`
	Verdict Verdict `json:"verdict"`
	Reason  Reason  `json:"reason"`
	Message string  `json:"message"`
}

// WriteCTRF writes the CTRF report.
func WriteCTRF(w io.Writer, rep *Report) error {
	out := ctrfReport{ReportFormat: "CTRF", SpecVersion: ctrfSpecVersion, GeneratedBy: rep.Tool,
		Results: ctrfResults{Tool: ctrfTool{rep.Tool, rep.Version}, Tests: []ctrfTest{}}}
	outputs := []ctrfOutput{}
	for i := range rep.Results {
		r := &rep.Results[i]
		outputs = append(outputs, ctrfOutput{r.Spec, r.Base, r.Verdict, r.Reason, r.Message})
		suite := []string{"backward-compatibility", r.Spec}
		failing := 0
		for _, c := range r.Changes {
			if c.Level == Info {
				continue
			}
			status, raw := "other", c.Level.String()
			if Fails(c, rep.Strict) {
				status = "failed"
				failing++
			}
			loc := c.Location
			out.Results.Tests = append(out.Results.Tests, ctrfTest{
				Name:   c.RuleID + ": " + strings.Join(c.Operations, ", "),
				Status: status, RawStatus: raw, Type: "backward-compatibility",
				Message:  loc.String() + " " + c.RuleID + ": " + c.Message + "; " + c.Why,
				FilePath: loc.File, Line: loc.Line, Suite: suite, Tags: []string{c.RuleID, raw},
				Extra: &ctrfChange{SpecFile: loc.File, LineNumber: loc.Line, ColumnNumber: loc.Column, Location: loc.String(),
					Side: loc.Side.String(), Operations: c.Operations,
					RuleViolation: ctrfViolation{Rule: c.RuleID, Level: raw, Message: c.Message, Why: c.Why}},
			})
		}
		if failing > 0 {
			continue
		}
		t := ctrfTest{Name: "backward compatibility of " + r.Spec, Status: "passed", RawStatus: string(r.Reason),
			Type: "backward-compatibility", Message: r.Message, FilePath: r.Spec, Suite: suite}
		switch r.Verdict {
		case Error, Incompatible:
			t.Status = "failed"
		case Skipped:
			t.Status = "skipped"
		}
		out.Results.Tests = append(out.Results.Tests, t)
	}
	s := &out.Results.Summary
	for _, t := range out.Results.Tests {
		s.Tests++
		switch t.Status {
		case "passed":
			s.Passed++
		case "failed":
			s.Failed++
		case "skipped":
			s.Skipped++
		default:
			s.Other++
		}
	}
	s.Start, s.Stop = rep.Start.UnixMilli(), rep.Stop.UnixMilli()
	s.Duration = s.Stop - s.Start
	out.Results.Extra = map[string]any{"mode": rep.Mode, "base": rep.Base, "strict": rep.Strict, "outputs": outputs}
	if rep.Commit != "" {
		out.Results.Extra["commit"] = rep.Commit
	}
	return encodeJSON(w, out)
}
