package input_test

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

// TestFormatInput checks that a registered field is in the input of the
// documents of its format only, that a value that does not convert is
// null, and that registering a field twice panics.
func TestFormatInput(t *testing.T) {
	input.RegisterField(input.Field{Format: spec.Arazzo, Key: "formatInputTest", Build: func(doc *spec.Document) any {
		return map[string]any{"title": doc.Root.Root.Get("info").GetStr("title"), "at": []any{"info", 0}}
	}})
	input.RegisterField(input.Field{Format: spec.Arazzo, Key: "formatInputBroken", Build: func(*spec.Document) any {
		return make(chan int)
	}})
	arazzo := load(t, "arazzo: 1.0.1\ninfo: {title: Flows, version: '1'}\nsourceDescriptions: []\nworkflows: []\n")
	obj := input.Build(arazzo).(ast.Object)
	if got, want := obj.Get(ast.StringTerm("formatInputTest")), ast.MustParseTerm(`{"title": "Flows", "at": ["info", 0]}`); got == nil || !got.Equal(want) {
		t.Errorf("input.formatInputTest = %v, want %v", got, want)
	}
	if got := obj.Get(ast.StringTerm("formatInputBroken")); got == nil || !got.Equal(ast.NullTerm()) {
		t.Errorf("input.formatInputBroken = %v, want null", got)
	}
	openapi := load(t, "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n")
	if got := input.Build(openapi).(ast.Object).Get(ast.StringTerm("formatInputTest")); got != nil {
		t.Errorf("an OpenAPI document's input has formatInputTest: %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering formatInputTest twice did not panic")
		}
	}()
	input.RegisterField(input.Field{Format: spec.Arazzo, Key: "formatInputTest", Build: func(*spec.Document) any { return nil }})
}
