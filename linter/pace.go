package linter

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/specgate/specgate/internal/gomem"
)

// StartupHeap is the memory a run may take before its first garbage
// collection (see HoldFirstCollection): above what the compiled rules of a
// lint run and a small spec's document take, all of it live.
const StartupHeap = 32 << 20

// LoadHeap is the memory a lint run of one spec may take before its first
// garbage collection while the spec is parsed and its input built: it is
// the document, the input and the garbage of parsing (see Preload and
// Preloaded.Take). Collections along the way would mark a growing heap that is
// all live; a spec that takes more than LoadHeap is collected on the way,
// at the usual pace.
//
// The garbage of parsing (a quarter to a half of a parsed spec's heap) is
// collected once the document is parsed, if the heap holds more than
// ParsedHeap: that collection marks the document alone, where one as the
// evaluation starts would mark the document and the input while the rules
// run. The evaluation then starts with a heap that is nearly all live, and
// its first collection comes once it has allocated EvalHeadroom percent of
// that (docs/architecture-notes.md has the measurements).
const LoadHeap = 256 << 20

// InputHeap is what the building of a spec's views and OPA input may
// allocate before a collection, in multiples of the spec's bytes, above
// the heap its parsed document leaves. Nearly all of it stays live, so a
// collection on the way would mark a growing heap of live values for
// nothing; a spec whose input takes more is collected on the way, at the
// usual pace.
const InputHeap = 24

// ParsedHeap is the heap a parsed spec leaves (its document and the
// garbage of parsing) above which that garbage is collected before the
// input is built (see LoadHeap); a small spec's is a few MiB, which the
// collection would only slow down.
const ParsedHeap = 16 << 20

// EvalHeadroom is what the evaluation of a spec whose loading was held may
// allocate before its first collection, in percent of the heap it starts
// with. The heap then peaks where a collection as the evaluation starts
// and the EvalPercent pace took it.
const EvalHeadroom = 50

// evalFloor is the memory at which the first collection of an evaluation
// comes: EvalHeadroom above the heap it starts with, or StartupHeap.
func evalFloor() int64 {
	return max(StartupHeap, goMemory()+heapObjects()*EvalHeadroom/100)
}

// EvalPercent is the collector's pace (GOGC) during the evaluation of a
// spec whose loading was held, from its first collection on: the heap may
// grow by as much as is live, Go's default: a slower pace collected more
// often near the evaluation's end for little less peak memory.
const EvalPercent = 100

// LargeEvalPercent is the collector's pace during the evaluation of a
// spec of LargeSpec bytes or more. Nearly all of such a heap is the
// input, live to the evaluation's end, and the default pace let the heap
// grow to twice it; at 75 the peak is lower for the same CPU (see
// docs/architecture-notes.md).
const LargeEvalPercent = 75

// LargeSpec is the size from which a spec is evaluated at
// LargeEvalPercent: where its input outgrows LoadHeap.
const LargeSpec = 8 << 20

// HugeEvalPercent is the collector's pace during the evaluation of a spec
// of HugeSpec bytes or more, whose node tree is let go while its rules run
// (see lean), so that the input is nearly all its heap: there 50 rather
// than 75 lowers the peak for a few percent more CPU, where a spec whose
// tree is kept paid more CPU for no less memory (see
// docs/architecture-notes.md).
const HugeEvalPercent = 50

// HugeSpec is the size from which a spec is evaluated at HugeEvalPercent:
// where its node tree goes while the rules run (see leanFrom).
const HugeSpec = 2 * LargeSpec

// SweptSpec is the size from which lintLean collects the garbage of the
// input's build and the dropped views before the rules start: left to the
// pace, such a spec's heap peaks just before its tree is released, with
// the tree, the input and that garbage all in it. On a smaller spec the
// collection costs more CPU than the memory it saves is worth (see
// docs/architecture-notes.md).
const SweptSpec = 2 * HugeSpec

// evalPercent is the collector's pace during the evaluation of a spec of
// size bytes whose loading was held.
func evalPercent(size int64) int {
	switch {
	case size >= HugeSpec:
		return HugeEvalPercent
	case size >= LargeSpec:
		return LargeEvalPercent
	}
	return EvalPercent
}

// pace holds the garbage collector off until the heap reaches a floor and
// then hands it back its settings. Go's collector starts at a 4 MiB heap
// goal and doubles it from there, so a run that allocates a few tens of
// megabytes of rules it keeps (every lint run) collects several times for
// nothing; on a small spec that is a fifth of the run's time.
type pace struct {
	mu   sync.Mutex
	held bool
	// gen counts the holds' sentinels: a cleanup resumes the pace only
	// if its sentinel is the latest (see collect).
	gen int
	// The collector's settings before hold.
	percent int
	limit   int64
	// managed is set while the pace is this process's: held, or resumed
	// by the first collection (not by ResumePace, nor set by GOGC).
	managed bool
	// taken is set from a preloaded spec's Take to the end of its
	// evaluation (see evaluated).
	taken bool
}

