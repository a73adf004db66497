package proto_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/spec"
	_ "github.com/specgate/specgate/spec/proto"
)

// FuzzLoad: any text of a .proto file loads or fails with a *spec.Error;
// it never panics or hangs.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.proto")
	more, _ := filepath.Glob("testdata/*/*.proto")
	for _, s := range append(seeds, more...) {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	l := spec.NewLoader(spec.Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := l.LoadBytes(context.Background(), filepath.Join(t.TempDir(), "fuzz.proto"), data)
		if err != nil {
			if !errors.As(err, new(*spec.Error)) {
				t.Fatalf("%T %v is not a *spec.Error", err, err)
			}
			return
		}
		if doc.Model == nil {
			t.Fatal("a document without its model")
		}
	})
}
