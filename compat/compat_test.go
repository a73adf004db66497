package compat

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/spec"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	filetest.Write(t, dir, files)
	return dir
}

func checkPair(t *testing.T, base, rev string, strict bool) Result {
	t.Helper()
	dir := writeFiles(t, map[string]string{"base.yaml": base, "rev.yaml": rev})
	return CheckFiles(context.Background(), Options{Loader: spec.NewLoader(spec.Options{}), Strict: strict},
		filepath.Join(dir, "base.yaml"), filepath.Join(dir, "rev.yaml"))
}

func findChange(res Result, rule string) *Change {
	for i := range res.Changes {
		if res.Changes[i].RuleID == rule {
			return &res.Changes[i]
		}
	}
	return nil
}

// A change in a schema shared by several operations is one change that
// names each of them.
func TestSharedSchemaChangeNamesEveryOperation(t *testing.T) {
	fx := readFixture(t, "testdata/cases/cycles.txtar")
	res := fx.check(t)
	c := findChange(res, "response-property-removed")
	if c == nil {
		t.Fatal("no response-property-removed")
	}
	if strings.Join(c.Operations, ", ") != "GET /trees, GET /forests" {
		t.Errorf("operations %v, want GET /trees and GET /forests", c.Operations)
	}
	if c.Message != `property "weight" was removed` || c.Why != RuleByID("response-property-removed").Why {
		t.Errorf("message %q, why %q", c.Message, c.Why)
	}
	if c.Location.Side != Base || !strings.HasSuffix(c.Location.File, "base.yaml") || c.Location.Pointer != "/components/schemas/Node/properties/weight" {
		t.Errorf("location %+v", c.Location)
	}
}

const minimalOAS = "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths: {}\n"

func TestVerdictMessages(t *testing.T) {
	base := "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters:\n        - {name: q, in: query, schema: {type: string}}\n      responses: {\"200\": {description: ok}}\n  /b:\n    get:\n      responses: {\"200\": {description: ok}}\n"
	tests := []struct {
		name    string
		rev     string
		strict  bool
		verdict Verdict
		reason  Reason
		message string
	}{
		{"unchanged", base, false, Compatible, ReasonUnchanged, "is backward compatible with"},
		{"missing operation", strings.Replace(base, "  /b:\n    get:\n      responses: {\"200\": {description: ok}}\n", "", 1), false, Incompatible, ReasonMissingOps,
			"1 operation of the base is missing from the revision (GET /b), so consumers' requests to it fail; 1 breaking change in all"},
		{"breaking", strings.Replace(base, "schema: {type: string}", "required: true, schema: {type: string}", 1), false, Incompatible, ReasonBreaking,
			"is NOT backward compatible with %BASE%: 1 breaking change affecting 1 operation (GET /a)"},
		{"warning", strings.Replace(base, "      parameters:\n        - {name: q, in: query, schema: {type: string}}\n", "", 1), false, Compatible, ReasonNonBreaking,
			"no breaking change (1 warning, 0 non-breaking changes)"},
		{"warning strict", strings.Replace(base, "      parameters:\n        - {name: q, in: query, schema: {type: string}}\n", "", 1), true, Incompatible, ReasonStrict,
			"no breaking change, but 1 warning fails in strict mode (GET /a)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := checkPair(t, base, tt.rev, tt.strict)
			want := strings.ReplaceAll(tt.message, "%BASE%", res.Base)
			if res.Verdict != tt.verdict || res.Reason != tt.reason || !strings.Contains(res.Message, want) {
				t.Errorf("got %s/%s %q, want %s/%s containing %q", res.Verdict, res.Reason, res.Message, tt.verdict, tt.reason, want)
			}
		})
	}
}

