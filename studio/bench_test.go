package studio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/internal/filetest"
)

// TestCorpusCheckTimes checks every spec of ../shared/corpus the way the
// page does after an edit, and logs each stage's time: the numbers of
// docs/architecture-notes.md. It runs with SPECGATE_STUDIO_CORPUS=1 (a
// minute on two cores).
func TestCorpusCheckTimes(t *testing.T) {
	if os.Getenv("SPECGATE_STUDIO_CORPUS") == "" {
		t.Skip("set SPECGATE_STUDIO_CORPUS=1 to time the checks of the corpus's specs")
	}
	corpus := corpusspecs.Files("../../shared/corpus")
	dir := t.TempDir()
	s, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.checker.warm(ctx)
	for _, src := range corpus {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(src)
		filetest.File(t, dir, name, string(data))
		if _, err := s.Check(ctx, name, data); err != nil { // the first check of a file
			t.Fatal(err)
		}
		edited := append([]byte(nil), data...)
		edited = append(edited, '\n')
		start, cpu := time.Now(), cpuTime()
		stages, err := s.Check(ctx, name, edited)
		if err != nil {
			t.Fatal(err)
		}
		total, used := time.Since(start), cpuTime()-cpu
		var parts []string
		for _, st := range stages {
			parts = append(parts, st.Stage+" "+time.Duration(st.MS*int64(time.Millisecond)).String())
		}
		t.Logf("%-32s %6d KB  total %-8v cpu %-8v %s", name, len(data)>>10, total.Round(time.Millisecond), used.Round(time.Millisecond), strings.Join(parts, ", "))
		for _, st := range stages {
			if st.Stage == "lint" || st.Stage == "parse" && len(st.Diagnostics) > 0 {
				t.Logf("  %s %s %d", st.Stage, st.Note, len(st.Diagnostics))
			}
		}
	}
}

// cpuTime is the CPU time the process has used: on a shared machine the
// wall time of a check says more about the other jobs than about it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCorpusExport exports the inline examples of the corpus's specs that
// have them, removing them from the spec, and requires the spec to load
// and validate as before, with no inline example left that the export
// wrote, and each written file to be a valid example. It runs with
// SPECGATE_STUDIO_CORPUS=1.
func TestCorpusExport(t *testing.T) {
	if os.Getenv("SPECGATE_STUDIO_CORPUS") == "" {
		t.Skip("set SPECGATE_STUDIO_CORPUS=1 to export the corpus's inline examples")
	}
	for _, name := range []string{"openai.yaml", "twilio-api-v2010.json", "uspto.yaml"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../shared/corpus", name))
			if err != nil {
				t.Skip(err)
			}
			dir := t.TempDir()
			filetest.File(t, dir, name, string(data))
			c := start(t, dir)
			before := c.check(name, string(data))
			plan := c.act("export-examples", SpecParams{Spec: name, Remove: true})
			files := 0
			for _, ch := range plan.Changes {
				if ch.Op == "create" {
					files++
				}
			}
			after := c.check(name, c.read(name))
			if len(after["parse"].Diagnostics) > 0 {
				t.Fatalf("the spec no longer parses: %v", after["parse"].Diagnostics[0])
			}
			if n, m := len(before["validate"].Diagnostics), len(after["validate"].Diagnostics); m > n {
				t.Errorf("validate: %d problems before, %d after; first new: %+v", n, m, after["validate"].Diagnostics[n:][0])
			}
			// The files say what the inline examples said, no more: each
			// message (without its place) was a message of an inline one.
			what := func(d Diagnostic) string {
				msg, _, _ := strings.Cut(d.Message, " (at ")
				if _, rest, ok := strings.Cut(msg, ": "); ok {
					msg = rest // the JSON path, which the two write differently
				}
				return msg
			}
			said := map[string]bool{}
			for _, d := range before["examples"].Diagnostics {
				said[what(d)] = true
			}
			for _, d := range after["examples"].Diagnostics {
				msg := what(d)
				if d.File != name && !said[msg] {
					t.Errorf("%s:%d: a finding the inline example did not have: %s %s", d.File, d.Line, d.Rule, d.Message)
				}
			}
			for i, n := range plan.Notes {
				if i < 6 {
					t.Log(n)
				}
			}
			t.Logf("%s: %d files written; examples note before %q, after %q; %d notes", name, files, before["examples"].Note, after["examples"].Note, len(plan.Notes))

			// And back: the files are imported into the spec again, which
			// still loads and validates as before.
			plan = c.act("import-examples", SpecParams{Spec: name, Remove: true})
			again := c.check(name, c.read(name))
			if len(again["parse"].Diagnostics) > 0 {
				t.Fatalf("the spec no longer parses after the import: %v", again["parse"].Diagnostics[0])
			}
			if n, m := len(before["validate"].Diagnostics), len(again["validate"].Diagnostics); m > n {
				t.Errorf("validate after the import: %d problems before, %d after; first new: %+v", n, m, again["validate"].Diagnostics[n:][0])
			}
			t.Logf("%s: %s; examples note %q; %d notes", name, plan.Summary, again["examples"].Note, len(plan.Notes))
		})
	}
}
