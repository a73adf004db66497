package examples

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDefaultDir(t *testing.T) {
	for file, want := range map[string]string{
		"examples/petstore.yaml": filepath.Join("examples", "petstore_examples"),
		"/a/b/api.v2.json":       "/a/b/api.v2_examples",
		"spec":                   "spec_examples",
	} {
		if got := DefaultDir(file); got != want {
			t.Errorf("DefaultDir(%s) = %s, want %s", file, got, want)
		}
	}
}

// Discovery reads <spec>_examples and the configured folders recursively,
// in lexical order, names nested files by their path, skips hidden folders
// and other files, and reports what is not an example and every clash with
// both places.
func TestDiscover(t *testing.T) {
	dir := filepath.Join("testdata", "discover")
	ex := filepath.Join(dir, "api_examples")
	shared := filepath.Join(dir, "shared")
	missing := filepath.Join(dir, "missing")
	set := Discover(filepath.Join(dir, "api.yaml"), []string{shared, missing, ex}, Options{})
	var names, roots []string
	for _, e := range set.Examples {
		names = append(names, e.Name)
		roots = append(roots, e.Root)
	}
	if want := []string{"create_pet", "same", "pets/deep/list", "pets/get_pet", "extra"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []string{ex, ex, ex, ex, shared}; !reflect.DeepEqual(roots, want) {
		t.Errorf("roots %q, want %q", roots, want)
	}
	var errs []string
	for _, e := range set.Errors {
		errs = append(errs, e.Error())
	}
	want := []string{
		missing + ": no such examples folder",
		filepath.Join(ex, "not_an_example.json") + ":1:1: not an example: expected http-request and http-response (or partial) at the top level, found keys id, name",
		filepath.Join(ex, "pets", "named_same_b.json") + `:2:11: example "same" is defined a second time: here and at ` + filepath.Join(ex, "named_same_a.json") + `:2:11; give one of them another name (the name key)`,
		filepath.Join(shared, "create_pet.json") + `:1:1: example "create_pet" is defined in ` + ex + " and in " + shared + `: here and at ` + filepath.Join(ex, "create_pet.json") + `:1:1; give one of them another name (the name key)`,
	}
	if !reflect.DeepEqual(errs, want) {
		t.Errorf("errors:\n  %q\nwant\n  %q", errs, want)
	}
	// The first of a clash keeps the name.
	if got := set.Named("create_pet"); got == nil || got.File != filepath.Join(ex, "create_pet.json") {
		t.Errorf("create_pet is %+v", got)
	}
	if got := set.Named("same"); got == nil || got.Response.Status != 200 {
		t.Errorf("same is %+v", got)
	}
	if set.Named("nothing") != nil {
		t.Error("Named found an example that does not exist")
	}
}

// A specification without an examples folder has none, and no error.
func TestDiscoverNothing(t *testing.T) {
	set := Discover(filepath.Join("testdata", "files", "none.yaml"), nil, Options{})
	if len(set.Examples) != 0 || len(set.Errors) != 0 {
		t.Errorf("examples %d, errors %v", len(set.Examples), set.Errors)
	}
	set = Discover(filepath.Join("testdata", "discover", "api.yaml"), []string{filepath.Join("testdata", "discover", "api.yaml")}, Options{})
	if len(set.Errors) == 0 || set.Errors[0].Msg != "is a file, not an examples folder" {
		t.Errorf("a file as a folder: %v", set.Errors)
	}
}

// A specification read from a URL or standard input has no folder of its
// own: only the configured folders are read, even where a folder of the
// name a file path would give happens to exist.
func TestDiscoverRemoteSpec(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, spec := range []string{"https://example.com/api.yaml", "-"} {
		own := DefaultDir(spec)
		if err := os.MkdirAll(own, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(own, "stray.json"), []byte("not an example"), 0o644); err != nil {
			t.Fatal(err)
		}
		if set := Discover(spec, nil, Options{}); len(set.Examples) != 0 || len(set.Errors) != 0 {
			t.Errorf("%s: read %s: examples %d, errors %v", spec, own, len(set.Examples), set.Errors)
		}
		if set := (&Loaded{Path: spec}).External(nil, Options{}); len(set.Examples) != 0 || len(set.Errors) != 0 {
			t.Errorf("%s: External read %s: examples %d, errors %v", spec, own, len(set.Examples), set.Errors)
		}
	}
}
