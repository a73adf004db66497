// Package reports writes lint results in each output format, one file per
// format: stylish (the terminal), json, html, sarif, junit, ctrf, github
// (workflow annotations) and markdown. Positions are 1-based everywhere
// specgate writes them; a format that needs another base converts in its own
// writer. docs/reports.md describes every format.
package reports

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
)

// Run is one lint run: everything a report may show.
type Run struct {
	Tool    Tool
	Results []linter.Result
	// Rules are the rules that ran, with their severity in this run,
	// sorted by id. Reports that list rules (sarif, junit, ctrf, html) read
	// titles, descriptions and how-to-fix text from here.
	Rules []RunRule
	// FailSeverity is the lowest severity that fails the run (--fail-severity):
	// junit and ctrf fail a test when it has a diagnostic at or above it.
	FailSeverity level.Severity
	// Start is when the run began; the zero time leaves timestamps out.
	Start time.Time
	// Elapsed is how long the run took; zero leaves durations out.
	Elapsed time.Duration
	// Dir is the absolute folder that relative file names are relative to
	// (the working directory), and Root the repository root that SARIF and
	// GitHub annotations make paths relative to. With Root empty, file names
	// are written as given.
	Dir, Root string
	// Operations lists each loaded file's operations, by Result.File, for
	// the html report; files without an entry have no operations table.
	Operations map[string][]Operation
	// Color paints the stylish format with ANSI colours.
	Color bool
}

// RunRule is a rule that ran, at its severity in the run.
type RunRule struct {
	*policy.Rule
	Severity level.Severity
}

// RunRules are the enabled rules of a registry, at their severities,
// sorted by id: a Run's Rules.
func RunRules(reg *policy.Registry, sevs rulesets.Severities) []RunRule {
	var out []RunRule
	for _, id := range sevs.Enabled() {
		if r := reg.Rule(id); r != nil {
			out = append(out, RunRule{Rule: r, Severity: sevs[id]})
		}
	}
	return out
}

// Writer writes one format.
type Writer func(w io.Writer, run *Run) error

// Format describes one output format.
type Format struct {
	Name  string
	Write Writer
	// Text formats are plain lines meant for people or CI logs; several can
	// share standard output. A structured format (one document) cannot.
	Text bool
	// Ext is the usual file extension, for documentation and defaults.
	Ext string
}

// Formats lists every format, in the order of the documentation.
var Formats = []Format{
	{Name: "stylish", Write: WriteStylish, Text: true, Ext: ".txt"},
	{Name: "json", Write: WriteJSON, Ext: ".json"},
	{Name: "html", Write: WriteHTML, Ext: ".html"},
	{Name: "sarif", Write: WriteSARIF, Ext: ".sarif"},
	{Name: "junit", Write: WriteJUnit, Ext: ".xml"},
	{Name: "ctrf", Write: WriteCTRF, Ext: ".json"},
	{Name: "github", Write: WriteGitHub, Text: true, Ext: ".txt"},
	{Name: "markdown", Write: WriteMarkdown, Text: true, Ext: ".md"},
}

// aliases are other names accepted for a format.
var aliases = map[string]string{"text": "stylish", "md": "markdown"}

// Lookup finds a format by name or alias.
func Lookup(name string) (Format, bool) {
	name = strings.ToLower(name)
	if real, ok := aliases[name]; ok {
		name = real
	}
	for _, f := range Formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames lists the format names, for help and error messages.
func FormatNames() []string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return names
}

// Diagnostics returns every diagnostic of the run, in result order. The
// slice may be a result's own: callers read it and do not modify it.
func (run *Run) Diagnostics() []linter.Diagnostic {
	if len(run.Results) == 1 {
		return run.Results[0].Diagnostics
	}
	n := 0
	for _, r := range run.Results {
		n += len(r.Diagnostics)
	}
	out := make([]linter.Diagnostic, 0, n)
	for _, r := range run.Results {
		out = append(out, r.Diagnostics...)
	}
	return out
}

// Rule returns the rule with this id among those that ran, or nil.
func (run *Run) Rule(id string) *RunRule {
	i := sort.Search(len(run.Rules), func(i int) bool { return run.Rules[i].ID >= id })
	if i < len(run.Rules) && run.Rules[i].ID == id {
		return &run.Rules[i]
	}
	return nil
}

