package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/internal/level"
)

//go:embed html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use, not at start-up, which every
// command would pay.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{"slug": slug}).Parse(htmlSource))
})

// slug makes a status a class name: "not covered" is sev-not-covered.
func slug(s CoverageStatus) string { return strings.ReplaceAll(string(s), " ", "-") }

// The html report is one template family (html.tmpl): a page frame
// ("top", "bottom") around the sections of a lint run, a compat run or a
// test run. Every table of class "filterable" gets the same script:
// column filters (a choice list or a text box above a column, data-col
// naming the column), sorting by a click on a header, counts that follow
// the filters (data-count), links that set filters (data-filters), and for
// the tests table rows grouped by the five identifiers (data-group).

type (
	htmlPage struct {
		Title     string
		About     string
		Generated string
		Lint      *htmlLint
		Compat    *htmlCompat
		Tests     *htmlTests
	}

	htmlLint struct {
		Total    counts
		Files    []htmlFile
		Findings []htmlFinding
		// Choices of the column filters, sorted.
		RuleIDs, Severities, Categories, FileNames []string
		Operations                                 []htmlOperations
		Rules                                      []htmlRule
	}
	htmlFile struct {
		Name, Format string
		Counts       counts
		Loaded       bool
		Maturity     level.Maturity
	}
	htmlFinding struct {
		*Finding
		Severity    string
		SeverityKey int // sorts errors first
		Line, Col   int
	}
	htmlOperations struct {
		File string
		Rows []htmlOperationRow
	}
	htmlOperationRow struct {
		OperationRow
		// Path and Method name the operation; File and Pointer are where
		// it is written; Filters set the findings table's filters to it.
		Path, Method, File, Pointer, Filters string
		First                                bool // the operation's first row
		Span                                 int  // rows of the operation
		Counts                               counts
	}
	htmlRule struct {
		ID, Title, Category, Maturity, Severity, DocURL string
		Description, HowToFix                           []string // paragraphs
		Count                                           int
	}

	htmlCompat struct {
		Base, Commit, Verdict, Summary string
		Specs                          []htmlSpec
		Changes                        []htmlChange
		// Choices of the column filters, sorted.
		SpecNames, Levels, RuleIDs []string
	}
	htmlSpec struct {
		Name, Format, Verdict, Message string
	}
	htmlChange struct {
		Spec, Level, Rule, Operations, Location, Message, Why string
		// Other is the change's place in the other version.
		Other string
		Fails bool
	}

	htmlTests struct {
		Summary  TestSummary
		Duration string
		Coverage []htmlCoverage
		// Choices of the column filters, sorted.
		Paths, Methods, RequestTypes, Statuses, ResponseTypes, Results []string
	}
	htmlCoverage struct {
		Spec    string
		Metrics CoverageMetrics
		Rows    []htmlCoverageRow
	}
	htmlCoverageRow struct {
		CoverageRow
		First   bool // the operation's first row
		Span    int  // rows of the operation
		Filters string
	}
	htmlTest struct {
		*Test
		Key       [5]string // the five identifiers, "-" for none
		Duration  string
		Millis    int64
		Exchanges []htmlExchange
		Attempts  []htmlAttempt
		Fixtures  []htmlFixture
	}
	htmlExchange struct {
		Attempt           int
		Probe             string
		Request, Response string
		Error             string
	}
	htmlAttempt struct {
		Attempt          int
		Status, Duration string
		Message          string
	}
	htmlFixture struct {
		Name, Phase, Status, Message string
		Exchanges                    []htmlExchange
	}
)

