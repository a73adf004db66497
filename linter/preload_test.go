package linter

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/specgate/specgate/spec"
)

// The formats of a preloaded spec are known once its document is, before
// its input is built; a spec that fails to load, or none, has none.
func TestPreloadedFormats(t *testing.T) {
	loader := spec.NewLoader(spec.Options{})
	ctx := context.Background()
	p := Preload(ctx, loader, []string{"../examples/petstore.yaml"})
	formats, ok := p.Formats()
	if want := []string{"oas", "oas3", "oas3.1"}; !ok || !slices.Equal(formats, want) {
		t.Errorf("formats of petstore.yaml: %q, %v; want %q", formats, ok, want)
	}
	if _, input, ok, err := p.take("../examples/petstore.yaml"); !ok || err != nil || input == nil {
		t.Errorf("take: input %v, %v, %v; want an input", input != nil, ok, err)
	}

	missing := Preload(ctx, loader, []string{filepath.Join(t.TempDir(), "missing.yaml")})
	if formats, ok := missing.Formats(); ok {
		t.Errorf("formats of a missing spec: %q, want none", formats)
	}
	for _, names := range [][]string{{"-"}, {"a.yaml", "b.yaml"}} {
		if formats, ok := Preload(ctx, loader, names).Formats(); ok {
			t.Errorf("formats with %q (nothing preloaded): %q, want none", names, formats)
		}
	}
}
