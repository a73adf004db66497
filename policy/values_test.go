package policy

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// TestWorkerValues checks what a worker shares: a library rule's value is
// computed once for every worker and kept across rules; a function's
// value, and the values of a rule's own package (its violations, its
// helpers), stay with the worker and the rule that computed them; a value
// computed under `with` is never shared.
func TestWorkerValues(t *testing.T) {
	shared := &sharedValues{cache: topdown.NewVirtualCache()}
	a, b := newWorkerValues(shared), newWorkerValues(shared)
	rule := ast.MustParseRef("data.specgate.lib.util.http_operations")
	// A call whose arguments are all strings reads like a rule's ref and
	// is shared: isLibraryRef cannot tell them apart. An object argument
	// makes it a call.
	call := ast.MustParseRef(`data.specgate.lib.naming.operation`).Append(ast.ObjectTerm(ast.Item(ast.StringTerm("path"), ast.StringTerm("/a"))))
	under := ast.MustParseRef("data.specgate.lib.util.is_oas2")
	own := ast.MustParseRef(`data.specgate.rules["operation-summary"].violations`)

	a.Put(rule, ast.StringTerm("ops"))
	a.Put(call, ast.BooleanTerm(true))
	a.Put(own, ast.SetTerm(ast.StringTerm("finding")))
	a.Push()
	a.Put(under, ast.BooleanTerm(true))
	a.Pop()

	if v, _ := b.Get(rule); v == nil || !v.Equal(ast.StringTerm("ops")) {
		t.Errorf("another worker reads the rule value as %v, want \"ops\"", v)
	}
	if v, _ := b.Get(call); v != nil {
		t.Errorf("another worker reads the function value %v, want none", v)
	}
	if v, _ := b.Get(own); v != nil {
		t.Errorf("another worker reads a rule's own value %v, want none", v)
	}
	if v, _ := b.Get(under); v != nil {
		t.Errorf("another worker reads the value computed under with: %v, want none", v)
	}
	if v, _ := a.Get(call); v == nil {
		t.Error("the worker lost its function value within the rule")
	}
	if v, _ := a.Get(own); v == nil {
		t.Error("the worker lost the rule's own value within the rule")
	}
	a.nextRule()
	if v, _ := a.Get(call); v != nil {
		t.Errorf("the function value %v outlived its rule", v)
	}
	if v, _ := a.Get(own); v != nil {
		t.Errorf("the rule's own value %v outlived its rule", v)
	}
	if v, _ := a.Get(rule); v == nil || !v.Equal(ast.StringTerm("ops")) {
		t.Errorf("after the next rule began the worker reads the rule value as %v, want \"ops\"", v)
	}
}
