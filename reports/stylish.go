package reports

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/specgate/specgate/internal/level"
)

const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiGreen  = "\x1b[32m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
)

// WriteStylish writes the terminal format: one line per diagnostic,
// "file:line:col severity rule-id message" (a form editors and terminals
// make clickable), then one line per file with its counts and maturity, then
// the totals.
func WriteStylish(w io.Writer, run *Run) error {
	paint := func(code, s string) string {
		if !run.Color {
			return s
		}
		return code + s + ansiReset
	}
	bw := bufio.NewWriter(w)
	for _, d := range run.Diagnostics() {
		sev := d.Severity.String()
		switch d.Severity {
		case level.Error:
			sev = paint(ansiRed, "error")
		case level.Warn:
			sev = paint(ansiYellow, "warn ")
		}
		fmt.Fprintf(bw, "%s %s %s %s\n", paint(ansiBold, location(d.File, d)), sev, paint(ansiDim, d.RuleID), d.Message)
	}
	if len(run.Results) > 0 {
		bw.WriteString("\n")
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		for _, r := range run.Results {
			c := countAll(r.Diagnostics)
			m, ok := Maturity(r)
			status := "not loaded"
			if ok {
				status = "maturity " + paint(ansiGreen, m.String())
			}
			format := r.Format
			if format == "" {
				format = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.File, format, c, status)
		}
		tw.Flush()
	}
	s := Summarize(run.Results)
	line := fmt.Sprintf("%d %s, %s", s.Files, plural(s.Files, "file"), counts{s.Errors, s.Warnings})
	if run.Elapsed > 0 {
		line += fmt.Sprintf(" in %s", run.Elapsed.Round(time.Millisecond))
	}
	fmt.Fprintln(bw, line)
	return bw.Flush()
}
