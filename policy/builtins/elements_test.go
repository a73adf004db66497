package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestWithRepeats(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Elements repeat as specgate.repeats finds them (1 and 1.0 are
		// one value); a value that is not an array, a node that is not an
		// object and an item without a node are left out.
		{`x := specgate.with_repeats([
			{"i": 1, "node": {"enum": ["a", "b", "a"]}},
			{"i": 2, "node": {"enum": ["a", "b"]}},
			{"i": 3, "node": {"enum": [1, 1.0]}},
			{"i": 4, "node": {"enum": [{"k": [1]}, {"k": [1]}]}},
			{"i": 5, "node": {"enum": {"a": 1, "b": 1}}},
			{"i": 6, "node": ["enum"]},
			{"i": 7},
			{"i": 8, "node": {"enum": []}}
		], "enum")`, `[{"i": 1, "node": {"enum": ["a", "b", "a"]}}, {"i": 3, "node": {"enum": [1, 1.0]}}, {"i": 4, "node": {"enum": [{"k": [1]}, {"k": [1]}]}}]`},
		{`x := specgate.with_repeats([], "enum")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same items as specgate.repeats asked of each.
	q := `x := specgate.with_repeats(input.items, "enum") == [s | some s in input.items; specgate.repeats(s.node.enum) != []]`
	items := []any{
		map[string]any{"node": map[string]any{"enum": []any{"a", "b", "a"}}},
		map[string]any{"node": map[string]any{"enum": []any{true, false, nil, nil}}},
		map[string]any{"node": map[string]any{"enum": []any{"x"}}},
	}
	rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": items})).Eval(context.Background())
	if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
		t.Errorf("with_repeats and repeats disagree: %v, %v", rs, err)
	}
}

func TestElementsOfType(t *testing.T) {
	items := `[
		{"i": 1, "node": {"enum": ["a", "b"]}},
		{"i": 2, "node": {"enum": ["a", 1]}},
		{"i": 3, "node": {"enum": []}},
		{"i": 4, "node": {"enum": "a"}},
		{"i": 5, "node": {"type": "string"}},
		{"i": 6},
		"item",
		{"i": 8, "node": {"enum": [null]}}
	]`
	for _, c := range []struct{ query, want string }{
		// Every element has the type, an empty array included; anything
		// else is among the others, in order.
		{`x := specgate.elements_of_type(` + items + `, "enum", "string")`,
			`[[{"i": 1, "node": {"enum": ["a", "b"]}}, {"i": 3, "node": {"enum": []}}], [{"i": 2, "node": {"enum": ["a", 1]}}, {"i": 4, "node": {"enum": "a"}}, {"i": 5, "node": {"type": "string"}}, {"i": 6}, "item", {"i": 8, "node": {"enum": [null]}}]]`},
		{`x := specgate.elements_of_type([{"node": {"e": [null, null]}}, {"node": {"e": [1, 2.5]}}], "e", "null")`,
			`[[{"node": {"e": [null, null]}}], [{"node": {"e": [1, 2.5]}}]]`},
		{`x := specgate.elements_of_type([{"node": {"e": [1, 2.5]}}, {"node": {"e": [{}, []]}}], "e", "number")`,
			`[[{"node": {"e": [1, 2.5]}}], [{"node": {"e": [{}, []]}}]]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.elements_of_type(input.items, "enum", "string")`, "operand 1 must be an array"},
		{`x := specgate.elements_of_type([], "enum", "text")`, `operand 3 must name a JSON type (string, number, boolean, null, array or object), got "text"`},
		{`x := specgate.with_repeats(input.items, "enum")`, "operand 1 must be an array"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}
