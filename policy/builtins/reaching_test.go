package builtins

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestReaching(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// A value counts whatever it is (null, false, an empty object);
		// the first path that reaches keeps the item once; a node that is
		// not an object, or an item without a node, is left out.
		{`x := specgate.reaching([
			{"i": 1, "node": {"get": {"$ref": "#/a"}}},
			{"i": 2, "node": {"get": {"summary": "s"}}},
			{"i": 3, "node": {"post": {"$ref": null}, "parameters": {"$ref": false}}},
			{"i": 4, "node": {"get": "$ref"}},
			{"i": 5, "node": true},
			{"i": 6},
			"item",
			{"i": 8, "node": {"parameters": {"$ref": "#/p"}}}
		], [["get", "$ref"], ["post", "$ref"], ["parameters", "$ref"]])`, `[{"i": 1, "node": {"get": {"$ref": "#/a"}}}, {"i": 3, "node": {"parameters": {"$ref": false}, "post": {"$ref": null}}}, {"i": 8, "node": {"parameters": {"$ref": "#/p"}}}]`},
		// null is any member of an object or element of an array; numbers
		// index arrays, not objects.
		{`x := specgate.reaching([
			{"i": 1, "node": {"content": {"a/b": {}, "c/d": {"$ref": "#/m"}}}},
			{"i": 2, "node": {"content": {"a/b": {"schema": {}}}}},
			{"i": 3, "node": {"servers": [{"url": "u"}, {"$ref": "#/s"}]}},
			{"i": 4, "node": {"servers": {"1": {"$ref": "#/s"}}}}
		], [["content", null, "$ref"], ["servers", 1, "$ref"]])`, `[{"i": 1, "node": {"content": {"a/b": {}, "c/d": {"$ref": "#/m"}}}}, {"i": 3, "node": {"servers": [{"url": "u"}, {"$ref": "#/s"}]}}]`},
		{`x := specgate.reaching([{"node": {"a": 1}}], [[]])`, `[{"node": {"a": 1}}]`},
		{`x := specgate.reaching([{"node": {"a": 1}}], [])`, `[]`},
		{`x := specgate.reaching([], [["a"]])`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, q := range []string{
		`x := specgate.reaching(input.items, [["a"]])`,
		`x := specgate.reaching([], [["a", true]])`,
	} {
		rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": map[string]any{}})).Eval(context.Background())
		if err == nil && len(rs) != 0 {
			t.Errorf("%s: %v, want an error or undefined", q, rs)
		}
	}
}

func TestMembersWith(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Members count when they are objects with one of the keys,
		// whatever its value; the list may be an array or an object; an
		// item whose node lacks the key, or holds something else there,
		// is left out.
		{`x := specgate.members_with([
			{"i": 1, "node": {"allOf": [{"$ref": "#/a"}, {"description": "d"}]}},
			{"i": 2, "node": {"allOf": [{"$ref": "#/a"}, {"type": null}]}},
			{"i": 3, "node": {"allOf": [{"properties": {}}, "type", {"$ref": 1}]}},
			{"i": 4, "node": {"allOf": {"a": {"type": "object"}, "b": {"type": "string"}}}},
			{"i": 5, "node": {"allOf": "type"}},
			{"i": 6, "node": {"anyOf": [{"type": "string"}, {"type": "object"}]}},
			{"i": 7, "node": true},
			{"i": 8}
		], "allOf", ["$ref", "type", "properties"], 2)`, `[{"i": 2, "node": {"allOf": [{"$ref": "#/a"}, {"type": null}]}}, {"i": 3, "node": {"allOf": [{"properties": {}}, "type", {"$ref": 1}]}}, {"i": 4, "node": {"allOf": {"a": {"type": "object"}, "b": {"type": "string"}}}}]`},
		{`x := specgate.members_with([{"node": {"allOf": []}}], "allOf", ["type"], 0)`, `[{"node": {"allOf": []}}]`},
		{`x := specgate.members_with([{"node": {"allOf": [{"type": "string"}]}}], "allOf", ["type"], 1)`, `[{"node": {"allOf": [{"type": "string"}]}}]`},
		{`x := specgate.members_with([], "allOf", ["type"], 2)`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, q := range []string{
		`x := specgate.members_with(input.items, "allOf", ["type"], 2)`,
		`x := specgate.members_with([], "allOf", ["type"], 1.5)`,
	} {
		rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": map[string]any{}})).Eval(context.Background())
		if err == nil && len(rs) != 0 {
			t.Errorf("%s: %v, want an error or undefined", q, rs)
		}
	}
}
