package input

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// TestSharedShapesKeepEveryValue builds the input of every rule fixture
// and corpus spec with containers shared by shape and without, and checks
// that the two are equal value for value. Corpus specs of 1 MB or more are
// built only with SPECGATE_CORPUS=1.
func TestSharedShapesKeepEveryValue(t *testing.T) {
	shared := 0
	built := buildBothWays(t, &shareShapes, "containers are shared by shape", func(with ast.Value) {
		shared += sharedTerms(with.(ast.Object).Get(ast.StringTerm("document")))
	})
	if built < 100 || shared == 0 {
		t.Errorf("built %d inputs, %d containers of their documents shared: want 100 or more, and some", built, shared)
	}
}

// buildBothWays builds the input of every rule fixture and corpus spec
// (those of smallSpec or more only with SPECGATE_CORPUS=1) with *sharing
// on and off, and fails the test where the two differ (what says what is
// shared). It passes each input built with sharing on to seen, when not
// nil, and returns how many it built.
func buildBothWays(t *testing.T, sharing *bool, what string, seen func(with ast.Value)) (built int) {
	t.Helper()
	eachTestDocument(func(f string, doc *spec.Document) {
		with := Build(doc)
		*sharing = false
		without := Build(doc)
		*sharing = true
		if with.Compare(without) != 0 {
			t.Errorf("%s: the input differs when %s", f, what)
		}
		built++
		if seen != nil {
			seen(with)
		}
	})
	return built
}

// eachTestDocument calls visit with every rule fixture and corpus spec
// that loads (a corpus spec of smallSpec or more only with
// SPECGATE_CORPUS=1), in turn.
func eachTestDocument(visit func(file string, doc *spec.Document)) {
	files, _ := filepath.Glob("../../rules/*/testdata/*.*")
	corpus, _ := filepath.Glob("../../../shared/corpus/*.*")
	for _, f := range corpus {
		if info, err := os.Stat(f); err == nil && (info.Size() < smallSpec || os.Getenv("SPECGATE_CORPUS") == "1") {
			files = append(files, f)
		}
	}
	loader := spec.NewLoader(spec.Options{})
	for _, f := range files {
		if doc, err := loader.Load(context.Background(), f); err == nil {
			visit(f, doc)
		}
	}
}

// sharedTerms counts the containers under t that are a term met before.
func sharedTerms(t *ast.Term) int {
	seen := map[*ast.Term]bool{}
	n := 0
	var walk func(*ast.Term)
	walk = func(t *ast.Term) {
		switch v := t.Value.(type) {
		case ast.Object:
			if v.Len() == 0 {
				return
			}
		case *ast.Array:
			if v.Len() == 0 {
				return
			}
		default:
			return
		}
		if seen[t] {
			n++
			return
		}
		seen[t] = true
		switch v := t.Value.(type) {
		case ast.Object:
			v.Foreach(func(_, x *ast.Term) { walk(x) })
		case *ast.Array:
			v.Foreach(walk)
		}
	}
	walk(t)
	return n
}

// smallSpec is the size below which a corpus spec is built without
// SPECGATE_CORPUS=1 (package policy's tests draw the same line).
const smallSpec = 1 << 20