// WriteHTML writes one self-contained page (styles and script inline, a
// content security policy that lets it load nothing): for lint, the files,
// the findings in a table sortable and filterable by every column with
// counts that follow the filters, each file's operations with their
// findings inside, and the documentation of every rule that reported; for
// compat, the verdict on each specification and its changes; for a test
// run, the coverage of each specification, its operations grouped by the
// five identifiers, and the tests with their requests and responses.
func WriteHTML(w io.Writer, run *Run) error {
	switch {
	case run.Compat != nil:
		return htmlTemplate().ExecuteTemplate(w, "compat", compatPage(run))
	case run.Files == nil && (run.Tests != nil || run.Coverage != nil):
		return writeTests(w, run, htmlStream)
	}
	return htmlTemplate().ExecuteTemplate(w, "lint", lintPage(run))
}

func (run *Run) generated() string {
	if run.Start.IsZero() {
		return ""
	}
	return run.Start.UTC().Format("2006-01-02 15:04 UTC")
}

func lintPage(run *Run) *htmlPage {
	page := &htmlPage{Title: run.Tool.Name + " lint report", About: run.Tool.describe(), Generated: run.generated(), Lint: &htmlLint{}}
	lint := page.Lint
	rules := map[string]int{}
	var ruleIDs, sevs, cats, files []string
	for i := range run.Files {
		r := &run.Files[i]
		f := htmlFile{Name: r.Name, Format: r.Format, Counts: countAll(r.Findings)}
		f.Maturity, f.Loaded = r.Maturity()
		lint.Files = append(lint.Files, f)
		files = appendNew(files, r.Name)
		lint.Total.Errors += f.Counts.Errors
		lint.Total.Warnings += f.Counts.Warnings
		for j := range r.Findings {
			d := &r.Findings[j]
			lint.Findings = append(lint.Findings, htmlFinding{Finding: d, Severity: d.Severity.String(),
				SeverityKey: int(d.Severity), Line: int(d.Range.Start.Line), Col: int(d.Range.Start.Col)})
			rules[d.Rule]++
			ruleIDs = appendNew(ruleIDs, d.Rule)
			sevs = appendNew(sevs, d.Severity.String())
			if d.Category != "" {
				cats = appendNew(cats, d.Category)
			}
			files = appendNew(files, d.File)
		}
		if r.Operations != nil {
			for _, op := range r.Operations {
				files = appendNew(files, op.at.file)
			}
			lint.Operations = append(lint.Operations, htmlOperations{File: r.Name, Rows: operationRows(r.Operations, r.Findings)})
		}
	}
	for _, s := range [][]string{ruleIDs, cats, files} {
		slices.Sort(s)
	}
	slices.SortFunc(sevs, func(a, b string) int { return severityRank(b) - severityRank(a) })
	lint.RuleIDs, lint.Severities, lint.Categories, lint.FileNames = ruleIDs, sevs, cats, files
	for _, id := range ruleIDs {
		title, desc := run.ruleText(id)
		hr := htmlRule{ID: id, Title: title, Description: paragraphs(desc), Count: rules[id]}
		if rule := run.Rule(id); rule != nil {
			hr.HowToFix, hr.Category, hr.Maturity, hr.Severity = paragraphs(rule.HowToFix), rule.Category, rule.Maturity, rule.Severity.String()
			hr.DocURL = rule.DocURL
		}
		lint.Rules = append(lint.Rules, hr)
	}
	return page
}

// The columns of the lint findings table that operation links filter.
const (
	lintFileColumn = "3"
	lintPathColumn = "5"
)

