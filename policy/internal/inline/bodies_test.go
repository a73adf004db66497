package inline_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/policy"
)

// smallLib holds small functions, and functions that are not small, each
// for one reason.
const smallLib = `package lib

is_ref(s) if is_string(s["$ref"])
ref_of(op, status) := r if {
	r := op.responses[status]["$ref"]
	is_string(r)
}
enabled(x) := x.enabled
lacks(codes, wanted) if count(codes & wanted) == 0
names(xs) := {n | n := xs[_].name}
local(x) := r if r := concat("/", [x, "r"])

any_ref(s) if {
	some k in object.keys(s)
	startswith(k, "$")
}
two_defs(x) if x == 1
two_defs(x) if x == 2
with_else(x) := 1 if x == 1
else := 2
default dflt(_) := 0
dflt(x) := x if x > 1
literal(1) := "one"
unbound(x) := y if x = y
walked(x) if walk(x, [["a"], 1])
long(x) if {
	x != 1
	x != 2
	x != 3
	x != 4
	x != 5
}
`

// smallRule calls them in every position the inliner knows: whole
// expressions, nested in expressions, in comprehensions and every, and in
// the places it leaves alone (negated expressions, heads).
const smallRule = `package rule

import data.lib

refs contains name if {
	some name, s in input.schemas
	lib.is_ref(s)
}

not_refs contains name if {
	some name, s in input.schemas
	not lib.is_ref(s)
}

# r is also the name of ref_of's local: each inlined copy has its own.
pairs contains p if {
	some r, op in input.operations
	p := [r, lib.ref_of(op, "200"), lib.ref_of(op, "404")]
}

on contains name if {
	some name, x in input.flags
	lib.enabled(x)
}

# A function that is only a value, nested: no body goes before the
# expression, and its value replaces the call.
states contains s if {
	some name, x in input.flags
	s := [name, lib.enabled(x)]
}

lacking := [i | some i, op in input.operations; lib.lacks(object.keys(op.responses), {"500", "default"})]

named := x if x := lib.names(input.items)

n := {x | ns := lib.names(input.items); x := ns[_]}

every_ref if every s in input.schemas { lib.is_ref(s) }

undefined_arg if lib.is_ref(input.missing)

locals := x if x := [lib.local("a"), lib.local("b")]

r := x if x := lib.local("c")

others := x if x := [lib.any_ref({"$x": 1}), lib.two_defs(2), lib.with_else(2), lib.dflt(0), lib.literal(1), lib.walked({"a": 1}), lib.unbound(3)]


longer if lib.long(9)
`

