package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"

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
	ds := run.Diagnostics()
	rep := JSONReport{Tool: run.Tool, Diagnostics: make([]JSONDiagnostic, len(ds)), Summary: Summarize(run.Results)}
	for i, d := range ds {
		rep.Diagnostics[i] = jsonDiagnostic(d)
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

// WriteJSON writes the json report (NewJSONReport), indented, as
// writeIndentedJSON would. The diagnostics are converted and written one
// at a time, by appendDiagnostic: encoding and indenting the whole report
// at once took a fifth of a second for the 10,000 diagnostics of a large
// API, and converting them all first held 2.5 MB more at the run's peak.
func WriteJSON(w io.Writer, run *Run) error {
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
	if err := value(run.Tool, "  "); err != nil {
		return err
	}
	bw.WriteString(",\n  \"diagnostics\": [")
	var line []byte
	ds := run.Diagnostics()
	for i := range ds {
		if i > 0 {
			bw.WriteString(",")
		}
		d := jsonDiagnostic(ds[i])
		line = appendDiagnostic(append(line[:0], "\n    "...), &d)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	if len(ds) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"summary\": ")
	if err := value(Summarize(run.Results), "  "); err != nil {
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

// appendDiagnostic appends d as encoding/json writes it indented by two
// spaces at the depth of the report's diagnostics, without the reflection
// and the second pass for the indentation. TestJSONIsTheReportIndented
// holds it to encoding/json's output.
func appendDiagnostic(b []byte, d *JSONDiagnostic) []byte {
	str := func(b []byte, key, v string, omitEmpty bool) []byte {
		if omitEmpty && v == "" {
			return b
		}
		b = append(b, ",\n      \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		return appendJSONString(b, v)
	}
	num := func(b []byte, key string, v int) []byte {
		b = append(b, ",\n      \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		return strconv.AppendInt(b, int64(v), 10)
	}
	b = append(b, "{\n      \"ruleId\": "...)
	b = appendJSONString(b, d.RuleID)
	b = str(b, "severity", d.Severity, false)
	b = str(b, "message", d.Message, false)
	b = str(b, "category", d.Category, true)
	b = str(b, "maturity", d.Maturity, true)
	b = str(b, "file", d.File, false)
	b = str(b, "pointer", d.Pointer, false)
	b = num(b, "line", d.Line)
	b = num(b, "column", d.Column)
	b = num(b, "endLine", d.EndLine)
	b = num(b, "endColumn", d.EndColumn)
	b = str(b, "docUrl", d.DocURL, true)
	return append(b, "\n    }"...)
}

// appendJSONString appends s quoted as encoding/json quotes strings with
// HTML escaping off: control characters, quotes and backslashes escaped,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
