package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// MarkdownMaxFindings caps the findings listed in the markdown summary, so
// that it fits a pull-request comment; the rest are counted.
const MarkdownMaxFindings = 200

// mdCell makes text safe inside a markdown table cell.
var mdCell = strings.NewReplacer("|", "\\|", "\r\n", " ", "\n", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;")

// WriteMarkdown writes a summary for a pull-request comment or a job
// summary: the totals, a table of files with their counts and maturity, and
// the findings (up to MarkdownMaxFindings) in a collapsible section.
func WriteMarkdown(w io.Writer, run *Run) error {
	bw := bufio.NewWriter(w)
	s := Summarize(run.Files)
	fmt.Fprintf(bw, "## %s lint\n\n", run.Tool.Name)
	fmt.Fprintf(bw, "**%s, %s**", count(s.Files, "file"), counts{s.Errors, s.Warnings})
	if about := run.Tool.describe(); about != "" {
		fmt.Fprintf(bw, " · %s", about)
	}
	bw.WriteString("\n\n| File | Format | Errors | Warnings | Maturity |\n|---|---|---:|---:|---|\n")
	for i := range run.Files {
		f := &run.Files[i]
		c := countAll(f.Findings)
		maturity := "not loaded"
		if m, ok := f.Maturity(); ok {
			maturity = m.With("**" + m.Level + "**")
		}
		format := f.Format
		if format == "" {
			format = "-"
		}
		fmt.Fprintf(bw, "| %s | %s | %d | %d | %s |\n", mdCell.Replace(f.Name), mdCell.Replace(format), c.Errors, c.Warnings, maturity)
	}
	fs := run.Findings()
	if len(fs) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>Findings (%d)</summary>\n\n", len(fs))
		bw.WriteString("| Severity | Rule | Location | Message |\n|---|---|---|---|\n")
		for i := range fs {
			if i == MarkdownMaxFindings {
				fmt.Fprintf(bw, "\n… and %d more: see the full report.\n", len(fs)-i)
				break
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", fs[i].Severity, mdRule(&fs[i]), mdCell.Replace(fs[i].Location()), mdCell.Replace(fs[i].Message))
		}
		bw.WriteString("\n</details>\n")
	}
	return bw.Flush()
}

func mdRule(f *Finding) string {
	if f.DocURL != "" {
		return "[" + f.Rule + "](" + f.DocURL + ")"
	}
	return f.Rule
}
