package walk

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
)

// Files keeps what keep accepts, in lexical order, and passes over hidden
// folders and node_modules below the root, but not a hidden root nor
// hidden files.
func TestFiles(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".root")
	files := map[string]string{}
	for _, f := range []string{"b.yaml", "a/c.yaml", "a/c.json", ".hidden.yaml", ".git/x.yaml", "node_modules/m/y.yaml", "a/.cache/z.yaml", "a/node_modules.yaml/w.yaml"} {
		files[f] = ""
	}
	filetest.Write(t, root, files)
	got, err := Files(root, func(p string) bool { return strings.HasSuffix(p, ".yaml") })
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], root+string(filepath.Separator)))
	}
	if want := []string{".hidden.yaml", "a/c.yaml", "a/node_modules.yaml/w.yaml", "b.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
}

// A folder that cannot be read ends the walk with its error.
func TestFilesMissing(t *testing.T) {
	got, err := Files(filepath.Join(t.TempDir(), "none"), func(string) bool { return true })
	if err == nil || !os.IsNotExist(err) || got != nil {
		t.Errorf("Files of a missing folder = %q, %v; want a not-exist error", got, err)
	}
}
