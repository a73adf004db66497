package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/cli"
)

// TestValidateInterrupted: a validate run whose context ends (SIGINT,
// SIGTERM) says so in one line and exits 2, instead of printing the
// cancellation once per file it did not reach.
func TestValidateInterrupted(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.proto", "b.proto", "c.proto"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("syntax = \"proto3\";\nmessage M { string s = 1; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := cli.Main(ctx, []string{"specgate", "validate", dir}, cli.Env{Stdout: &stdout, Stderr: &stderr})
	if code != cli.ExitUsage || stdout.String() != "" || stderr.String() != "specgate: interrupted: 0 of 3 files validated\n" {
		t.Errorf("exit %d\nstdout: %q\nstderr: %q", code, stdout.String(), stderr.String())
	}
}
