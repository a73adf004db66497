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
	testscript.Main(m, map[string]func(){
		"specgate": func() {
			os.Exit(cli.Main(context.Background(), os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
	})
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
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "testdata", "script"),
		Setup: func(e *testscript.Env) error {
			e.Setenv("CORPUS", corpus)
			e.Setenv("EXAMPLES", examples)
			e.Setenv("NO_COLOR", "1")
			return nil
		},
		RequireExplicitExec: true,
	})
}
