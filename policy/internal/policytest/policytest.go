// Package policytest holds the helpers that the tests of package policy
// and of its input builder share: loading a document, writing a user
// rule's module, and compiling rules that read the input.
package policytest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/spec"
)

// Rule is the module of a user rule with the given id and Rego body.
func Rule(id, body string) string {
	return "# METADATA\n# title: T\n# description: D\n# custom:\n#   category: Operations\n#   maturity: Gold\n" +
		"#   severity: warn\n#   family: correctness\n#   formats: [oas3]\n" +
		"package specgate.rules[\"" + id + "\"]\n\n" + body + "\n"
}

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
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join(dir, "api.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return doc, dir
}
