package builtins

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.blank_at finds the items of a large list that lack a text (a
// description, a summary) in one call: in Rego, each item costs an
// iteration and a call of trim_space, which is all a rule costs that finds
// no parameter of 27,000 undescribed.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.blank_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A)),
			types.NewArray(nil, types.A)),
	}, blankAtBuiltin)
}

// blankAtBuiltin is specgate.blank_at(items, path) -> [item]: the items of
// a list whose value at the path is missing, not a string, or blank
// (trim_space of it is ""), in order: those for which
// `not trim_space(item.node.description) != ""` holds when the path is
// ["node", "description"]. The path starts at the item itself and lists
// object keys and array indices, as a Rego reference reads them; a step
// that does not apply (a key of an array, an index out of range) leads to
// nothing, which is missing.
func blankAtBuiltin(_ rego.BuiltinContext, items, path *ast.Term) (*ast.Term, error) {
	const name = "specgate.blank_at"
	list, p, err := arrays(name, items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath(name, p, false) // one value per item
	if err != nil {
		return nil, err
	}
	var out, at []*ast.Term
	for i := range list.Len() {
		at = collectValues(at[:0], list.Elem(i), steps)
		if len(at) == 0 {
			out = append(out, list.Elem(i))
		} else if s, ok := at[0].Value.(ast.String); !ok || strings.TrimSpace(string(s)) == "" {
			out = append(out, list.Elem(i))
		}
	}
	return ast.ArrayTerm(out...), nil
}
