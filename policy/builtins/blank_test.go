package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestBlankMembers(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Missing, not a string, empty and whitespace-only texts are
		// blank; members that are not objects, or are references, are
		// left out; keys sorted.
		{`x := specgate.blank_members({"b": {}, "a": {"description": 1}, "c": {"description": " \n\t"},
			"d": {"description": "text"}, "e": "not an object", "f": {"description": ""}, "g": {"description": " x "},
			"h": {"$ref": "#/h"}, "i": {"$ref": 1}, "j": {"$ref": false}, "k": {"$ref": null}}, "description")`,
			`["a", "b", "c", "f", "j"]`},
		{`x := specgate.blank_members({}, "description")`, `[]`},
		{`x := specgate.blank_members({"a": {"summary": "s"}}, "summary")`, `[]`},
		// A text or a reference in a member of allOf, anyOf or oneOf
		// counts (nested too); blank members and non-objects there do not.
		{`x := specgate.blank_members({
			"a": {"allOf": [{"$ref": "#/a"}, {"description": "text"}]}, "b": {"allOf": [{"type": "string"}, {"description": " "}]},
			"c": {"oneOf": [{"$ref": "#/c"}, {"type": "null"}]}, "d": {"anyOf": [{"allOf": [{"description": "deep"}]}]},
			"e": {"allOf": "not a list"}, "f": {"allOf": [1, "x"]}}, "description")`,
			`["b", "e", "f"]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// A value that is not an object is an error, which leaves the call
	// undefined as OPA's builtins do.
	rs, err := rego.New(rego.Query(`x := specgate.blank_members(input.props, "description")`), rego.Input(map[string]any{"props": []any{1}})).Eval(context.Background())
	if err != nil || len(rs) != 0 {
		t.Errorf("an array: %v %v, want undefined", rs, err)
	}
}

func TestBlankMembersIn(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Items without a node, or whose node has no object at key, are
		// skipped; so are those with no blank member; the others keep
		// their order and are paired with blank_members of the object.
		{`x := specgate.blank_members_in([
			{"node": {"properties": {"b": {}, "a": {"description": "A"}, "r": {"$ref": "#/r"}}}, "source": ["b"]},
			{"node": {"properties": {"x": {"description": "X"}}}},
			{"node": {"properties": [{"description": ""}]}},
			{"node": "not an object"},
			"not an item",
			{"source": ["no node"]},
			{"node": {"properties": {"c": {"description": " "}, "a": {"title": "t"}}}, "source": ["a"]}
		], "properties", "description")`,
			`[[{"node": {"properties": {"a": {"description": "A"}, "b": {}, "r": {"$ref": "#/r"}}}, "source": ["b"]}, ["b"]], [{"node": {"properties": {"a": {"title": "t"}, "c": {"description": " "}}}, "source": ["a"]}, ["a", "c"]]]`},
		{`x := specgate.blank_members_in([], "properties", "description")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	rs, err := rego.New(rego.Query(`x := specgate.blank_members_in(input.items, "properties", "description")`), rego.Input(map[string]any{"items": map[string]any{}})).Eval(context.Background())
	if err != nil || len(rs) != 0 {
		t.Errorf("an object: %v %v, want undefined", rs, err)
	}
}

func TestLacking(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// A key counts whatever its value (null, false); a node that is not
		// an object has none of the keys; an item without a node, or that
		// is not an object, is left out.
		{`x := specgate.lacking([
			{"node": {"type": "array"}, "i": 1},
			{"node": {"type": "array", "maxItems": 3}, "i": 2},
			{"node": {"enum": null}, "i": 3},
			{"node": {"const": false}, "i": 4},
			{"node": true, "i": 5},
			{"i": 6},
			"item",
			{"node": {"minItems": 1}, "i": 8}
		], ["maxItems", "enum", "const"])`, `[{"i": 1, "node": {"type": "array"}}, {"i": 5, "node": true}, {"i": 8, "node": {"minItems": 1}}]`},
		{`x := specgate.lacking([{"node": {"a": 1}}], [])`, `[{"node": {"a": 1}}]`},
		{`x := specgate.lacking([], ["a"])`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	rs, err := rego.New(rego.Query(`x := specgate.lacking(input.items, ["a"])`), rego.Input(map[string]any{"items": map[string]any{}})).Eval(context.Background())
	if err != nil || len(rs) != 0 {
		t.Errorf("an object: %v %v, want undefined", rs, err)
	}
}

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
