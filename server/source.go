package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/specgate/specgate/internal/walk"
)

// configRepo is where the configuration comes from: a git repository, a
// plain local folder, or none (the built-in rulesets). A version names
// what was loaded (a commit, a digest of the folder, "builtin"); a refresh
// loads again when fetch finds another version.
type configRepo interface {
	clone(ctx context.Context) (version string, err error)
	fetch(ctx context.Context) (version string, err error)
	checkout(ctx context.Context, version string) error
	// root is the folder the configuration path is read from; "" for the
	// built-in rulesets.
	root() string
	// describe is the repository and branch as logs and /config/status
	// show them.
	describe() (repository, branch string)
	remove()
}

func (g *gitRepo) root() string                  { return g.dir }
func (g *gitRepo) describe() (string, string)    { return g.shown, g.branch }
func (f *folderRepo) describe() (string, string) { return f.dir, "" }

// newConfigRepo picks the source of the configuration for --config-repo:
// none, a local folder that is not a git work tree (read where it is, and
// read again when its files change), or anything git clones.
func newConfigRepo(repo, branch, token, user string) (configRepo, error) {
	if repo == "" {
		return builtinRepo{}, nil
	}
	if st, err := os.Stat(repo); err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(repo, ".git")); err != nil {
			if branch != "" {
				return nil, fmt.Errorf("--config-branch %s: %s is a plain folder, not a git repository", branch, repo)
			}
			abs, err := filepath.Abs(repo)
			if err != nil {
				return nil, err
			}
			return &folderRepo{dir: abs}, nil
		}
	}
	return newGitRepo(repo, branch, token, user)
}

// builtinRepo serves the built-in rulesets, with no configuration file.
type builtinRepo struct{}

const builtinVersion = "builtin"

func (builtinRepo) clone(context.Context) (string, error)  { return builtinVersion, nil }
func (builtinRepo) fetch(context.Context) (string, error)  { return builtinVersion, nil }
func (builtinRepo) checkout(context.Context, string) error { return nil }
func (builtinRepo) root() string                           { return "" }
func (builtinRepo) describe() (string, string)             { return "(built-in rulesets)", "" }
func (builtinRepo) remove()                                {}

// folderRepo is a local folder read in place. Its version is a digest of
// the names, sizes and modification times of its files, so a refresh
// notices an edit without reading every file.
type folderRepo struct{ dir string }

// maxFolderFiles bounds the walk of a configuration folder.
const maxFolderFiles = 10000

func (f *folderRepo) clone(ctx context.Context) (string, error) { return f.fetch(ctx) }

func (f *folderRepo) fetch(context.Context) (string, error) {
	h := sha256.New()
	n := 0
	err := filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if walk.Skipped(f.dir, p, d) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		if n++; n > maxFolderFiles {
			return fmt.Errorf("%s holds more than %d files; give the folder of the configuration alone", f.dir, maxFolderFiles)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.dir, p)
		fmt.Fprintf(h, "%s\x00%d\x00%s\n", rel, info.Size(), strconv.FormatInt(info.ModTime().UnixNano(), 10))
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func (f *folderRepo) checkout(context.Context, string) error { return nil }
func (f *folderRepo) root() string                           { return f.dir }
func (f *folderRepo) remove()                                {}
