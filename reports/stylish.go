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

// painter colours text with an ANSI code when color is set.
func painter(color bool) func(code, s string) string {
	return func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
}

// WriteStylish writes the terminal format. For lint: one line per finding,
// "file:line:col severity rule-id message" (a form editors and terminals
// make clickable), then one line per file with its counts and maturity,
// then the totals. For compat: each specification's verdict and its
// changes, then the totals. For a test run: the terminal summary
// (WriteTestSummary).
func WriteStylish(w io.Writer, run *Run) error {
	switch {
	case run.Compat != nil:
		return writeCompatText(w, run)
	case run.Files == nil && (run.Tests != nil || run.Coverage != nil):
		return writeTests(w, run, summaryStream)
	}
	paint := painter(run.Color)
	bw := bufio.NewWriter(w)
	for i := range run.Files {
		fs := run.Files[i].Findings
		for j := range fs {
			f := &fs[j]
			sev := f.Severity.String()
			switch f.Severity {
			case level.Error:
				sev = paint(ansiRed, "error")
			case level.Warn:
				sev = paint(ansiYellow, "warn ")
			}
			fmt.Fprintf(bw, "%s %s %s %s\n", paint(ansiBold, f.Location()), sev, paint(ansiDim, f.Rule), f.Message)
		}
	}
	if len(run.Files) > 0 {
		bw.WriteString("\n")
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		for i := range run.Files {
			f := &run.Files[i]
			c := countAll(f.Findings)
			m, ok := f.Maturity()
			status := "not loaded"
			if ok {
				status = "maturity " + paint(ansiGreen, m.String())
			}
			format := f.Format
			if format == "" {
				format = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, format, c, status)
		}
		tw.Flush()
	}
	s := Summarize(run.Files)
	line := fmt.Sprintf("%s, %s", count(s.Files, "file"), counts{s.Errors, s.Warnings})
	if run.Elapsed > 0 {
		line += fmt.Sprintf(" in %s", run.Elapsed.Round(time.Millisecond))
	}
	fmt.Fprintln(bw, line)
	return bw.Flush()
}