var startup pace

// HoldFirstCollection lets the process take floor bytes of memory before
// the first garbage collection; from that collection on, the collector
// runs at the pace GOGC and GOMEMLIMIT set. The first collection comes
// when the Go runtime's memory (heap, stacks and their bookkeeping)
// reaches the floor (Go's memory limit, set to floor meanwhile) or when a
// command calls for the usual pace (ResumePace: the lint server, which sets
// a memory limit of its own); a collection asked for meanwhile (collect)
// keeps the hold. A process whose environment sets GOGC or GOMEMLIMIT
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
	p.managed = true
	p.percent = debug.SetGCPercent(-1)
	p.limit = debug.SetMemoryLimit(floor)
	p.sentinel()
}

// sentinel makes the next collection resume the pace. The sentinel is
// garbage from here on: the first collection finds it and runs the
// cleanup. It holds a pointer so that it is not one of the tiny objects
// the runtime batches together (their cleanups may never run).
func (p *pace) sentinel() {
	p.gen++
	runtime.AddCleanup(new(struct{ _ *byte }), func(s sentinelOf) { s.p.resumeAt(s.gen) }, sentinelOf{p, p.gen})
}

// sentinelOf is what a sentinel's cleanup is given: its pace and which
// sentinel it was.
type sentinelOf struct {
	p   *pace
	gen int
}

// resumeAt resumes the pace if sentinel gen is the latest.
func (p *pace) resumeAt(gen int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if gen == p.gen {
		p.resumeLocked()
	}
}

// collect collects garbage now and keeps the pace held: the next
// collection still comes at the floor, and resumes the pace. It does
// nothing if the pace is not held.
func (p *pace) collect() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.held {
		return
	}
	// The collection finds the sentinel; its cleanup waits for the lock,
	// and then finds a newer one.
	runtime.GC()
	p.sentinel()
}

// raise moves the floor of a held pace up to floor: the heap may grow to
// floor before the first collection. It does nothing if the pace is not
// held or its floor is higher already.
func (p *pace) raise(floor int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held && floor > debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(floor)
	}
}

// settle sets the pace the collector resumes with (GOGC percent) and
// moves the floor of a held pace to floor. If the process holds more
// than that, the pace resumes now, which starts the first collection (a
// memory limit below the live heap would have the collector run again and
// again); else the first collection comes at floor. If the first
// collection has come already (a large spec's input outgrew its floor),
// the collector runs at percent from now on. It does nothing if the pace
// was never held or was resumed on request.
func (p *pace) settle(floor int64, percent int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.held {
		if p.managed {
			debug.SetGCPercent(percent)
		}
		return
	}
	p.percent = percent
	if goMemory() >= floor {
		p.resumeLocked()
		return
	}
	debug.SetMemoryLimit(floor)
}

// EvaluatedHeap is the heap above which the end of an evaluation is
// followed by a collection (see evaluated).
const EvaluatedHeap = LoadHeap

// evaluated is called once a spec's rules have run. If the spec was
// preloaded (a run of one spec, see Preloaded.Take), its input and the
// rules' shared values, most of a large spec's heap, are garbage from
// then on; collected now, their memory is what locating the findings and
// writing the report allocate in, where the collector's pace let the heap
// grow on top of them. The collection marks the document and the
// findings only. It
// does nothing for the specs of a folder (whose heap holds the others'
// inputs), below EvaluatedHeap, or while the first collection is held.
func evaluated() { startup.evaluated(EvaluatedHeap) }

func (p *pace) evaluated(above int64) {
	p.mu.Lock()
	held, taken := p.held, p.taken
	p.taken = false
	p.mu.Unlock()
	if taken && !held && heapObjects() > above {
		runtime.GC()
	}
}

// take notes that a preloaded spec is about to be evaluated.
func (p *pace) take() {
	p.mu.Lock()
	p.taken = true
	p.mu.Unlock()
}

// goMemory is the memory Go's runtime holds, as its memory limit counts
// it (preload.go reads it too).
var goMemory = gomem.InUse

// heapObjects is the memory of the heap's objects, live or not yet
// swept.
func heapObjects() int64 {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	return int64(samples[0].Value.Uint64())
}

// ResumePace gives the collector back the pace GOGC and GOMEMLIMIT set,
// now, if HoldFirstCollection holds it: a server, which sets a memory
// limit of its own or runs for long, calls it as it starts.
func ResumePace() { startup.resume() }

// resume gives the collector back the settings it had before hold (or
// the percent settle set). It does nothing if the pace is not held.
func (p *pace) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.resumeLocked()
	p.managed = false
}

func (p *pace) resumeLocked() {
	if !p.held {
		return
	}
	p.held = false
	debug.SetGCPercent(p.percent)
	debug.SetMemoryLimit(p.limit)
}
