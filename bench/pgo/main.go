// Command pgo writes default.pgo, the CPU profile that `go build` and `go
// run` optimize the specgate binary with (profile-guided optimization:
// https://go.dev/doc/pgo). It lints the specs of ../shared/corpus in this
// process, as `specgate lint --ruleset recommended` does, each a few
// times, under one CPU profile.
//
//	go run ./bench/pgo                 # writes default.pgo
//	go run ./bench/pgo -o /tmp/x.pgo -runs 1
//
// The profile steers inlining and devirtualization toward the code a lint
// run spends its time in (OPA's evaluation, YAML parsing, the input's
// build): 3–5% less CPU on the large specs of the corpus. Build it again
// when that code changes much; a stale profile still builds, and only
// optimizes less.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/specgate/specgate/bench/internal/prof"
	"github.com/specgate/specgate/cli"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "folder of specs")
	out := flag.String("o", "default.pgo", "profile to write")
	runs := flag.Int("runs", 3, "lint runs of each spec")
	flag.Parse()
	if err := run(*corpus, *out, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "pgo:", err)
		os.Exit(1)
	}
}

func run(corpus, out string, runs int) error {
	entries, err := os.ReadDir(corpus)
	if err != nil {
		return err
	}
	var specs []string
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".json", ".yaml", ".yml":
			specs = append(specs, filepath.Join(corpus, e.Name()))
		}
	}
	if len(specs) == 0 {
		return fmt.Errorf("no spec in %s", corpus)
	}
	stop, err := prof.StartCPU(out)
	if err != nil {
		return err
	}
	for range runs {
		for _, s := range specs {
			var stderr strings.Builder
			code := cli.Main(context.Background(),
				[]string{"specgate", "lint", "--ruleset", "recommended", "--format", "json", "--no-report", "--fail-severity", "off", s},
				cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr, Getenv: os.Getenv})
			if code != cli.ExitOK {
				stop()
				return fmt.Errorf("lint %s: exit %d: %s", s, code, stderr.String())
			}
		}
	}
	return stop()
}
