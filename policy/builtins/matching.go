package builtins

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.matching and specgate.positions_matching find the few items of
// a large list whose name, status or method (any string at a path) a
// regular expression matches, in one call: in Rego, each item costs an
// iteration, a lookup and a call of regex.match, which is most of a rule
// that reports five parameters of 27,000 or judges 11,400 operations by
// their statuses.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.matching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
			types.NewArray(nil, types.A)),
	}, matchingBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.positions_matching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
			types.NewArray([]types.Type{types.NewArray(nil, types.N), types.NewArray(nil, types.N)}, nil)),
	}, positionsMatchingBuiltin)
}

// matchingBuiltin is specgate.matching(items, path, pattern) -> [item]:
// the items of a list that hold, at the path, a string the regular
// expression matches (as regex.match(pattern, s) would), in order. The
// path starts at the item itself, not its node (["name"] is `item.name`,
// ["node", "description"] is `item.node.description`), and is read as
// specgate.values_at reads it: object keys, array indices, and null for
// any member or element, an item being kept when any string it reaches
// matches (["parameters", null, "name"] keeps the operations with a
// parameter so named). Items that hold something else there are left out.
func matchingBuiltin(_ rego.BuiltinContext, items, path, pattern *ast.Term) (*ast.Term, error) {
	list, m, err := newMatcher("specgate.matching", items, path, pattern)
	if err != nil {
		return nil, err
	}
	var out []*ast.Term
	for i := range list.Len() {
		if m.matches(list.Elem(i)) {
			out = append(out, list.Elem(i))
		}
	}
	return ast.ArrayTerm(out...), nil
}

// positionsMatchingBuiltin is specgate.positions_matching(items, path,
// pattern) -> [matching, others]: the positions of the items that
// specgate.matching keeps, and of the others, each in order.
// specgate.positions_matching(input.operations, ["responses", null,
// "status"], `^2`)[1] are the operations without a 2xx response, by
// position, for set differences with other indexes of operations.
func positionsMatchingBuiltin(_ rego.BuiltinContext, items, path, pattern *ast.Term) (*ast.Term, error) {
	list, m, err := newMatcher("specgate.positions_matching", items, path, pattern)
	if err != nil {
		return nil, err
	}
	var matching, others []*ast.Term
	for i := range list.Len() {
		if m.matches(list.Elem(i)) {
			matching = append(matching, ast.InternedTerm(i))
		} else {
			others = append(others, ast.InternedTerm(i))
		}
	}
	return ast.ArrayTerm(ast.ArrayTerm(matching...), ast.ArrayTerm(others...)), nil
}

// matcher tests an item's strings at a path against a regular expression,
// each distinct string once (a large API's names and statuses repeat).
type matcher struct {
	re    *regexp.Regexp
	steps []valuesStep
	seen  map[ast.String]bool
}

// newMatcher reads the operands of builtin: the list, and a matcher of
// the path and pattern.
func newMatcher(builtin string, items, path, pattern *ast.Term) (*ast.Array, *matcher, error) {
	list, p, err := arrays(builtin, items, path)
	if err != nil {
		return nil, nil, err
	}
	steps, err := valuesPath(builtin, p, true)
	if err != nil {
		return nil, nil, err
	}
	s, ok := pattern.Value.(ast.String)
	if !ok {
		return nil, nil, fmt.Errorf("%s: operand 3 must be a string, got %s", builtin, ast.ValueName(pattern.Value))
	}
	re, err := compiled(string(s))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", builtin, err)
	}
	return list, &matcher{re: re, steps: steps, seen: map[ast.String]bool{}}, nil
}

// matches tells whether a string the item reaches at the path matches.
func (m *matcher) matches(item *ast.Term) bool {
	return anyValue(item, m.steps, func(v *ast.Term) bool {
		s, ok := v.Value.(ast.String)
		if !ok {
			return false
		}
		match, ok := m.seen[s]
		if !ok {
			match = m.re.MatchString(string(s))
			m.seen[s] = match
		}
		return match
	})
}

// patterns keeps the regular expressions the matching builtins compiled,
// by their text: a rule calls them with a constant pattern, once or a few
// times an evaluation, and a rule set has a handful of them. Once it holds
// maxPatterns, it starts again empty (a caller that builds its patterns
// from the document must not grow it without bound).
var patterns struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

const maxPatterns = 100

func compiled(pattern string) (*regexp.Regexp, error) {
	patterns.Lock()
	defer patterns.Unlock()
	if re, ok := patterns.m[pattern]; ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	if patterns.m == nil || len(patterns.m) >= maxPatterns {
		patterns.m = map[string]*regexp.Regexp{}
	}
	patterns.m[pattern] = re
	return re, nil
}
