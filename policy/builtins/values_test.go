package builtins

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestValuesAt(t *testing.T) {
	items := `[
		{"i": 1, "responses": [{"content": [{"m": "a"}, {"m": "b"}]}, {"content": []}, {"status": "x"}]},
		{"i": 2, "responses": {"b": {"content": {"y": 2, "x": 1}}, "a": {"content": "c"}}},
		{"i": 3, "responses": null},
		{"i": 4},
		"item",
		{"i": 6, "responses": [{"content": [null, false]}]}
	]`
	for _, c := range []struct{ query, want string }{
		// null is every element of an array and every member of an object
		// in Rego's order (by key); a value that is not a container where
		// the path goes on gives nothing; null and false are values.
		{`x := specgate.values_at(` + items + `, ["responses", null, "content", null])`, `[{"m": "a"}, {"m": "b"}, 1, 2, null, false]`},
		{`x := specgate.values_at(` + items + `, ["responses", 0, "content", 1])`, `[{"m": "b"}, false]`},
		{`x := specgate.values_at(` + items + `, ["i"])`, `[1, 2, 3, 4, 6]`},
		{`x := specgate.values_at(` + items + `, ["responses", null, "status"])`, `["x"]`},
		{`x := specgate.values_at(` + items + `, ["responses", -1])`, `[]`},
		{`x := specgate.values_at([[1, 2], {"k": 3}], [])`, `[[1, 2], {"k": 3}]`},
		{`x := specgate.values_at([[1, 2], {"1": 3}], [1])`, `[2]`},
		{`x := specgate.values_at([], ["a"])`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same values as the comprehension it replaces, in its order.
	want := evalX(t, `x := [m | some op in `+items+`; is_object(op); some r in op.responses; some m in r.content]`)
	if got := evalX(t, `x := specgate.values_at(`+items+`, ["responses", null, "content", null])`); got != want {
		t.Errorf("values_at = %s, the comprehension %s", got, want)
	}
	for _, q := range []string{
		`x := specgate.values_at(input.items, ["a"])`,
		`x := specgate.values_at([], ["a", true])`,
		`x := specgate.values_at([], [1.5])`,
		`x := specgate.values_at([], "a")`,
	} {
		rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": map[string]any{}})).Eval(context.Background())
		if err == nil && len(rs) != 0 {
			t.Errorf("%s: %v, want an error or undefined", q, rs)
		}
	}
}
