package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/specgate/specgate/linter"
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
	// Skipped lists the custom rules left out because a function they use
	// has no Rego implementation (lint --skip-missing-functions).
	Skipped []SkippedRule `json:"skippedRules,omitempty"`
}

// SkippedRule is a custom rule that did not run, and why.
type SkippedRule struct {
	Rule     string `json:"rule"`
	Function string `json:"function"`
	Reason   string `json:"reason"`
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
	// Maturity is the level the file reaches (see Maturity); empty when it
	// did not load.
	Maturity string `json:"maturity,omitempty"`
}

// Summarize counts the results.
func Summarize(results []linter.Result) Summary {
	s := Summary{Files: len(results), PerFile: make([]FileSummary, 0, len(results))}
	for _, r := range results {
		c := countAll(r.Diagnostics)
		fs := FileSummary{File: r.File, Format: r.Format, Loaded: r.Err == nil, Errors: c.Errors, Warnings: c.Warnings}
		if m, ok := Maturity(r); ok {
			fs.Maturity = m.Level
		}
		s.Errors += fs.Errors
		s.Warnings += fs.Warnings
		s.PerFile = append(s.PerFile, fs)
	}
	return s
}

// NewJSONReport builds the json report of a run.
func NewJSONReport(run *Run) JSONReport {
	rep := JSONReport{Tool: run.Tool, Diagnostics: []JSONDiagnostic{}, Summary: Summarize(run.Results)}
	for _, d := range run.Diagnostics() {
		rep.Diagnostics = append(rep.Diagnostics, jsonDiagnostic(d))
	}
	return rep
}

func jsonDiagnostic(d linter.Diagnostic) JSONDiagnostic {
	return JSONDiagnostic{
		RuleID: d.RuleID, Severity: d.Severity.String(), Message: d.Message,
		Category: d.Category, Maturity: d.Maturity, File: d.File, Pointer: d.Pointer,
		Line: int(d.Range.Start.Line), Column: int(d.Range.Start.Col),
		EndLine: int(d.Range.End.Line), EndColumn: int(d.Range.End.Col),
		DocURL: d.DocURL(),
	}
}

// WriteJSON writes the json report, indented, as writeIndentedJSON would.
// The diagnostics are encoded one at a time: indenting the whole report
// at once grew and rescanned one buffer of it all (a fifth of a second for
// the 10,000 diagnostics of a large API).
func WriteJSON(w io.Writer, run *Run) error {
	rep := NewJSONReport(run)
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// value writes v as it appears at the given depth of indentation.
	value := func(v any, prefix string) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	bw.WriteString("{\n  \"tool\": ")
	if err := value(rep.Tool, "  "); err != nil {
		return err
	}
	bw.WriteString(",\n  \"diagnostics\": [")
	for i, d := range rep.Diagnostics {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		if err := value(d, "    "); err != nil {
			return err
		}
	}
	if len(rep.Diagnostics) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"summary\": ")
	if err := value(rep.Summary, "  "); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// writeIndentedJSON is how every JSON format is written: two-space
// indents, and <, > and & left as they are.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
