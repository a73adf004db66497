package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// JSONReport is the document the json format writes; its schema is
// documented in docs/reports.md.
type JSONReport struct {
	Tool        Tool             `json:"tool"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Summary     Summary          `json:"summary"`
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

// Summarize counts the findings of each file and in total.
func Summarize(files []File) Summary {
	s := Summary{Files: len(files), PerFile: make([]FileSummary, 0, len(files))}
	for i := range files {
		f := &files[i]
		c := countAll(f.Findings)
		fs := FileSummary{File: f.Name, Format: f.Format, Loaded: f.Loaded, Errors: c.Errors, Warnings: c.Warnings}
		if m, ok := f.Maturity(); ok {
			fs.Maturity = m.Level
		}
		s.Errors += fs.Errors
		s.Warnings += fs.Warnings
		s.PerFile = append(s.PerFile, fs)
	}
	return s
}

// NewJSONReport builds the json report of a lint run.
func NewJSONReport(run *Run) JSONReport {
	fs := run.Findings()
	rep := JSONReport{Tool: run.Tool, Diagnostics: make([]JSONDiagnostic, len(fs)), Summary: Summarize(run.Files)}
	for i := range fs {
		rep.Diagnostics[i] = jsonDiagnostic(&fs[i])
	}
	return rep
}

func jsonDiagnostic(f *Finding) JSONDiagnostic {
	return JSONDiagnostic{
		RuleID: f.Rule, Severity: f.Severity.String(), Message: f.Message,
		Category: f.Category, Maturity: f.Maturity, File: f.File, Pointer: f.Pointer,
		Line: int(f.Range.Start.Line), Column: int(f.Range.Start.Col),
		EndLine: int(f.Range.End.Line), EndColumn: int(f.Range.End.Col),
		DocURL: f.DocURL,
	}
}

// WriteJSON writes the json report of the run: lint's (NewJSONReport),
// compat's (NewCompatJSONReport) or a test run's (the Sink's json).
func WriteJSON(w io.Writer, run *Run) error {
	switch {
	case run.Compat != nil:
		return WriteIndentedJSON(w, NewCompatJSONReport(run))
	case run.Files == nil && (run.Tests != nil || run.Coverage != nil):
		return writeTests(w, run, jsonStream)
	}
	return writeLintJSON(w, run)
}

// writeLintJSON writes the lint report (NewJSONReport), indented, as
// WriteIndentedJSON would. The findings are converted and written one at
// a time, by appendDiagnostic, so that neither the time nor the peak
// memory of a large report goes into holding all of it at once.
func writeLintJSON(w io.Writer, run *Run) error {
	s := newJSONPieces(w)
	s.bw.WriteString("{\n  \"tool\": ")
	if err := s.value(run.Tool, "  "); err != nil {
		return err
	}
	s.bw.WriteString(",\n  \"diagnostics\": [")
	var line []byte
	for i := range run.Files {
		fs := run.Files[i].Findings
		for j := range fs {
			s.next("    ")
			d := jsonDiagnostic(&fs[j])
			line = appendDiagnostic(line[:0], &d)
			if _, err := s.bw.Write(line); err != nil {
				return err
			}
		}
	}
	s.endItems("  ")
	s.bw.WriteString("],\n  \"summary\": ")
	if err := s.value(Summarize(run.Files), "  "); err != nil {
		return err
	}
	s.bw.WriteString("\n}\n")
	return s.bw.Flush()
}

// jsonPieces writes a JSON document a piece at a time, so that a large
// report is never held whole: literal text to bw, and values indented to
// the depth they stand at, as WriteIndentedJSON writes them. items counts
// the elements written of the array open last.
type jsonPieces struct {
	bw    *bufio.Writer
	enc   *json.Encoder // encodes into buf
	buf   bytes.Buffer
	items int
}

func newJSONPieces(w io.Writer) *jsonPieces {
	s := &jsonPieces{bw: bufio.NewWriterSize(w, 64<<10)}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	return s
}

// value writes v encoded and indented as it appears at the depth of
// prefix.
func (s *jsonPieces) value(v any, prefix string) error {
	s.buf.Reset()
	s.enc.SetIndent(prefix, "  ")
	if err := s.enc.Encode(v); err != nil {
		return err
	}
	_, err := s.bw.Write(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
	return err
}

// next starts the next element of the array open last, on a line of its
// own at the depth of prefix.
func (s *jsonPieces) next(prefix string) {
	if s.items > 0 {
		s.bw.WriteString(",")
	}
	s.items++
	s.bw.WriteString("\n")
	s.bw.WriteString(prefix)
}

// item writes v as the next element of the array open last.
func (s *jsonPieces) item(v any, prefix string) error {
	s.next(prefix)
	return s.value(v, prefix)
}

// endItems puts the array's closing bracket on a line of its own at the
// depth of prefix when the array has elements.
func (s *jsonPieces) endItems(prefix string) {
	if s.items > 0 {
		s.bw.WriteString("\n")
		s.bw.WriteString(prefix)
	}
}

// WriteIndentedJSON writes v as specgate's JSON formats and outputs are
// written: indented by two spaces, with <, > and & left as they are, and
// ending in a newline.
func WriteIndentedJSON(w io.Writer, v any) error {
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
