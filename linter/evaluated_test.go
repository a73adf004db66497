package linter

import (
	"runtime/metrics"
	"testing"
)

// forcedCollections counts the collections asked for (runtime.GC).
func forcedCollections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestEvaluatedCollectsALargeHeap checks that the end of a preloaded
// spec's evaluation is followed by a collection when the heap holds more
// than the bound, and not when it holds less, while the first collection
// is held, or when the spec was not preloaded (one of a folder's).
func TestEvaluatedCollectsALargeHeap(t *testing.T) {
	for _, tc := range []struct {
		name    string
		taken   bool
		held    bool
		above   int64
		collect bool
	}{
		{"large heap", true, false, 0, true},
		{"small heap", true, false, 1 << 50, false},
		{"held", true, true, 0, false},
		{"not preloaded", false, false, 0, false},
	} {
		var p pace
		if tc.held {
			p.hold(1 << 40)
		}
		// A collection another test's goroutine asks for meanwhile
		// would count as one: none is wanted in three tries.
		got := true
		for try := 0; try < 3 && got; try++ {
			if tc.taken {
				p.take()
			}
			before := forcedCollections()
			p.evaluated(tc.above)
			got = forcedCollections() > before
			if tc.collect {
				break
			}
		}
		if got != tc.collect {
			t.Errorf("%s: collected %v, want %v", tc.name, got, tc.collect)
		}
		p.resume()
	}
}
