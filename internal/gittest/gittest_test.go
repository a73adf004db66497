package gittest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
)

// A repository is made on main with a fixed identity, whatever the
// machine's configuration says: a global configuration that signs commits
// and names another branch and author is not read.
func TestRepoIgnoresMachineConfig(t *testing.T) {
	home := t.TempDir()
	filetest.File(t, home, ".gitconfig", "[user]\n\tname = Someone Else\n[commit]\n\tgpgsign = true\n[init]\n\tdefaultBranch = trunk\n")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))

	dir := Repo(t, map[string]string{"api.yaml": "openapi: 3.1.0\n", "specs/pet.yaml": "type: object\n"})
	if got := Run(t, dir, "branch", "--show-current"); got != "main" {
		t.Errorf("branch %q, want main", got)
	}
	if got := Run(t, dir, "log", "--format=%an <%ae> | %cn <%ce> | %s"); got != "specgate test <test@specgate.invalid> | specgate test <test@specgate.invalid> | first" {
		t.Errorf("log %q", got)
	}
	if got := Run(t, dir, "ls-files"); got != "api.yaml\nspecs/pet.yaml" {
		t.Errorf("files %q", got)
	}
	// A plain init through Run starts on main too.
	plain := t.TempDir()
	Run(t, plain, "init", "--quiet")
	if got := Run(t, plain, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Errorf("plain init: HEAD %q, want refs/heads/main", got)
	}
}

// Commit records added, changed and removed files, commits even when
// nothing changed, and returns the new HEAD.
func TestCommit(t *testing.T) {
	dir := Repo(t, map[string]string{"a.yaml": "a\n", "b.yaml": "b\n"})
	first := Run(t, dir, "rev-parse", "HEAD")
	if err := os.Remove(filepath.Join(dir, "a.yaml")); err != nil {
		t.Fatal(err)
	}
	filetest.Write(t, dir, map[string]string{"b.yaml": "B\n", "c.yaml": "c\n"})
	second := Commit(t, dir, "second")
	if len(second) != 40 || second == first || Run(t, dir, "rev-parse", "HEAD~1") != first {
		t.Errorf("Commit returned %q; first %q", second, first)
	}
	if got := Run(t, dir, "diff", "--name-status", first, second); got != "D\ta.yaml\nM\tb.yaml\nA\tc.yaml" {
		t.Errorf("second commit changed %q", got)
	}
	if status := Run(t, dir, "status", "--porcelain"); status != "" {
		t.Errorf("left uncommitted: %q", status)
	}
	third := Commit(t, dir, "nothing")
	if third == second || Run(t, dir, "log", "-1", "--format=%s") != "nothing" {
		t.Errorf("an empty commit: %q after %q", third, second)
	}
}

// A GIT_DIR or GIT_INDEX_FILE left in the environment (by a hook running
// the tests) does not send the commands to another repository.
func TestRunIgnoresInheritedGitVariables(t *testing.T) {
	other := Repo(t, map[string]string{"other.yaml": "x\n"})
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_INDEX_FILE", filepath.Join(t.TempDir(), "index"))
	dir := Repo(t, map[string]string{"mine.yaml": "y\n"})
	if got := Run(t, dir, "ls-files"); got != "mine.yaml" {
		t.Errorf("files %q, want mine.yaml only", got)
	}
	if got := Run(t, other, "ls-files"); got != "other.yaml" {
		t.Errorf("the other repository holds %q", got)
	}
}
