package corpusspecs

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
)

// A corpus folder with strays lists its specifications only: not the
// report a lint run wrote, a README, a folder of test reports or a folder
// without a spec/ document; a spec laid out in a folder is listed by its
// document.
func TestList(t *testing.T) {
	dir := tree(t,
		"a.json", "b.yaml", "c.yml", "README.md", "SOURCES.md", "specgate-report.json",
		"pets/spec/swagger.yaml", "pets/spec/Pet.yaml", "pets/common/Error.yaml",
		"specgate-reports/ctrf-report.json", "specgate-reports/test-report.json",
		"notes/draft.yaml", "api/spec/openapi.json")
	got, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Spec{
		{Name: "a.json", Path: filepath.Join(dir, "a.json")},
		{Name: "api", Path: filepath.Join(dir, "api", "spec", "openapi.json"), Folder: true},
		{Name: "b.yaml", Path: filepath.Join(dir, "b.yaml")},
		{Name: "c.yml", Path: filepath.Join(dir, "c.yml")},
		{Name: "pets", Path: filepath.Join(dir, "pets", "spec", "swagger.yaml"), Folder: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List:\n got %+v\nwant %+v", got, want)
	}
}

// Files are the single-file specifications, of the extensions asked for.
func TestFiles(t *testing.T) {
	dir := tree(t, "a.json", "b.yaml", "c.yml", "specgate-report.json", "README.md", "pets/spec/swagger.yaml")
	for _, c := range []struct {
		exts []string
		want []string
	}{
		{nil, []string{"a.json", "b.yaml", "c.yml"}},
		{[]string{".json"}, []string{"a.json"}},
		{[]string{".yaml", ".yml"}, []string{"b.yaml", "c.yml"}},
	} {
		var want []string
		for _, f := range c.want {
			want = append(want, filepath.Join(dir, f))
		}
		if got := Files(dir, c.exts...); !reflect.DeepEqual(got, want) {
			t.Errorf("Files(%v) = %v, want %v", c.exts, got, want)
		}
	}
	if got := Files(filepath.Join(dir, "none")); got != nil {
		t.Errorf("Files of a missing folder = %v, want none", got)
	}
}

func TestListMissingFolder(t *testing.T) {
	if got, err := List(filepath.Join(t.TempDir(), "none")); err == nil || got != nil {
		t.Errorf("List of a missing folder = %v, %v; want an error", got, err)
	}
}

func TestIsSpecFile(t *testing.T) {
	for name, want := range map[string]bool{
		"github.json": true, "stripe.yaml": true, "asyncapi.yml": true, "Error.yaml": true,
		"specgate-report.json": false, "ctrf-report.json": false, "test-report.json": false,
		"SOURCES.md": false, "report.html": false, "junit.xml": false, "api.json.bak": false,
	} {
		if got := IsSpecFile(name); got != want {
			t.Errorf("IsSpecFile(%q) = %v, want %v", name, got, want)
		}
	}
}

// tree is a temporary folder holding files at these slash-separated paths.
func tree(t *testing.T, files ...string) string {
	dir := t.TempDir()
	for _, f := range files {
		filetest.File(t, dir, f, "{}")
	}
	return dir
}
