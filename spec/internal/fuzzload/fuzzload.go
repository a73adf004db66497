// Package fuzzload is the fuzz target the format readers beside spec share:
// any text of a file of theirs loads or fails with a *spec.Error, never
// panicking or hanging. A test helper, imported by tests only.
package fuzzload

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/spec"
)

// Run seeds f with the package's testdata files ending in ext (".proto")
// and fuzzes the loader on files of that extension: a document loads with
// its model, or the error is a *spec.Error.
func Run(f *testing.F, ext string) {
	seeds, _ := filepath.Glob("testdata/*" + ext)
	more, _ := filepath.Glob("testdata/*/*" + ext)
	for _, s := range append(seeds, more...) {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	l := spec.NewLoader(spec.Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := l.LoadBytes(context.Background(), filepath.Join(t.TempDir(), "fuzz"+ext), data)
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
