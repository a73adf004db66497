// Package policytest holds the helpers that the tests of package policy
// and of its input builder share: loading a document and compiling rules
// that read the input. The rules' modules are written by
// internal/ruletest, which the tests of linter, reports and rulesets
// share too.
package policytest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

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
