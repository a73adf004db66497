package ruletest_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/policy"
)

// The modules a test writes are rules the registry accepts, with the
// metadata given and the defaults for the rest, and the rule's body where
// the tests of rule positions expect it.
func TestModulesRegister(t *testing.T) {
	reg := &policy.Registry{}
	ruletest.Register(t, reg, append([]ruletest.Rule{{File: "rules/x/x.rego", ID: "x", Builtin: true,
		Meta: ruletest.Meta{Title: "X", Description: "Checks x.\n\nThen y.", Category: "General", Maturity: "Silver",
			Severity: "error", Family: "naming", Formats: "oas2, oas3", HowToFix: "Rename x."}}}, ruletest.Linked...)...)
	if err := reg.Validate(); err != nil {
		t.Fatal(err)
	}
	type meta struct {
		Title, Description, Category, Maturity, Family, HowToFix string
		Severity                                                 level.Severity
		Formats                                                  []string
		Builtin                                                  bool
	}
	want := map[string]meta{
		"x":                   {"X", "Checks x.\n\nThen y.", "General", "Silver", "naming", "Rename x.", level.Error, []string{"oas2", "oas3"}, true},
		"info-license":        {"T", "D", "Operations", "Gold", "correctness", "", level.Warn, []string{"oas3"}, true},
		"operation-has-owner": {"T", "D", "Operations", "Gold", "correctness", "", level.Warn, []string{"oas3"}, false},
		"no-page":             {"T", "D", "Operations", "Gold", "correctness", "", level.Warn, []string{"oas3"}, false},
	}
	if len(reg.Rules) != len(want) {
		t.Fatalf("%d rules registered, want %d", len(reg.Rules), len(want))
	}
	for _, r := range reg.Rules {
		got := meta{r.Title, r.Description, r.Category, r.Maturity, r.Family, r.HowToFix, r.Severity, r.Formats, r.Builtin}
		if !reflect.DeepEqual(got, want[r.ID]) {
			t.Errorf("rule %s has %+v, want %+v", r.ID, got, want[r.ID])
		}
	}
}

func TestModuleLines(t *testing.T) {
	lines := strings.Split(ruletest.Module("a", "x := 1\ny := 2"), "\n")
	if lines[9] != `package specgate.rules["a"]` || lines[11] != "x := 1" || lines[12] != "y := 2" || lines[13] != "" || len(lines) != 14 {
		t.Errorf("module lines %q: want the package on line 10, the body from line 12, ending in a newline", lines)
	}
}
