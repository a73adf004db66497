package compat

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/specgate/specgate/internal/gitx"
	"github.com/specgate/specgate/spec"
)

// ErrNoRepository is the error (wrapped) of a folder that is not inside a
// git repository.
var ErrNoRepository = errors.New("not inside a git repository")

// BranchError is the error of a base branch the repository does not have.
type BranchError struct {
	Branch string
	Top    string // the repository's top-level folder
}

func (e *BranchError) Error() string {
	return fmt.Sprintf("base branch %q not found in %s (name another with --base-branch)", e.Branch, e.Top)
}

// BaseRef names the version of a repository that git mode compares the
// working tree with.
type BaseRef struct {
	Top    string // the repository's top-level folder, absolute
	Branch string // the base branch, as given or found
	// Commit is where the current branch forked from Branch (git
	// merge-base HEAD Branch), so that changes made on the base branch
	// since do not read as reverted by the working tree; the branch's tip
	// when the two share no history.
	Commit string
	git    *gitx.Runner
}

// ResolveBase finds the base of the repository that holds repoDir ("" is
// the working directory): branch, or when it is "", the remote's default
// branch (origin/HEAD), else main. Errors wrap ErrNoRepository or are a
// *BranchError.
func ResolveBase(ctx context.Context, repoDir, branch string) (BaseRef, error) {
	if repoDir == "" {
		repoDir = "."
	}
	git := &gitx.Runner{Dir: repoDir}
	top, err := git.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return BaseRef{}, fmt.Errorf("%s is %w: %w", repoDir, ErrNoRepository, err)
	}
	if top, err = filepath.Abs(top); err != nil {
		return BaseRef{}, err
	}
	git.Dir = top
	ref := BaseRef{Top: top, Branch: branch, git: git}
	if ref.Branch == "" {
		ref.Branch = "main"
		if b, err := git.Run(ctx, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil && b != "" {
			ref.Branch = b
		}
	}
	tip, err := git.Run(ctx, "rev-parse", "--verify", "--quiet", ref.Branch+"^{commit}")
	if err != nil || tip == "" {
		return BaseRef{}, &BranchError{Branch: ref.Branch, Top: top}
	}
	ref.Commit = tip
	if mb, err := git.Run(ctx, "merge-base", "HEAD", tip); err == nil && mb != "" {
		ref.Commit = mb
	}
	return ref, nil
}

// GitBase is the base version of a repository's specification files (YAML,
// JSON, XML schemas and the formats package spec reads), read at a commit
// with git plumbing into a temporary folder, so that multi-file
// specifications load from it like any files. The working tree, the index
// and HEAD are never touched. Close removes the folder.
type GitBase struct {
	BaseRef
	Dir string // the files of the commit, at their paths in the repository
}

// OpenBase reads the base of the repository that holds repoDir: see
// ResolveBase and BaseRef.Open.
func OpenBase(ctx context.Context, repoDir, branch string) (*GitBase, error) {
	ref, err := ResolveBase(ctx, repoDir, branch)
	if err != nil {
		return nil, err
	}
	return ref.Open(ctx)
}

// Open reads the specification files of the commit into a new temporary
// folder.
func (ref BaseRef) Open(ctx context.Context) (*GitBase, error) {
	dir, err := os.MkdirTemp("", "specgate-base-")
	if err != nil {
		return nil, err
	}
	git := ref.git
	if git == nil {
		git = &gitx.Runner{Dir: ref.Top}
	}
	if _, err := git.Extract(ctx, ref.Commit, dir, isSpecExt); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("reading %s: %w", ref.Branch, err)
	}
	return &GitBase{BaseRef: ref, Dir: dir}, nil
}

// Close removes the base's files.
func (b *GitBase) Close() error { return os.RemoveAll(b.Dir) }

// Rel names a file of the working tree (absolute, or relative to the
// working directory) by its slash path from the repository's top; ok is
// false for a file outside the repository.
func (b *GitBase) Rel(file string) (rel string, ok bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	r, err := filepath.Rel(b.Top, abs)
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Path is where the base's version of rel (a slash path from the
// repository's top) is, whether or not the base has it.
func (b *GitBase) Path(rel string) string { return filepath.Join(b.Dir, filepath.FromSlash(rel)) }

// Has reports whether the base has a file or folder at rel.
func (b *GitBase) Has(rel string) bool {
	_, err := os.Stat(b.Path(rel))
	return err == nil
}

// Load loads the base's version of the specification at rel with l (nil:
// a loader whose $refs stay within the base's files). An error wraps
// fs.ErrNotExist when the base has no such file.
func (b *GitBase) Load(ctx context.Context, l *spec.Loader, rel string) (*spec.Document, error) {
	path := b.Path(rel)
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return nil, fmt.Errorf("%s is not on %s: %w", rel, b.Branch, fs.ErrNotExist)
	}
	if l == nil {
		l = spec.NewLoader(spec.Options{RefRoot: b.Dir})
	}
	return l.Load(ctx, path)
}

// BaseRel names a file of the base's folder (as the documents Load
// returns name their files) by its slash path from the repository's top;
// ok is false for another file.
func (b *GitBase) BaseRel(name string) (rel string, ok bool) {
	r, err := filepath.Rel(b.Dir, name)
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}
