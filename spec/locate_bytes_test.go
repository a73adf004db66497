package spec_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/spec"
)

// locatorPaths are the paths a locator is checked on in doc: every
// value's path (an array's index as an int and as a string, an object's
// numeric key as an int too), each followed by a key it lacks, and, for
// each $ref, paths through it to its target's members and theirs; every
// stride-th of them, and those through $refs, with a $ref of every
// stride-th value.
func locatorPaths(doc *spec.Document, stride int) [][]any {
	var out [][]any
	n := 0
	add := func(p []any) {
		out = append(out, append([]any(nil), p...))
	}
	var walk func(node *spec.Node, at []any)
	walk = func(node *spec.Node, at []any) {
		if n++; n%stride == 0 {
			add(at)
			add(append(at, "no-such-key"))
			add(append(at, 0))
			if last := len(at) - 1; last >= 0 {
				if i, ok := at[last].(int); ok {
					add(append(at[:last:last], strconv.Itoa(i)))
				} else if k, err := strconv.Atoi(at[last].(string)); err == nil {
					add(append(at[:last:last], k))
				}
			}
		}
		// Through a "$ref" that scan registers, or one it leaves as data.
		if node.Get("$ref") != nil {
			for _, k := range []any{"type", "properties", "name", "description", "content", "get", "schema", 0} {
				add(append(at, k))
			}
		}
		for _, f := range node.Fields {
			walk(f.Value, append(at, f.Key))
		}
		for i, it := range node.Items {
			walk(it, append(at, i))
		}
	}
	walk(doc.Root.Root, nil)
	for i, r := range doc.Refs {
		if i%stride != 0 && len(doc.Refs) > 200 {
			continue
		}
		at := append([]any(nil), r.Path...)
		add(at)
		add(append(at, "$ref"))
		add(append(at, "no-such-key"))
		if r.Target == nil {
			continue
		}
		for _, f := range r.Target.Fields {
			add(append(at, f.Key))
			add(append(at, f.Key, "no-such-key"))
			for _, g := range f.Value.Fields {
				add(append(at, f.Key, g.Key))
			}
			for i := range f.Value.Items {
				add(append(at, f.Key, i))
			}
		}
		for i := range r.Target.Items {
			add(append(at, i))
		}
	}
	return out
}

// checkLocator compares a JSONLocator over data with Locate in the
// document loaded from it, on locatorPaths; false when the document does
// not load as JSON of local $refs (nothing to compare).
func checkLocator(t *testing.T, name string, data []byte, stride int) bool {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), name, data)
	if err != nil || !doc.Root.JSON || doc.Model != nil {
		return false
	}
	for _, r := range doc.Refs {
		if !strings.HasPrefix(r.Value, "#") {
			return false
		}
	}
	loc, err := spec.NewJSONLocator(name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	bad := 0
	for _, p := range locatorPaths(doc, stride) {
		want, got := doc.Locate(p, nil), loc.Locate(p)
		if got.Range != want.Range || got.Pointer != want.Pointer || got.Exact != want.Exact || got.File.Name != want.File.Name {
			t.Errorf("%s: %#v: located at %v %q exact %v in %s, want %v %q exact %v in %s", name, p,
				got.Range, got.Pointer, got.Exact, got.File.Name, want.Range, want.Pointer, want.Exact, want.File.Name)
			if bad++; bad == 10 {
				t.Fatalf("%s: more", name)
			}
		}
	}
	return true
}

// TestJSONLocatorLocatesAlike: on every JSON spec of the corpus and the
// fixtures, the locator places every path where the loaded document does:
// values, keys, items, absent keys and indices, paths through $refs (chains,
// pointers through other $refs, a $ref in example data, which is a key),
// keys with escapes, a byte order mark, and columns of characters on
// long lines.
func TestJSONLocatorLocatesAlike(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "locate", "*.json"))
	corpus := corpusspecs.Files(corpusDir, ".json")
	if len(files) == 0 || len(corpus) == 0 {
		t.Fatal("no fixtures or corpus specs")
	}
	for _, name := range append(files, corpus...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// Every path of the small files; of the large ones, one value in
		// 7 with SPECGATE_CORPUS=1 (as CI runs), else one in 61.
		stride := 1
		if len(data) > 1<<20 {
			stride = 61
			if os.Getenv("SPECGATE_CORPUS") == "1" && !testing.Short() {
				stride = 7
			}
		}
		if !checkLocator(t, name, data, stride) {
			t.Errorf("%s does not load as JSON of local $refs", name)
		}
		// The same on one line: every column is counted from its line's
		// start, over the checkpoints of long lines.
		if flat := flatten(data); len(data) < 1<<20 && !checkLocator(t, name, flat, stride) {
			t.Errorf("%s on one line does not load", name)
		}
	}
}

// flatten writes the JSON data on one line: the line feeds outside
// strings (the only place JSON has them) become spaces.
func flatten(data []byte) []byte {
	return bytes.ReplaceAll(data, []byte("\n"), []byte(" "))
}

// A locator refuses what is not a JSON object or array.
func TestJSONLocatorRefuses(t *testing.T) {
	for _, data := range []string{"", "  ", "openapi: 3.1.0", `"text"`, `{"a": [1, 2}`, `{"a": "b`, `{} {}`, `{}}`, `[[]`} {
		if _, err := spec.NewJSONLocator("f.json", []byte(data)); err == nil {
			t.Errorf("%q: indexed, want an error", data)
		}
	}
}

// FuzzJSONLocator: wherever a JSON spec of local $refs loads, the locator
// places its paths as the loaded document does.
func FuzzJSONLocator(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "locate", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLocator(t, "fuzz.json", data, 1)
	})
}
