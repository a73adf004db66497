package policy_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/input"
)

// TestEvalLetsGoOfTheInput checks that once Eval returns, neither the
// input nor the library values built from it are kept: the first
// collection after frees them (OPA's pools hold the objects of the last
// queries until the second).
func TestEvalLetsGoOfTheInput(t *testing.T) {
	e, err := compile(t, 0,
		"package specgate.lib.held\n\nops := [op | some op in input.operations]\n",
		rule("first", "import data.specgate.lib.held\n\n"+`violations contains {"path": op.source, "message": op.path} if { some op in held.ops; op.method == "post" }`),
		rule("second", "import data.specgate.lib.held\n\n"+`violations contains {"path": op.source, "message": op.path} if { some op in held.ops; op.method == "get" }`),
	)
	if err != nil {
		t.Fatal(err)
	}
	freed := make(chan string, 2)
	vs, err := func() ([]policy.Violation, error) {
		in := input.Build(load(t, api)).(ast.Object)
		ops := in.Get(ast.StringTerm("operations")).Value.(*ast.Array)
		// The input's list of operations, which the library's value
		// holds too, and its document. (A few of the terms a query read
		// last may stay in OPA's pools of slices a little longer: they
		// are not looked for.)
		runtime.AddCleanup(ops, func(s string) { freed <- s }, "input.operations")
		runtime.AddCleanup(in.Get(ast.StringTerm("document")), func(s string) { freed <- s }, "input.document")
		return e.Eval(context.Background(), in)
	}()
	if err != nil || len(vs) != 2 {
		t.Fatalf("Eval = %v, %v; want 2 findings", vs, err)
	}
	runtime.GC()
	deadline := time.After(5 * time.Second)
	for range 2 {
		select {
		case <-freed:
		case <-deadline:
			t.Fatal("the input outlived the evaluation by a collection")
		}
	}
}
