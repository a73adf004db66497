package server

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/gitx"
	"github.com/specgate/specgate/internal/httpx"
)

// gitTimeout bounds one git command (a clone or a fetch of the
// configuration repository).
const gitTimeout = 2 * time.Minute

// gitRepo is the shallow clone of the central configuration repository,
// driven through the git binary.
type gitRepo struct {
	shown  string // the repository as logs and /config/status show it
	source string // what git clones: the URL, or a file:// URL for a folder
	branch string // "" until the clone names the default branch
	dir    string // the clone's work tree
	// git runs the commands in dir: the token in git's environment and
	// scrubbed (with its base64 form) from anything git prints.
	git gitx.Runner
}

// newGitRepo prepares to clone repo (an http(s), ssh or file URL, an scp-like
// address, or a local folder). token, when set, is sent to an https
// repository as HTTP basic credentials with user as the user name, through
// git's environment: never in a command line other processes can read.
func newGitRepo(repo, branch, token, user string) (*gitRepo, error) {
	g := &gitRepo{shown: repo, source: repo, branch: branch}
	u, err := url.Parse(repo)
	isURL := err == nil && u.Scheme != "" && len(u.Scheme) > 1 && strings.Contains(repo, "://")
	switch {
	case isURL:
		if u.User != nil {
			if _, hasPassword := u.User.Password(); hasPassword {
				return nil, errors.New("--config-repo must not carry a password; put the token in SPECGATE_CONFIG_REPO_TOKEN")
			}
		}
		g.shown = httpx.RedactURL(u)
	case !isSCPLike(repo):
		abs, err := filepath.Abs(repo)
		if err != nil {
			return nil, err
		}
		// git ignores --depth for a plain path; a file:// URL keeps the
		// clone shallow, like a remote one.
		g.source = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	if token != "" {
		if !isURL || u.Scheme != "https" {
			return nil, fmt.Errorf("SPECGATE_CONFIG_REPO_TOKEN is set but --config-repo %s is not an https URL: the token is only sent over https", g.shown)
		}
		if user == "" {
			user = "x-access-token"
		}
		// http.<url>.extraHeader applies to this repository only.
		scope := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
		basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + token))
		g.git.Config = [][2]string{{"http." + scope + ".extraHeader", "Authorization: Basic " + basic}}
		g.git.Secrets = []string{token, basic}
	}
	g.git.Timeout = gitTimeout
	g.git.Rewrite = func(s string) string {
		if g.source != g.shown {
			s = strings.ReplaceAll(s, g.source, g.shown)
		}
		return s
	}
	return g, nil
}

// isSCPLike reports git's user@host:path form of ssh addresses.
func isSCPLike(s string) bool {
	colon := strings.Index(s, ":")
	slash := strings.Index(s, "/")
	return colon > 0 && (slash < 0 || colon < slash) && !filepath.IsAbs(s)
}

// run runs one git command in the clone and returns its standard output,
// trimmed.
func (g *gitRepo) run(ctx context.Context, args ...string) (string, error) {
	g.git.Dir = g.dir
	return g.git.Run(ctx, args...)
}

// clone makes a shallow clone of the branch (the default branch when none
// was named) into a new temporary folder and returns the commit checked out.
func (g *gitRepo) clone(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "specgate-config-")
	if err != nil {
		return "", err
	}
	g.dir = dir
	args := []string{"clone", "--quiet", "--depth", "1", "--single-branch", "--no-tags"}
	if g.branch != "" {
		args = append(args, "--branch", g.branch)
	}
	if _, err := g.run(ctx, append(args, "--", g.source, dir)...); err != nil {
		g.remove()
		return "", err
	}
	if g.branch == "" {
		if g.branch, err = g.run(ctx, "symbolic-ref", "--short", "HEAD"); err != nil {
			g.remove()
			return "", err
		}
	}
	return g.run(ctx, "rev-parse", "HEAD")
}

// fetch gets the branch's newest commit, without checking it out.
func (g *gitRepo) fetch(ctx context.Context) (string, error) {
	if _, err := g.run(ctx, "fetch", "--quiet", "--depth", "1", "--no-tags", "origin", g.branch); err != nil {
		return "", err
	}
	return g.run(ctx, "rev-parse", "FETCH_HEAD^{commit}")
}

// checkout makes the work tree exactly the commit's tree.
func (g *gitRepo) checkout(ctx context.Context, commit string) error {
	if _, err := g.run(ctx, "checkout", "--quiet", "--force", "--detach", commit); err != nil {
		return err
	}
	_, err := g.run(ctx, "clean", "-ffdxq")
	return err
}

// remove deletes the clone.
func (g *gitRepo) remove() {
	if g.dir != "" {
		_ = os.RemoveAll(g.dir)
	}
}
