package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteNewAndReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ready")
	if err := Write(path, []byte("http://127.0.0.1:9000\n")); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "http://127.0.0.1:9000\n" {
		t.Fatalf("new file: %q, %v", data, err)
	}
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
			t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
		}
		// A file's own permissions survive its replacement.
		if err := os.Chmod(path, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(path, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "second" {
		t.Errorf("replaced: %q", data)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600 kept", st.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Errorf("the folder holds %v (%v); want the file alone, no temporary left", entries, err)
	}
}

func TestWriteFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	// A missing folder is an error, not created.
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("into a missing folder: %v", err)
	}
	// A folder in the way of the rename: the write fails, the folder stays
	// and no temporary file is left beside it.
	target := filepath.Join(dir, "taken")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "inside"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("x")); err == nil {
		t.Fatal("a write over a non-empty folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "taken" || !entries[0].IsDir() {
		t.Errorf("after the failure the folder holds %v", entries)
	}
}
