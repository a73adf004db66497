package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.group(pairs) -> {key: [value]}
//
// groups the values of [key, value] pairs (an array or a set of them) by
// key, each key's values in the order of the pairs (a set's in sorted
// order). Rego has no grouping of its own: written as a comprehension per
// key ({k: [v | some [k2, v] in pairs; k2 == k] | ...}) it is quadratic
// unless OPA indexes the comprehension, and a rule set with indexed
// comprehensions pays for building the indices at every start (see
// Cache.loadProgram). One pass in Go does it in linear time.
func init() {
	pair := types.NewArray([]types.Type{types.A, types.A}, nil)
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.group",
		Decl: types.NewFunction(types.Args(types.NewAny(types.NewArray(nil, pair), types.NewSet(pair))),
			types.NewObject(nil, types.NewDynamicProperty(types.A, types.NewArray(nil, types.A)))),
	}, groupBuiltin)
}

func groupBuiltin(_ rego.BuiltinContext, pairs *ast.Term) (*ast.Term, error) {
	var list *ast.Array
	switch v := pairs.Value.(type) {
	case *ast.Array:
		list = v
	case ast.Set:
		list = v.Sorted()
	default:
		return nil, fmt.Errorf("specgate.group: operand must be an array or a set of [key, value] pairs, got %s", ast.ValueName(pairs.Value))
	}
	index := ast.NewObject() // key -> its position in keys and values
	var keys []*ast.Term
	var values [][]*ast.Term
	for i := range list.Len() {
		e := list.Elem(i)
		pair, ok := e.Value.(*ast.Array)
		if !ok || pair.Len() != 2 {
			return nil, fmt.Errorf("specgate.group: element %d is not a [key, value] pair: %v", i, e)
		}
		k := pair.Elem(0)
		if at := index.Get(k); at != nil {
			n, _ := at.Value.(ast.Number).Int()
			values[n] = append(values[n], pair.Elem(1))
			continue
		}
		index.Insert(k, ast.IntNumberTerm(len(keys)))
		keys = append(keys, k)
		values = append(values, []*ast.Term{pair.Elem(1)})
	}
	out := make([][2]*ast.Term, len(keys))
	for i, k := range keys {
		out[i] = [2]*ast.Term{k, ast.ArrayTerm(values[i]...)}
	}
	return ast.ObjectTerm(out...), nil
}
