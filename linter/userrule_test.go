package linter_test

import (
	"context"
	"testing"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// userRuleLinter is a linter of the one user rule id, written as body
// (the Rego that follows the package line), at severity warn.
func userRuleLinter(t *testing.T, id, body string) *linter.Linter {
	t.Helper()
	reg := &policy.Registry{}
	ruletest.Register(t, reg, ruletest.Rule{File: "user/" + id + ".rego", ID: id, Body: body})
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: rulesets.Severities{id: level.Warn},
		Loader: spec.NewLoader(spec.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
