package lintreport

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

func TestFiles(t *testing.T) {
	at := spec.Range{Start: spec.Pos{Line: 3, Col: 5}, End: spec.Pos{Line: 3, Col: 9}}
	results := []linter.Result{
		{File: "api.yaml", Format: "OpenAPI 3.1.0", Findings: []reports.Finding{
			{Rule: "operation-summary", Severity: level.Warn, Message: "GET /a has no summary", Category: "Documentation", Maturity: "Baseline",
				File: "api.yaml", Pointer: "/paths/~1a/get", Range: at},
			{Rule: "operation-summary", Severity: level.Warn, Message: "GET /b has no summary", File: "parts/b.yaml", Pointer: "/get"},
		}},
		linter.LoadFailed("broken.yaml", &spec.Error{File: "broken.yaml", Msg: "invalid YAML", Pointer: ""}),
		{File: "slow.yaml", Format: "OpenAPI 3.0.3", Err: errors.New("timeout"),
			Findings: []reports.Finding{{Rule: linter.TimeoutRule, Severity: level.Error, Message: "timeout", File: "slow.yaml"}}},
	}
	ops := map[string][]reports.Operation{"api.yaml": {{Path: "/a", Method: "GET"}}}
	run := New(results, nil, ops)
	if run.Kind != reports.Lint || run.FailSeverity != level.Error || len(run.Files) != 3 {
		t.Fatalf("run = %+v", run)
	}
	pipeline := map[string]bool{}
	for _, r := range run.Pipeline {
		pipeline[r.ID] = r.Title != "" && r.Description != ""
	}
	if !pipeline[linter.LoadErrorRule] || !pipeline[linter.TimeoutRule] {
		t.Errorf("the pipeline's findings are not documented: %+v", run.Pipeline)
	}
	api := run.Files[0]
	f := api.Findings[0]
	if !api.Loaded || api.Format != "OpenAPI 3.1.0" || len(api.Operations) != 1 || f.Rule != "operation-summary" || f.Severity != level.Warn ||
		f.Message != "GET /a has no summary" || f.Category != "Documentation" || f.Maturity != "Baseline" || f.File != "api.yaml" ||
		f.Pointer != "/paths/~1a/get" || f.Range != at || f.DocURL != linter.DocsURL+"operation-summary.md" {
		t.Errorf("file = %+v", api)
	}
	// The findings of one rule share its page's text.
	if d0, d1 := api.Findings[0].DocURL, api.Findings[1].DocURL; d0 != d1 || unsafe.StringData(d0) != unsafe.StringData(d1) {
		t.Errorf("the findings of a rule have their own copies of its page: %q, %q", d0, d1)
	}
	if b := run.Files[1]; b.Loaded || len(b.Findings) != 1 || b.Findings[0].Rule != linter.LoadErrorRule || b.Findings[0].DocURL != "" || b.Operations != nil {
		t.Errorf("a file that did not load = %+v", b)
	}
	if s := run.Files[2]; s.Loaded || s.Findings[0].Rule != linter.TimeoutRule || s.Findings[0].DocURL != "" {
		t.Errorf("a file whose rules timed out = %+v", s)
	}
}

// A built-in rule links to its page under docs/rules; a custom rule to
// the first related_resources URL of its METADATA, or nowhere: docs/rules
// has no page of it. Its findings link as it does.
func TestCustomRuleDocURL(t *testing.T) {
	reg := &policy.Registry{}
	ruletest.Register(t, reg, ruletest.Linked...)
	sevs := rulesets.Severities{"info-license": level.Warn, "operation-has-owner": level.Warn, "no-page": level.Warn}
	want := map[string]string{
		"info-license":        linter.DocsURL + "info-license.md",
		"operation-has-owner": "https://wiki.example.com/api-guidelines#owners",
		"no-page":             "",
	}
	var results []linter.Result
	res := linter.Result{File: "api.yaml", Format: "OpenAPI 3.1.0"}
	for id := range want {
		res.Findings = append(res.Findings, reports.Finding{Rule: id, Severity: level.Warn, Message: "m", File: "api.yaml"})
	}
	results = append(results, res)
	run := New(results, Rules(reg, sevs), nil)
	for _, r := range run.Rules {
		if r.DocURL != want[r.ID] {
			t.Errorf("rule %s links to %q, want %q", r.ID, r.DocURL, want[r.ID])
		}
	}
	for _, f := range run.Files[0].Findings {
		if f.DocURL != want[f.Rule] {
			t.Errorf("a finding of %s links to %q, want %q", f.Rule, f.DocURL, want[f.Rule])
		}
	}
}