// RulesFor returns the ids of the rules that ran on a result's file (those
// whose formats cover the file's), plus any other rule id among its
// diagnostics (the pipeline's load-error and eval-timeout), sorted. A file
// that did not load only has its diagnostics' rules.
func (run *Run) RulesFor(r linter.Result) []string {
	ids := map[string]bool{}
	if r.Err == nil {
		tags := formatTags(r.Format)
		for _, rule := range run.Rules {
			if rule.AppliesTo(tags) {
				ids[rule.ID] = true
			}
		}
	}
	for _, d := range r.Diagnostics {
		ids[d.RuleID] = true
	}
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// formatTags reads the format tags of a result's Format ("OpenAPI 3.1.0")
// as spec.Document.FormatTags gives them, which rule formats are matched
// against.
func formatTags(format string) []string {
	kind, version, _ := strings.Cut(format, " ")
	parts := strings.SplitN(version, ".", 3)
	major := parts[0]
	minor := "0"
	if len(parts) > 1 {
		minor = parts[1]
	}
	switch kind {
	case "Swagger":
		return []string{"oas", "oas2"}
	case "OpenAPI":
		return []string{"oas", "oas3", "oas3." + minor}
	case "AsyncAPI":
		return []string{"asyncapi", "asyncapi" + major}
	case "Arazzo":
		return []string{"arazzo", "arazzo1"}
	}
	return nil
}

// Pipeline rules have no rule metadata; their descriptions live here.
var pipelineRules = map[string][2]string{
	linter.LoadErrorRule: {"The file can be loaded", "The file could be read and parsed as an API specification; when it cannot, no rule runs on it."},
	linter.TimeoutRule:   {"Rules finish in time", "Evaluating the rules on the file finished within --timeout; when it does not, no result is reported for the file."},
}

// ruleText returns a rule's title and description, for rules that ran and
// for the pipeline's own.
func (run *Run) ruleText(id string) (title, description string) {
	if r := run.Rule(id); r != nil {
		return r.Title, r.Description
	}
	if t, ok := pipelineRules[id]; ok {
		return t[0], t[1]
	}
	return id, ""
}

// RepoPath is a file name as SARIF and GitHub annotations want it: relative
// to the repository root, with forward slashes. ok is false when the file
// lies outside the root, is a URL or standard input; path is then the name
// as given.
func (run *Run) RepoPath(file string) (path string, ok bool) {
	if isURL(file) || run.Root == "" || file == "<stdin>" {
		return filepath.ToSlash(file), run.Root == "" && !isURL(file) && file != "<stdin>"
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(run.Dir, file)
	}
	rel, err := filepath.Rel(run.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(file), false
	}
	return filepath.ToSlash(rel), true
}

// fileURI is a URI reference for a file: repository-relative when it can
// be, else an absolute file: URI or the URL itself.
func (run *Run) fileURI(file string) string {
	if isURL(file) {
		return file
	}
	if p, ok := run.RepoPath(file); ok {
		return (&url.URL{Path: p}).String()
	}
	if file == "<stdin>" {
		return "stdin"
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(run.Dir, file)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func isURL(name string) bool {
	return strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
}

// counts are diagnostics counted by severity.
type counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

func (c *counts) add(d linter.Diagnostic) {
	switch d.Severity {
	case level.Error:
		c.Errors++
	case level.Warn:
		c.Warnings++
	}
}

func (c counts) String() string {
	return fmt.Sprintf("%d %s, %d %s", c.Errors, plural(c.Errors, "error"), c.Warnings, plural(c.Warnings, "warning"))
}

func countAll(ds []linter.Diagnostic) counts {
	var c counts
	for _, d := range ds {
		c.add(d)
	}
	return c
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// location is "file:line:col", or the file alone when the diagnostic has
// no position.
func location(file string, d linter.Diagnostic) string {
	if d.Range.Start.Line == 0 {
		return file
	}
	return file + ":" + strconv.Itoa(int(d.Range.Start.Line)) + ":" + strconv.Itoa(int(d.Range.Start.Col))
}

// failing reports whether a diagnostic fails the run.
func (run *Run) failing(d linter.Diagnostic) bool {
	return run.FailSeverity != level.Off && d.Severity >= run.FailSeverity
}

// ruleGroup is the diagnostics of one rule on one file: one test of the
// junit and ctrf formats.
type ruleGroup struct {
	RuleID      string
	Diagnostics []linter.Diagnostic
}

// byRule groups a result's diagnostics under every rule that ran on it.
func (run *Run) byRule(r linter.Result) []ruleGroup {
	ids := run.RulesFor(r)
	groups := make([]ruleGroup, len(ids))
	index := map[string]int{}
	for i, id := range ids {
		groups[i].RuleID = id
		index[id] = i
	}
	for _, d := range r.Diagnostics {
		g := &groups[index[d.RuleID]]
		g.Diagnostics = append(g.Diagnostics, d)
	}
	return groups
}

// groupFailed reports whether a test fails: when one of its diagnostics
// fails the run, or comes from the pipeline (the file did not load or its
// rules timed out), which always does.
func (run *Run) groupFailed(g ruleGroup) bool {
	for _, d := range g.Diagnostics {
		if run.failing(d) || d.RuleID == linter.LoadErrorRule || d.RuleID == linter.TimeoutRule {
			return true
		}
	}
	return false
}
