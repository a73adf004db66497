package reports_test

import (
	"context"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/reports/lintreport"
	"github.com/specgate/specgate/spec"
)

// testRule is the metadata of a rule of the test registry; the tests own
// it, so that changes to the built-in rules do not move the golden files.
type testRule struct {
	id, title, category, maturity, family, formats string
	severity                                       level.Severity
}

var testRules = []testRule{
	{"channel-description", "Channels have a description", "Channels", "Bronze", "documentation", "asyncapi", level.Warn},
	{"error-response-schema", "Error responses have a schema", "Responses", "Bronze", "correctness", "oas3", level.Error},
	{"health-endpoint", "Health endpoints are defined", "Operations", "Gold", "health", "oas2, oas3", level.Warn},
	{"media-type-xml", "Bodies are not XML", "Requests", "Bronze", "correctness", "oas3", level.Warn},
	{"operation-summary", "Operations have a summary", "Documentation", "Baseline", "documentation", "oas", level.Warn},
	{"path-parameters-snake-case", "Path parameters are snake_case", "Naming", "Silver", "naming", "oas", level.Error},
}

func testRegistry(t *testing.T) *policy.Registry {
	t.Helper()
	reg := &policy.Registry{}
	for _, r := range testRules {
		ruletest.Register(t, reg, ruletest.Rule{File: "rules/" + r.id + "/" + r.id + ".rego", ID: r.id, Builtin: true,
			Meta: ruletest.Meta{Title: r.title, Description: "What " + r.id + " checks, in a first paragraph.\n\nAnd a second paragraph.",
				Category: r.category, Maturity: r.maturity, Severity: r.severity.String(), Family: r.family, Formats: r.formats,
				HowToFix: "Do what " + r.id + " asks."}})
	}
	if err := reg.Validate(); err != nil {
		t.Fatal(err)
	}
	return reg
}

func at(line, col, endLine, endCol int) spec.Range {
	return spec.Range{Start: spec.Pos{Line: int32(line), Col: int32(col)}, End: spec.Pos{Line: int32(endLine), Col: int32(endCol)}}
}

// trickyMessage has every character some format must escape.
const trickyMessage = "application/xml \"is\" <discouraged>, use JSON: 100% | always\nsecond line & more"

// testRun is a run over testdata/api.yaml (which $refs
// testdata/parts/pet.yaml), an AsyncAPI file without findings, a file that
// did not parse and one that does not exist, with these rules at their
// original severities, failing at error.
func testRun(t *testing.T) *reports.Run {
	t.Helper()
	reg := testRegistry(t)
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), "testdata/api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	diag := func(id string, sev level.Severity, file, ptr, msg string, r spec.Range) reports.Finding {
		rule := reg.Rule(id)
		return reports.Finding{Rule: id, Severity: sev, Message: msg, Category: rule.Category, Maturity: rule.Maturity,
			File: file, Pointer: ptr, Range: r}
	}
	api := "testdata/api.yaml"
	results := []linter.Result{
		{File: api, Format: "OpenAPI 3.1.0", Findings: []reports.Finding{
			diag("health-endpoint", level.Warn, api, "/paths", "the API has no GET /health operation", at(5, 1, 5, 6)),
			diag("operation-summary", level.Warn, api, "/paths/~1pets/get", "GET /pets has no summary", at(7, 5, 7, 8)),
			diag("error-response-schema", level.Error, api, "/paths/~1pets/get/responses/404", "response 404 of GET /pets has no schema", at(15, 9, 15, 14)),
			diag("media-type-xml", level.Warn, api, "/paths/~1pets/post/requestBody/content/application~1xml", trickyMessage, at(24, 11, 24, 26)),
			diag("path-parameters-snake-case", level.Error, "testdata/parts/pet.yaml", "/get/parameters/0/name", `path parameter "petId" is not snake_case (use "pet_id")`, at(4, 7, 4, 18)),
		}},
		{File: "events.json", Format: "AsyncAPI 3.0.0"},
		{File: "broken.yaml", Err: &spec.Error{File: "broken.yaml", Msg: "invalid YAML: did not find expected node content"},
			Findings: []reports.Finding{{Rule: linter.LoadErrorRule, Severity: level.Error, Message: "invalid YAML: did not find expected node content",
				File: "broken.yaml", Range: at(3, 10, 3, 10)}}},
		{File: "missing.yaml", Err: &spec.Error{File: "missing.yaml", Msg: "no such file or folder"},
			Findings: []reports.Finding{{Rule: linter.LoadErrorRule, Severity: level.Error, Message: "no such file or folder", File: "missing.yaml"}}},
	}
	var rules []reports.Rule
	for _, r := range reg.Rules {
		rules = append(rules, lintreport.Rule(r, r.Severity))
	}
	run := lintreport.New(results, rules, map[string][]reports.Operation{api: reports.OperationsOf(doc)})
	run.Tool = reports.Tool{Name: "specgate", Version: "1.2.3", Ruleset: "recommended", RuleCount: len(rules)}
	run.Start, run.Elapsed = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 1500*time.Millisecond
	run.Dir, run.Root = "/repo/specs", "/repo"
	return run
}
