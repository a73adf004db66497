package policy

import (
	"context"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestForkSharesAndLeavesItsParentAlone: a fork finds the values its
// parent converted (the same terms, so views share the document's values)
// and keeps what it converts itself, leaving the parent unwritten.
func TestForkSharesAndLeavesItsParentAlone(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.yaml",
		[]byte("openapi: 3.1.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: query}]\n      responses: {\"200\": {description: ok}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverter()
	c.node(doc.Root.Root)
	sizes := func() [5]int { return [5]int{len(c.terms), len(c.keys), len(c.values), len(c.numbers), len(c.params)} }
	before := sizes()
	f := c.fork()
	ops := doc.Root.Root.Get("paths").Get("/a")
	if f.node(ops) != c.node(ops) {
		t.Error("a fork converted a node its parent had converted again")
	}
	if f.key("info") != c.key("info") || f.str("T") != c.str("T") {
		t.Error("a fork did not find its parent's interned key or string")
	}
	f.str("a string the parent never saw")
	f.key("a key the parent never saw")
	f.parameters(doc.Views().Parameters)
	if after := sizes(); after != before {
		t.Errorf("the fork wrote its parent's tables: sizes %v, were %v", after, before)
	}
	if f.str("a string the parent never saw") != f.str("a string the parent never saw") {
		t.Error("a fork does not keep what it interns")
	}
}
