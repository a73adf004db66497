package linter

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/specgate/specgate/spec"
)

// gcSettings reads the collector's percent and memory limit.
func gcSettings() (int, int64) {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// wantGC fails the test unless the collector's percent and memory limit
// are percent and limit.
func wantGC(t *testing.T, when string, percent int, limit int64) {
	t.Helper()
	if gotPercent, gotLimit := gcSettings(); gotPercent != percent || gotLimit != limit {
		t.Fatalf("%s: GC percent %d, memory limit %d; want %d and %d", when, gotPercent, gotLimit, percent, limit)
	}
}

func TestPaceResumesAtFirstCollection(t *testing.T) {
	percent, limit := gcSettings()
	const floor = 1 << 40 // no collection comes from the heap's size here
	var p pace
	p.hold(floor)
	t.Cleanup(p.resume)
	wantGC(t, "held", -1, floor)
	collectUntilResumed(t, "after a collection", percent, limit)
}

// collectUntilResumed collects garbage until the collector has percent
// and limit again, and fails the test if it does not within ten seconds.
// The cleanup that resumes a pace runs on its own goroutine after the
// collection that finds the sentinel.
func collectUntilResumed(t *testing.T, when string, percent int, limit int64) {
	t.Helper()
	runtime.GC()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if gotPercent, gotLimit := gcSettings(); gotPercent == percent && gotLimit == limit {
			return
		}
		runtime.GC()
	}
	gotPercent, gotLimit := gcSettings()
	t.Fatalf("%s: GC percent %d, memory limit %d; want %d and %d", when, gotPercent, gotLimit, percent, limit)
}

// A collection asked for while the pace is held keeps the hold (the
// sentinel it finds does not resume), and the next one resumes it.
func TestPaceCollectKeepsTheHold(t *testing.T) {
	percent, limit := gcSettings()
	const floor = 1 << 40
	var p pace
	p.hold(floor)
	t.Cleanup(p.resume)
	// A cleanup queued with the sentinel's: once it has run, so has the
	// sentinel's, give or take a moment.
	found := make(chan struct{})
	runtime.AddCleanup(new(struct{ _ *byte }), func(ch chan struct{}) { close(ch) }, found)
	p.collect()
	select {
	case <-found:
	case <-time.After(10 * time.Second):
		t.Fatal("the collection found no garbage")
	}
	time.Sleep(50 * time.Millisecond)
	wantGC(t, "collected while held", -1, floor)
	collectUntilResumed(t, "after the collection that followed collect", percent, limit)
}

func TestPaceResumesOnRequest(t *testing.T) {
	percent, limit := gcSettings()
	var p pace
	p.hold(1 << 40)
	p.resume()
	wantGC(t, "resumed", percent, limit)
	// What the collector is given after resume stays: a later resume
	// (the cleanup's, at the next collection) changes nothing.
	debug.SetGCPercent(150)
	defer debug.SetGCPercent(percent)
	p.resume()
	if gotPercent, _ := gcSettings(); gotPercent != 150 {
		t.Fatalf("a second resume set GC percent %d, want 150 kept", gotPercent)
	}
}

