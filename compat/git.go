package compat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/gitx"
	"github.com/specgate/specgate/spec"
)

// GitOptions configure git mode.
type GitOptions struct {
	// RepoDir is a folder inside the repository; "" is the working
	// directory.
	RepoDir string
	// BaseBranch is what the working tree is compared with; "" is the
	// repository's default branch (the remote's HEAD), else main.
	BaseBranch string
	// Targets are the specifications to check, files or folders, relative
	// to the working directory; none means every specification that
	// changed since the base (including those whose $ref'd files changed).
	Targets []string
}

// GitRun is the outcome of git mode.
type GitRun struct {
	Base string // the base branch as given or found
	// Commit is the commit the base versions are read from: where the
	// current branch forked from the base branch (git merge-base), so that
	// changes made on the base since do not show up as reverted.
	Commit  string
	Results []Result
}

// CheckGit compares specifications in the working tree with their versions
// on a base branch. The base versions are read with git plumbing (ls-tree,
// cat-file) into a temporary folder (OpenBase); the working tree, the
// index and HEAD are never touched. The error is for problems with the
// repository or the base branch (wrapping ErrNoRepository, or a
// *BranchError); problems with one specification are in its Result.
func CheckGit(ctx context.Context, opts Options, g GitOptions) (*GitRun, error) {
	base, err := OpenBase(ctx, g.RepoDir, g.BaseBranch)
	if err != nil {
		return nil, err
	}
	defer base.Close()
	run := &GitRun{Base: base.Branch, Commit: base.Commit}
	repo := &gitRepo{ctx: ctx, git: base.git, top: base.Top}
	targets, explicit, err := repo.targets(g.Targets, run.Commit, base.Dir, opts.Loader)
	if err != nil {
		return nil, err
	}
	for _, rel := range targets {
		run.Results = append(run.Results, repo.check(ctx, opts, run.Base, base.Dir, rel, explicit))
	}
	return run, nil
}

// gitRepo is the working tree of the repository git mode reads.
type gitRepo struct {
	ctx context.Context
	git *gitx.Runner
	top string // absolute top-level folder
}

// isSpecExt reports whether a file name could hold a specification or a
// part of one (an XML schema a WSDL description imports).
func isSpecExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json", ".xsd":
		return true
	}
	return spec.ReaderExtension(name) // .proto, .graphql, .wsdl, …
}

// targets lists the specifications to check, as paths relative to the
// top-level folder, and whether the user named them.
func (g *gitRepo) targets(given []string, commit, baseDir string, l *spec.Loader) ([]string, bool, error) {
	if len(given) > 0 {
		var out []string
		for _, t := range given {
			abs, err := filepath.Abs(t)
			if err != nil {
				return nil, true, err
			}
			rel, err := filepath.Rel(g.top, abs)
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, true, fmt.Errorf("--target-path %s is outside the repository %s", t, g.top)
			}
			rel = filepath.ToSlash(rel)
			found, err := g.specsUnder(rel, baseDir)
			if err != nil {
				return nil, true, err
			}
			out = appendNew(out, found...)
		}
		return out, true, nil
	}
	changed, err := g.changedFiles(commit)
	if err != nil {
		return nil, false, err
	}
	revSpecs := specSet(g.top)
	baseSpecs := specSet(baseDir)
	var out, fragments []string
	for _, c := range changed {
		if revSpecs[c] || baseSpecs[c] {
			out = append(out, c)
		} else {
			fragments = append(fragments, c)
		}
	}
	// A specification whose $ref'd file changed changed too.
	if len(fragments) > 0 {
		out = appendNew(out, g.referrers(fragments, revSpecs, l)...)
	}
	sort.Strings(out)
	return out, false, nil
}

