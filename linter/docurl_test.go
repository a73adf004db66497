package linter_test

import (
	"context"
	"testing"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
)

// A linter links a diagnostic to its rule's documentation as the reports
// do (the studio shows these links): a built-in rule's page, a custom
// rule's related_resources URL or nothing, and nothing for the pipeline's
// own diagnostics.
func TestLinterDocURL(t *testing.T) {
	reg := &policy.Registry{}
	ruletest.Register(t, reg, ruletest.Linked...)
	sevs := rulesets.Severities{"info-license": level.Warn, "operation-has-owner": level.Warn, "no-page": level.Warn}
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: sevs})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{
		"info-license":        linter.DocsURL + "info-license.md",
		"operation-has-owner": "https://wiki.example.com/api-guidelines#owners",
		"no-page":             "",
		linter.LoadErrorRule:  "",
	} {
		if got := l.DocURL(id); got != want {
			t.Errorf("%s links to %q, want %q", id, got, want)
		}
	}
}
