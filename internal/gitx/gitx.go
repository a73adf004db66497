// Package gitx drives the git binary for specgate: one way to run a
// command (never prompting, in a plain locale, with a time limit, its
// credentials passed through git's environment and scrubbed from anything
// it prints), and reading the files of a commit with plumbing (ls-tree and
// one cat-file --batch) without touching a working tree, index or HEAD.
// The backward-compatibility check and the studio read base branches with
// it; clones of configuration and suite repositories can run through it.
package gitx

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
	"time"
)

// Runner runs git commands. The zero value runs them in the working
// directory, without a time limit.
type Runner struct {
	// Dir is the folder git runs in; "" is the working directory.
	Dir string
	// Config holds configuration for every command (key, value), passed
	// through git's environment (GIT_CONFIG_COUNT and its keys and values)
	// rather than on a command line other processes can read: an
	// http.<url>.extraHeader with a token, for instance.
	Config [][2]string
	// Env is added to the environment of every command.
	Env []string
	// Secrets are replaced by Mask in the messages of failed commands.
	Secrets []string
	// Mask is what a secret is replaced by; "" is ***.
	Mask string
	// Rewrite, when set, rewrites those messages further (a clone's
	// temporary URL shown as the repository the user named).
	Rewrite func(string) string
	// Timeout bounds each command; 0 is no bound beyond the context's.
	Timeout time.Duration
}

// Error is a git command that failed: the subcommand and what git said
// (standard error, scrubbed), else how it failed.
type Error struct {
	Command string // the subcommand: clone, rev-parse, …
	Message string
	Err     error // the process's error, or the context's
}

func (e *Error) Error() string { return "git " + e.Command + ": " + e.Message }

func (e *Error) Unwrap() error { return e.Err }

// baseEnv keeps every command from asking for anything (no terminal
// prompt, no askpass helper of the user's), from taking optional locks
// that could write to a repository being read, and from translating the
// messages callers match.
var baseEnv = []string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"}

// Command prepares git with args, for callers that stream its input or
// output themselves. Its context bounds it; Timeout does not.
func (r *Runner) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.Dir
	env := append(os.Environ(), baseEnv...)
	if len(r.Config) > 0 {
		env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(r.Config)))
		for i, kv := range r.Config {
			n := strconv.Itoa(i)
			env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
		}
	}
	cmd.Env = append(env, r.Env...)
	// A child of git that keeps the pipes open (ssh, a credential helper,
	// an alias's shell) must not hold the caller long once git is killed.
	cmd.WaitDelay = time.Second
	return cmd
}

// Output runs git with args and returns its standard output as printed.
func (r *Runner) Output(ctx context.Context, args ...string) (string, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	cmd := r.Command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", r.fail(ctx, args, stderr.String(), err)
	}
	return stdout.String(), nil
}

// Run runs git with args and returns its standard output without the
// surrounding white space (a commit, a branch name).
func (r *Runner) Run(ctx context.Context, args ...string) (string, error) {
	out, err := r.Output(ctx, args...)
	return strings.TrimSpace(out), err
}

// fail builds the error of a failed command.
func (r *Runner) fail(ctx context.Context, args []string, stderr string, err error) error {
	e := &Error{Command: subcommand(args), Message: strings.TrimSpace(stderr), Err: err}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && r.Timeout > 0:
		e.Message, e.Err = "timed out after "+r.Timeout.String(), ctx.Err()
	case ctx.Err() != nil:
		e.Message, e.Err = ctx.Err().Error(), ctx.Err()
	case e.Message == "":
		e.Message = err.Error()
	}
	e.Message = r.Scrub(e.Message)
	return e
}

// Scrub removes the secrets from text git printed, and rewrites it.
func (r *Runner) Scrub(s string) string {
	mask := r.Mask
	if mask == "" {
		mask = "***"
	}
	for _, secret := range r.Secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, mask)
		}
	}
	if r.Rewrite != nil {
		s = r.Rewrite(s)
	}
	return s
}

// subcommand is the first argument that is not an option of git itself
// (-C dir, -c key=value).
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c":
			i++
		case !strings.HasPrefix(a, "-"):
			return a
		}
	}
	return strings.Join(args, " ")
}

// Files lists the files of commit's tree, as slash paths from its top,
// that keep accepts (all when keep is nil). A name holding a newline is
// left out: cat-file --batch reads one name a line.
func (r *Runner) Files(ctx context.Context, commit string, keep func(name string) bool) ([]string, error) {
	list, err := r.Output(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range strings.Split(list, "\x00") {
		if n != "" && !strings.Contains(n, "\n") && (keep == nil || keep(n)) {
			names = append(names, n)
		}
	}
	return names, nil
}

// ReadFiles streams the named files of commit through one git cat-file
// --batch and calls fn with each file's content, in order. A name that is
// not a file of the commit (a submodule, a missing path) is skipped. fn
// need not read the content whole. The context bounds the whole read.
func (r *Runner) ReadFiles(ctx context.Context, commit string, names []string, fn func(name string, content io.Reader) error) error {
	if len(names) == 0 {
		return nil
	}
	cmd := r.Command(ctx, "cat-file", "--batch")
	var in bytes.Buffer
	for _, n := range names {
		in.WriteString(commit + ":" + n + "\n")
	}
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return r.fail(ctx, []string{"cat-file"}, "", err)
	}
	br := bufio.NewReader(stdout)
	for _, n := range names {
		if err := readBlob(br, n, fn); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if ctx.Err() != nil {
				return r.fail(ctx, []string{"cat-file"}, "", ctx.Err())
			}
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	if err := cmd.Wait(); err != nil {
		return r.fail(ctx, []string{"cat-file"}, stderr.String(), err)
	}
	return nil
}

// readBlob reads one answer of git cat-file --batch: "<oid> blob
// <size>\n<content>\n", or "<name> missing\n" for what is not a blob.
func readBlob(br *bufio.Reader, name string, fn func(string, io.Reader) error) error {
	header, err := br.ReadString('\n')
	if err != nil {
		return err
	}
	fields := strings.Fields(header)
	if len(fields) == 3 && fields[1] != "blob" {
		// Another kind of object (a tree): its content follows all the same.
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return fmt.Errorf("unexpected git cat-file header %q", header)
		}
		_, err = br.Discard(int(size) + 1)
		return err
	}
	if len(fields) != 3 {
		return nil // missing, or a submodule's commit: nothing follows
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		return fmt.Errorf("unexpected git cat-file header %q", header)
	}
	content := io.LimitReader(br, size)
	if err := fn(name, content); err != nil {
		return err
	}
	// What fn left unread, and the newline after the content.
	if _, err := io.Copy(io.Discard, content); err != nil {
		return err
	}
	_, err = br.Discard(1)
	return err
}

// Extract writes the files of commit that keep accepts under dir, at
// their paths in the tree, and returns how many it wrote. A path that
// would leave dir is refused.
func (r *Runner) Extract(ctx context.Context, commit, dir string, keep func(name string) bool) (int, error) {
	names, err := r.Files(ctx, commit, keep)
	if err != nil {
		return 0, err
	}
	written := 0
	err = r.ReadFiles(ctx, commit, names, func(name string, content io.Reader) error {
		local := filepath.FromSlash(name)
		if !filepath.IsLocal(local) {
			return fmt.Errorf("refusing to write %q outside %s", name, dir)
		}
		path := filepath.Join(dir, local)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, content); err != nil {
			f.Close()
			return err
		}
		written++
		return f.Close()
	})
	return written, err
}
