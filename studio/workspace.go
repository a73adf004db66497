package studio

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/internal/walk"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// maxFileSize bounds a file the studio opens or saves; the largest public
// specifications are tens of megabytes.
const maxFileSize = 64 << 20

// maxTreeFiles bounds the file tree, so that a studio started in a home
// folder by mistake answers quickly.
const maxTreeFiles = 5000

// errOutside is a path that leaves the workspace, by .. or through a link.
var errOutside = errors.New("outside the studio's folder")

// Workspace is the folder the studio serves: every path it is given is
// relative to it, and nothing outside it is read or written.
type Workspace struct {
	dir string // absolute, symbolic links evaluated

	// mu serializes the studio's own writes, so that the check of a file's
	// version and the write that follows are one step.
	mu sync.Mutex
}

// NewWorkspace returns the workspace of dir, which must be a folder.
func NewWorkspace(dir string) (*Workspace, error) {
	real, err := fsroot.Folder(dir)
	if err != nil {
		return nil, err
	}
	return &Workspace{dir: real}, nil
}

// Dir is the workspace's absolute path.
func (w *Workspace) Dir() string { return w.dir }

// Resolve turns a slash-separated path relative to the workspace into an
// absolute one, refusing absolute paths, paths that climb out with .., and
// paths whose existing part leads out through a symbolic link. The file
// need not exist.
func (w *Workspace) Resolve(rel string) (string, error) {
	if strings.TrimSpace(rel) == "" {
		return "", errors.New("no path given")
	}
	if strings.ContainsRune(rel, 0) || strings.Contains(rel, "\\") {
		return "", fmt.Errorf("%q: %w", rel, errOutside)
	}
	if path.IsAbs(rel) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%q: %w (paths are relative to it)", rel, errOutside)
	}
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%q: %w", rel, errOutside)
	}
	abs := filepath.Join(w.dir, filepath.FromSlash(clean))
	real, err := fsroot.EvalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("%q: %w", rel, fsroot.UnwrapPath(err))
	}
	if !w.contains(real) {
		return "", fmt.Errorf("%q: %w (it leads to %s)", rel, errOutside, real)
	}
	return real, nil
}

// Rel writes an absolute path under the workspace relative to it, with
// slashes; a path outside is returned unchanged.
func (w *Workspace) Rel(abs string) string { return fsroot.Rel(w.dir, abs) }

func (w *Workspace) contains(p string) bool { return fsroot.Within(w.dir, p) }

// Version names a file's content: the studio compares versions to tell a
// file changed on disk since it was opened. "" is a file that does not
// exist.
func Version(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// read reads a file of the workspace with its version.
func (w *Workspace) read(abs string) ([]byte, string, error) {
	st, err := os.Stat(abs)
	if err != nil {
		return nil, "", err
	}
	if st.IsDir() {
		return nil, "", fmt.Errorf("%s is a folder", w.Rel(abs))
	}
	if st.Size() > maxFileSize {
		return nil, "", fmt.Errorf("%s is %d MiB, more than the studio opens (%d MiB)", w.Rel(abs), st.Size()>>20, maxFileSize>>20)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, "", err
	}
	return data, Version(data), nil
}

// folderVersion is the version of a folder: actions rename folders, and
// only their existence is checked.
const folderVersion = "folder"

// currentVersion is the version of the file on disk, "" when it does not
// exist.
func currentVersion(abs string) (string, error) {
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return folderVersion, nil
	}
	data, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return Version(data), nil
}

// writeAtomic writes data to abs whole or not at all (atomicfile.Write),
// making its folder first: a save or an action may write a file into a
// folder that does not exist yet.
func writeAtomic(abs string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(abs, data)
}

// Entry is one file of the tree.
type Entry struct {
	Path string `json:"path"` // relative, slash-separated
	// Kind is spec, example, config (specgate.yaml), lint-config
	// (specgate-lint.yaml), report (a CTRF report) or file (another YAML
	// or JSON file, such as a part of a spec reached by $ref).
	Kind string `json:"kind"`
	// Spec is, for an example, the spec whose examples folder holds it.
	Spec string `json:"spec,omitempty"`
}

// Tree lists the YAML and JSON files of the workspace, skipping hidden
// folders and node_modules, in path order.
func (w *Workspace) Tree() ([]Entry, bool, error) {
	var files []string
	truncated := false
	err := filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is left out, not fatal
		}
		if d.IsDir() {
			if walk.Skipped(w.dir, p, d) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") || !isDataFile(name) || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if len(files) >= maxTreeFiles {
			truncated = true
			return filepath.SkipAll
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	specs := map[string]bool{}
	names, _ := spec.Expand([]string{w.dir})
	for _, n := range names {
		specs[n] = true
	}
	exampleDirs := w.exampleDirs(specs)
	entries := make([]Entry, 0, len(files))
	for _, f := range files {
		e := Entry{Path: w.Rel(f), Kind: "file"}
		base := filepath.Base(f)
		switch {
		case slices.Contains(config.FileNames, base):
			e.Kind = "config"
		case base == rulesets.ConfigName:
			e.Kind = "lint-config"
		case specs[f]:
			e.Kind = "spec"
		default:
			for dir, owner := range exampleDirs {
				if strings.HasPrefix(f, dir+string(filepath.Separator)) {
					e.Kind, e.Spec = "example", w.Rel(owner)
					break
				}
			}
			if e.Kind == "file" && strings.Contains(strings.ToLower(base), "ctrf") && strings.HasSuffix(base, ".json") {
				e.Kind = "report"
			}
		}
		entries = append(entries, e)
	}
	return entries, truncated, nil
}

// exampleDirs maps each examples folder of a spec (its <name>_examples
// folder) to the spec.
func (w *Workspace) exampleDirs(specs map[string]bool) map[string]string {
	out := map[string]string{}
	for s := range specs {
		out[examples.DefaultDir(s)] = s
	}
	return out
}

func isDataFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}
