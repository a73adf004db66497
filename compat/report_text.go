package compat

import (
	"fmt"
	"io"
	"strings"
)

const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
)

// WriteText writes each specification's verdict, then one line per change
// ("file:line:col level rule-id operations: message; why"), then a
// summary line.
func WriteText(w io.Writer, rep *Report, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	var b strings.Builder
	for i := range rep.Results {
		r := &rep.Results[i]
		verdict := paint(ansiGreen, "compatible")
		switch r.Verdict {
		case Incompatible:
			verdict = paint(ansiRed, "INCOMPATIBLE")
		case Error:
			verdict = paint(ansiRed, "ERROR")
		case Skipped:
			verdict = paint(ansiYellow, "skipped")
		}
		fmt.Fprintf(&b, "%s %s\n", verdict, r.Message)
		for j := range r.Changes {
			c := &r.Changes[j]
			if !rep.shown(c) {
				continue
			}
			level := c.Level.String()
			switch {
			case Fails(*c, rep.Strict):
				level = paint(ansiRed, level)
			case c.Level == Warning:
				level = paint(ansiYellow, level)
			}
			fmt.Fprintf(&b, "  %s %s %s %s: %s; %s\n", paint(ansiBold, where(r, c)), level, paint(ansiDim, c.RuleID),
				shortList(c.Operations), c.Message, c.Why)
		}
	}
	b.WriteString(summaryLine(rep))
	if !rep.ShowInfo && rep.Totals().Info > 0 {
		b.WriteString(" (--show-info lists them)")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// summaryLine counts verdicts and changes: "2 specifications checked
// against main: 1 compatible, 1 incompatible; 3 breaking changes, …".
func summaryLine(rep *Report) string {
	t := rep.Totals()
	var b strings.Builder
	fmt.Fprintf(&b, "%s checked against %s: %d compatible, %d incompatible", count(t.Specs, "specification"), rep.Base, t.Compatible, t.Incompatible)
	if t.Errors > 0 {
		fmt.Fprintf(&b, ", %d not checked (errors)", t.Errors)
	}
	if t.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", t.Skipped)
	}
	fmt.Fprintf(&b, "; %s, %s, %d info", count(t.Breaking, "breaking change"), count(t.Warnings, "warning"), t.Info)
	if rep.Strict {
		b.WriteString(" (strict: warnings fail)")
	}
	return b.String()
}
