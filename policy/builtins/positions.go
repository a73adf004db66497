package builtins

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.positions_matching(items, path, pattern) -> [matching, others]
//
// the positions of the items of a list that hold, at a path, a string the
// regular expression matches (as regex.match reads it), and the positions
// of the others, each in order. The path is read as specgate.values_at
// reads it (null for every member or element), and an item matches when
// one of the strings it reaches there does; a value that is not a string
// matches nothing. specgate.positions_matching(input.operations,
// ["responses", null, "status"], `^2`)[1] are the operations without a
// 2xx response: what specgate.matching leaves out, and by position, for
// set differences with other indexes of operations, found in one pass
// where a test of each operation's statuses costs a function call and an
// iteration of Rego per operation (Microsoft Graph has 11,400).
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.positions_matching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
			types.NewArray([]types.Type{types.NewArray(nil, types.N), types.NewArray(nil, types.N)}, nil)),
	}, positionsMatchingBuiltin)
}

func positionsMatchingBuiltin(_ rego.BuiltinContext, items, path, pattern *ast.Term) (*ast.Term, error) {
	const name = "specgate.positions_matching"
	list, p, err := arrays(name, items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath(name, p)
	if err != nil {
		return nil, err
	}
	s, ok := pattern.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("%s: operand 3 must be a string, got %s", name, ast.ValueName(pattern.Value))
	}
	re, err := regexp.Compile(string(s))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	seen := map[string]bool{} // statuses and names repeat: each is matched once
	matches := func(v *ast.Term) bool {
		s, ok := v.Value.(ast.String)
		if !ok {
			return false
		}
		m, ok := seen[string(s)]
		if !ok {
			m = re.MatchString(string(s))
			seen[string(s)] = m
		}
		return m
	}
	var matching, others, values []*ast.Term
	for i := range list.Len() {
		values = collectValues(values[:0], list.Elem(i), steps)
		if slices.ContainsFunc(values, matches) {
			matching = append(matching, ast.InternedTerm(i))
		} else {
			others = append(others, ast.InternedTerm(i))
		}
	}
	return ast.ArrayTerm(ast.ArrayTerm(matching...), ast.ArrayTerm(others...)), nil
}
