package main

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestMain lets the test binary serve as measure's helper, as the bench
// binary does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == measureFlag {
		measureHelper(os.Args[2:])
		return
	}
	os.Exit(m.Run())
}

// The helper passes the command's output and exit status through.
func TestMeasureRunsTheCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	m, err := measure([]string{"sh", "-c", `echo "out $X"; echo err >&2; exit 3`}, []string{"X=42"}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != "out 42\n" || stderr.String() != "err\n" {
		t.Errorf("stdout %q, stderr %q; want %q and %q", stdout.String(), stderr.String(), "out 42\n", "err\n")
	}
	if m.Exit != 3 || m.Wall <= 0 || m.RSSKiB <= 0 {
		t.Errorf("measured %+v; want exit 3 and a wall time and peak RSS", m)
	}
}

// A command that cannot start is an error, not a measurement.
func TestMeasureMissingCommand(t *testing.T) {
	_, err := measure([]string{"/nonexistent/linter"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/linter") {
		t.Fatalf("err = %v, want one naming the command", err)
	}
}

// A command's peak memory is its own, whatever the bench holds: forked
// from this process directly, a small command would report at least the
// 256 MiB held here.
func TestMeasurePeakIsTheCommands(t *testing.T) {
	held := make([]byte, 256<<20)
	for i := 0; i < len(held); i += 4096 {
		held[i] = 1 // each page touched, so resident
	}
	m, err := measure([]string{"sh", "-c", "exit 0"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	runtime.KeepAlive(held)
	if err != nil {
		t.Fatal(err)
	}
	if m.RSSKiB <= 0 || m.RSSKiB > 64<<10 {
		t.Errorf("sh's peak RSS measured as %d KiB; want its own few MiB", m.RSSKiB)
	}
}
