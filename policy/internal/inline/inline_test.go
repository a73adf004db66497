package inline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/internal/inline"
)

// inlineLib holds a template and functions that are not templates, each
// for one reason.
const inlineLib = `package lib

violation(path, message) := {"path": path, "message": message}

pair(a, b) := [a, {b}]

twice(x) := [x, x]
unused(x, y) := [x]
called(x) := upper(x)
field(x) := x.name
guarded(x) := [x] if x != ""
split_def(x) := [x] if x == 1
split_def(x) := [x, x] if x == 2
with_else(x) := [x] if false
else := [x, x]
literal(1) := "one"
wild(_, y) := [y]
of_input(x) := [x, input.version]
`

// compileInline compiles modules as the engine does and returns the
// compiler.
func compileInline(t *testing.T, modules map[string]string) *ast.Compiler {
	t.Helper()
	parsed := map[string]*ast.Module{}
	for name, src := range modules {
		m, err := ast.ParseModuleWithOpts(name, src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = m
	}
	c := newCompiler()
	c.Compile(parsed)
	if c.Failed() {
		t.Fatal(c.Errors)
	}
	return c
}

// calls lists the functions of package lib that a module still calls.
func calls(m *ast.Module) []string {
	var out []string
	ast.WalkTerms(m, func(t *ast.Term) bool {
		if call, ok := t.Value.(ast.Call); ok && strings.HasPrefix(call[0].String(), "data.lib.") {
			out = append(out, strings.TrimPrefix(call[0].String(), "data.lib."))
		}
		return false
	})
	// Expression calls (f(x, out)) are not terms.
	ast.WalkExprs(m, func(e *ast.Expr) bool {
		if e.IsCall() && strings.HasPrefix(e.Operator().String(), "data.lib.") {
			out = append(out, strings.TrimPrefix(e.Operator().String(), "data.lib."))
		}
		return false
	})
	return out
}

// A template's calls are replaced by its value, nested calls included;
// every other function is still called, and the values are the same.
func TestInlineTemplates(t *testing.T) {
	rule := `package rule

import data.lib

violations contains lib.violation(["paths", p], sprintf("%s: %v", [p, lib.pair(1, p)])) if some p in input.paths

others := [lib.twice(1), lib.unused(1, 2), lib.called("a"), lib.field({"name": "n"}), lib.guarded("g"),
	lib.split_def(1), lib.with_else(3), lib.literal(1), lib.wild(0, 5), lib.of_input(7)]
`
	c := compileInline(t, map[string]string{"lib.rego": inlineLib, "rule.rego": rule})
	got := strings.Join(calls(c.Modules["rule.rego"]), " ")
	want := "twice unused called field guarded split_def with_else literal wild" // of_input is a template
	if got != want {
		t.Errorf("calls left = %q, want %q", got, want)
	}
	rs, err := rego.New(rego.Compiler(c), rego.Query("v := data.rule.violations; o := data.rule.others"),
		rego.Input(map[string]any{"paths": []any{"/a"}, "version": "1"})).Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatalf("eval: %v %v", rs, err)
	}
	if v := ast.MustInterfaceToValue(rs[0].Bindings["v"]).String(); v != `[{"message": "/a: [1, {\"/a\"}]", "path": ["paths", "/a"]}]` {
		t.Errorf("violations = %s", v)
	}
	if o := ast.MustInterfaceToValue(rs[0].Bindings["o"]).String(); o != `[[1, 1], [1], "A", "n", ["g"], [1], [3, 3], "one", [5], [7, "1"]]` {
		t.Errorf("others = %s", o)
	}
}

// An undefined argument leaves the inlined value undefined, as it left
// the call.
func TestInlineUndefinedArgument(t *testing.T) {
	rule := `package rule

import data.lib

violations contains lib.violation(input.missing, "m") if true

found contains lib.violation(["x"], input.message)
`
	c := compileInline(t, map[string]string{"lib.rego": inlineLib, "rule.rego": rule})
	if got := calls(c.Modules["rule.rego"]); len(got) != 0 {
		t.Errorf("calls left = %q", got)
	}
	rs, err := rego.New(rego.Compiler(c), rego.Query("v := data.rule.violations; f := data.rule.found"),
		rego.Input(map[string]any{"message": "m"})).Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatalf("eval: %v %v", rs, err)
	}
	if v := ast.MustInterfaceToValue(rs[0].Bindings["v"]).String(); v != "[]" {
		t.Errorf("violations = %s, want none", v)
	}
	if f := ast.MustInterfaceToValue(rs[0].Bindings["f"]).String(); f != `[{"message": "m", "path": ["x"]}]` {
		t.Errorf("found = %s", f)
	}
}

// A template that a with modifier replaces, by itself or with its
// package, is called everywhere, so that the replacement holds.
func TestInlineLeavesMockedTemplates(t *testing.T) {
	for name, mock := range map[string]string{
		"function": "with data.lib.violation as fake",
		"package":  `with data.lib as {"x": 1}`,
	} {
		t.Run(name, func(t *testing.T) {
			rule := "package rule\n\nimport data.lib\n\nvs contains lib.violation([], \"m\") if true\n"
			test := "package rule_test\n\nimport data.rule\n\nfake(p, m) := m\n\ntest_mock if { count(rule.vs) == 1 " + mock + " }\n"
			c := compileInline(t, map[string]string{"lib.rego": inlineLib, "rule.rego": rule, "rule_test.rego": test})
			if got := strings.Join(calls(c.Modules["rule.rego"]), " "); got != "violation" {
				t.Errorf("calls left = %q, want violation", got)
			}
		})
	}
}

// A call with the wrong number of arguments is not inlined: the type
// checker reports it, with its place.
func TestInlineWrongArity(t *testing.T) {
	m, err := ast.ParseModuleWithOpts("rule.rego", "package rule\n\nimport data.lib\n\nvs contains lib.violation([]) if true\n", ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	lib := ast.MustParseModuleWithOpts(inlineLib, ast.ParserOptions{RegoVersion: ast.RegoV1})
	c := newCompiler()
	c.Compile(map[string]*ast.Module{"lib.rego": lib, "rule.rego": m})
	if !c.Failed() || !strings.Contains(c.Errors.Error(), "rule.rego:5") || !strings.Contains(c.Errors.Error(), "data.lib.violation") {
		t.Errorf("errors = %v, want an arity error at rule.rego:5", c.Errors)
	}
}

// newCompiler is the compiler of specgate's engine: its sandbox and the
// inlining stage.
func newCompiler() *ast.Compiler {
	return ast.NewCompiler().WithCapabilities(policy.Capabilities()).WithEnablePrintStatements(false).
		WithStageAfterID(ast.StageResolveRefs, inline.Stage)
}
