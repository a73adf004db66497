package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.values_at(items, path) -> [value]
//
// the values at a path under each item of a list, in the list's order, a
// path listing object keys (strings) and array indices (numbers) as a
// Rego reference reads them and null standing for every member of an
// object (in Rego's order, by key) or element of an array; an item
// without a value there gives none. specgate.values_at(input.operations,
// ["responses", null, "content", null]) are the media types of every
// response of every operation, as the comprehension
// [m | some op in input.operations; some r in op.responses; some m in
// r.content] gives them, without an iteration of Rego per operation,
// response and media type (Microsoft Graph's 34,000 responses).
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.values_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A)),
			types.NewArray(nil, types.A)),
	}, valuesAtBuiltin)
}

func valuesAtBuiltin(_ rego.BuiltinContext, items, path *ast.Term) (*ast.Term, error) {
	list, p, err := arrays("specgate.values_at", items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath("specgate.values_at", p, true)
	if err != nil {
		return nil, err
	}
	var out []*ast.Term
	for i := range list.Len() {
		out = collectValues(out, list.Elem(i), steps)
	}
	return ast.ArrayTerm(out...), nil
}

// valuesPath reads a path given to builtin (specgate.values_at and the
// builtins that read values as it does) as its steps; null, for every
// member, only if withAny.
func valuesPath(builtin string, p *ast.Array, withAny bool) ([]valuesStep, error) {
	steps := make([]valuesStep, p.Len())
	for i := range p.Len() {
		switch k := p.Elem(i).Value.(type) {
		case ast.String:
			steps[i] = valuesStep{key: p.Elem(i)}
		case ast.Number:
			n, ok := k.Int()
			if !ok {
				return nil, fmt.Errorf("%s: element %d of the path must be an integer, got %s", builtin, i, k)
			}
			steps[i] = valuesStep{index: n, isIndex: true}
		case ast.Null:
			if withAny {
				steps[i] = valuesStep{any: true}
				break
			}
			return nil, fmt.Errorf("%s: element %d of the path must be a string or a number, got null", builtin, i)
		default:
			if !withAny {
				return nil, fmt.Errorf("%s: element %d of the path must be a string or a number, got %s", builtin, i, ast.ValueName(k))
			}
			return nil, fmt.Errorf("%s: element %d of the path must be a string, a number or null, got %s", builtin, i, ast.ValueName(k))
		}
	}
	return steps, nil
}

// valuesStep is one element of a path given to specgate.values_at: an object's
// key, an array's index, or every member (any).
type valuesStep struct {
	key     *ast.Term
	index   int
	isIndex bool
	any     bool
}

// collectValues appends to out the values at the path steps under t.
func collectValues(out []*ast.Term, t *ast.Term, steps []valuesStep) []*ast.Term {
	if len(steps) == 0 {
		return append(out, t)
	}
	s, rest := steps[0], steps[1:]
	switch c := t.Value.(type) {
	case ast.Object:
		switch {
		case s.any:
			c.Foreach(func(_, member *ast.Term) { out = collectValues(out, member, rest) })
		case s.key != nil:
			if member := c.Get(s.key); member != nil {
				out = collectValues(out, member, rest)
			}
		}
	case *ast.Array:
		switch {
		case s.any:
			for i := range c.Len() {
				out = collectValues(out, c.Elem(i), rest)
			}
		case s.isIndex && s.index >= 0 && s.index < c.Len():
			out = collectValues(out, c.Elem(s.index), rest)
		}
	}
	return out
}

// anyValue tells whether one of the values at the path steps under t
// satisfies pred, visiting them as collectValues lists them and stopping
// at the first.
func anyValue(t *ast.Term, steps []valuesStep, pred func(*ast.Term) bool) bool {
	if len(steps) == 0 {
		return pred(t)
	}
	s, rest := steps[0], steps[1:]
	switch c := t.Value.(type) {
	case ast.Object:
		switch {
		case s.any:
			return c.Until(func(_, member *ast.Term) bool { return anyValue(member, rest, pred) })
		case s.key != nil:
			if member := c.Get(s.key); member != nil {
				return anyValue(member, rest, pred)
			}
		}
	case *ast.Array:
		switch {
		case s.any:
			return c.Until(func(elem *ast.Term) bool { return anyValue(elem, rest, pred) })
		case s.isIndex && s.index >= 0 && s.index < c.Len():
			return anyValue(c.Elem(s.index), rest, pred)
		}
	}
	return false
}
