package builtins

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// evalX evaluates a query binding x and returns x as text, or "undefined"
// (the builtins' tests share it).
func evalX(t *testing.T, query string) string {
	t.Helper()
	rs, err := rego.New(rego.Query(query)).Eval(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if len(rs) == 0 {
		return "undefined"
	}
	return ast.MustInterfaceToValue(rs[0].Bindings["x"]).String()
}

func TestRepeats(t *testing.T) {
	for query, want := range map[string]string{
		`x := specgate.repeats(["a", "b", "a", "a", "b", "c"])`:               `[[2, 0], [3, 0], [4, 1]]`,
		`x := specgate.repeats([1, 1.0, {"k": [1]}, {"k": [1]}, null, null])`: `[[1, 0], [3, 2], [5, 4]]`,
		`x := specgate.repeats(["a", "b"])`:                                   `[]`,
		`x := specgate.repeats([])`:                                           `[]`,
		`x := specgate.repeats(input.missing)`:                                `undefined`,
	} {
		if got := evalX(t, query); got != want {
			t.Errorf("%s = %s, want %s", query, got, want)
		}
	}
}
