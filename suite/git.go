package suite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/gitx"
)

// GitTokenVar names the environment variable whose token clones private
// git sources. It travels in git's environment, never in a URL, a command
// line or a message.
const GitTokenVar = "SPECGATE_GIT_TOKEN"

// clone makes a shallow clone of a git source in the cache (once per
// repository and branch, refreshed when it is there) and returns its
// folder.
func clone(ctx context.Context, cache string, g *config.Git, getenv func(string) string) (string, error) {
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cache = filepath.Join(base, "specgate", "git")
	}
	sum := sha256.Sum256([]byte(g.URL + "\x00" + g.Branch))
	dir := filepath.Join(cache, hex.EncodeToString(sum[:8]))
	if getenv == nil {
		getenv = os.Getenv
	}
	git := &gitx.Runner{Mask: "****"}
	if tok := getenv(GitTokenVar); tok != "" {
		git.Config = [][2]string{{"http.extraHeader", "Authorization: Bearer " + tok}}
		git.Secrets = []string{tok}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		ref := "HEAD"
		if g.Branch != "" {
			ref = g.Branch
		}
		git.Dir = dir
		if _, err := git.Run(ctx, "fetch", "--depth", "1", "origin", ref); err != nil {
			return "", err
		}
		_, err := git.Run(ctx, "reset", "--hard", "FETCH_HEAD")
		return dir, err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	args := []string{"clone", "--depth", "1"}
	if g.Branch != "" {
		args = append(args, "--branch", g.Branch)
	}
	tmp, err := os.MkdirTemp(cache, ".clone-*")
	if err != nil {
		return "", err
	}
	if _, err := git.Run(ctx, append(args, "--", g.URL, tmp)...); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("cloning %s: %v", g.URL, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return dir, nil
}
