package mcp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Root is the folder every path a tool is given is resolved against, and
// the only tree a tool reads from or writes to: an agent names files
// relative to it, and a path that leads outside it, by .. or through a
// symbolic link, is refused.
type Root struct {
	dir string // absolute, symbolic links evaluated
}

// NewRoot returns the root at dir ("" is the working directory), which must
// be an existing folder.
func NewRoot(dir string) (*Root, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, unwrapPath(err))
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, unwrapPath(err))
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("root %s is a file, not a folder", dir)
	}
	return &Root{dir: real}, nil
}

// Dir is the root's absolute path.
func (r *Root) Dir() string { return r.dir }

// Resolve returns the absolute path of p (relative to the root, or
// absolute), or an error naming what (the input field) when p is empty, a
// URL, or outside the root once its symbolic links are followed. The path
// need not exist.
func (r *Root) Resolve(what, p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", fmt.Errorf("%s is empty", what)
	}
	if strings.Contains(p, "://") || p == "-" {
		return "", fmt.Errorf("%s %q: only files under the root %s are read, not URLs or standard input", what, p, r.dir)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.dir, abs)
	}
	abs = filepath.Clean(abs)
	real, err := evalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("%s %q: %w", what, p, unwrapPath(err))
	}
	if !r.contains(real) {
		return "", fmt.Errorf("%s %q is outside the root %s (paths are resolved against it; start the server with another --root to read elsewhere)", what, p, r.dir)
	}
	return real, nil
}

// File resolves p as Resolve does and requires an existing file.
func (r *Root) File(what, p string) (string, error) {
	abs, err := r.Resolve(what, p)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s %q: no such file under the root %s", what, p, r.dir)
	case err != nil:
		return "", fmt.Errorf("%s %q: %w", what, p, unwrapPath(err))
	case st.IsDir():
		return "", fmt.Errorf("%s %q is a folder, not a file", what, p)
	}
	return abs, nil
}

// Folder resolves p as Resolve does and requires an existing folder.
func (r *Root) Folder(what, p string) (string, error) {
	abs, err := r.Resolve(what, p)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s %q: no such folder under the root %s", what, p, r.dir)
	case err != nil:
		return "", fmt.Errorf("%s %q: %w", what, p, unwrapPath(err))
	case !st.IsDir():
		return "", fmt.Errorf("%s %q is a file, not a folder", what, p)
	}
	return abs, nil
}

// Show writes an absolute path under the root relative to it, as agents
// name files; other names are returned unchanged.
func (r *Root) Show(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(r.dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(rel)
}

func (r *Root) contains(p string) bool {
	rel, err := filepath.Rel(r.dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// evalExisting follows the symbolic links of the longest part of p that
// exists and appends the rest, so that a path to a file yet to be written
// is judged by the folder it would be written in.
func evalExisting(p string) (string, error) {
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

// unwrapPath drops the operation and path of an *fs.PathError, which the
// message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
