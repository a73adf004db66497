package policy

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/specgate/specgate/internal/walk"
	"github.com/specgate/specgate/policy/internal/inline"
)

// TestResult is the outcome of one Rego test rule.
type TestResult struct {
	Name     string // package.test_name
	Location string // file:line
	Failed   bool
	Err      error
}

// FindRegoTests lists the _test.rego files under dir.
func FindRegoTests(dir string) ([]string, error) {
	return walk.Files(dir, func(p string) bool { return strings.HasSuffix(p, "_test.rego") })
}

// RunTests runs the test rules of testFiles against the registry's rules
// and libraries, with the same sandboxed capabilities as linting. helpers
// are test modules the tests may call (the built-in library's test
// helpers): each is loaded unless a test file declares its package, and
// its own tests are not run.
func RunTests(ctx context.Context, reg *Registry, testFiles []string, helpers ...*Source) ([]TestResult, error) {
	sources := slices.Clone(reg.Libs)
	for _, r := range reg.Rules {
		sources = append(sources, r.Source)
	}
	modules, err := parseSources(sources)
	if err != nil {
		return nil, err
	}
	declared := map[string]bool{} // the packages of the test files
	for _, f := range testFiles {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		m, err := ast.ParseModuleWithOpts(f, string(src), parseOpts)
		if err != nil {
			return nil, err
		}
		modules[f] = m
		declared[m.Package.Path.String()] = true
	}
	skip := map[string]bool{}
	for _, h := range helpers {
		m, err := h.Module()
		if err != nil {
			return nil, err
		}
		if pkg := m.Package.Path.String(); !declared[pkg] {
			modules[h.File] = m
			skip[pkg] = true
		}
	}
	// The tests run the rules as the linter compiles them (template
	// functions inlined), print statements kept, and may build inputs as
	// lint does (specgate.test_input).
	compiler := ast.NewCompiler().WithCapabilities(TestCapabilities()).WithStageAfterID(ast.StageResolveRefs, inline.Stage)
	ch, err := tester.NewRunner().SetCompiler(compiler).AddCustomBuiltins(TestBuiltins()).SetModules(modules).RunTests(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []TestResult
	for r := range ch {
		if skip[r.Package] {
			continue
		}
		tr := TestResult{Name: strings.TrimPrefix(r.Package, "data.") + "." + r.Name, Failed: r.Fail, Err: r.Error}
		if r.Location != nil {
			tr.Location = fmt.Sprintf("%s:%d", r.Location.File, r.Location.Row)
		}
		out = append(out, tr)
	}
	return out, nil
}
