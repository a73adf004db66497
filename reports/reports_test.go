package reports_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

var results = []linter.Result{
	{File: "a.yaml", Format: "OpenAPI 3.1.0", Diagnostics: []linter.Diagnostic{
		{RuleID: "health-endpoint", Severity: policy.Warn, Message: "no health", Category: "Operations", Maturity: "Gold",
			File: "a.yaml", Pointer: "/paths", Range: spec.Range{Start: spec.Pos{Line: 5, Col: 1}, End: spec.Pos{Line: 5, Col: 6}}},
		{RuleID: "operation-id-unique", Severity: policy.Error, Message: "dup", File: "parts/b.yaml", Pointer: "/get/operationId",
			Range: spec.Range{Start: spec.Pos{Line: 2, Col: 3}, End: spec.Pos{Line: 2, Col: 20}}},
	}},
	{File: "bad.yaml", Err: &spec.Error{File: "bad.yaml", Msg: "file is empty"}, Diagnostics: []linter.Diagnostic{
		{RuleID: linter.LoadErrorRule, Severity: policy.Error, Message: "file is empty", File: "bad.yaml"},
	}},
}

func TestText(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.WriteText(&buf, results, reports.TextOptions{Elapsed: 1500 * time.Microsecond}); err != nil {
		t.Fatal(err)
	}
	want := "a.yaml:5:1 warn  health-endpoint no health\n" +
		"parts/b.yaml:2:3 error operation-id-unique dup\n" +
		"bad.yaml error load-error file is empty\n" +
		"2 files, 2 errors, 1 warning in 2ms\n"
	if buf.String() != want {
		t.Errorf("text output:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestTextColor(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.WriteText(&buf, results[:1], reports.TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\x1b[33mwarn \x1b[0m") || !strings.Contains(buf.String(), "\x1b[31merror\x1b[0m") {
		t.Errorf("no colour in %q", buf.String())
	}
}

func TestJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.WriteJSON(&buf, reports.Tool{Name: "specgate", Version: "test", RuleCount: 2}, results); err != nil {
		t.Fatal(err)
	}
	var rep reports.JSONReport
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	d := rep.Diagnostics[0]
	if d.RuleID != "health-endpoint" || d.Severity != "warn" || d.Line != 5 || d.Column != 1 || d.EndColumn != 6 ||
		d.Pointer != "/paths" || d.Category != "Operations" || d.Maturity != "Gold" || !strings.HasSuffix(d.DocURL, "/health-endpoint.md") {
		t.Errorf("first diagnostic = %+v", d)
	}
	if rep.Diagnostics[2].DocURL != "" {
		t.Errorf("load errors have no doc page: %+v", rep.Diagnostics[2])
	}
	s := rep.Summary
	if s.Files != 2 || s.Errors != 2 || s.Warnings != 1 || len(s.PerFile) != 2 || !s.PerFile[0].Loaded || s.PerFile[1].Loaded {
		t.Errorf("summary = %+v", s)
	}
}
