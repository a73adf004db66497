// Package policytest holds the helpers that the tests of package policy
// and of its input builder share: loading a document, compiling rules
// that read the input and reading a value of the input. The rules' modules are written by
// internal/ruletest, which the tests of linter, reports and rulesets
// share too.
package policytest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/spec"
)

// Compile compiles the modules srcs as user modules (user/a.rego, user/b.rego, …).
func Compile(t *testing.T, timeout time.Duration, srcs ...string) (*policy.Engine, error) {
	t.Helper()
	reg := &policy.Registry{}
	for i, src := range srcs {
		if err := reg.AddModule("user/"+string(rune('a'+i))+".rego", src, false); err != nil {
			return nil, err
		}
	}
	return policy.Compile(context.Background(), reg.Rules, reg.Libs, timeout, nil)
}

// Load loads src as a document named api.yaml, failing the test if it does not load.
func Load(t *testing.T, src string) *spec.Document {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// LoadFiles writes files into a temporary directory and loads its
// api.yaml, which refers to the others; it returns the directory too.
func LoadFiles(t *testing.T, files map[string]string) (*spec.Document, string) {
	t.Helper()
	dir := t.TempDir()
	filetest.Write(t, dir, files)
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join(dir, "api.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return doc, dir
}

// Field is the input's value at a dotted path of keys ("index.refsTo"),
// failing the test where a step is not an object or lacks the key.
func Field(t testing.TB, in ast.Value, path string) *ast.Term {
	t.Helper()
	term := ast.NewTerm(in)
	for _, k := range strings.Split(path, ".") {
		obj, ok := term.Value.(ast.Object)
		if !ok {
			t.Fatalf("input.%s: %s is not an object", path, k)
		}
		if term = obj.Get(ast.StringTerm(k)); term == nil {
			t.Fatalf("input.%s: no key %s", path, k)
		}
	}
	return term
}
