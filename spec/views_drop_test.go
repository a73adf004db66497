package spec_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestDropViews: once dropped, a document's views are built again on the
// next use, alike, and kept from then on.
func TestDropViews(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("..", "examples", "petstore.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	first := doc.Views()
	if doc.Views() != first {
		t.Fatal("Views built the views twice")
	}
	doc.DropViews()
	again := doc.Views()
	if again == first {
		t.Fatal("Views after DropViews returned the dropped views")
	}
	if doc.Views() != again {
		t.Error("Views after DropViews built the views twice")
	}
	if len(again.Operations) == 0 || len(again.Operations) != len(first.Operations) {
		t.Fatalf("%d operations after DropViews, %d before (want the same, and some)", len(again.Operations), len(first.Operations))
	}
	for i, op := range again.Operations {
		was := first.Operations[i]
		if op.Method != was.Method || op.Path != was.Path || op.Node != was.Node || spec.Pointer(op.Source) != spec.Pointer(was.Source) {
			t.Errorf("operation %d after DropViews: %s %s at %s, before: %s %s at %s", i, op.Method, op.Path, spec.Pointer(op.Source),
				was.Method, was.Path, spec.Pointer(was.Source))
		}
	}
}
