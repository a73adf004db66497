package builtins

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

func TestWithinKeys(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// A node of allowed keys alone (some or all of them, or none) is
		// within; a node with another key, whatever its value, or that is
		// not an object, is beyond; an item without a node, or that is
		// not an object, is in neither. Each list keeps the items' order.
		{`x := specgate.within_keys([
			{"node": {"type": "string", "example": "a"}, "i": 1},
			{"node": {"type": "string", "maxLength": 3}, "i": 2},
			{"node": {}, "i": 3},
			{"node": {"pattern": null}, "i": 4},
			{"node": "string", "i": 5},
			{"i": 6},
			"item",
			{"node": {"description": "d", "type": "integer", "example": 1}, "i": 8},
			{"node": {"type": "string", "example": "a", "x-extra": false}, "i": 9}
		], ["type", "description", "example", "type"])`,
			`[[{"i": 1, "node": {"example": "a", "type": "string"}}, {"i": 3, "node": {}}, {"i": 8, "node": {"description": "d", "example": 1, "type": "integer"}}], ` +
				`[{"i": 2, "node": {"maxLength": 3, "type": "string"}}, {"i": 4, "node": {"pattern": null}}, {"i": 5, "node": "string"}, {"i": 9, "node": {"example": "a", "type": "string", "x-extra": false}}]]`},
		{`x := specgate.within_keys([{"node": {"a": 1}}], [])`, `[[], [{"node": {"a": 1}}]]`},
		{`x := specgate.within_keys([], ["a"])`, `[[], []]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, q := range []string{
		`x := specgate.within_keys(input.items, ["a"])`,
		`x := specgate.within_keys([], input.keys)`,
	} {
		rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": map[string]any{}, "keys": []any{1}})).Eval(context.Background())
		if err != nil || len(rs) != 0 {
			t.Errorf("%s: %v %v, want undefined", q, rs, err)
		}
	}
}

// The builtins that take two arrays name themselves and the operand that
// is not one.
func TestArrayOperands(t *testing.T) {
	arr := ast.ArrayTerm()
	for _, c := range []struct {
		f    func(rego.BuiltinContext, *ast.Term, *ast.Term) (*ast.Term, error)
		a, b *ast.Term
		want string
	}{
		{lackingBuiltin, ast.StringTerm("x"), arr, "specgate.lacking: operand 1 must be an array, got string"},
		{lackingBuiltin, arr, ast.SetTerm(), "specgate.lacking: operand 2 must be an array, got set"},
		{withinKeysBuiltin, arr, ast.NullTerm(), "specgate.within_keys: operand 2 must be an array, got null"},
		{reachingBuiltin, ast.ObjectTerm(), arr, "specgate.reaching: operand 1 must be an array, got object"},
	} {
		if _, err := c.f(rego.BuiltinContext{}, c.a, c.b); err == nil || err.Error() != c.want {
			t.Errorf("got error %v, want %q", err, c.want)
		}
	}
}
