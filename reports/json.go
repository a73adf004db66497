// Package reports writes lint results in each output format, one file per
// format. Positions are 1-based everywhere specgate writes them; a format
// that needs another base converts in its own writer.
package reports

import (
	"encoding/json"
	"io"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
)

// JSONReport is the document the json format writes; its schema is
// documented in docs/reports.md.
type JSONReport struct {
	Tool        Tool             `json:"tool"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Summary     Summary          `json:"summary"`
}

// Tool names the program and the rules that ran.
type Tool struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Ruleset   string `json:"ruleset,omitempty"`
	Profile   string `json:"profile,omitempty"`
	RuleCount int    `json:"ruleCount"`
}

// JSONDiagnostic is one diagnostic of the json format.
type JSONDiagnostic struct {
	RuleID    string `json:"ruleId"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Category  string `json:"category,omitempty"`
	Maturity  string `json:"maturity,omitempty"`
	File      string `json:"file"`
	Pointer   string `json:"pointer"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	DocURL    string `json:"docUrl,omitempty"`
}

// Summary counts diagnostics in total and per file.
type Summary struct {
	Files    int           `json:"files"`
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	PerFile  []FileSummary `json:"perFile"`
}

// FileSummary counts the diagnostics of one input.
type FileSummary struct {
	File     string `json:"file"`
	Format   string `json:"format,omitempty"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	// Loaded is false when the file could not be read, parsed or linted.
	Loaded bool `json:"loaded"`
}

// Summarize counts the results.
func Summarize(results []linter.Result) Summary {
	s := Summary{Files: len(results), PerFile: make([]FileSummary, 0, len(results))}
	for _, r := range results {
		fs := FileSummary{File: r.File, Format: r.Format, Loaded: r.Err == nil}
		for _, d := range r.Diagnostics {
			switch d.Severity {
			case policy.Error:
				fs.Errors++
			case policy.Warn:
				fs.Warnings++
			}
		}
		s.Errors += fs.Errors
		s.Warnings += fs.Warnings
		s.PerFile = append(s.PerFile, fs)
	}
	return s
}

// NewJSONReport builds the json report of results.
func NewJSONReport(tool Tool, results []linter.Result) JSONReport {
	rep := JSONReport{Tool: tool, Diagnostics: []JSONDiagnostic{}, Summary: Summarize(results)}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			rep.Diagnostics = append(rep.Diagnostics, JSONDiagnostic{
				RuleID: d.RuleID, Severity: d.Severity.String(), Message: d.Message,
				Category: d.Category, Maturity: d.Maturity, File: d.File, Pointer: d.Pointer,
				Line: int(d.Range.Start.Line), Column: int(d.Range.Start.Col),
				EndLine: int(d.Range.End.Line), EndColumn: int(d.Range.End.Col),
				DocURL: d.DocURL(),
			})
		}
	}
	return rep
}

// WriteJSON writes the json report, indented.
func WriteJSON(w io.Writer, tool Tool, results []linter.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewJSONReport(tool, results))
}
