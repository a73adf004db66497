package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestViolationsOf(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Each {field} takes the item's string, even one that looks like a
		// field; other braces are text; an item without a source array or
		// with a field that is missing or not a string gives nothing.
		{`x := specgate.violations_of([
			{"source": ["paths", "/a/{id}"], "label": "schema \"A\"", "kind": "string"},
			{"source": ["components"], "label": 7, "kind": "string"},
			{"source": "components", "label": "b", "kind": "string"},
			{"label": "c", "kind": "string"},
			"item",
			{"source": [], "label": "{kind}", "kind": "number"}
		], ["type"], "{label} is a {kind} {with space} a {} bound{")`,
			`[{"message": "schema \"A\" is a string {with space} a {} bound{", "path": ["paths", "/a/{id}", "type"]}, {"message": "{kind} is a number {with space} a {} bound{", "path": ["type"]}]`},
		{`x := specgate.violations_of([{"source": [0, "a"]}], [], "no field")`, `[{"message": "no field", "path": [0, "a"]}]`},
		{`x := specgate.violations_of([{"source": [], "label": "l"}], [], "{label} {missing}")`, `[]`},
		{`x := specgate.violations_of([], ["type"], "{label}")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.violations_of(input.items, [], "m")`, "operand 1 must be an array"},
		{`x := specgate.violations_of([], input.items, "m")`, "operand 2 must be an array"},
		{`x := specgate.violations_of([], [], input.items)`, "operand 3 must be a string"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

// TestViolationsOfAgreesWithRego checks that the findings are those the
// comprehension a rule would write builds, value for value.
func TestViolationsOfAgreesWithRego(t *testing.T) {
	q := `x := specgate.violations_of(input.items, ["type"], "{label} lacks maxLength") == [{"path": array.concat(v.source, ["type"]), "message": concat("", [v.label, " lacks maxLength"])} | some v in input.items]`
	items := []any{
		map[string]any{"source": []any{"paths", "/p", "get", "parameters", 0, "schema"}, "label": `query parameter "q"`},
		map[string]any{"source": []any{"components", "schemas", "Pet", "properties", "name"}, "label": `property "name" in schema "Pet"`},
	}
	rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": items})).Eval(context.Background())
	if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
		t.Errorf("specgate.violations_of and the comprehension disagree (%v, %v)", rs, err)
	}
}
