package formattest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/spec"
)

// Load gives the document and what of reads from it; Pos places a path
// at its key, and a path the file does not hold as inexact; Ignores lists
// an x-lint-ignore, and nothing where there is none.
func TestLoadAndPos(t *testing.T) {
	name := filepath.Join(t.TempDir(), "api.yaml")
	if err := os.WriteFile(name, []byte("openapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\n  x-lint-ignore: [a-rule, b-rule]\npaths: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, info := Load(t, name, func(d *spec.Document) *spec.Node { return d.Root.Root.Get("info") })
	if info == nil || info.Get("title").Value != "T" {
		t.Fatalf("info %v", info)
	}
	if got := Pos(doc, doc.Root, spec.Path{"info", "title"}); got != "3:3" {
		t.Errorf("Pos(info.title) = %s, want 3:3", got)
	}
	if got := Pos(doc, doc.Root, spec.Path{"info", "contact"}); got != "inexact /info/contact" {
		t.Errorf("Pos(info.contact) = %s", got)
	}
	if got := Ignores(doc, "info"); got != "a-rule,b-rule" {
		t.Errorf("Ignores(info) = %q", got)
	}
	if got := Ignores(doc, "paths", "/none"); got != "" {
		t.Errorf("Ignores(paths./none) = %q", got)
	}
}
