package insights

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// GitInfo is what git says of the repository holding a folder.
type GitInfo struct {
	Root   string // absolute top-level folder of the work tree
	Origin string // the URL of the remote origin, "" without one
	Branch string // "" on a detached HEAD
	Commit string // HEAD's commit, "" before the first commit
}

// Git reads repositories with the git command and remembers what it read
// per folder. Its zero value is ready; a machine without git reads nothing.
type Git struct {
	mu    sync.Mutex
	byDir map[string]*GitInfo // nil: not in a repository
}

// gitTimeout bounds each git command: reports are not held up by a
// repository on a hung network file system.
const gitTimeout = 10 * time.Second

// Info is the repository holding dir, or nil when dir is in none (or git
// is not installed).
func (g *Git) Info(ctx context.Context, dir string) *GitInfo {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byDir == nil {
		g.byDir = map[string]*GitInfo{}
	}
	if info, ok := g.byDir[abs]; ok {
		return info
	}
	root := git(ctx, abs, "rev-parse", "--show-toplevel")
	var info *GitInfo
	if root != "" {
		info = &GitInfo{
			Root:   filepath.Clean(root),
			Origin: git(ctx, abs, "config", "--get", "remote.origin.url"),
			Branch: git(ctx, abs, "symbolic-ref", "--quiet", "--short", "HEAD"),
			Commit: git(ctx, abs, "rev-parse", "--verify", "--quiet", "HEAD"),
		}
	}
	g.byDir[abs] = info
	return info
}

// git runs a git command in dir and returns its output's first line, or ""
// when it fails.
func git(ctx context.Context, dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(out, []byte("\n"))
	return strings.TrimSpace(string(line))
}
