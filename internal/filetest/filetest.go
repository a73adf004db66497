// Package filetest writes the files a test reads: a tree of folders and
// files, each given by its slash-separated name and its content. Only
// tests import it.
package filetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes each of files under dir, by its slash-separated name
// relative to dir, making the folders on the way; it fails the test on an
// error.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
