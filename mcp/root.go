package mcp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/specgate/specgate/internal/fsroot"
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
	real, err := fsroot.Folder(dir)
	if err != nil {
		return nil, fmt.Errorf("root %w", err)
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
	real, err := fsroot.EvalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("%s %q: %w", what, p, fsroot.UnwrapPath(err))
	}
	if !fsroot.Within(r.dir, real) {
		return "", fmt.Errorf("%s %q is outside the root %s (paths are resolved against it; start the server with another --root to read elsewhere)", what, p, r.dir)
	}
	return real, nil
}

// File resolves p as Resolve does and requires an existing file.
func (r *Root) File(what, p string) (string, error) { return r.existing(what, p, false) }

// Folder resolves p as Resolve does and requires an existing folder.
func (r *Root) Folder(what, p string) (string, error) { return r.existing(what, p, true) }

// Folders resolves each of ps as Folder does, in order; the first that
// fails is the error.
func (r *Root) Folders(what string, ps []string) ([]string, error) {
	var dirs []string
	for _, p := range ps {
		abs, err := r.Folder(what, p)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, abs)
	}
	return dirs, nil
}

// existing resolves p as Resolve does and requires a folder (dir) or a
// file there.
func (r *Root) existing(what, p string, dir bool) (string, error) {
	kind, other := "file", "folder"
	if dir {
		kind, other = other, kind
	}
	abs, err := r.Resolve(what, p)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s %q: no such %s under the root %s", what, p, kind, r.dir)
	case err != nil:
		return "", fmt.Errorf("%s %q: %w", what, p, fsroot.UnwrapPath(err))
	case st.IsDir() != dir:
		return "", fmt.Errorf("%s %q is a %s, not a %s", what, p, other, kind)
	}
	return abs, nil
}

// Show writes an absolute path under the root relative to it, as agents
// name files; other names are returned unchanged.
func (r *Root) Show(p string) string { return fsroot.Rel(r.dir, p) }
