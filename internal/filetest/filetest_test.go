package filetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Write makes the folders a name needs and writes each file's content;
// a file already there is replaced.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	Write(t, dir, map[string]string{"a.yaml": "old", "api/v1/spec.yaml": "openapi: 3.1.0\n"})
	Write(t, dir, map[string]string{"a.yaml": "new"})
	if p := File(t, dir, "b/c.json", "{}"); p != filepath.Join(dir, "b", "c.json") {
		t.Errorf("File wrote %s", p)
	}
	for name, want := range map[string]string{"a.yaml": "new", "api/v1/spec.yaml": "openapi: 3.1.0\n", "b/c.json": "{}"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
}