// specsUnder lists the specifications a --target-path names: the file
// itself, or the specifications in a folder, in the working tree or on the
// base.
func (g *gitRepo) specsUnder(rel, baseDir string) ([]string, error) {
	revPath, basePath := filepath.Join(g.top, rel), filepath.Join(baseDir, rel)
	revStat, revErr := os.Stat(revPath)
	baseStat, baseErr := os.Stat(basePath)
	switch {
	case revErr != nil && baseErr != nil:
		return nil, fmt.Errorf("--target-path %s: no such file or folder in the working tree or on the base", g.show(rel))
	case (revErr == nil && !revStat.IsDir()) || (baseErr == nil && !baseStat.IsDir()):
		return []string{rel}, nil
	}
	var out []string
	for _, root := range []string{g.top, baseDir} {
		for name := range specSet(filepath.Join(root, rel)) {
			out = appendNew(out, pathJoin(rel, name))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--target-path %s: the folder holds no specification", g.show(rel))
	}
	sort.Strings(out)
	return out, nil
}

func pathJoin(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// specSet lists the specifications under dir by content, as slash paths
// relative to dir.
func specSet(dir string) map[string]bool {
	set := map[string]bool{}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return set
	}
	found, _ := spec.Expand([]string{dir})
	for _, f := range found {
		if rel, err := filepath.Rel(dir, f); err == nil {
			set[filepath.ToSlash(rel)] = true
		}
	}
	return set
}

// changedFiles lists the YAML and JSON files that differ between commit
// and the working tree, staged or not, and the untracked ones.
func (g *gitRepo) changedFiles(commit string) ([]string, error) {
	diff, err := g.git.Output(g.ctx, "-c", "diff.relative=false", "diff", "--name-only", "-z", "--no-renames", commit, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := g.git.Output(g.ctx, "ls-files", "--others", "--exclude-standard", "-z", "--full-name", ":/")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range strings.Split(diff+"\x00"+untracked, "\x00") {
		if n != "" && isSpecExt(n) {
			out = appendNew(out, n)
		}
	}
	return out, nil
}

// referrers lists the specifications of the working tree that reach one
// of the changed files through $refs.
func (g *gitRepo) referrers(fragments []string, specs map[string]bool, l *spec.Loader) []string {
	want := map[string]bool{}
	for _, f := range fragments {
		want[filepath.Join(g.top, filepath.FromSlash(f))] = true
	}
	var names []string
	for s := range specs {
		names = append(names, s)
	}
	sort.Strings(names)
	var out []string
	for _, s := range names {
		entry := filepath.Join(g.top, filepath.FromSlash(s))
		doc, err := l.Load(g.ctx, entry)
		if err != nil {
			continue
		}
		for _, f := range doc.Files() {
			if want[f.Name] { // names of loaded files are absolute, like entry
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// show names a repository path as the user sees it: relative to the
// working directory.
func (g *gitRepo) show(rel string) string {
	abs := filepath.Join(g.top, filepath.FromSlash(rel))
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, abs); err == nil {
			return r
		}
	}
	return abs
}

// check compares one specification of the working tree with its base
// version.
func (g *gitRepo) check(ctx context.Context, opts Options, branch, baseDir, rel string, explicit bool) Result {
	shown := g.show(rel)
	res := Result{Spec: shown, BaseSpec: shown, Base: branch}
	revPath := filepath.Join(g.top, filepath.FromSlash(rel))
	basePath := filepath.Join(baseDir, filepath.FromSlash(rel))
	// onBase names an error of the base's side: the spec on the branch.
	onBase := func(err error) error {
		return fmt.Errorf("%s on %s: %w", shown, branch, renameErr(err, basePath, shown))
	}
	// only loads the one side that exists, its load error named by named;
	// nil when res already tells why the check ends there.
	only := func(path string, named func(error) error) *spec.Document {
		doc, err := opts.Loader.Load(ctx, path)
		if err != nil {
			res.fail(ReasonLoadError, named(err))
			return nil
		}
		res.Format = doc.String()
		if !Supported(doc.Format) {
			res.unsupported(doc, explicit)
			return nil
		}
		return doc
	}
	_, revErr := os.Stat(revPath)
	_, baseErr := os.Stat(basePath)
	switch {
	case baseErr != nil:
		res.BaseSpec = ""
		if only(revPath, func(err error) error { return renameErr(err, revPath, shown) }) == nil {
			return res
		}
		res.Verdict, res.Reason = Compatible, ReasonNewSpec
		res.Message = fmt.Sprintf("%s is a new specification: it does not exist on %s, so it breaks no consumer", shown, branch)
		return res
	case revErr != nil:
		doc := only(basePath, onBase)
		if doc == nil {
			return res
		}
		ops := countOperations(doc)
		res.Verdict, res.Reason = Incompatible, ReasonDeleted
		res.Message = fmt.Sprintf("%s is NOT backward compatible with %s: the specification was deleted, and its %s %s missing",
			shown, branch, english.Count(ops, "operation", "operations"), english.Noun(ops, "is", "are"))
		return res
	}
	base, rev, err := loadPair(ctx, opts.Loader, basePath, revPath)
	if err != nil {
		var se *spec.Error
		if errors.As(err, &se) && strings.HasPrefix(se.File, baseDir) {
			err = onBase(err)
		} else {
			err = renameErr(err, revPath, shown)
		}
		res.fail(ReasonLoadError, err)
		return res
	}
	if !Supported(rev.Format) && !explicit {
		res.unsupported(rev, false)
		return res
	}
	res.judge(base, rev, opts.Strict)
	for i := range res.Changes {
		c := &res.Changes[i]
		for _, l := range []*Location{&c.Location, &c.Base, &c.Revision} {
			if l.File != "" {
				l.File = g.showFile(l.File, baseDir)
			}
		}
	}
	return res
}

// unsupported reports a format the check does not read: an error for a
// specification the user named, a skip for one git mode found.
func (r *Result) unsupported(doc *spec.Document, explicit bool) {
	r.Verdict, r.Reason = Error, ReasonUnsupported
	if !explicit {
		r.Verdict = Skipped
	}
	r.Message = fmt.Sprintf("cannot check %s: %s is not supported by the backward-compatibility check (it reads OpenAPI 2.0 and 3.x, AsyncAPI 2.x and 3.x, Protocol Buffers, GraphQL and WSDL)", r.Spec, doc)
}

// showFile maps an absolute file name of either side to the path the user
// sees: the base copy under baseDir maps to the same path in the working
// tree.
func (g *gitRepo) showFile(name, baseDir string) string {
	if rel, err := filepath.Rel(baseDir, name); err == nil && !strings.HasPrefix(rel, "..") {
		return g.show(filepath.ToSlash(rel))
	}
	if rel, err := filepath.Rel(g.top, name); err == nil && !strings.HasPrefix(rel, "..") {
		return g.show(filepath.ToSlash(rel))
	}
	return name
}

// renameErr replaces a loaded file's path in an error by the name shown.
func renameErr(err error, path, shown string) error {
	var se *spec.Error
	if errors.As(err, &se) && se.File == path {
		c := *se
		c.File = shown
		return &c
	}
	return err
}

func countOperations(doc *spec.Document) int {
	v := doc.Views()
	if doc.Format == spec.AsyncAPI {
		return len(v.AsyncOperations)
	}
	return len(v.Operations) + len(v.Webhooks)
}
