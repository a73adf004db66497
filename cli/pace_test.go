package cli

import (
	"runtime"
	"runtime/debug"
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
