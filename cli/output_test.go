package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/cli"
)

// TestProgress checks the progress bar on a terminal's standard error: it
// counts the files, is erased at the end, and never reaches standard
// output. Off a terminal, and for a single file, nothing is drawn.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"a.yaml", "b.yaml", "c.yaml"} {
		path := filepath.Join(dir, name)
		spec := "openapi: 3.1.0\ninfo:\n  title: A\n  version: \"1\"\npaths: {}\n"
		if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	lint := func(terminal bool, inputs ...string) (stdout, stderr string) {
		var out, errs bytes.Buffer
		args := append([]string{"specgate", "lint", "--no-report", "--rule", "health-endpoint"}, inputs...)
		cli.Main(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errs, StderrIsTerminal: terminal,
			Getenv: func(string) string { return "" }})
		return out.String(), errs.String()
	}

	stdout, stderr := lint(true, files...)
	for _, want := range []string{"\r[..............................] 0/3 files", "\r[##############################] 3/3 files"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %q", want, stderr)
		}
	}
	if !strings.HasSuffix(stderr, "\r\x1b[K") {
		t.Errorf("the bar is not erased at the end: %q", stderr)
	}
	if strings.Contains(stdout, "files\r") || strings.Contains(stdout, "[#") || !strings.Contains(stdout, "3 files, 0 errors, 3 warnings") {
		t.Errorf("stdout = %q", stdout)
	}

	if _, stderr := lint(false, files...); stderr != "" {
		t.Errorf("progress off a terminal: %q", stderr)
	}
	if _, stderr := lint(true, files[0]); stderr != "" {
		t.Errorf("progress for one file: %q", stderr)
	}
}
