package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestBlankAt(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Missing, not a string, and whitespace only (Unicode's, as
		// trim_space reads it) are blank; the list's order is kept.
		{`x := specgate.blank_at([
			{"i": 1, "node": {"description": "Pets."}},
			{"i": 2, "node": {}},
			{"i": 3, "node": {"description": " \t\n\u00a0\u3000"}},
			{"i": 4, "node": {"description": 5}},
			{"i": 5, "node": "description"},
			{"i": 6},
			"item",
			{"i": 8, "node": {"description": " x "}}
		], ["node", "description"])`, `[{"i": 2, "node": {}}, {"i": 3, "node": {"description": " \t\n\u00a0\u3000"}}, {"i": 4, "node": {"description": 5}}, {"i": 5, "node": "description"}, {"i": 6}, "item"]`},
		// Numbers index arrays; a step that does not apply leads to nothing.
		{`x := specgate.blank_at([
			{"i": 1, "l": ["a", ""]},
			{"i": 2, "l": ["a", "b"]},
			{"i": 3, "l": ["a"]},
			{"i": 4, "l": {"1": "b"}}
		], ["l", 1])`, `[{"i": 1, "l": ["a", ""]}, {"i": 3, "l": ["a"]}, {"i": 4, "l": {"1": "b"}}]`},
		{`x := specgate.blank_at(["", "a", 1], [])`, `["", 1]`},
		{`x := specgate.blank_at([], ["description"])`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.blank_at(input.items, ["a"])`, "operand 1 must be an array"},
		{`x := specgate.blank_at([], ["a", null])`, "element 1 of the path must be a string or a number"},
		{`x := specgate.blank_at([], ["a", 1.5])`, "element 1 of the path must be an integer"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

// TestBlankAtAgreesWithTrimSpace checks that an item is kept exactly when
// `not trim_space(item.d) != ""` holds in Rego.
func TestBlankAtAgreesWithTrimSpace(t *testing.T) {
	items := []any{}
	for _, d := range []any{"a", "", " ", "\u0085", "\u00a0", "\u2028x", "\u180e", "\v", "\u200b", 1, nil, true} {
		items = append(items, map[string]any{"d": d})
	}
	items = append(items, map[string]any{})
	mod := `package p

_described(item) if trim_space(item.d) != ""

same := specgate.blank_at(input.items, ["d"]) == [item | some item in input.items; not _described(item)]`
	r, err := rego.New(rego.Query(`x := data.p.same`), rego.Module("p.rego", mod), rego.Input(map[string]any{"items": items})).Eval(context.Background())
	if err != nil || len(r) == 0 || r[0].Bindings["x"] != true {
		t.Errorf("specgate.blank_at and trim_space disagree (%v, %v)", r, err)
	}
}
