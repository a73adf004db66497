package spec_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestViewsConcurrently: goroutines that ask a new document for its views
// at once get the same views (go test -race finds a race otherwise).
func TestViewsConcurrently(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("..", "examples", "petstore.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]*spec.Views, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = doc.Views() })
	}
	wg.Wait()
	for i, v := range got {
		if v == nil || v != got[0] || len(v.Operations) == 0 {
			t.Fatalf("goroutine %d: views %p (%d operations), goroutine 0: %p", i, v, len(v.Operations), got[0])
		}
	}
}
