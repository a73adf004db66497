package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/specgate/specgate/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(ownCache{m}, map[string]func(){
		"specgate": func() {
			os.Exit(cli.Main(context.Background(), os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
	})
}

// ownCache runs the tests with a cache directory of their own, so that
// they neither read nor fill the user's: tests that run the CLI in process
// use the user cache directory, which XDG_CACHE_HOME moves.
type ownCache struct{ m *testing.M }

func (o ownCache) Run() int {
	dir, err := os.MkdirTemp("", "specgate-test-cache-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CACHE_HOME", dir)
	return o.m.Run()
}

// TestScripts runs the end-to-end scenarios in testdata/script: one
// .txtar file per scenario, with the real binary's behaviour, output files
// and exit codes.
func TestScripts(t *testing.T) {
	corpus, err := filepath.Abs(filepath.Join("..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir() // shared: the scripts read what earlier ones wrote
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "testdata", "script"),
		Setup: func(e *testscript.Env) error {
			e.Setenv("SPECGATE_CACHE_DIR", cache)
			e.Setenv("CORPUS", corpus)
			e.Setenv("EXAMPLES", examples)
			e.Setenv("NO_COLOR", "1")
			return nil
		},
		RequireExplicitExec: true,
	})
}
