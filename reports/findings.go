package reports

import (
	"strings"
)

// The junit and ctrf formats are lists of tests. A run of findings becomes
// tests here, in one place:
//
//   - lint and validate: one test per rule that ran on a file, failed when
//     the rule reported a finding at or above the fail severity (or the file
//     did not load); its findings are its outputs.
//   - compat: one test per change that is not info, failed when the change
//     fails the check and "other" otherwise; a specification without a
//     failing change is one more test, passed, failed (not checked) or
//     skipped as its verdict says.

// fileTests are a file's findings as tests.
func (run *Run) fileTests(f *File) []Test {
	if f.Verdict != nil {
		return run.compatTests(f)
	}
	ids := run.RulesFor(f)
	tests := make([]Test, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	groups := make([][]Finding, len(ids))
	for i := range f.Findings {
		g := index[f.Findings[i].Rule]
		groups[g] = append(groups[g], f.Findings[i])
	}
	for i, id := range ids {
		tests[i] = run.ruleTest(f, id, groups[i])
	}
	return tests
}

// ruleTest is the test of one rule on one file.
func (run *Run) ruleTest(f *File, id string, found []Finding) Test {
	title, _ := run.ruleText(id)
	kind := Lint
	if run.Kind == Validate {
		kind = Validate
	}
	t := Test{Name: id + " in " + f.Name, Suite: []string{f.Name}, Type: kind, Status: Passed, RawStatus: "pass",
		File: f.Name, Errored: !f.Loaded}
	outputs := make([]JSONDiagnostic, len(found))
	for i := range found {
		outputs[i] = jsonDiagnostic(&found[i])
	}
	t.Extra = map[string]any{"ruleId": id, "title": title, "file": f.Name, "outputs": outputs}
	if f.Format != "" {
		t.Extra["format"] = f.Format
	}
	if rule := run.Rule(id); rule != nil {
		t.Extra["severity"], t.Extra["category"], t.Extra["maturity"] = rule.Severity.String(), rule.Category, rule.Maturity
		if rule.DocURL != "" {
			t.Extra["docUrl"] = rule.DocURL
		}
		t.Tags = []string{rule.Category, rule.Maturity}
	}
	if len(found) == 0 {
		return t
	}
	t.Message = findingLines(found)
	t.Line = int(found[0].Range.Start.Line)
	t.RawStatus = worstSeverity(found)
	for i := range found {
		if run.failing(&found[i]) {
			t.Status = Failed
			break
		}
	}
	return t
}

// compatTests are the tests of one compared specification.
func (run *Run) compatTests(f *File) []Test {
	suite := []string{string(Compat), f.Name}
	var tests []Test
	failing := 0
	for i := range f.Findings {
		c := &f.Findings[i]
		if c.Change == nil || c.Change.Level == "info" {
			continue
		}
		status := Other
		if c.Change.Fails {
			status = Failed
			failing++
		}
		tests = append(tests, Test{
			Name: c.Rule + ": " + strings.Join(c.Change.Operations, ", "), Suite: suite, Type: Compat,
			Status: status, RawStatus: c.Change.Level,
			Message: c.Location() + " " + c.Rule + ": " + c.Message + "; " + c.Change.Why,
			File:    c.File, Line: int(c.Range.Start.Line), Tags: []string{c.Rule, c.Change.Level},
			Extra: map[string]any{
				"specFile": c.File, "lineNumber": int(c.Range.Start.Line), "columnNumber": int(c.Range.Start.Col),
				"location": c.Location(), "side": c.Change.Side, "operations": c.Change.Operations,
				"ruleViolation": ruleViolation{Rule: c.Rule, Level: c.Change.Level, Message: c.Message, Why: c.Change.Why},
			},
		})
		t := &tests[len(tests)-1]
		if c.Change.Base != nil {
			t.Extra["baseLocation"] = c.Change.Base.Location()
		}
		if c.Change.Revision != nil {
			t.Extra["revisionLocation"] = c.Change.Revision.Location()
		}
	}
	if failing > 0 {
		return tests
	}
	v := f.Verdict
	t := Test{Name: "backward compatibility of " + f.Name, Suite: suite, Type: Compat, Status: Passed,
		RawStatus: v.Reason, Message: v.Message, File: f.Name}
	switch v.Verdict {
	case "error", "incompatible":
		t.Status = Failed
	case "skipped":
		t.Status = Skipped
	}
	return append(tests, t)
}

// ruleViolation is the rule a compatibility change breaks, in its CTRF
// test's extra.
type ruleViolation struct {
	Rule    string `json:"rule"`
	Level   string `json:"level"`
	Message string `json:"message"`
	Why     string `json:"why"`
}
