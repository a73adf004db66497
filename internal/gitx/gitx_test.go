package gitx

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
)

func TestFilesAndExtract(t *testing.T) {
	files := map[string]string{
		"api.yaml":          "openapi: 3.1.0\n",
		"specs/pet.json":    `{"type": "object"}`,
		"specs/deep/a.yaml": "a: 1\n",
		"README.md":         "# hi\n",
		"empty.yaml":        "",
	}
	dir := gittest.Repo(t, files)
	commit := gittest.Run(t, dir, "rev-parse", "HEAD")
	g := &Runner{Dir: dir}
	ctx := context.Background()
	yaml := func(n string) bool { return strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".json") }
	names, err := g.Files(ctx, commit, yaml)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"api.yaml", "empty.yaml", "specs/deep/a.yaml", "specs/pet.json"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}

	// The working tree changes after the commit: the commit's versions
	// are read, and nothing in the repository is touched.
	if err := os.WriteFile(filepath.Join(dir, "api.yaml"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := g.Run(ctx, "status", "--porcelain")
	out := t.TempDir()
	n, err := g.Extract(ctx, commit, out, yaml)
	if err != nil || n != 4 {
		t.Fatalf("extracted %d files: %v", n, err)
	}
	for _, name := range want {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil || string(got) != files[name] {
			t.Errorf("%s: %q (%v), want %q", name, got, err, files[name])
		}
	}
	if _, err := os.Stat(filepath.Join(out, "README.md")); err == nil {
		t.Error("README.md was extracted though keep refused it")
	}
	if after, _ := g.Run(ctx, "status", "--porcelain"); after != before {
		t.Errorf("the repository's status changed: %q → %q", before, after)
	}
}

// ReadFiles skips what is not a file of the commit, and a reader that
// stops early does not upset the files after it.
func TestReadFiles(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.yaml": "aaaa\n", "b.yaml": "bb\n", "sub/c.yaml": "c\n"})
	commit := gittest.Run(t, dir, "rev-parse", "HEAD")
	g := &Runner{Dir: dir}
	got := map[string]string{}
	err := g.ReadFiles(context.Background(), commit, []string{"a.yaml", "missing.yaml", "sub", "b.yaml"}, func(name string, r io.Reader) error {
		buf := make([]byte, 2)
		n, _ := io.ReadFull(r, buf) // reads a part only
		got[name] = string(buf[:n])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a.yaml": "aa", "b.yaml": "bb"}; !reflect.DeepEqual(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	stop := errors.New("stop")
	err = g.ReadFiles(context.Background(), commit, []string{"a.yaml", "b.yaml"}, func(string, io.Reader) error { return stop })
	if !errors.Is(err, stop) || !strings.HasPrefix(err.Error(), "a.yaml: ") {
		t.Errorf("an error of fn: %v", err)
	}
}

// A failed command says which subcommand failed and what git printed,
// without the secrets.
func TestErrorsScrubSecrets(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	g := &Runner{Dir: t.TempDir(), Secrets: []string{"s3cr3t"}, Rewrite: func(s string) string { return strings.ReplaceAll(s, "/nowhere", "<repo>") }}
	_, err := g.Run(context.Background(), "-c", "core.quotePath=false", "clone", "--quiet", "/nowhere/s3cr3t", "x")
	var ge *Error
	if !errors.As(err, &ge) || ge.Command != "clone" {
		t.Fatalf("error %v (%T), want a *gitx.Error of clone", err, err)
	}
	if msg := err.Error(); strings.Contains(msg, "s3cr3t") || strings.Contains(msg, "/nowhere") || !strings.Contains(msg, "<repo>/***") {
		t.Errorf("message %q: the secret or the raw path shows", msg)
	}
}

// Mask replaces the default *** where a caller shows secrets otherwise.
func TestScrubMask(t *testing.T) {
	for _, tc := range []struct {
		r    Runner
		want string
	}{
		{Runner{Secrets: []string{"t0k", ""}}, "Bearer *** of ***"},
		{Runner{Secrets: []string{"t0k"}, Mask: "****"}, "Bearer **** of ****"},
		{Runner{Secrets: []string{"t0k"}, Mask: "****", Rewrite: strings.ToUpper}, "BEARER **** OF ****"},
	} {
		if got := tc.r.Scrub("Bearer t0k of t0k"); got != tc.want {
			t.Errorf("Scrub with mask %q = %q, want %q", tc.r.Mask, got, tc.want)
		}
	}
}

// Configuration travels in the environment, and reaches git.
func TestConfig(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	g := &Runner{Dir: t.TempDir(), Config: [][2]string{{"http.https://example.com/.extraHeader", "Authorization: Bearer t0k"}, {"specgate.probe", "yes"}}}
	got, err := g.Run(context.Background(), "config", "--get", "specgate.probe")
	if err != nil || got != "yes" {
		t.Errorf("config %q (%v), want yes", got, err)
	}
	if args := strings.Join(g.Command(context.Background(), "fetch").Args, " "); strings.Contains(args, "t0k") {
		t.Errorf("the token is on the command line: %s", args)
	}
}

// A command that outlives the timeout is stopped and says so.
func TestTimeout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	g := &Runner{Dir: t.TempDir(), Timeout: 200 * time.Millisecond}
	start := time.Now()
	_, err := g.Run(context.Background(), "-c", "alias.slow=!sleep 5", "slow")
	if err == nil || !strings.Contains(err.Error(), "timed out after 200ms") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want a timeout", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestSubcommand(t *testing.T) {
	for args, want := range map[string]string{
		"-C dir -c a=b ls-tree -r": "ls-tree",
		"clone --depth 1":          "clone",
		"--version":                "--version",
	} {
		if got := subcommand(strings.Fields(args)); got != want {
			t.Errorf("subcommand(%s) = %s, want %s", args, got, want)
		}
	}
}
