// Package gittest builds the git repositories that tests read: it runs git
// with a fixed identity and without the machine's system and global
// configuration, so that a test behaves the same on every machine and in
// every checkout. Only tests import it.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
)

// config is set on every command: commits are not signed whatever the
// machine says, and a plain `git init` starts on main.
var config = []string{"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}

// installed reports whether git is on the PATH, looked up once.
var installed = sync.OnceValue(func() bool {
	_, err := exec.LookPath("git")
	return err == nil
})

// env is the environment git runs in for dir: the process's own less every
// GIT_ variable (one left by a hook, such as GIT_DIR or GIT_INDEX_FILE,
// would send the commands to another repository), with no system or
// global configuration, HOME at dir, and a fixed author and committer.
func env(dir string) []string {
	env := make([]string, 0, len(os.Environ())+8)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir,
		"GIT_AUTHOR_NAME=specgate test", "GIT_AUTHOR_EMAIL=test@specgate.invalid",
		"GIT_COMMITTER_NAME=specgate test", "GIT_COMMITTER_EMAIL=test@specgate.invalid")
}

// Run runs git with args in dir and returns its standard output less the
// final newline. It skips the test where git is not installed, and fails
// it, with what git printed, when the command fails.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	if !installed() {
		t.Skip("git is not installed")
	}
	cmd := exec.Command("git", append(append([]string(nil), config...), args...)...)
	cmd.Dir = dir
	cmd.Env = env(dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s in %s: %v\n%s%s", strings.Join(args, " "), dir, err, stdout.Bytes(), stderr.Bytes())
	}
	return strings.TrimSuffix(stdout.String(), "\n")
}

// Init makes dir a git repository on branch main.
func Init(t testing.TB, dir string) {
	t.Helper()
	Run(t, dir, "init", "--quiet", "--initial-branch=main")
}

// Commit commits everything in dir's working tree, added, changed and
// removed files alike, with the message msg (even when nothing changed),
// and returns the new commit's hash.
func Commit(t testing.TB, dir, msg string) string {
	t.Helper()
	Run(t, dir, "add", "--all")
	Run(t, dir, "commit", "--quiet", "--allow-empty", "--message", msg)
	return Run(t, dir, "rev-parse", "HEAD")
}

// Repo makes a repository in a new temporary folder whose main branch
// holds files (slash-separated name to content) in one commit, and
// returns the folder.
func Repo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Init(t, dir)
	filetest.Write(t, dir, files)
	Commit(t, dir, "first")
	return dir
}
