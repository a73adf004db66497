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
	a, b := newWorkerValues(shared, nil), newWorkerValues(shared, nil)
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

// TestRuleCallsAreNotShared: OPA keys a call's value by the function's ref
// as one term, then the arguments; a call of a rule's own function is the
// rule's, even when its arguments are all strings, and a library
// function's call with string arguments is shared.
func TestRuleCallsAreNotShared(t *testing.T) {
	shared := &sharedValues{cache: topdown.NewVirtualCache()}
	a, b := newWorkerValues(shared, nil), newWorkerValues(shared, nil)
	own := ast.Ref{ast.NewTerm(ast.MustParseRef(`data.specgate.rules["no-ambiguous-paths"]._path_schemas`)), ast.StringTerm("/a/{id}"), ast.StringTerm("id")}
	lib := ast.Ref{ast.NewTerm(ast.MustParseRef(`data.specgate.lib.naming.words`)), ast.StringTerm("petId")}
	a.Put(own, ast.StringTerm("schemas"))
	a.Put(lib, ast.StringTerm("words"))
	if v, _ := b.Get(own); v != nil {
		t.Errorf("another worker reads the value of a rule's own call: %v", v)
	}
	if v, _ := b.Get(lib); v == nil {
		t.Error("another worker does not read the value of a library call with string arguments")
	}
}
