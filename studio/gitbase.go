package studio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/spec"
)

// gitBase is the base branch's version of the workspace's YAML and JSON
// files, read with git plumbing into a temporary folder (the working tree,
// index and HEAD are never touched) and read again when HEAD moves.
//
// Shim: package compat reads the base the same way for its git mode
// (compat.CheckGit), but only for files on disk and without exporting the
// extraction; the studio compares unsaved text, so it extracts the base
// itself and calls compat.Compare. An exported compat.GitBase would remove
// this file.
type gitBase struct {
	ws     *Workspace
	branch string // as configured; "" finds the default

	mu      sync.Mutex
	checked time.Time
	head    string
	top     string // the repository's top folder
	base    string // the branch compared with
	commit  string // the merge base of HEAD and the branch
	dir     string // where the base's files are
	err     error
	docs    map[string]*spec.Document
}

// refreshEvery bounds how often HEAD is read: a check every pause in typing
// need not start git (three processes, 0.1–0.3 s on a busy machine) each
// time.
const refreshEvery = 10 * time.Second

func (g *gitBase) git(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.ws.Dir()}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}

// refresh reads HEAD and, when it moved, the base again.
func (g *gitBase) refresh(ctx context.Context) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if time.Since(g.checked) < refreshEvery {
		return
	}
	g.checked = time.Now()
	if _, err := exec.LookPath("git"); err != nil {
		g.err = errors.New("git is not installed: no backward-compatibility diagnostics")
		return
	}
	top, err := g.git(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		g.err = errors.New("not a git repository: no backward-compatibility diagnostics")
		return
	}
	head, _ := g.git(ctx, "rev-parse", "--verify", "--quiet", "HEAD")
	if head == g.head && g.err == nil && g.dir != "" {
		return
	}
	g.top, g.head, g.err = top, head, nil
	base := g.branch
	if base == "" {
		base = "main"
		if out, err := g.git(ctx, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil && out != "" {
			base = out
		}
	}
	g.base = base
	tip, err := g.git(ctx, "rev-parse", "--verify", "--quiet", base+"^{commit}")
	if err != nil {
		g.err = fmt.Errorf("base branch %q not found: no backward-compatibility diagnostics (start the studio with --base-branch)", base)
		return
	}
	commit := tip
	if mb, err := g.git(ctx, "merge-base", "HEAD", tip); err == nil && mb != "" {
		commit = mb
	}
	if commit == g.commit && g.dir != "" {
		return
	}
	dir, err := os.MkdirTemp("", "specgate-studio-base-")
	if err != nil {
		g.err = err
		return
	}
	if err := g.extract(ctx, commit, dir); err != nil {
		os.RemoveAll(dir)
		g.err = fmt.Errorf("reading %s: %w", base, err)
		return
	}
	if g.dir != "" {
		os.RemoveAll(g.dir)
	}
	g.commit, g.dir, g.docs = commit, dir, map[string]*spec.Document{}
}

// close removes the base's folder.
func (g *gitBase) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.dir != "" {
		os.RemoveAll(g.dir)
		g.dir = ""
	}
}

func (g *gitBase) branchName() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.base
}

// doc returns the base's version of the spec at abs, or nil with a note
// saying why there is none.
func (g *gitBase) doc(ctx context.Context, abs string) (*spec.Document, string) {
	g.refresh(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err != nil {
		return nil, g.err.Error()
	}
	rel, err := filepath.Rel(g.top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, "the file is outside the git repository"
	}
	note := fmt.Sprintf("compared with %s at %s", g.base, short(g.commit))
	if d, ok := g.docs[rel]; ok {
		if d == nil {
			return nil, fmt.Sprintf("new on %s: nothing to compare", g.base)
		}
		return d, note
	}
	file := filepath.Join(g.dir, rel)
	if _, err := os.Stat(file); err != nil {
		g.docs[rel] = nil
		return nil, fmt.Sprintf("new on %s: nothing to compare", g.base)
	}
	d, err := spec.NewLoader(spec.Options{RefRoot: g.dir}).Load(ctx, file)
	if err != nil {
		return nil, fmt.Sprintf("the version on %s does not load: %v", g.base, err)
	}
	d.Views()
	g.docs[rel] = d
	return d, note
}

// nearest places a change located in the base on the revision: the
// nearest parent of its pointer that the revision's file still writes.
func (g *gitBase) nearest(doc *spec.Document, loc compat.Location) (file string, line, col int) {
	g.mu.Lock()
	rel, err := filepath.Rel(g.dir, loc.File)
	top := g.top
	g.mu.Unlock()
	f := doc.Root
	if err == nil && !strings.HasPrefix(rel, "..") {
		if ff := doc.FileNamed(filepath.Join(top, rel)); ff != nil {
			f = ff
		}
	}
	n, r := f.Root, f.Root.Range
	for _, key := range spec.PointerPath(loc.Pointer) {
		k, _ := key.(string)
		if n == nil || n.Kind != spec.Object {
			break
		}
		fd := n.Field(k)
		if fd == nil {
			break
		}
		n, r = fd.Value, fd.KeyRange
	}
	return f.Name, int(r.Start.Line), int(max(r.Start.Col, 1))
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

// extract writes the YAML and JSON files of commit under dir, streaming
// their blobs through one git cat-file --batch.
func (g *gitBase) extract(ctx context.Context, commit, dir string) error {
	list, err := g.git(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit)
	if err != nil {
		return err
	}
	var names []string
	for _, n := range strings.Split(list, "\x00") {
		if n != "" && isDataFile(n) && !strings.Contains(n, "\n") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, "git", "-C", g.ws.Dir(), "cat-file", "--batch")
	var in bytes.Buffer
	for _, n := range names {
		in.WriteString(commit + ":" + n + "\n")
	}
	cmd.Stdin = &in
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReader(stdout)
	for _, n := range names {
		if err := writeBlob(r, filepath.Join(dir, filepath.FromSlash(n))); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	return cmd.Wait()
}

// writeBlob reads one answer of git cat-file --batch into path.
func writeBlob(r *bufio.Reader, path string) error {
	header, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	fields := strings.Fields(header)
	if len(fields) != 3 || fields[1] != "blob" {
		return nil // a submodule or a missing object
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		return fmt.Errorf("unexpected git cat-file header %q", header)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(f, r, size); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	_, err = r.Discard(1) // the newline after the content
	return err
}
