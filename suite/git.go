package suite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/specgate/specgate/config"
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
	env := append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if getenv == nil {
		getenv = os.Getenv
	}
	if tok := getenv(GitTokenVar); tok != "" {
		env = append(env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.extraHeader", "GIT_CONFIG_VALUE_0=Authorization: Bearer "+tok)
	}
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			msg := strings.TrimSpace(string(out))
			if tok := getenv(GitTokenVar); tok != "" {
				msg = strings.ReplaceAll(msg, tok, "****")
			}
			return fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		ref := "HEAD"
		if g.Branch != "" {
			ref = g.Branch
		}
		if err := run("-C", dir, "fetch", "--depth", "1", "origin", ref); err != nil {
			return "", err
		}
		return dir, run("-C", dir, "reset", "--hard", "FETCH_HEAD")
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
	if err := run(append(args, "--", g.URL, tmp)...); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("cloning %s: %v", g.URL, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return dir, nil
}
