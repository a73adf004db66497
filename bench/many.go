package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// runMany measures issue 9's "many files" case: specgate linting a folder
// of n specifications in one run (every core, one compiled rule set)
// against n separate runs, extrapolated from a sample of them. The
// specifications are the built-in rules' fixtures (every format, valid
// and broken), copied until there are n.
func runMany(bin string, n int) error {
	fixtures, err := filepath.Glob(filepath.Join("rules", "*", "testdata", "*.yaml"))
	if err != nil || len(fixtures) == 0 {
		return fmt.Errorf("no fixtures under rules/*/testdata (run from the repository root)")
	}
	dir, err := os.MkdirTemp("", "specgate-many-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files := make([]string, n)
	for i := range n {
		data, err := os.ReadFile(fixtures[i%len(fixtures)])
		if err != nil {
			return err
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("spec-%04d.yaml", i))
		if err := os.WriteFile(files[i], data, 0o644); err != nil {
			return err
		}
	}
	lint := func(args ...string) (measurement, error) {
		argv := append([]string{bin, "lint", "--ruleset", "recommended", "--no-report", "--format", "json"}, args...)
		return measure(argv, nil, io.Discard, io.Discard)
	}
	// One warm-up run fills specgate's cache of compiled rules, as any
	// earlier run on the machine would have.
	if _, err := lint(files[0]); err != nil {
		return err
	}
	folder, err := lint(dir)
	if err != nil {
		return err
	}
	wall := folder.Wall
	sample := min(n, 50)
	var each time.Duration
	for _, f := range files[:sample] {
		m, err := lint(f)
		if err != nil {
			return err
		}
		each += m.Wall
	}
	separate := each * time.Duration(n) / time.Duration(sample)
	fmt.Printf("Machine: %d CPUs, %s/%s.\n\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("| %d specs | wall | CPU / wall | peak RSS |\n|---|---|---|---|\n", n)
	fmt.Printf("| one run on the folder | %.2f s | %.1f cores | %d MiB |\n", wall.Seconds(), folder.CPU.Seconds()/wall.Seconds(), folder.RSSKiB>>10)
	fmt.Printf("| %d separate runs (from %d) | %.2f s | | |\n", n, sample, separate.Seconds())
	fmt.Printf("\nThe folder run is %.0f× faster.\n", separate.Seconds()/wall.Seconds())
	return nil
}
