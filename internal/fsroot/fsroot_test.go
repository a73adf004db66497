package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(file, []byte("openapi: 3.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	real, err := Folder(link)
	if want, _ := filepath.EvalSymlinks(dir); err != nil || real != want {
		t.Errorf("Folder(link) = %q, %v; want %q", real, err, want)
	}
	if _, err := Folder(file); err == nil || err.Error() != file+" is a file, not a folder" {
		t.Errorf("Folder(file): %v", err)
	}
	missing := filepath.Join(dir, "missing")
	if _, err := Folder(missing); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": ") || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("Folder(missing): %v, want the folder named once and fs.ErrNotExist", err)
	}
}

func TestWithinAndRel(t *testing.T) {
	dir := filepath.FromSlash("/work/root")
	tests := []struct {
		p      string
		within bool
		rel    string
	}{
		{"/work/root", true, "."},
		{"/work/root/a/b.yaml", true, "a/b.yaml"},
		{"/work/root/..a", true, "..a"},
		{"/work/rootless/a.yaml", false, "/work/rootless/a.yaml"},
		{"/work/a.yaml", false, "/work/a.yaml"},
		{"/work", false, "/work"},
	}
	for _, tt := range tests {
		p := filepath.FromSlash(tt.p)
		if got := Within(dir, p); got != tt.within {
			t.Errorf("Within(%s) = %v", tt.p, got)
		}
		want := tt.rel
		if !tt.within {
			want = p
		}
		if got := Rel(dir, p); got != want {
			t.Errorf("Rel(%s) = %q, want %q", tt.p, got, want)
		}
	}
	if got := Rel(dir, "relative/x.yaml"); got != "relative/x.yaml" {
		t.Errorf("Rel of a relative path = %q, want it unchanged", got)
	}
}

func TestEvalExisting(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	tests := []struct{ p, want string }{
		{filepath.Join(dir, "new", "file.yaml"), filepath.Join(dir, "new", "file.yaml")},
		{filepath.Join(dir, "out", "new.yaml"), filepath.Join(outside, "new.yaml")},
		{filepath.Join(dir, "out"), outside},
	}
	for _, tt := range tests {
		if got, err := EvalExisting(tt.p); err != nil || got != tt.want {
			t.Errorf("EvalExisting(%s) = %q, %v; want %q", tt.p, got, err, tt.want)
		}
	}
}

func TestUnwrapPath(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
	if got := UnwrapPath(err); !errors.Is(got, fs.ErrNotExist) || strings.Contains(got.Error(), "missing") {
		t.Errorf("UnwrapPath(%v) = %v, want the cause without the path", err, got)
	}
	plain := errors.New("plain")
	if UnwrapPath(plain) != plain {
		t.Error("UnwrapPath changed an error that is not an *fs.PathError")
	}
}