func TestUnsupportedAndBadInput(t *testing.T) {
	arazzo := "arazzo: 1.0.1\ninfo: {title: w, version: \"1\"}\nsourceDescriptions: []\nworkflows: []\n"
	async := "asyncapi: 3.0.0\ninfo: {title: e, version: \"1\"}\n"
	res := checkPair(t, arazzo, arazzo, false)
	if res.Verdict != Error || res.Reason != ReasonUnsupported || !strings.Contains(res.Message, "Arazzo 1.0.1 is not supported by the backward-compatibility check") {
		t.Errorf("arazzo: %s/%s %q", res.Verdict, res.Reason, res.Message)
	}
	res = checkPair(t, minimalOAS, async, false)
	if res.Verdict != Error || res.Reason != ReasonUnsupported || !strings.Contains(res.Message, "the base is OpenAPI 3.0.3 and the revision AsyncAPI 3.0.0") {
		t.Errorf("mixed: %s/%s %q", res.Verdict, res.Reason, res.Message)
	}
	res = checkPair(t, minimalOAS, "openapi: 3.0.3\ninfo: [\n", false)
	var se *spec.Error
	if res.Verdict != Error || res.Reason != ReasonLoadError || !errors.As(res.Err, &se) || se.Pos.Line != 3 {
		t.Errorf("broken YAML: %s/%s %v", res.Verdict, res.Reason, res.Err)
	}
	if !strings.Contains(res.Message, "rev.yaml:3:1: invalid YAML") {
		t.Errorf("load error without file:line:col: %q", res.Message)
	}

	// A $ref that resolves nowhere, on either side, makes the pair
	// impossible to compare: the schema behind it is not known, and must
	// not be compared as one that admits anything.
	withSchema := func(ref string) string {
		return "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '" + ref + "'}\ncomponents:\n  schemas:\n    Pet: {type: object, properties: {id: {type: integer}}}\n"
	}
	for _, side := range []string{"base", "rev"} {
		good, broken := withSchema("#/components/schemas/Pet"), withSchema("#/components/schemas/Nope")
		base, rev := good, broken
		if side == "base" {
			base, rev = broken, good
		}
		res = checkPair(t, base, rev, false)
		if res.Verdict != Error || res.Reason != ReasonLoadError || len(res.Changes) != 0 || !errors.As(res.Err, &se) || se.Pos.Line != 11 {
			t.Errorf("unresolved $ref in the %s: %s/%s %v %v", side, res.Verdict, res.Reason, res.Err, res.Changes)
		}
		if !strings.Contains(res.Message, side+".yaml:11:30") || !strings.Contains(res.Message, "Nope") {
			t.Errorf("unresolved $ref in the %s without its place: %q", side, res.Message)
		}
	}
}

// Comparing a document with itself finds nothing, at any level, for every
// fixture of the rules.
func TestFixturesAgainstThemselves(t *testing.T) {
	files, _ := filepath.Glob("testdata/rules/*.txtar")
	for _, f := range files {
		fx := readFixture(t, f)
		for _, side := range []string{"base.yaml", "rev.yaml"} {
			p := filepath.Join(fx.dir, side)
			res := CheckFiles(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, p, p)
			if res.Reason != ReasonUnchanged {
				t.Errorf("%s %s against itself: %s %q", f, side, res.Reason, res.Message)
			}
		}
	}
}

// Changes in callbacks and webhooks name the operation they belong to.
func TestCallbackAndWebhookLabels(t *testing.T) {
	res := readFixture(t, "testdata/cases/callbacks.txtar").check(t)
	if c := findChange(res, "response-enum-widened"); c == nil || strings.Join(c.Operations, "|") != "callback onEvent POST {$request.body#/url} of POST /subscriptions" {
		t.Errorf("callback change: %+v", c)
	}
	res = readFixture(t, "testdata/cases/webhooks.txtar").check(t)
	if c := findChange(res, "operation-removed"); c == nil || c.Message != "operation webhook oldPet POST was removed" {
		t.Errorf("webhook removal: %+v", c)
	}
}
