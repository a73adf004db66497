package reports

import (
	_ "embed"
	"html/template"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
)

//go:embed html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use, not at start-up, which every
// command would pay.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(htmlSource))
})

type (
	htmlPage struct {
		Title     string
		About     string
		Generated string
		Total     counts
		Files     []htmlFile
		Findings  []htmlFinding
		// Choices of the column filters, sorted.
		RuleIDs, Severities, Categories, FileNames []string
		Operations                                 []htmlOperations
		Rules                                      []htmlRule
	}
	htmlFile struct {
		Name, Format string
		Counts       counts
		Loaded       bool
		Maturity     MaturityLevel
	}
	htmlFinding struct {
		linter.Diagnostic
		Severity    string
		SeverityKey int // sorts errors first
		Line, Col   int
		HasDoc      bool
	}
	htmlOperations struct {
		File string
		Rows []htmlOperationRow
	}
	htmlOperationRow struct {
		OperationRow
		// Path and Method name the operation; File and Pointer are where
		// it is written.
		Path, Method, File, Pointer string
		First                       bool // the operation's first row
		Span                        int  // rows of the operation
		Counts                      counts
	}
	htmlRule struct {
		ID, Title, Category, Maturity, Severity, DocURL string
		Description, HowToFix                           []string // paragraphs
		Count                                           int
	}
)

// WriteHTML writes one self-contained page (styles and script inline, a
// content security policy that lets it load nothing): the files with their
// counts and maturity; the findings in a table sortable by every column and
// filterable by rule, severity, category, file and path (JSON pointer),
// with counts that follow the filters; each file's operations by path,
// method, request content type, status and response content type, with the
// findings written inside them; and the documentation of every rule that
// reported, linked from the findings.
func WriteHTML(w io.Writer, run *Run) error {
	page := htmlPage{Title: run.Tool.Name + " lint report", About: run.Tool.describe()}
	if !run.Start.IsZero() {
		page.Generated = run.Start.UTC().Format("2006-01-02 15:04 UTC")
	}
	rules := map[string]int{}
	var ruleIDs, sevs, cats, files []string
	for _, r := range run.Results {
		f := htmlFile{Name: r.File, Format: r.Format, Counts: countAll(r.Diagnostics)}
		f.Maturity, f.Loaded = Maturity(r)
		page.Files = append(page.Files, f)
		files = appendNew(files, r.File)
		page.Total.Errors += f.Counts.Errors
		page.Total.Warnings += f.Counts.Warnings
		for _, d := range r.Diagnostics {
			page.Findings = append(page.Findings, htmlFinding{Diagnostic: d, Severity: d.Severity.String(),
				SeverityKey: int(d.Severity), Line: int(d.Range.Start.Line), Col: int(d.Range.Start.Col), HasDoc: d.DocURL() != ""})
			rules[d.RuleID]++
			ruleIDs = appendNew(ruleIDs, d.RuleID)
			sevs = appendNew(sevs, d.Severity.String())
			if d.Category != "" {
				cats = appendNew(cats, d.Category)
			}
			files = appendNew(files, d.File)
		}
		if ops, ok := run.Operations[r.File]; ok {
			for _, op := range ops {
				files = appendNew(files, op.at.file)
			}
			page.Operations = append(page.Operations, htmlOperations{File: r.File, Rows: operationRows(ops, r.Diagnostics)})
		}
	}
	for _, s := range [][]string{ruleIDs, cats, files} {
		slices.Sort(s)
	}
	slices.SortFunc(sevs, func(a, b string) int { return severityRank(b) - severityRank(a) })
	page.RuleIDs, page.Severities, page.Categories, page.FileNames = ruleIDs, sevs, cats, files
	for _, id := range ruleIDs {
		title, desc := run.ruleText(id)
		hr := htmlRule{ID: id, Title: title, Description: paragraphs(desc), Count: rules[id]}
		if rule := run.Rule(id); rule != nil {
			hr.HowToFix, hr.Category, hr.Maturity, hr.Severity = paragraphs(rule.HowToFix), rule.Category, rule.Maturity, rule.Severity.String()
			hr.DocURL = linter.DocsURL + id + ".md"
		}
		page.Rules = append(page.Rules, hr)
	}
	return htmlTemplate().Execute(w, page)
}

func operationRows(ops []Operation, ds []linter.Diagnostic) []htmlOperationRow {
	var rows []htmlOperationRow
	for _, op := range ops {
		var inside []linter.Diagnostic
		for _, d := range ds {
			if op.at.holds(d) {
				inside = append(inside, d)
			}
		}
		for i, row := range op.Rows {
			hr := htmlOperationRow{OperationRow: row, Path: op.Path, Method: op.Method, File: op.at.file, Pointer: op.at.pointer,
				First: i == 0, Span: len(op.Rows)}
			for _, d := range inside {
				if op.concerns(row, d) {
					hr.Counts.add(d)
				}
			}
			rows = append(rows, hr)
		}
	}
	return rows
}

// paragraphs splits text at blank lines and unwraps each paragraph.
func paragraphs(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func severityRank(name string) int {
	s, _ := level.ParseSeverity(name)
	return int(s)
}