func operationRows(ops []Operation, fs []Finding) []htmlOperationRow {
	var rows []htmlOperationRow
	for _, op := range ops {
		var inside []*Finding
		for i := range fs {
			if op.at.holds(&fs[i]) {
				inside = append(inside, &fs[i])
			}
		}
		filters := url.Values{lintFileColumn: {op.at.file}, lintPathColumn: {op.at.pointer}}.Encode()
		for i, row := range op.Rows {
			hr := htmlOperationRow{OperationRow: row, Path: op.Path, Method: op.Method, File: op.at.file, Pointer: op.at.pointer,
				Filters: filters, First: i == 0, Span: len(op.Rows)}
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

func compatPage(run *Run) *htmlPage {
	c := run.Compat
	title := "Backward compatibility against " + c.Base
	page := &htmlPage{Title: title, Generated: run.generated(),
		Compat: &htmlCompat{Base: c.Base, Commit: c.Commit, Verdict: c.Verdict, Summary: compatSummary(c)}}
	hc := page.Compat
	for i := range run.Files {
		f := &run.Files[i]
		hc.Specs = append(hc.Specs, htmlSpec{Name: f.Name, Format: f.Format, Verdict: f.Verdict.Verdict, Message: f.Verdict.Message})
		hc.SpecNames = appendNew(hc.SpecNames, f.Name)
		for j := range f.Findings {
			x := &f.Findings[j]
			if !run.compatShown(x) {
				continue
			}
			hc.Changes = append(hc.Changes, htmlChange{Spec: f.Name, Level: x.Change.Level, Rule: x.Rule,
				Operations: strings.Join(x.Change.Operations, ", "), Location: compatWhere(f, x), Other: compatOther(f, x), Message: x.Message, Why: x.Change.Why,
				Fails: x.Change.Fails})
			hc.Levels = appendNew(hc.Levels, x.Change.Level)
			hc.RuleIDs = appendNew(hc.RuleIDs, x.Rule)
		}
	}
	slices.Sort(hc.SpecNames)
	slices.Sort(hc.RuleIDs)
	order := []string{"breaking", "warning", "info"}
	slices.SortFunc(hc.Levels, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
	return page
}

// testsPage is the head of a test run's page: everything but the rows of
// the tests table, which follow one at a time (see htmlStream).
func testsPage(run *Run, sum TestSummary, cov []Coverage, choices *testChoices) *htmlPage {
	title := run.Tool.Name + " test report"
	switch run.Kind {
	case StubUsage:
		title = run.Tool.Name + " stub usage report"
	case Workflow:
		title = run.Tool.Name + " workflow report"
	}
	ht := &htmlTests{Summary: sum}
	if !sum.Start.IsZero() && !sum.Stop.IsZero() {
		ht.Duration = sum.Stop.Sub(sum.Start).Round(time.Millisecond).String()
	}
	for i := range cov {
		ht.Coverage = append(ht.Coverage, htmlCoverage{Spec: cov[i].Spec, Metrics: cov[i].Metrics(), Rows: coverageRows(cov[i].Operations)})
	}
	ht.Paths, ht.Methods, ht.RequestTypes, ht.Statuses, ht.ResponseTypes, ht.Results = choices.sorted()
	return &htmlPage{Title: title, About: run.Tool.describe(), Generated: run.generated(), Tests: ht}
}

// coverageRows groups the rows of a coverage by operation (path and
// method), in the order the operations first appear.
func coverageRows(rows []CoverageRow) []htmlCoverageRow {
	type op struct{ path, method string }
	var order []op
	byOp := map[op][]CoverageRow{}
	for _, r := range rows {
		k := op{r.Path, r.Method}
		if _, ok := byOp[k]; !ok {
			order = append(order, k)
		}
		byOp[k] = append(byOp[k], r)
	}
	var out []htmlCoverageRow
	for _, k := range order {
		group := byOp[k]
		for i, r := range group {
			hr := htmlCoverageRow{CoverageRow: r, First: i == 0, Span: len(group)}
			if r.Tests > 0 {
				key := keyCells(r.OperationKey)
				hr.Filters = url.Values{"0": {key[0]}, "1": {key[1]}, "2": {key[2]}, "3": {key[3]}, "4": {key[4]}}.Encode()
			}
			out = append(out, hr)
		}
	}
	return out
}

// keyCells are the five identifiers as the tests table shows them: "-"
// for an empty one, so that a filter can choose it.
func keyCells(k OperationKey) [5]string {
	cells := [5]string{k.Path, k.Method, k.RequestType, k.Status, k.ResponseType}
	for i, c := range cells {
		if c == "" {
			cells[i] = "-"
		}
	}
	return cells
}

// testChoices collects the values of the tests table's filtered columns.
type testChoices struct {
	sets [6]map[string]bool // path, method, request type, status, response type, result
}

func (c *testChoices) add(t *Test) {
	key := keyCells(t.Operation)
	for i, v := range append(key[:], string(t.Status)) {
		if c.sets[i] == nil {
			c.sets[i] = map[string]bool{}
		}
		c.sets[i][v] = true
	}
}

func (c *testChoices) sorted() (paths, methods, requestTypes, statuses, responseTypes, results []string) {
	var out [6][]string
	for i, set := range c.sets {
		for v := range set {
			out[i] = append(out[i], v)
		}
		sort.Strings(out[i])
	}
	slices.SortFunc(out[5], func(a, b string) int {
		return slices.Index(Statuses, Status(a)) - slices.Index(Statuses, Status(b))
	})
	return out[0], out[1], out[2], out[3], out[4], out[5]
}

// htmlBodyLimit is the most of a body the page shows; the CTRF report has
// what the test kept (MaxBody).
const htmlBodyLimit = 16 << 10

func newHTMLTest(t *Test) htmlTest {
	ht := htmlTest{Test: t, Key: keyCells(t.Operation), Millis: t.Duration.Milliseconds()}
	if t.Duration > 0 {
		ht.Duration = t.Duration.Round(time.Millisecond).String()
	}
	ht.Exchanges = htmlExchanges(t.Outputs)
	for _, a := range t.Attempts {
		ha := htmlAttempt{Attempt: a.Attempt, Status: string(a.Status), Message: a.Message}
		if a.Duration > 0 {
			ha.Duration = a.Duration.Round(time.Millisecond).String()
		}
		ht.Attempts = append(ht.Attempts, ha)
	}
	for _, f := range t.Fixtures {
		ht.Fixtures = append(ht.Fixtures, htmlFixture{Name: f.Name, Phase: f.Phase, Status: string(f.Status), Message: f.Message,
			Exchanges: htmlExchanges(f.Outputs)})
	}
	return ht
}

func htmlExchanges(xs []Exchange) []htmlExchange {
	var out []htmlExchange
	for i := range xs {
		x := &xs[i]
		hx := htmlExchange{Attempt: x.Attempt, Probe: x.Probe, Error: x.Error}
		var b strings.Builder
		b.WriteString(x.Request.Method + " " + x.Request.URL + "\n")
		writeHTTP(&b, x.Request.Headers, x.Request.Body)
		hx.Request = b.String()
		if x.Response != nil {
			b.Reset()
			fmt.Fprintf(&b, "%d %s\n", x.Response.Status, http.StatusText(x.Response.Status))
			writeHTTP(&b, x.Response.Headers, x.Response.Body)
			hx.Response = b.String()
		}
		out = append(out, hx)
	}
	return out
}

// writeHTTP writes headers (sorted) and a body as an HTTP message shows
// them.
func writeHTTP(b *strings.Builder, headers map[string][]string, body *Body) {
	names := make([]string, 0, len(headers))
	for name := range headers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range headers[name] {
			b.WriteString(name + ": " + v + "\n")
		}
	}
	if body == nil {
		return
	}
	b.WriteString("\n")
	switch {
	case body.Text != "":
		text := body.Text
		if len(text) > htmlBodyLimit {
			text = strings.ToValidUTF8(text[:htmlBodyLimit], "")
		}
		b.WriteString(text)
		if len(text) < body.Size {
			fmt.Fprintf(b, "\n… (%d of %d bytes shown)", len(text), body.Size)
		}
	default:
		fmt.Fprintf(b, "(%d bytes of binary content)", body.Size)
	}
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

func severityRank(name string) int {
	s, _ := level.ParseSeverity(name)
	return int(s)
}
