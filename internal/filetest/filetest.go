// Package filetest writes the files a test reads: a tree of folders and
// files, each given by its slash-separated name and its content. Only
// tests import it.
package filetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes each of files under dir, as File does.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		File(t, dir, name, content)
	}
}

// File writes content to the file name, slash-separated and relative to
// dir, making the folders on the way, and returns its path; it fails the
// test on an error.
func File(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
