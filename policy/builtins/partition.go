package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.partition_at(items, path, default, values) -> [in, out]
//
// splits a list by one value of each item, in one call: a rule that keeps
// the items whose format is not one of a few (every string an API
// receives) otherwise pays an iteration, a lookup and a membership test
// of Rego per item.
func init() {
	rego.RegisterBuiltin4(&rego.Function{
		Name: "specgate.partition_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.A, types.A),
			types.NewArray([]types.Type{types.NewArray(nil, types.A), types.NewArray(nil, types.A)}, nil)),
	}, partitionAtBuiltin)
}

// partitionAtBuiltin is specgate.partition_at(items, path, default,
// values) -> [in, out]: the items of a list whose value at the path (as
// object.get(item, path, default) reads it: object keys and array indices
// from the item itself, default where the path leads nowhere) is one of
// values (a set or an array, compared as `in` compares), and the others,
// each in the list's order. specgate.partition_at(items, ["node",
// "format"], "", {""})[0] are the items whose node has no format or an
// empty one, as [v | some v in items; object.get(v.node, "format", "") ==
// ""] lists them.
func partitionAtBuiltin(_ rego.BuiltinContext, items, path, def, values *ast.Term) (*ast.Term, error) {
	list, p, err := arrays("specgate.partition_at", items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath("specgate.partition_at", p, false)
	if err != nil {
		return nil, err
	}
	var in func(*ast.Term) bool
	switch vs := values.Value.(type) {
	case ast.Set:
		in = vs.Contains
	case *ast.Array:
		in = func(t *ast.Term) bool { return vs.Until(func(v *ast.Term) bool { return v.Equal(t) }) }
	default:
		return nil, fmt.Errorf("specgate.partition_at: operand 4 must be a set or an array, got %s", ast.ValueName(values.Value))
	}
	var inside, outside []*ast.Term
	for i := range list.Len() {
		item := list.Elem(i)
		v := valueAt(item, steps)
		if v == nil {
			v = def
		}
		if in(v) {
			inside = append(inside, item)
		} else {
			outside = append(outside, item)
		}
	}
	return ast.ArrayTerm(ast.ArrayTerm(inside...), ast.ArrayTerm(outside...)), nil
}

// valueAt is the value at the path steps (keys and indices, no "any")
// under t, or nil where the path leads nowhere.
func valueAt(t *ast.Term, steps []valuesStep) *ast.Term {
	for _, s := range steps {
		switch c := t.Value.(type) {
		case ast.Object:
			if s.isIndex {
				return nil
			}
			if t = c.Get(s.key); t == nil {
				return nil
			}
		case *ast.Array:
			if !s.isIndex || s.index < 0 || s.index >= c.Len() {
				return nil
			}
			t = c.Elem(s.index)
		default:
			return nil
		}
	}
	return t
}

// specgate.group_at(items, path, key) -> {value: [[i, member]]}
//
// groups the values at a path under each item of a list (read as
// specgate.values_at reads it) by their value at a key, in one call: an
// index of every response of every operation by status, built as pairs
// in Rego for specgate.group, costs an iteration and an array of Rego per
// response.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.group_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.A),
			types.NewObject(nil, types.NewDynamicProperty(types.A, types.NewArray(nil, types.NewArray([]types.Type{types.N, types.A}, nil))))),
	}, groupAtBuiltin)
}

// groupAtBuiltin is specgate.group_at(items, path, key): for each value
// at the path under the item at position i, [i, value] under the value's
// member at key, each group in the order of the items and their values,
// as specgate.group([[v[key], [i, v]] | some i, item in items; some v in
// values_at([item], path)]) builds it; a value that is not an object with
// the key is left out (on an array, the key is an index).
func groupAtBuiltin(_ rego.BuiltinContext, items, path, key *ast.Term) (*ast.Term, error) {
	list, p, err := arrays("specgate.group_at", items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath("specgate.group_at", p, true)
	if err != nil {
		return nil, err
	}
	keyStep, err := valuesPath("specgate.group_at", ast.NewArray(key), false)
	if err != nil {
		return nil, err
	}
	index := map[ast.Value]int{} // scalar keys, by value; others through keyed
	keyed := ast.NewObject()     // any key -> its position in keys and groups
	var keys []*ast.Term
	var groups [][]*ast.Term
	var values []*ast.Term
	for i := range list.Len() {
		values = collectValues(values[:0], list.Elem(i), steps)
		if len(values) == 0 {
			continue
		}
		pos := ast.InternedTerm(i)
		for _, v := range values {
			k := valueAt(v, keyStep)
			if k == nil {
				continue
			}
			n, found := -1, false
			if s, ok := k.Value.(ast.String); ok {
				n, found = index[s]
			} else if at := keyed.Get(k); at != nil {
				n, _ = at.Value.(ast.Number).Int()
				found = true
			}
			if !found {
				n = len(keys)
				if s, ok := k.Value.(ast.String); ok {
					index[s] = n
				} else {
					keyed.Insert(k, ast.InternedTerm(n))
				}
				keys = append(keys, k)
				groups = append(groups, nil)
			}
			groups[n] = append(groups[n], ast.ArrayTerm(pos, v))
		}
	}
	out := make([][2]*ast.Term, len(keys))
	for i, k := range keys {
		out[i] = [2]*ast.Term{k, ast.ArrayTerm(groups[i]...)}
	}
	return ast.ObjectTerm(out...), nil
}
