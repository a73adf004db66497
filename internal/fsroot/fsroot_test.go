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

func TestFindUp(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	for _, d := range []string{deep, filepath.Join(root, "a", "b", "dir.yaml")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.WriteFile(p, []byte("x: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	top := write("first.yaml")
	second := write(filepath.Join("a", "second.yaml"))
	both := write(filepath.Join("a", "first.yaml"))
	for _, tc := range []struct {
		name  string
		dir   string
		names []string
		want  string
	}{
		{"in a parent", deep, []string{"second.yaml"}, second},
		{"nearest folder wins", deep, []string{"first.yaml"}, both},
		{"names in order within a folder", filepath.Join(root, "a"), []string{"second.yaml", "first.yaml"}, second},
		{"first name absent, second found", filepath.Join(root, "a"), []string{"none.yaml", "first.yaml"}, both},
		{"the folder itself", root, []string{"first.yaml"}, top},
		{"a folder of that name does not count", deep, []string{"dir.yaml"}, ""},
		{"none anywhere", deep, []string{"specgate-none-such.yaml"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := FindUp(tc.dir, tc.names...)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("FindUp(%q, %q) = %q, %v; want %q", tc.dir, tc.names, got, ok, tc.want)
			}
		})
	}
	// A relative folder is taken from the working directory.
	t.Chdir(deep)
	if got, ok := FindUp(".", "second.yaml"); !ok || !sameFile(t, got, second) {
		t.Errorf("FindUp(\".\") = %q, %v; want %q", got, ok, second)
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	sa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(sa, sb)
}
