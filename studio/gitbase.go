package studio

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"time"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/internal/gitx"
	"github.com/specgate/specgate/spec"
)

// gitBase is the base branch's version of the workspace's specification
// files, read by compat.OpenBase (git plumbing into a temporary folder; the
// working tree, index and HEAD are never touched) and read again when HEAD
// moves to another merge base. The studio compares the editor's unsaved
// text with it through compat.Compare.
type gitBase struct {
	ws     *Workspace
	branch string // as configured; "" finds the default

	mu      sync.Mutex
	checked time.Time
	head    string
	base    *compat.GitBase
	err     error
	docs    map[string]*spec.Document // by path in the repository; nil: not on the base
}

// refreshEvery bounds how often HEAD is read: a check every pause in typing
// need not start git's three processes each time.
const refreshEvery = 10 * time.Second

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
	head, err := (&gitx.Runner{Dir: g.ws.Dir()}).Run(ctx, "rev-parse", "--verify", "--quiet", "HEAD")
	if err != nil {
		head = ""
	}
	if head == g.head && g.err == nil && g.base != nil {
		return
	}
	g.head = head
	ref, err := compat.ResolveBase(ctx, g.ws.Dir(), g.branch)
	var be *compat.BranchError
	switch {
	case errors.Is(err, compat.ErrNoRepository):
		g.err = errors.New("not a git repository: no backward-compatibility diagnostics")
		return
	case errors.As(err, &be):
		g.err = fmt.Errorf("base branch %q not found: no backward-compatibility diagnostics (start the studio with --base-branch)", be.Branch)
		return
	case err != nil:
		g.err = err
		return
	}
	if g.base != nil && g.base.Commit == ref.Commit && g.base.Branch == ref.Branch {
		g.err = nil
		return
	}
	base, err := ref.Open(ctx)
	if err != nil {
		g.err = err
		return
	}
	if g.base != nil {
		_ = g.base.Close()
	}
	g.base, g.err, g.docs = base, nil, map[string]*spec.Document{}
}

// close removes the base's folder.
func (g *gitBase) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.base != nil {
		_ = g.base.Close()
		g.base = nil
	}
}

func (g *gitBase) branchName() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.base == nil {
		return g.branch
	}
	return g.base.Branch
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
	b := g.base
	rel, ok := b.Rel(abs)
	if !ok {
		return nil, "the file is outside the git repository"
	}
	note := fmt.Sprintf("compared with %s at %s", b.Branch, short(b.Commit))
	if d, ok := g.docs[rel]; ok {
		if d == nil {
			return nil, fmt.Sprintf("new on %s: nothing to compare", b.Branch)
		}
		return d, note
	}
	if !b.Has(rel) {
		g.docs[rel] = nil
		return nil, fmt.Sprintf("new on %s: nothing to compare", b.Branch)
	}
	d, err := b.Load(ctx, nil, rel)
	if err != nil {
		return nil, fmt.Sprintf("the version on %s does not load: %v", b.Branch, err)
	}
	d.Views()
	g.docs[rel] = d
	return d, note
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}
