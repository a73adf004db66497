package linter_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// TestTimings: with Options.Timings each result says what every rule that
// ran took and found, and WriteTimings prints one line per rule, slowest
// first, under a line naming the file; without, there are none.
func TestTimings(t *testing.T) {
	setup, err := rulesets.Load(rulesets.Options{Ruleset: "recommended", NoSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	file := "../examples/petstore.yaml"
	cache := policy.OpenCache(t.TempDir()) // the second linter reads the rules the first compiled
	for _, timed := range []bool{false, true} {
		l, err := linter.New(context.Background(), linter.Options{Registry: setup.Registry, Severities: setup.Severities,
			Loader: spec.NewLoader(spec.Options{}), Timings: timed, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		res := l.LintFile(context.Background(), file)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		var out strings.Builder
		if err := linter.WriteTimings(&out, []linter.Result{res}); err != nil {
			t.Fatal(err)
		}
		if !timed {
			if res.Timings != nil || out.Len() > 0 {
				t.Errorf("timings without asking: %+v, %q", res.Timings, out.String())
			}
			continue
		}
		tm := res.Timings
		if tm == nil || len(tm.Rules) == 0 || tm.Eval <= 0 || tm.Cores < 1 {
			t.Fatalf("timings = %+v, want every rule's", tm)
		}
		found := map[string]int{}
		for _, rt := range tm.Rules {
			found[rt.Rule] = rt.Findings
		}
		if len(found) != len(tm.Rules) {
			t.Errorf("%d timings name %d rules: a rule twice", len(tm.Rules), len(found))
		}
		reported := map[string]int{}
		for _, d := range res.Findings {
			reported[d.Rule]++
		}
		for id, n := range reported {
			if found[id] < n {
				t.Errorf("%s: %d diagnostics but %d findings in its timing", id, n, found[id])
			}
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n")
		head := regexp.MustCompile(`^\.\./examples/petstore\.yaml: (\d+) rules in \S+ on \d+ cores? \(\S+ of rule time\)$`)
		m := head.FindStringSubmatch(lines[0])
		if m == nil || m[1] != strconv.Itoa(len(tm.Rules)) {
			t.Fatalf("first line %q, want the file and %d rules", lines[0], len(tm.Rules))
		}
		if strings.Fields(lines[1])[0] != "time" || len(lines) != 2+len(tm.Rules) {
			t.Fatalf("got %d lines after the first, want a header and %d rules:\n%s", len(lines)-1, len(tm.Rules), out.String())
		}
		for i, rt := range tm.Rules {
			f := strings.Fields(lines[2+i])
			if f[len(f)-1] != rt.Rule || f[len(f)-2] != strconv.Itoa(rt.Findings) {
				t.Errorf("line %d = %q, want %s with %d findings", 3+i, lines[2+i], rt.Rule, rt.Findings)
			}
		}
	}
}
