package builtins

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// OPA sorts a set's elements in place the first time they are read in
// order (under a sync.Once of the set), but its intersection and union
// read them without that guard. A set that goroutines share (a constant
// of the compiled program, a library value of the shared cache, the
// input) may then be sorted by one while another intersects it: a data
// race, which -race found in TestLintFilesConcurrently (one rule iterating
// security.statuses[i] while another intersected it). The set operators
// settle their operands' order first; sorting again is then a no-op.
func init() {
	for _, name := range []string{ast.And.Name, ast.Or.Name, ast.Intersection.Name} {
		op := topdown.GetBuiltin(name)
		topdown.RegisterBuiltinFunc(name, func(bctx topdown.BuiltinContext, operands []*ast.Term, iter func(*ast.Term) error) error {
			for _, t := range operands {
				settleOrder(t.Value, name == ast.Intersection.Name)
			}
			return op(bctx, operands, iter)
		})
	}
}

// settleOrder sorts a set once, under its guard, and with inner the sets
// it holds (the operand of intersection is a set of sets).
func settleOrder(v ast.Value, inner bool) {
	s, ok := v.(ast.Set)
	if !ok {
		return
	}
	for _, t := range s.Slice() {
		if inner {
			settleOrder(t.Value, false)
		}
	}
}
