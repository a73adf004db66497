package input

import (
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// TestSharedPathsKeepEveryValue builds the input of every rule fixture
// and corpus spec with source paths shared (a repeat, or the start of a
// path converted just before) and without, and checks that the two are
// equal value for value. Corpus specs of 1 MB or more are built only with
// SPECGATE_CORPUS=1.
func TestSharedPathsKeepEveryValue(t *testing.T) {
	if built := buildBothWays(t, &sharePaths, "source paths are shared", nil); built < 100 {
		t.Errorf("built %d inputs, want 100 or more", built)
	}
}

// TestPathSharing converts the paths of a media type's schema, the media
// type, its response and its operation in the order the converter meets
// them: each is the path it names, a repeat is the same term, and a start
// of a path converted lately is a slice of that path's array (its
// segments' storage shared: the same first element's slot).
func TestPathSharing(t *testing.T) {
	c := newConverter()
	op := spec.Path{"paths", "/pets/{id}", "get"}
	resp := append(append(spec.Path{}, op...), "responses", "200")
	media := append(append(spec.Path{}, resp...), "content", "application/json")
	schema := append(append(spec.Path{}, media...), "schema")
	long := append(append(spec.Path{}, schema...), "items", 300) // an index above the interned ones
	terms := map[string]*ast.Term{}
	for _, p := range []spec.Path{long, schema, media, resp, op} {
		got := c.path(p)
		want := c.plainPath(p)
		if got.Value.Compare(want.Value) != 0 {
			t.Fatalf("path(%v) = %v, want %v", p, got, want)
		}
		terms[pathKey(p)] = got
	}
	if again := c.path(media); again != terms[pathKey(media)] {
		t.Errorf("path(%v) again is a new term, want the one converted before", media)
	}
	first := func(t *ast.Term) uintptr { return elemsAt(t.Value.(*ast.Array)) }
	if first(terms[pathKey(op)]) != first(terms[pathKey(long)]) {
		t.Errorf("path(%v) does not share the segments of path(%v), converted before it", op, long)
	}
	// An index of the same value but another term still matches.
	other := spec.Path{"x", 300, "y"}
	c.path(other)
	if got := c.path(other[:2]); first(got) != first(c.path(other)) {
		t.Errorf("path(%v) does not share the segments of path(%v)", other[:2], other)
	}
	// A path that starts no path converted lately is a new array, and
	// another key at the same place is no start.
	if got := c.path(spec.Path{"paths", "/pets/{id}", "put"}); first(got) == first(terms[pathKey(long)]) {
		t.Errorf("path of put shares the segments of get's")
	}
}

// plainPath is a path converted without sharing.
func (c *converter) plainPath(p spec.Path) *ast.Term {
	sharePaths = false
	defer func() { sharePaths = true }()
	c2 := newConverter()
	return c2.path(p)
}

// elemsAt is where an array's segments are stored (its unexported slice
// of terms, read by reflection): two arrays that share their storage from
// the start have the same.
func elemsAt(arr *ast.Array) uintptr {
	return reflect.ValueOf(arr).Elem().FieldByName("elems").Pointer()
}
