package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// StartupHeap is the memory a run may take before its first garbage
// collection (see HoldFirstCollection). The compiled rules of a lint run
// and a small spec's document take 10–20 MiB, all of it live.
const StartupHeap = 32 << 20

// pace holds the garbage collector off until the heap reaches a floor and
// then hands it back its settings. Go's collector starts at a 4 MiB heap
// goal and doubles it from there, so a run that allocates a few tens of
// megabytes of rules it keeps (every lint run) collects several times for
// nothing; on a small spec that is a fifth of the run's time.
type pace struct {
	mu   sync.Mutex
	held bool
	// The collector's settings before hold.
	percent int
	limit   int64
}

var startup pace

// HoldFirstCollection lets the process take floor bytes of memory before
// the first garbage collection; from that collection on, the collector
// runs at the pace GOGC and GOMEMLIMIT set. The first collection comes
// when the Go runtime's memory (heap, stacks and their bookkeeping)
// reaches the floor (Go's memory limit, set to floor meanwhile) or when a
// command calls for the usual pace (the lint server, which sets a memory
// limit of its own). A process whose environment sets GOGC or GOMEMLIMIT
// keeps those settings from the start. Call it once, first thing in main.
func HoldFirstCollection(floor int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	startup.hold(floor)
}

func (p *pace) hold(floor int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held {
		return
	}
	p.held = true
	p.percent = debug.SetGCPercent(-1)
	p.limit = debug.SetMemoryLimit(floor)
	// The sentinel is garbage from here on: the first collection finds
	// it and runs the cleanup. It holds a pointer so that it is not one
	// of the tiny objects the runtime batches together (their cleanups may
	// never run).
	runtime.AddCleanup(new(struct{ _ *byte }), func(p *pace) { p.resume() }, p)
}

// resume gives the collector back the settings it had before hold. It
// does nothing if the pace is not held.
func (p *pace) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.held {
		return
	}
	p.held = false
	debug.SetGCPercent(p.percent)
	debug.SetMemoryLimit(p.limit)
}
