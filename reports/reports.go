// Package reports writes what specgate's commands find and test, in every
// output format, from one model (model.go): a Run of Files with their
// Findings (lint, validate, backward compatibility) or of Tests with their
// HTTP exchanges and the Coverage of each specification (contract tests,
// the mock's stub usage, workflows). Producers convert their own results
// into the model (reports/lintreport for lint, compat's Report.Run for
// compat); writers read nothing else.
//
// One writer per format, one file each: stylish (the terminal), json,
// html, sarif, junit, ctrf, github (workflow annotations) and markdown for
// findings; ctrf, junit, html, json and a terminal summary for test
// results, written as the tests come by a Sink. Positions are 1-based
// everywhere specgate writes them; a format that needs another base
// converts in its own writer. docs/reports.md describes every format.
package reports

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/level"
)

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

// Formats lists every format of findings, in the order of the
// documentation.
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

// Findings returns every finding of the run, in file order. The slice may
// be a file's own: callers read it and do not modify it.
func (run *Run) Findings() []Finding {
	if len(run.Files) == 1 {
		return run.Files[0].Findings
	}
	n := 0
	for i := range run.Files {
		n += len(run.Files[i].Findings)
	}
	out := make([]Finding, 0, n)
	for i := range run.Files {
		out = append(out, run.Files[i].Findings...)
	}
	return out
}

// Rule returns the rule with this id among those that ran, or nil.
func (run *Run) Rule(id string) *Rule {
	i := sort.Search(len(run.Rules), func(i int) bool { return run.Rules[i].ID >= id })
	if i < len(run.Rules) && run.Rules[i].ID == id {
		return &run.Rules[i]
	}
	return nil
}

// pipeline returns the pipeline rule with this id, or nil.
func (run *Run) pipeline(id string) *Rule {
	for i := range run.Pipeline {
		if run.Pipeline[i].ID == id {
			return &run.Pipeline[i]
		}
	}
	return nil
}

// RulesFor returns the ids of the rules that ran on a file (those whose
// formats cover the file's), plus any other rule id among its findings
// (the pipeline's), sorted. A file that did not load only has its
// findings' rules.
func (run *Run) RulesFor(f *File) []string {
	ids := map[string]bool{}
	if f.Loaded {
		tags := formatTags(f.Format)
		for i := range run.Rules {
			if run.Rules[i].AppliesTo(tags) {
				ids[run.Rules[i].ID] = true
			}
		}
	}
	for i := range f.Findings {
		ids[f.Findings[i].Rule] = true
	}
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// formatTags reads the format tags of a file's Format ("OpenAPI 3.1.0")
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

// ruleText returns a rule's title and description, for rules that ran and
// for the pipeline's own.
func (run *Run) ruleText(id string) (title, description string) {
	if r := run.Rule(id); r != nil {
		return r.Title, r.Description
	}
	if r := run.pipeline(id); r != nil {
		return r.Title, r.Description
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

// counts are findings counted by severity.
type counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

func (c *counts) add(f *Finding) {
	switch f.Severity {
	case level.Error:
		c.Errors++
	case level.Warn:
		c.Warnings++
	}
}

func (c counts) String() string {
	return fmt.Sprintf("%d %s, %d %s", c.Errors, english.Noun(c.Errors, "error", "errors"), c.Warnings, english.Noun(c.Warnings, "warning", "warnings"))
}

func countAll(fs []Finding) counts {
	var c counts
	for i := range fs {
		c.add(&fs[i])
	}
	return c
}

// count is "1 noun" or "n nouns" (english.Count of a regular noun), under
// the name the lint writers (stylish, markdown) call it by.
func count(n int, noun string) string { return english.Count(n, noun, noun+"s") }

// failing reports whether a finding fails the run: a change that fails
// its check, a finding at or above the fail severity, or a pipeline
// finding (its file did not load, or its rules did not finish).
func (run *Run) failing(f *Finding) bool {
	if f.Change != nil {
		return f.Change.Fails
	}
	return run.FailSeverity != level.Off && f.Severity >= run.FailSeverity || run.pipeline(f.Rule) != nil
}

// worstSeverity is the highest severity among findings.
func worstSeverity(fs []Finding) string {
	worst := fs[0].Severity
	for i := range fs {
		worst = max(worst, fs[i].Severity)
	}
	return worst.String()
}

// findingLines lists findings for test logs, one a line:
// "file:line:col severity message (pointer)".
func findingLines(fs []Finding) string {
	var b strings.Builder
	for i := range fs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s %s %s", fs[i].Location(), fs[i].Severity, fs[i].Message)
		if fs[i].Pointer != "" {
			b.WriteString(" (" + fs[i].Pointer + ")")
		}
	}
	return b.String()
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
		parts = append(parts, english.Count(t.RuleCount, "rule", "rules"))
	}
	return strings.Join(parts, ", ")
}

// appendNew appends s unless list holds it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// ShortList joins the first n items with commas and says how many more
// there are, for messages that name a few of many.
func ShortList(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}
