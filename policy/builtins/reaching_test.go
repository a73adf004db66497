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
