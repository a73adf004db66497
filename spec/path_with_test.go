package spec

import (
	"fmt"
	"testing"
)

func TestPathWithDoesNotAlias(t *testing.T) {
	base := make(Path, 0, 8)
	base = append(base, "paths", "/pets")
	a := base.With("get")
	b := base.With("post", "responses")
	if got := fmt.Sprint(a, b, base); got != "[paths /pets get] [paths /pets post responses] [paths /pets]" {
		t.Fatalf("got %s", got)
	}
}

func TestObjectFields(t *testing.T) {
	n, err := Parse("t.yaml", []byte("obj: {a: 1, b: 2}\nlist: [1]\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range n.Get("obj").ObjectFields() {
		keys = append(keys, f.Key)
	}
	if fmt.Sprint(keys) != "[a b]" {
		t.Errorf("object fields %v, want [a b]", keys)
	}
	if f := n.Get("list").ObjectFields(); f != nil {
		t.Errorf("an array has fields %v", f)
	}
	if f := n.Get("missing").ObjectFields(); f != nil {
		t.Errorf("a nil node has fields %v", f)
	}
}
