package lintreport

import (
	"fmt"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/reports"
)

// Of is the report of a lint run of a pipeline: its results, the
// pipeline's rules at their severities, and the tool with its profile,
// rule count and the custom rules skipped. Callers set the tool's version
// and ruleset, the times and folders.
func Of(p *linter.Pipeline, results []linter.Result, operations map[string][]reports.Operation) *reports.Run {
	run := New(results, Rules(p.Setup.Registry, p.Setup.Severities), operations)
	run.Tool = reports.Tool{Name: "specgate", Profile: p.Setup.Profile, RuleCount: p.RuleCount()}
	for _, s := range p.Setup.Skipped {
		run.Tool.Skipped = append(run.Tool.Skipped, reports.SkippedRule{Rule: s.Rule, Function: s.Function,
			Reason: fmt.Sprintf("%s (%s:%d:%d)", s.Reason, s.File, s.Pos.Line, s.Pos.Col)})
	}
	return run
}
