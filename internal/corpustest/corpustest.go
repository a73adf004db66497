// Package corpustest gives tests the corpus of real-world specifications
// beside the checkout (../shared/corpus; its SOURCES.md says where each
// comes from): its folder, its OpenAPI documents, and each document
// loaded once per test binary. A test skips when the corpus is not there.
// Only tests import it.
package corpustest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/specgate/specgate/spec"
)

// Dir is the corpus folder as seen from a package folder at the module's
// top level, where go test runs that package's tests.
var Dir = filepath.Join("..", "..", "shared", "corpus")

// OpenAPI are the OpenAPI documents of the corpus, by their paths in Dir
// (its AsyncAPI documents have no HTTP operations).
var OpenAPI = []string{
	"github.json", "stripe.yaml", "kubernetes.json", "openai.yaml", "twilio-api-v2010.json",
	"discord.json", "petstore-expanded.yaml", "uspto.yaml", "uber-v2.json", "webhook-example-3.1.yaml",
	"petstore-separate-v2/spec/swagger.yaml",
}

// Require skips the test when the corpus is not beside the checkout, and
// returns Dir.
func Require(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(Dir); err != nil {
		t.Skipf("no corpus beside the checkout: %v", err)
	}
	return Dir
}

// loaded holds a *loading by document name.
var loaded sync.Map

// loading is one document's load, which the first test to ask does while
// the others wait for it.
type loading struct {
	once sync.Once
	doc  *spec.Document
	err  error
}

// Load loads the document name of the corpus once per test binary, with
// its views built, so that parallel tests may share it. Its $refs may
// reach anywhere in the corpus (petstore-separate-v2 reads ../common). A
// document that does not load fails the test.
func Load(t testing.TB, name string) *spec.Document {
	t.Helper()
	Require(t)
	v, _ := loaded.LoadOrStore(name, &loading{})
	l := v.(*loading)
	l.once.Do(func() {
		l.doc, l.err = spec.NewLoader(spec.Options{RefRoot: Dir}).Load(context.Background(), filepath.Join(Dir, name))
		if l.err == nil {
			l.doc.Views()
		}
	})
	if l.err != nil {
		t.Fatalf("load %s: %v", name, l.err)
	}
	return l.doc
}
