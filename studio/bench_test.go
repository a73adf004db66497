package studio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCorpusCheckTimes checks every spec of ../shared/corpus the way the
// page does after an edit, and logs each stage's time: the numbers of
// docs/architecture-notes.md. It runs with SPECGATE_STUDIO_CORPUS=1 (a
// minute on two cores).
func TestCorpusCheckTimes(t *testing.T) {
	if os.Getenv("SPECGATE_STUDIO_CORPUS") == "" {
		t.Skip("set SPECGATE_STUDIO_CORPUS=1 to time the checks of the corpus's specs")
	}
	corpus, _ := filepath.Glob("../../shared/corpus/*.*")
	dir := t.TempDir()
	s, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.checker.warm(ctx)
	for _, src := range corpus {
		if strings.HasSuffix(src, ".md") {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(src)
		writeFile(t, dir, name, string(data))
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
