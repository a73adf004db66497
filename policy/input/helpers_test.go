package input_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/spec"
)

// The helpers of the tests of the input, as package policy's tests have
// them: loading a document, and compiling rules that read its input.

func rule(id, body string) string {
	return "# METADATA\n# title: T\n# description: D\n# custom:\n#   category: Operations\n#   maturity: Gold\n" +
		"#   severity: warn\n#   family: correctness\n#   formats: [oas3]\n" +
		"package specgate.rules[\"" + id + "\"]\n\n" + body + "\n"
}

func compile(t *testing.T, timeout time.Duration, srcs ...string) (*policy.Engine, error) {
	t.Helper()
	reg := &policy.Registry{}
	for i, src := range srcs {
		if err := reg.AddModule("user/"+string(rune('a'+i))+".rego", src, false); err != nil {
			return nil, err
		}
	}
	return policy.Compile(context.Background(), reg.Rules, reg.Libs, timeout, nil)
}

func load(t *testing.T, src string) *spec.Document {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// loadFiles writes files into a temporary directory and loads its
// api.yaml, which refers to the others; it returns the directory too.
func loadFiles(t *testing.T, files map[string]string) (*spec.Document, string) {
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
