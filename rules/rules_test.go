package rules_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rules"
)

// TestRego runs every _test.rego file against the rules and libraries.
func TestRego(t *testing.T) {
	modules := map[string]*ast.Module{}
	err := fs.WalkDir(rules.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		src, err := fs.ReadFile(rules.FS, p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts(p, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		modules[p] = m
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	compiler := ast.NewCompiler().WithCapabilities(policy.TestCapabilities())
	ch, err := tester.NewRunner().SetCompiler(compiler).AddCustomBuiltins(policy.TestBuiltins()).SetModules(modules).RunTests(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for r := range ch {
		ran++
		if r.Error != nil {
			t.Errorf("%s.%s: %v", r.Package, r.Name, r.Error)
		} else if r.Fail {
			t.Errorf("%s.%s failed (%s:%d)", r.Package, r.Name, r.Location.File, r.Location.Row)
		}
	}
	if ran == 0 {
		t.Fatal("no Rego tests ran")
	}
}

func TestRegistryLoads(t *testing.T) {
	reg, err := policy.LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := reg.Rule("health-endpoint")
	if r == nil {
		t.Fatal("health-endpoint is not registered")
	}
	if r.Category != "Operations" || r.Maturity != "Gold" || r.Severity != level.Error || r.Family != "health" {
		t.Errorf("health-endpoint metadata = %+v", r)
	}
}
