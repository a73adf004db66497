package cli

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
	p := preload(ctx, loader, []string{"../examples/petstore.yaml"})
	formats, ok := p.formats()
	if want := []string{"oas", "oas3", "oas3.1"}; !ok || !slices.Equal(formats, want) {
		t.Errorf("formats of petstore.yaml: %q, %v; want %q", formats, ok, want)
	}
	if _, input, ok, err := p.take("../examples/petstore.yaml"); !ok || err != nil || input == nil {
		t.Errorf("take: input %v, %v, %v; want an input", input != nil, ok, err)
	}

	missing := preload(ctx, loader, []string{filepath.Join(t.TempDir(), "missing.yaml")})
	if formats, ok := missing.formats(); ok {
		t.Errorf("formats of a missing spec: %q, want none", formats)
	}
	for _, names := range [][]string{{"-"}, {"a.yaml", "b.yaml"}} {
		if formats, ok := preload(ctx, loader, names).formats(); ok {
			t.Errorf("formats with %q (nothing preloaded): %q, want none", names, formats)
		}
	}
}
