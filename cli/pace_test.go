package cli

import (
	"bytes"
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// gcSettings reads the collector's percent and memory limit.
func gcSettings() (int, int64) {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestPaceResumesAtFirstCollection(t *testing.T) {
	percent, limit := gcSettings()
	const floor = 1 << 40 // no collection comes from the heap's size here
	var p pace
	p.hold(floor)
	t.Cleanup(p.resume)
	if gotPercent, gotLimit := gcSettings(); gotPercent != -1 || gotLimit != floor {
		t.Fatalf("held: GC percent %d, memory limit %d; want -1 and %d", gotPercent, gotLimit, floor)
	}
	// The cleanup that resumes runs on its own goroutine after the
	// collection that finds the sentinel.
	runtime.GC()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if gotPercent, gotLimit := gcSettings(); gotPercent == percent && gotLimit == limit {
			return
		}
		runtime.GC()
	}
	gotPercent, gotLimit := gcSettings()
	t.Fatalf("after a collection: GC percent %d, memory limit %d; want %d and %d", gotPercent, gotLimit, percent, limit)
}

func TestPaceResumesOnRequest(t *testing.T) {
	percent, limit := gcSettings()
	var p pace
	p.hold(1 << 40)
	p.resume()
	if gotPercent, gotLimit := gcSettings(); gotPercent != percent || gotLimit != limit {
		t.Fatalf("resumed: GC percent %d, memory limit %d; want %d and %d", gotPercent, gotLimit, percent, limit)
	}
	// What the collector is given after resume stays: a later resume
	// (the cleanup's, at the next collection) changes nothing.
	debug.SetGCPercent(150)
	defer debug.SetGCPercent(percent)
	p.resume()
	if gotPercent, _ := gcSettings(); gotPercent != 150 {
		t.Fatalf("a second resume set GC percent %d, want 150 kept", gotPercent)
	}
}

func TestPaceSettlesNowAboveTheFloor(t *testing.T) {
	percent, limit := gcSettings()
	defer debug.SetGCPercent(percent)
	var p pace
	p.hold(1 << 40)
	t.Cleanup(p.resume)
	p.raise(1 << 41)
	if gotPercent, gotLimit := gcSettings(); gotPercent != -1 || gotLimit != 1<<41 {
		t.Fatalf("raised: GC percent %d, memory limit %d; want -1 and %d", gotPercent, gotLimit, int64(1<<41))
	}
	p.settle(1, 75) // the process holds more than a byte
	if gotPercent, gotLimit := gcSettings(); gotPercent != 75 || gotLimit != limit {
		t.Fatalf("settled above the floor: GC percent %d, memory limit %d; want 75 and %d", gotPercent, gotLimit, limit)
	}
}

func TestPaceSettlesLaterBelowTheFloor(t *testing.T) {
	percent, limit := gcSettings()
	defer debug.SetGCPercent(percent)
	var p pace
	p.hold(1 << 41)
	t.Cleanup(p.resume)
	p.settle(1<<40, 75) // more than the process holds
	if gotPercent, gotLimit := gcSettings(); gotPercent != -1 || gotLimit != 1<<40 {
		t.Fatalf("settled below the floor: GC percent %d, memory limit %d; want -1 and %d", gotPercent, gotLimit, int64(1<<40))
	}
	p.resume() // as the first collection does
	if gotPercent, gotLimit := gcSettings(); gotPercent != 75 || gotLimit != limit {
		t.Fatalf("resumed: GC percent %d, memory limit %d; want 75 and %d", gotPercent, gotLimit, limit)
	}
}

func TestPaceNotHeldIgnoresRaiseAndSettle(t *testing.T) {
	percent, limit := gcSettings()
	defer debug.SetGCPercent(percent)
	var p pace
	p.raise(1 << 40)
	p.settle(1, 75)
	if gotPercent, gotLimit := gcSettings(); gotPercent != percent || gotLimit != limit {
		t.Fatalf("not held: GC percent %d, memory limit %d; want %d and %d kept", gotPercent, gotLimit, percent, limit)
	}
}

// A lint run of one spec holds the collector while the spec loads and
// settles its pace as the evaluation starts.
func TestLintSettlesTheLoadingHold(t *testing.T) {
	percent, limit := gcSettings()
	t.Cleanup(func() {
		startup.resume()
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	startup.hold(1 << 40)
	getenv := func(k string) string {
		if k == "SPECGATE_CACHE_DIR" {
			return "off"
		}
		return ""
	}
	var out bytes.Buffer
	code := Main(context.Background(), []string{"specgate", "lint", "--no-report", "../examples/petstore.yaml"},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: getenv})
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	gotPercent, gotLimit := gcSettings()
	startup.mu.Lock()
	held, resumeWith := startup.held, startup.percent
	startup.mu.Unlock()
	switch {
	case held && (gotLimit != StartupHeap || resumeWith != EvalPercent):
		t.Errorf("still held with memory limit %d, resuming at GC percent %d; want %d and %d", gotLimit, resumeWith, StartupHeap, EvalPercent)
	case !held && (gotPercent != EvalPercent || gotLimit != limit):
		t.Errorf("resumed at GC percent %d, memory limit %d; want %d and %d", gotPercent, gotLimit, EvalPercent, limit)
	}
}
