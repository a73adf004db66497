package builtins

import (
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.within_keys splits a large list by the keys of its items'
// nodes in one call: in Rego, each item's keys cost a set of them, a
// difference and a count.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.within_keys",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.S)),
			types.NewArray([]types.Type{types.NewArray(nil, types.A), types.NewArray(nil, types.A)}, nil)),
	}, withinKeysBuiltin)
}

// withinKeysBuiltin is specgate.within_keys(items, keys) -> [within,
// beyond]: the items of a list (objects with a node, as those of
// input.schemasWith.example) whose node is an object with no key but keys,
// and the others (a node with another key, or that is not an object),
// each in order; an item without a node is in neither.
// specgate.within_keys(schemas, ["type", "description"])[0] are the
// schemas that give a type and a description at most, and nothing else.
func withinKeysBuiltin(_ rego.BuiltinContext, items, keys *ast.Term) (*ast.Term, error) {
	list, ks, err := arrays("specgate.within_keys", items, keys)
	if err != nil {
		return nil, err
	}
	// Repeated keys count once.
	var allowed []*ast.Term
	for i := range ks.Len() {
		k := ks.Elem(i)
		if _, ok := k.Value.(ast.String); !ok {
			return nil, fmt.Errorf("specgate.within_keys: operand 2 must be an array of strings, got %s", ast.ValueName(k.Value))
		}
		if !slices.ContainsFunc(allowed, k.Equal) {
			allowed = append(allowed, k)
		}
	}
	var within, beyond []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		if o, ok := node.(ast.Object); ok && onlyKeys(o, allowed) {
			within = append(within, item)
		} else {
			beyond = append(beyond, item)
		}
	})
	return ast.ArrayTerm(ast.ArrayTerm(within...), ast.ArrayTerm(beyond...)), nil
}

// onlyKeys tells whether every key of o is one of allowed (distinct):
// whether o has as many of them as it has keys. Looking each up leaves o's
// keys unsorted, where iterating them would sort them.
func onlyKeys(o ast.Object, allowed []*ast.Term) bool {
	n := o.Len()
	if n > len(allowed) {
		return false
	}
	for _, k := range allowed {
		if o.Get(k) != nil {
			n--
		}
	}
	return n == 0
}
