// Package walk lists the files of a folder tree as specgate's commands see
// one: hidden folders and node_modules below the root are passed over.
package walk

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Skipped reports whether a walk of root passes over the folder d at p: a
// hidden folder or node_modules below root (root itself is always read).
func Skipped(root, p string, d fs.DirEntry) bool {
	name := d.Name()
	return d.IsDir() && p != root && (strings.HasPrefix(name, ".") || name == "node_modules")
}

// Files lists, in lexical order, the files under dir that keep accepts,
// passing over the folders Skipped names. The first error of the walk
// ends it and is returned with the files found so far.
func Files(dir string, keep func(path string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case Skipped(dir, p, d):
			return filepath.SkipDir
		case !d.IsDir() && keep(p):
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
