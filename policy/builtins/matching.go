package builtins

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.matching finds the few items of a large list whose name (or any
// string at a path) a regular expression matches, in one call: in Rego,
// each item costs an iteration, a lookup and a call of regex.match, which
// is most of a rule that reports five parameters of 27,000.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.matching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
			types.NewArray(nil, types.A)),
	}, matchingBuiltin)
}

// matchingBuiltin is specgate.matching(items, path, pattern) -> [item]:
// the items of a list that hold, at the path, a string the regular
// expression matches (as regex.match(pattern, s) would), in order. The
// path starts at the item itself, not its node (["name"] is `item.name`,
// ["node", "description"] is `item.node.description`), and lists object
// keys and array indices; null stands for any member of an object or
// element of an array, and an item is kept when any string it reaches
// matches (["parameters", null, "name"] keeps the operations with a
// parameter so named). Items that hold something else there are left out.
func matchingBuiltin(_ rego.BuiltinContext, items, path, pattern *ast.Term) (*ast.Term, error) {
	list, steps, err := arrays("specgate.matching", items, path)
	if err != nil {
		return nil, err
	}
	p, ok := pattern.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.matching: operand 3 must be a string, got %s", ast.ValueName(pattern.Value))
	}
	re, err := compiled(string(p))
	if err != nil {
		return nil, fmt.Errorf("specgate.matching: %w", err)
	}
	for i := range steps.Len() {
		switch k := steps.Elem(i).Value.(type) {
		case ast.String, ast.Null:
		case ast.Number:
			if _, ok := k.Int(); !ok {
				return nil, fmt.Errorf("specgate.matching: element %d of the path must be an integer, got %s", i, k)
			}
		default:
			return nil, fmt.Errorf("specgate.matching: element %d of the path must be a string, a number or null, got %s", i, ast.ValueName(k))
		}
	}
	m := &matcher{re: re, seen: map[ast.String]bool{}}
	var out []*ast.Term
	for i := range list.Len() {
		if m.at(list.Elem(i).Value, steps, 0) {
			out = append(out, list.Elem(i))
		}
	}
	return ast.ArrayTerm(out...), nil
}

// matcher is one call's regular expression and the strings it has
// judged: the names of a large API repeat (Graph's 27,000 parameters have
// a few thousand), and a map lookup costs a small part of a match.
type matcher struct {
	re   *regexp.Regexp
	seen map[ast.String]bool
}

// at tells whether v holds, at the path's steps from i on, a string that
// the regular expression matches.
func (m *matcher) at(v ast.Value, steps *ast.Array, i int) bool {
	if i == steps.Len() {
		s, ok := v.(ast.String)
		if !ok {
			return false
		}
		match, ok := m.seen[s]
		if !ok {
			match = m.re.MatchString(string(s))
			m.seen[s] = match
		}
		return match
	}
	step := steps.Elem(i)
	switch c := v.(type) {
	case ast.Object:
		switch step.Value.(type) {
		case ast.Null:
			return c.Until(func(_, member *ast.Term) bool { return m.at(member.Value, steps, i+1) })
		case ast.String:
			if member := c.Get(step); member != nil {
				return m.at(member.Value, steps, i+1)
			}
		}
	case *ast.Array:
		switch k := step.Value.(type) {
		case ast.Null:
			return c.Until(func(elem *ast.Term) bool { return m.at(elem.Value, steps, i+1) })
		case ast.Number:
			if n, ok := k.Int(); ok && n >= 0 && n < c.Len() {
				return m.at(c.Elem(n).Value, steps, i+1)
			}
		}
	}
	return false
}

// patterns keeps the regular expressions specgate.matching compiled, by
// their text: a rule calls it with a constant pattern, once or a few times
// an evaluation, and a rule set has a handful of them. Once it holds
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
