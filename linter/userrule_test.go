package linter_test

import (
	"context"
	"testing"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// ruleModule is the source of a warn-level OpenAPI 3 rule id of the
// Operations category: related are metadata lines placed after the
// description, body the Rego that follows the package line.
func ruleModule(id, related, body string) string {
	return "# METADATA\n# title: T\n# description: D\n" + related +
		"# custom:\n#   category: Operations\n#   maturity: Gold\n#   severity: warn\n#   family: correctness\n#   formats: [oas3]\n" +
		"package specgate.rules[\"" + id + "\"]\n\n" + body
}

// userRuleLinter is a linter of the one user rule id, written as body
// (see ruleModule), at severity warn.
func userRuleLinter(t *testing.T, id, body string) *linter.Linter {
	t.Helper()
	reg := &policy.Registry{}
	if err := reg.AddModule("user/"+id+".rego", ruleModule(id, "", body), false); err != nil {
		t.Fatal(err)
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: rulesets.Severities{id: level.Warn},
		Loader: spec.NewLoader(spec.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
