package spec

import (
	"context"
	"testing"
	"unsafe"
)

// TestRefOfInTwoDocuments: a node is numbered by the first document that
// scans it (Node.ref); a second document holding the same node at
// another index finds its own Ref, and the first still finds its own.
func TestRefOfInTwoDocuments(t *testing.T) {
	const src = `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
	  "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"type": "string"}}}}`
	root, err := Parse("a.json", []byte(src), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	l := NewLoader(Options{})
	load := func(root *Node) *Document {
		d, err := l.document(&File{Name: "a.json", key: "/a.json", Root: root})
		if err != nil {
			t.Fatal(err)
		}
		d.Resolve(context.Background())
		return d
	}
	first := load(root)
	// The second document writes a $ref of its own before the shared
	// components, so the shared $ref is its second.
	extra, err := Parse("b.json", []byte(`{"$ref": "#/components/schemas/B"}`), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	root2 := &Node{Kind: Object, Fields: append([]Field{{Key: "first", Value: &Node{Kind: Object, Fields: []Field{{Key: "schema", Value: extra}}}}}, root.Fields...)}
	second := load(root2)

	a := root.Get("components").Get("schemas").Get("A")
	b := root.Get("components").Get("schemas").Get("B")
	if len(first.Refs) != 1 || len(second.Refs) != 2 {
		t.Fatalf("%d and %d refs, want 1 and 2", len(first.Refs), len(second.Refs))
	}
	for _, tc := range []struct {
		name string
		d    *Document
		want *Ref
	}{{"first", first, first.Refs[0]}, {"second", second, second.Refs[1]}} {
		r := tc.d.RefOf(a)
		if r != tc.want || r.Node != a || r.Target != b {
			t.Errorf("%s document: RefOf(A) = %+v, want its own Ref of A with target B", tc.name, r)
		}
		if got := tc.d.Deref(a); got != b {
			t.Errorf("%s document: Deref(A) is not B", tc.name)
		}
		if tc.d.RefOf(b) != nil || tc.d.RefOf(nil) != nil {
			t.Errorf("%s document: a Ref for a node without $ref", tc.name)
		}
	}
	if got := second.RefOf(extra); got != second.Refs[0] {
		t.Errorf("second document: RefOf of its own $ref = %+v", got)
	}
	if first.RefOf(extra) != nil {
		t.Errorf("first document: a Ref for the second's $ref")
	}
}

// TestNodeSize: Node.ref sits in what was padding after Kind, so a node
// (1.5 million of them for Microsoft Graph beta) is no larger for it.
func TestNodeSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) == 8 && unsafe.Sizeof(Node{}) != 88 {
		t.Errorf("a Node is %d bytes, want 88", unsafe.Sizeof(Node{}))
	}
}
