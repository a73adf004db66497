package input

import (
	"context"
	"fmt"
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
	sizes := func() [5]int {
		return [5]int{len(c.terms), len(c.keys), len(c.values.m), len(c.numbers.m), len(c.params)}
	}
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

// A table of values stops taking them once a sample shows they do not
// repeat (a huge enum of distinct values), and keeps sharing what it holds;
// values that repeat keep it open.
func TestTermTableStopsOnDistinctValues(t *testing.T) {
	c := newConverter()
	for i := range 3 * sampleInternedVals {
		c.str(fmt.Sprintf("v%d", i))
	}
	if !c.values.closed || len(c.values.m) != sampleInternedVals {
		t.Errorf("distinct values: closed %v with %d, want closed with %d", c.values.closed, len(c.values.m), sampleInternedVals)
	}
	if c.str("v0") != c.str("v0") {
		t.Error("a value the closed table holds is not shared")
	}
	r := newConverter()
	for i := range 3 * sampleInternedVals {
		r.str("string")
		r.str(fmt.Sprintf("v%d", i))
	}
	if r.values.closed || len(r.values.m) != 3*sampleInternedVals+1 {
		t.Errorf("repeated values: closed %v with %d, want open with %d", r.values.closed, len(r.values.m), 3*sampleInternedVals+1)
	}
}
