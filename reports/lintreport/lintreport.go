// Package lintreport turns the lint pipeline's results into the report
// model of package reports. It lives apart from reports so that reports
// does not import the linter, and through it the rule engine.
package lintreport

import (
	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/rulesets"
)

// Rules are the enabled rules of a registry, at their severities, sorted
// by id: a Run's Rules.
func Rules(reg *policy.Registry, sevs rulesets.Severities) []reports.Rule {
	var out []reports.Rule
	for _, id := range sevs.Enabled() {
		if r := reg.Rule(id); r != nil {
			out = append(out, Rule(r, sevs[id]))
		}
	}
	return out
}

// Rule is one rule of a registry at its severity in the run.
func Rule(r *policy.Rule, sev level.Severity) reports.Rule {
	return reports.Rule{ID: r.ID, Title: r.Title, Description: r.Description, HowToFix: r.HowToFix,
		Category: r.Category, Maturity: r.Maturity, Family: r.Family, Formats: r.Formats, Severity: sev,
		DocURL: linter.RuleDocURL(r)}
}

// Pipeline documents the findings the lint pipeline reports without a
// rule: a file that cannot be loaded, rules that do not finish in time, a
// document whose structure cannot be read as written.
var Pipeline = []reports.Rule{
	{ID: linter.LoadErrorRule, Title: "The file can be loaded",
		Description: "The file could be read and parsed as an API specification; when it cannot, no rule runs on it."},
	{ID: linter.TimeoutRule, Title: "Rules finish in time",
		Description: "Evaluating the rules on the file finished within --timeout; when it does not, no result is reported for the file."},
	{ID: linter.StructureRule, Title: "The document can be read as written",
		Description: "Every value has the kind its specification version gives it where a container goes: an object or a list where one is expected, and no object or list where a scalar is. Rules read the document through views that skip such values, so this is reported whatever the ruleset."},
}

// Files are the lint results as the files of a run, in order. operations
// holds the operations of each loaded file, by its name, for the html
// report (nil leaves them out). A file's findings are its result's, not a
// copy: their DocURL is set in place to their rule's page.
func Files(results []linter.Result, operations map[string][]reports.Operation) []reports.File {
	files := make([]reports.File, len(results))
	docs := map[string]string{} // each rule's page, one string for all its findings
	for i := range results {
		r := &results[i]
		f := &files[i]
		f.Name, f.Format, f.Loaded = r.File, r.Format, r.Err == nil
		f.Operations = operations[r.File]
		f.Findings = r.Findings
		if f.Findings == nil {
			f.Findings = []reports.Finding{}
		}
		for j := range f.Findings {
			d := &f.Findings[j]
			doc, ok := docs[d.Rule]
			if !ok {
				doc = linter.RulePage(d.Rule)
				docs[d.Rule] = doc
			}
			d.DocURL = doc
		}
	}
	return files
}

// New is the report of a lint run: its results, with the rules that ran,
// failing at error. operations are as for Files. Callers set the tool, the
// times and folders, and the fail severity when it is not error.
func New(results []linter.Result, rules []reports.Rule, operations map[string][]reports.Operation) *reports.Run {
	files := Files(results, operations)
	// A finding links to its rule's page as the rule does: a custom rule
	// has none under docs/rules.
	pages := make(map[string]string, len(rules))
	for _, r := range rules {
		pages[r.ID] = r.DocURL
	}
	for i := range files {
		for j := range files[i].Findings {
			f := &files[i].Findings[j]
			if page, ok := pages[f.Rule]; ok {
				f.DocURL = page
			}
		}
	}
	return &reports.Run{Kind: reports.Lint, Rules: rules, Pipeline: Pipeline, Files: files, FailSeverity: level.Error}
}
