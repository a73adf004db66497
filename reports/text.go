package reports

import (
	"fmt"
	"io"
	"time"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
)

// TextOptions configure the terminal format.
type TextOptions struct {
	Color   bool
	Elapsed time.Duration // shown in the summary line; zero hides it
}

const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
)

// WriteText writes one line per diagnostic, "file:line:col severity
// rule-id message", then a summary line.
func WriteText(w io.Writer, results []linter.Result, opts TextOptions) error {
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return code + s + ansiReset
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			sev := d.Severity.String()
			switch d.Severity {
			case policy.Error:
				sev = paint(ansiRed, "error")
			case policy.Warn:
				sev = paint(ansiYellow, "warn ")
			}
			loc := d.File
			if d.Range.Start.Line > 0 {
				loc = fmt.Sprintf("%s:%d:%d", d.File, d.Range.Start.Line, d.Range.Start.Col)
			}
			if _, err := fmt.Fprintf(w, "%s %s %s %s\n", paint(ansiBold, loc), sev, paint(ansiDim, d.RuleID), d.Message); err != nil {
				return err
			}
		}
	}
	s := Summarize(results)
	line := fmt.Sprintf("%d %s, %d %s, %d %s", s.Files, plural(s.Files, "file"), s.Errors, plural(s.Errors, "error"), s.Warnings, plural(s.Warnings, "warning"))
	if opts.Elapsed > 0 {
		line += fmt.Sprintf(" in %s", opts.Elapsed.Round(time.Millisecond))
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
