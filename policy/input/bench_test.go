package input_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

// BenchmarkReady measures what a document costs before any rule runs:
// loading, the views and the OPA input value.
func BenchmarkReady(b *testing.B) {
	for _, name := range []string{"github.json", "stripe.yaml", "kubernetes.json", "openai.yaml"} {
		path := filepath.Join("..", "..", "..", "shared", "corpus", name)
		if _, err := os.Stat(path); err != nil {
			b.Skip("corpus not available")
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), path)
				if err != nil {
					b.Fatal(err)
				}
				if input.Build(doc) == nil {
					b.Fatal("no input")
				}
			}
		})
	}
}
