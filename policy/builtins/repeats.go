package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.repeats(list) -> [[i, first]]
//
// the positions i of the elements of an array that equal an earlier one,
// each with the position of that value's first occurrence, in order:
// specgate.repeats(["a", "b", "a", "a"]) is [[2, 0], [3, 0]]. Elements are
// equal as the members of a set are (1 and 1.0 are one value). In Rego the
// test takes a set of the elements, and for each repeat another pass for
// its first position, over enums of thousands of values. One pass in Go
// does it.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.repeats",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A)),
			types.NewArray(nil, types.NewArray([]types.Type{types.N, types.N}, nil))),
	}, repeatsBuiltin)
}

func repeatsBuiltin(_ rego.BuiltinContext, list *ast.Term) (*ast.Term, error) {
	arr, ok := list.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("specgate.repeats: operand must be an array, got %s", ast.ValueName(list.Value))
	}
	if arr.Len() < 2 {
		return ast.ArrayTerm(), nil
	}
	var out []*ast.Term
	seen := ast.NewObject() // value -> its first position
	for i := range arr.Len() {
		e := arr.Elem(i)
		if first := seen.Get(e); first != nil {
			out = append(out, ast.ArrayTerm(ast.InternedTerm(i), first))
			continue
		}
		seen.Insert(e, ast.InternedTerm(i))
	}
	return ast.ArrayTerm(out...), nil
}
