// Package atomicfile replaces files whole or not at all, for what
// specgate writes that others read while it runs or after it stopped: the
// studio's saves, specgate.yaml upgraded in place, a server's ready file,
// the insights spec metadata report. A reader sees the old file or the
// new one, never a part of it, and an interrupted write leaves the old
// file as it was.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path through a hidden temporary file in the same
// folder, flushed to disk and then renamed over path. An existing file
// keeps its permissions; a new one gets 0644. The folder must exist. On
// an error path is untouched and the temporary file removed.
func Write(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, nothing is left to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
