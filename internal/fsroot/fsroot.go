// Package fsroot confines paths to a folder: the MCP server's root and the
// studio's workspace resolve the paths they are given through it, so that
// a path leaving the folder by .. or through a symbolic link is judged
// alike in both. It also finds the configuration file nearest a folder
// (FindUp), the one search the lint and the runtime configurations share.
package fsroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Folder returns the absolute path of dir with its symbolic links
// evaluated. dir must be an existing folder; errors name it.
func Folder(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, UnwrapPath(err))
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, UnwrapPath(err))
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is a file, not a folder", dir)
	}
	return real, nil
}

// Within reports whether the absolute path p is dir or lies under it.
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Rel writes the absolute path p relative to dir, with slashes; a path
// outside dir, or not absolute, is returned unchanged.
func Rel(dir, p string) string {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(rel)
}

// EvalExisting follows the symbolic links of the longest part of p that
// exists and appends the rest, so that a path to a file yet to be written
// is judged by the folder it would be written in.
func EvalExisting(p string) (string, error) {
	rest := ""
	for cur := p; ; {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// UnwrapPath drops the operation and path of an *fs.PathError, which the
// messages that wrap it name already.
func UnwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// FindUp looks in dir, then in each of its parents up to the root, for a
// regular file named one of names (in that order within a folder), and
// returns the absolute path of the first found. A folder of one of those
// names does not count.
func FindUp(dir string, names ...string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		for _, name := range names {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
