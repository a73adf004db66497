package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/specgate/specgate/linter"
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
	s := Summarize(run.Results)
	fmt.Fprintf(bw, "## %s lint\n\n", run.Tool.Name)
	fmt.Fprintf(bw, "**%d %s, %s**", s.Files, plural(s.Files, "file"), counts{s.Errors, s.Warnings})
	if about := run.Tool.describe(); about != "" {
		fmt.Fprintf(bw, " · %s", about)
	}
	bw.WriteString("\n\n| File | Format | Errors | Warnings | Maturity |\n|---|---|---:|---:|---|\n")
	for _, r := range run.Results {
		c := countAll(r.Diagnostics)
		maturity := "not loaded"
		if m, ok := Maturity(r); ok {
			maturity = m.with("**" + m.Level + "**")
		}
		format := r.Format
		if format == "" {
			format = "-"
		}
		fmt.Fprintf(bw, "| %s | %s | %d | %d | %s |\n", mdCell.Replace(r.File), mdCell.Replace(format), c.Errors, c.Warnings, maturity)
	}
	ds := run.Diagnostics()
	if len(ds) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>Findings (%d)</summary>\n\n", len(ds))
		bw.WriteString("| Severity | Rule | Location | Message |\n|---|---|---|---|\n")
		for i, d := range ds {
			if i == MarkdownMaxFindings {
				fmt.Fprintf(bw, "\n… and %d more: see the full report.\n", len(ds)-i)
				break
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", d.Severity, mdRule(d), mdCell.Replace(location(d.File, d)), mdCell.Replace(d.Message))
		}
		bw.WriteString("\n</details>\n")
	}
	return bw.Flush()
}

func mdRule(d linter.Diagnostic) string {
	if u := d.DocURL(); u != "" {
		return "[" + d.RuleID + "](" + u + ")"
	}
	return d.RuleID
}

// describe names the rules of the run: "ruleset strict, 31 rules".
func (t Tool) describe() string {
	var parts []string
	if t.Profile != "" {
		parts = append(parts, "profile "+t.Profile)
	}
	if t.Ruleset != "" {
		parts = append(parts, "ruleset "+t.Ruleset)
	}
	if t.RuleCount > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", t.RuleCount, plural(t.RuleCount, "rule")))
	}
	return strings.Join(parts, ", ")
}
