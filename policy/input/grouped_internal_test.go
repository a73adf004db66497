package input

import (
	"context"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// TestGroupedKeepsOrderAndLength: each index of grouped lists the terms
// added under a key in the order added, in a list of exactly their number
// (its capacity too: the lists are cut from one array, and appending to
// one must not write into the next).
func TestGroupedKeepsOrderAndLength(t *testing.T) {
	a, b, c := ast.StringTerm("a"), ast.StringTerm("b"), ast.StringTerm("c")
	adds := []struct {
		i   int
		key string
		t   *ast.Term
	}{{0, "x", a}, {1, "x", b}, {0, "y", b}, {0, "x", c}, {1, "z", a}, {0, "x", b}}
	visits := 0
	got := grouped(2, func(add func(int, string, *ast.Term)) {
		visits++
		for _, e := range adds {
			add(e.i, e.key, e.t)
		}
	})
	if visits != 2 {
		t.Errorf("visited %d times, want 2 (count, then fill)", visits)
	}
	want := []map[string][]*ast.Term{{"x": {a, c, b}, "y": {b}}, {"x": {b}, "z": {a}}}
	if len(got) != len(want) {
		t.Fatalf("got %d indexes, want %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Errorf("index %d has keys %v, want %d keys", i, got[i], len(want[i]))
		}
		for key, terms := range want[i] {
			if !slices.Equal(got[i][key], terms) || cap(got[i][key]) != len(terms) {
				t.Errorf("index %d, key %q: %v (capacity %d), want %v", i, key, got[i][key], cap(got[i][key]), terms)
			}
		}
	}
}

// TestShapeClashes: a container whose shape's hash another shape took
// first gets a term of its own, and a later container of its shape finds
// that term among the clashes.
func TestShapeClashes(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.json",
		[]byte(`{"openapi": "3.1.0", "a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "integer"}}`))
	if err != nil {
		t.Fatal(err)
	}
	root := doc.Root.Root
	a, b, c := root.Get("a"), root.Get("b"), root.Get("c")
	conv := newConverter()
	ta := conv.node(a)
	// b's shape is taken by a, as if their hashes clashed.
	conv.shapes[conv.shape(b)] = a
	tb := conv.node(b)
	if tb == ta {
		t.Fatal("a container of another shape took the term of the one whose hash it clashed with")
	}
	if got := conv.clashes[conv.shape(b)]; !slices.Equal(got, []*spec.Node{b}) {
		t.Errorf("clashes of b's hash: %v, want b", got)
	}
	if tc := conv.node(c); tc != tb {
		t.Error("a container of b's shape did not find b's term among the clashes")
	}
	if !ast.NewTerm(ast.NewObject([2]*ast.Term{ast.StringTerm("type"), ast.StringTerm("integer")})).Equal(tb) {
		t.Errorf("b converted to %v", tb)
	}
}
