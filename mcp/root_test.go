package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRootResolve(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "api", "v1"), 0o755)
	os.WriteFile(filepath.Join(dir, "api", "v1", "spec.yaml"), []byte("openapi: 3.1.0\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("x: 1\n"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Symlink(filepath.Join(dir, "api"), filepath.Join(dir, "in"))
	root, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	real := root.Dir()
	for _, tc := range []struct {
		path string
		want string // the resolved path relative to the root, or the error's text
		err  bool
	}{
		{"api/v1/spec.yaml", "api/v1/spec.yaml", false},
		{"./api/../api/v1/spec.yaml", "api/v1/spec.yaml", false},
		{filepath.Join(dir, "api", "v1", "spec.yaml"), "api/v1/spec.yaml", false},
		{"in/v1/spec.yaml", "api/v1/spec.yaml", false}, // a link that stays inside
		{"api/v2/new.yaml", "api/v2/new.yaml", false},  // not there yet
		{".", ".", false}, // the root itself
		{"../secret.yaml", "is outside the root", true},   // up and out
		{"api/../../x.yaml", "is outside the root", true}, // up and out, after a detour
		{"out/secret.yaml", "is outside the root", true},  // through a link
		{"out/later.yaml", "is outside the root", true},   // through a link, not there yet
		{filepath.Join(outside, "secret.yaml"), "is outside the root", true},
		{"https://example.com/api.yaml", "not URLs", true},
		{"-", "standard input", true},
		{"", "is empty", true},
		{"  ", "is empty", true},
	} {
		got, err := root.Resolve("spec", tc.path)
		switch {
		case tc.err && err == nil:
			t.Errorf("%q: resolved to %s, want an error", tc.path, got)
		case tc.err && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%q: %v, want %q", tc.path, err, tc.want)
		case !tc.err && err != nil:
			t.Errorf("%q: %v", tc.path, err)
		case !tc.err && got != filepath.Join(real, tc.want):
			t.Errorf("%q: %s, want %s", tc.path, got, filepath.Join(real, tc.want))
		}
	}
	if _, err := root.File("spec", "api"); err == nil || !strings.Contains(err.Error(), "is a folder, not a file") {
		t.Errorf("File of a folder: %v", err)
	}
	if _, err := root.Folder("examples", "api/v1/spec.yaml"); err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
		t.Errorf("Folder of a file: %v", err)
	}
	if _, err := root.Folder("examples", "nope"); err == nil || !strings.Contains(err.Error(), `examples "nope": no such folder under the root`) {
		t.Errorf("Folder of nothing: %v", err)
	}
	if dirs, err := root.Folders("examples", []string{"api", "in/v1"}); err != nil || len(dirs) != 2 ||
		dirs[0] != filepath.Join(real, "api") || dirs[1] != filepath.Join(real, "api", "v1") {
		t.Errorf("Folders = %q, %v", dirs, err)
	}
	if dirs, err := root.Folders("examples", []string{"api", "nope", "out"}); dirs != nil || err == nil ||
		!strings.Contains(err.Error(), `examples "nope": no such folder under the root`) {
		t.Errorf("Folders with a missing one = %q, %v", dirs, err)
	}
	if got := root.Show(filepath.Join(real, "api", "v1", "spec.yaml")); got != "api/v1/spec.yaml" {
		t.Errorf("Show = %s", got)
	}
	if got := root.Show(filepath.Join(outside, "secret.yaml")); got != filepath.Join(outside, "secret.yaml") {
		t.Errorf("Show outside = %s", got)
	}
	if _, err := NewRoot(filepath.Join(dir, "api", "v1", "spec.yaml")); err == nil {
		t.Error("a file is a root")
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc… (3 more bytes)"},
		{"aéé", 2, "a… (4 more bytes)"}, // é is two bytes: no half character
	} {
		if got := truncate(tc.in, tc.n); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestOriginAllowed(t *testing.T) {
	allowed := []string{"http://localhost:5173"}
	for _, tc := range []struct {
		origin, host string
		want         bool
	}{
		{"http://127.0.0.1:8765", "127.0.0.1:8765", true}, // the server's own page
		{"http://localhost:5173", "127.0.0.1:8765", true}, // listed
		{"HTTP://LOCALHOST:5173", "127.0.0.1:8765", true},
		{"http://evil.example", "127.0.0.1:8765", false},
		{"http://127.0.0.1:9999", "127.0.0.1:8765", false}, // another local page
		{"null", "127.0.0.1:8765", false},
		{"file://", "127.0.0.1:8765", false},
	} {
		if got := originAllowed(tc.origin, tc.host, allowed); got != tc.want {
			t.Errorf("originAllowed(%q, %q) = %v", tc.origin, tc.host, got)
		}
	}
}