// heldPace returns a pace held at floor and the memory limit before it;
// the test's end resumes the pace and restores the collector's settings.
func heldPace(t *testing.T, floor int64) (*pace, int64) {
	percent, limit := gcSettings()
	p := &pace{}
	p.hold(floor)
	t.Cleanup(func() {
		p.resume()
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	return p, limit
}

func TestPaceSettlesNowAboveTheFloor(t *testing.T) {
	p, limit := heldPace(t, 1<<40)
	p.raise(1 << 41)
	wantGC(t, "raised", -1, 1<<41)
	p.raise(1 << 40) // no lower
	wantGC(t, "raised to a lower floor", -1, 1<<41)
	p.settle(1, 75) // the process holds more than a byte
	wantGC(t, "settled above the floor", 75, limit)
}

func TestPaceSettlesLaterBelowTheFloor(t *testing.T) {
	p, limit := heldPace(t, 1<<41)
	p.settle(1<<40, 75) // more than the process holds
	wantGC(t, "settled below the floor", -1, 1<<40)
	p.resume() // as the first collection does
	wantGC(t, "resumed", 75, limit)
}

func TestPaceNotHeldIgnoresRaiseAndSettle(t *testing.T) {
	percent, limit := gcSettings()
	defer debug.SetGCPercent(percent)
	var p pace
	p.raise(1 << 40)
	p.settle(1, 75)
	wantGC(t, "not held", percent, limit)
	// Nor one resumed on request, as a server does.
	p.hold(1 << 40)
	p.resume()
	p.settle(1, 75)
	wantGC(t, "resumed on request", percent, limit)
}

// A pace that its first collection resumed (a large spec's input took
// more than its floor) runs the evaluation at the percent settled.
func TestPaceSettlesAfterTheFirstCollection(t *testing.T) {
	percent, limit := gcSettings()
	defer debug.SetGCPercent(percent)
	var p pace
	p.hold(1 << 40)
	t.Cleanup(p.resume)
	collectUntilResumed(t, "after a collection", percent, limit)
	p.settle(1<<40, 75)
	wantGC(t, "settled after the first collection", 75, limit)
}

// A preloaded spec holds the collector while it loads, and its Take
// settles the pace as the evaluation starts: resumed, or held to a floor
// of at least StartupHeap (EvalHeadroom above the heap it starts with).
func TestTakeSettlesTheLoadingHold(t *testing.T) {
	percent, limit := gcSettings()
	t.Cleanup(func() {
		startup.resume()
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	// A pace before the hold unlike EvalPercent, so that the one Take
	// settles shows.
	debug.SetGCPercent(EvalPercent / 2)
	startup.hold(1 << 40)
	p := Preload(context.Background(), spec.NewLoader(spec.Options{}), []string{"../examples/petstore.yaml"})
	if _, input, ok, err := p.take("../examples/petstore.yaml"); !ok || err != nil || input == nil {
		t.Fatalf("take: input %v, %v, %v; want an input", input != nil, ok, err)
	}
	gotPercent, gotLimit := gcSettings()
	startup.mu.Lock()
	held, resumeWith := startup.held, startup.percent
	startup.mu.Unlock()
	switch {
	case held && (gotLimit < StartupHeap || resumeWith != EvalPercent):
		t.Errorf("still held with memory limit %d, resuming at GC percent %d; want at least %d and %d", gotLimit, resumeWith, StartupHeap, EvalPercent)
	case !held && (gotPercent != EvalPercent || gotLimit != limit):
		t.Errorf("resumed at GC percent %d, memory limit %d; want %d and %d", gotPercent, gotLimit, EvalPercent, limit)
	}
}

// With 64 MiB live, the evaluation may allocate at least half of it, and
// less than double the process, before its first collection.
func TestEvalFloorLeavesHeadroom(t *testing.T) {
	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, 1<<20))
	}
	mem, floor := goMemory(), evalFloor()
	runtime.KeepAlive(live)
	if floor < mem+32<<20 || floor >= 2*mem {
		t.Errorf("first collection at %d MiB with %d MiB held; want %d MiB more at least, and less than double", floor>>20, mem>>20, 32)
	}
}

// A spec's evaluation runs at the default pace, at LargeEvalPercent from
// LargeSpec bytes, and at HugeEvalPercent from HugeSpec, where its node
// tree goes while the rules run (github.json, 13 MB, keeps 75; Graph
// v1.0, 20 MB, and beta, 47 MB, run at 50).
func TestEvalPercentBySize(t *testing.T) {
	for _, tc := range []struct {
		size int64
		want int
	}{
		{0, EvalPercent},
		{LargeSpec - 1, EvalPercent},
		{LargeSpec, LargeEvalPercent},
		{13_001_822, LargeEvalPercent},
		{HugeSpec - 1, LargeEvalPercent},
		{HugeSpec, HugeEvalPercent},
		{47_125_053, HugeEvalPercent},
	} {
		if got := evalPercent(tc.size); got != tc.want {
			t.Errorf("evalPercent(%d) = %d, want %d", tc.size, got, tc.want)
		}
	}
	if leanFrom != HugeSpec {
		t.Errorf("the node tree goes from %d bytes, the evaluation runs at HugeEvalPercent from %d; want them alike", leanFrom, HugeSpec)
	}
}