// bodyCalls lists the calls of package lib left in a rule module's bodies.
func bodyCalls(m *ast.Module) []string {
	var out []string
	for _, r := range m.Rules {
		for _, e := range r.Body {
			out = append(out, calls(&ast.Module{Package: m.Package, Rules: []*ast.Rule{{Body: ast.Body{e}, Head: &ast.Head{}}}})...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestInlineSmallFunctions(t *testing.T) {
	c := compileInline(t, map[string]string{"lib.rego": smallLib, "rule.rego": smallRule})
	got := strings.Join(bodyCalls(c.Modules["rule.rego"]), " ")
	// is_ref stays called in not_refs (negated); the rest of the calls
	// left are of functions that are not small.
	if want := "any_ref dflt is_ref literal long two_defs unbound walked with_else"; got != want {
		t.Errorf("calls left in bodies = %q, want %q", got, want)
	}
	for _, input := range []map[string]any{
		{
			"schemas":    map[string]any{"a": map[string]any{"$ref": "#/a"}, "b": map[string]any{"type": "string"}, "c": map[string]any{"$ref": 1}},
			"operations": []any{map[string]any{"responses": map[string]any{"200": map[string]any{"$ref": "#/r"}, "404": map[string]any{"$ref": "#/n"}}}, map[string]any{"responses": map[string]any{"200": map[string]any{}, "500": map[string]any{}}}},
			"flags":      map[string]any{"x": map[string]any{"enabled": true}, "y": map[string]any{"enabled": false}, "z": map[string]any{}},
			"items":      []any{map[string]any{"name": "n1"}, map[string]any{"name": "n2"}, map[string]any{}},
		},
		{"schemas": map[string]any{"a": map[string]any{"$ref": "#/a"}}},
		{},
	} {
		want := evalRule(t, plainCompile(t, map[string]string{"lib.rego": smallLib, "rule.rego": smallRule}), input)
		if got := evalRule(t, c, input); got != want {
			t.Errorf("input %v:\ninlined: %s\ncalled:  %s", input, got, want)
		}
	}
}

// The values of the first input, spelled out: the comparison above holds
// for values that mean something.
func TestInlineSmallFunctionsValues(t *testing.T) {
	c := compileInline(t, map[string]string{"lib.rego": smallLib, "rule.rego": smallRule})
	got := evalRule(t, c, map[string]any{
		"schemas":    map[string]any{"a": map[string]any{"$ref": "#/a"}, "b": map[string]any{"type": "string"}},
		"operations": []any{map[string]any{"responses": map[string]any{"200": map[string]any{"$ref": "#/r"}, "404": map[string]any{"$ref": "#/n"}}}},
		"flags":      map[string]any{"x": map[string]any{"enabled": true}, "y": map[string]any{"enabled": false}},
		"items":      []any{map[string]any{"name": "n1"}},
	})
	want := `{"lacking": [0], "locals": ["a/r", "b/r"], "longer": true, "n": ["n1"], "named": ["n1"], "not_refs": ["b"], "on": ["x"], ` +
		`"others": [true, true, 2, 0, "one", true, 3], "pairs": [[0, "#/r", "#/n"]], "r": "c/r", "refs": ["a"], "states": [["x", true], ["y", false]]}`
	if got != want {
		t.Errorf("values:\n got %s\nwant %s", got, want)
	}
}

// A small function that a with modifier replaces is called, so that the
// replacement holds.
func TestInlineLeavesMockedSmallFunctions(t *testing.T) {
	rule := "package rule\n\nimport data.lib\n\nrefs contains n if {\n\tsome n, s in input.schemas\n\tlib.is_ref(s)\n}\n"
	test := "package rule_test\n\nimport data.rule\n\nyes(_) := true\n\ntest_mock if { count(rule.refs) == 1 with data.lib.is_ref as yes with input as {\"schemas\": {\"a\": {}}} }\n"
	c := compileInline(t, map[string]string{"lib.rego": smallLib, "rule.rego": rule, "rule_test.rego": test})
	if got := strings.Join(bodyCalls(c.Modules["rule.rego"]), " "); got != "is_ref" {
		t.Errorf("calls left = %q, want is_ref", got)
	}
	rs, err := rego.New(rego.Compiler(c), rego.Query("data.rule_test.test_mock")).Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Errorf("the mocked test fails: %v %v", rs, err)
	}
}

// plainCompile compiles modules without specgate's stages.
func plainCompile(t *testing.T, modules map[string]string) *ast.Compiler {
	t.Helper()
	parsed := map[string]*ast.Module{}
	for name, src := range modules {
		parsed[name] = ast.MustParseModuleWithOpts(src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	}
	c := ast.NewCompiler().WithCapabilities(policy.Capabilities())
	c.Compile(parsed)
	if c.Failed() {
		t.Fatal(c.Errors)
	}
	return c
}

// evalRule is data.rule over input, as a string.
func evalRule(t *testing.T, c *ast.Compiler, input map[string]any) string {
	t.Helper()
	rs, err := rego.New(rego.Compiler(c), rego.Query("x := data.rule"), rego.Input(input)).Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatalf("eval: %v %v", rs, err)
	}
	return ast.MustInterfaceToValue(rs[0].Bindings["x"]).String()
}
