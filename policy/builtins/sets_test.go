package builtins

import (
	"context"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestSetOperatorsShareSets: one goroutine intersects and joins sets
// while another reads them in order (which sorts them, the first time).
// Under -race this failed before the set operators settled their
// operands' order; the results must be right either way.
func TestSetOperatorsShareSets(t *testing.T) {
	ctx := context.Background()
	q, err := rego.New(rego.Query(`x := [input.a & input.b, input.a | input.b, intersection({input.a, input.b})]`)).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		a := ast.NewSet(ast.StringTerm("z"), ast.StringTerm("b"), ast.StringTerm("m"), ast.StringTerm("a"))
		b := ast.NewSet(ast.StringTerm("y"), ast.StringTerm("m"), ast.StringTerm("b"))
		in := ast.NewObject(ast.Item(ast.StringTerm("a"), ast.NewTerm(a)), ast.Item(ast.StringTerm("b"), ast.NewTerm(b)))
		var wg sync.WaitGroup
		wg.Go(func() { a.Slice(); b.Slice() })
		rs, err := q.Eval(ctx, rego.EvalParsedInput(in))
		wg.Wait()
		if err != nil || len(rs) != 1 {
			t.Fatalf("%v %v", rs, err)
		}
		got := rs[0].Bindings["x"]
		want := []any{[]any{"b", "m"}, []any{"a", "b", "m", "y", "z"}, []any{"b", "m"}}
		if ast.MustInterfaceToValue(got).Compare(ast.MustInterfaceToValue(want)) != 0 {
			t.Fatalf("x = %v, want %v", got, want)
		}
	}
}
