package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.with_repeats(items, key) -> [item] and
// specgate.elements_of_type(items, key, type) -> [typed, others]
//
// judge the array each item of a list (objects with a node, as those of
// input.schemasWith.enum) holds at a key of its node, for every item in
// one call: a rule about enums then reads the few that repeat a value, or
// that hold a value of another type than their schema's, where a test of
// each schema costs a function call and an iteration of Rego per value
// (Microsoft Graph's 3,000 enums, each of strings).
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.with_repeats",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.S), types.NewArray(nil, types.A)),
	}, withRepeatsBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.elements_of_type",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.S, types.S),
			types.NewArray([]types.Type{types.NewArray(nil, types.A), types.NewArray(nil, types.A)}, nil)),
	}, elementsOfTypeBuiltin)
}

// withRepeatsBuiltin is specgate.with_repeats(items, key): the items whose
// node holds at key an array with an element equal to an earlier one (as
// specgate.repeats finds them: as the members of a set are equal), in
// order.
func withRepeatsBuiltin(_ rego.BuiltinContext, items, key *ast.Term) (*ast.Term, error) {
	list, ok := items.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("specgate.with_repeats: operand 1 must be an array, got %s", ast.ValueName(items.Value))
	}
	if _, ok := key.Value.(ast.String); !ok {
		return nil, fmt.Errorf("specgate.with_repeats: operand 2 must be a string, got %s", ast.ValueName(key.Value))
	}
	var out []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		o, ok := node.(ast.Object)
		if !ok {
			return
		}
		if arr, ok := valueOf(o, key).(*ast.Array); ok && repeatsOne(arr) {
			out = append(out, item)
		}
	})
	return ast.ArrayTerm(out...), nil
}

// repeatsOne tells whether an element of arr equals an earlier one.
func repeatsOne(arr *ast.Array) bool {
	if arr.Len() < 2 {
		return false
	}
	seen := ast.NewSet()
	for i := range arr.Len() {
		if seen.Contains(arr.Elem(i)) {
			return true
		}
		seen.Add(arr.Elem(i))
	}
	return false
}

// elementsOfTypeBuiltin is specgate.elements_of_type(items, key, type):
// the items whose node holds at key an array of which every element has
// the type (as type_name names it: "string", "number", "boolean", "null",
// "array", "object"; an empty array qualifies), and the others (no
// array there, an element of another type, an item without a node), each
// in order.
func elementsOfTypeBuiltin(_ rego.BuiltinContext, items, key, typ *ast.Term) (*ast.Term, error) {
	list, ok := items.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("specgate.elements_of_type: operand 1 must be an array, got %s", ast.ValueName(items.Value))
	}
	if _, ok := key.Value.(ast.String); !ok {
		return nil, fmt.Errorf("specgate.elements_of_type: operand 2 must be a string, got %s", ast.ValueName(key.Value))
	}
	name, ok := typ.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.elements_of_type: operand 3 must be a string, got %s", ast.ValueName(typ.Value))
	}
	switch name {
	case "string", "number", "boolean", "null", "array", "object":
	default:
		return nil, fmt.Errorf("specgate.elements_of_type: operand 3 must name a JSON type (string, number, boolean, null, array or object), got %q", string(name))
	}
	var typed, others []*ast.Term
	for i := range list.Len() {
		item := list.Elem(i)
		var arr *ast.Array
		if o, ok := item.Value.(ast.Object); ok {
			if node, ok := valueOf(o, nodeKey).(ast.Object); ok {
				arr, _ = valueOf(node, key).(*ast.Array)
			}
		}
		if arr != nil && !arr.Until(func(e *ast.Term) bool { return ast.ValueName(e.Value) != string(name) }) {
			typed = append(typed, item)
		} else {
			others = append(others, item)
		}
	}
	return ast.ArrayTerm(ast.ArrayTerm(typed...), ast.ArrayTerm(others...)), nil
}
