package apitest

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// numbered yields n tests named by their position.
func numbered(n int, made *atomic.Int32) iter.Seq[*Test] {
	return func(yield func(*Test) bool) {
		for i := range n {
			if made != nil {
				made.Add(1)
			}
			if !yield(&Test{Path: fmt.Sprintf("/t/%d", i), Method: "GET", Status: "200", Kind: Generated}) {
				return
			}
		}
	}
}

func TestRunTestsKeepsPlanOrder(t *testing.T) {
	for _, parallel := range []int{1, 3, 8} {
		var inFlight, peak atomic.Int32
		exec := func(ctx context.Context, tt *Test) *Result {
			n := inFlight.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			inFlight.Add(-1)
			return &Result{Outcome: Passed, Status: 200}
		}
		var got []string
		complete := runTests(context.Background(), numbered(200, nil), parallel, exec, func(r *Result) {
			got = append(got, r.Test.Path)
			if r.Test.Seq != len(got)-1 {
				t.Fatalf("result %d carries Seq %d", len(got)-1, r.Test.Seq)
			}
		})
		if !complete || len(got) != 200 {
			t.Fatalf("parallel %d: complete %v, %d results", parallel, complete, len(got))
		}
		for i, p := range got {
			if p != fmt.Sprintf("/t/%d", i) {
				t.Fatalf("parallel %d: result %d is %s", parallel, i, p)
			}
		}
		if int(peak.Load()) > parallel {
			t.Errorf("parallel %d: %d tests ran at once", parallel, peak.Load())
		}
		if parallel > 1 && peak.Load() < 2 {
			t.Errorf("parallel %d: tests never overlapped", parallel)
		}
	}
}

// TestRunTestsBoundsTheWindow makes the first test slow: the plan is not
// read further than the window ahead of it, so a large plan is never held
// in memory.
func TestRunTestsBoundsTheWindow(t *testing.T) {
	var made atomic.Int32
	release := make(chan struct{})
	var madeWhileBlocked int32
	exec := func(ctx context.Context, tt *Test) *Result {
		if tt.Seq == 0 {
			time.Sleep(50 * time.Millisecond)
			madeWhileBlocked = made.Load()
			close(release)
		} else {
			<-release
		}
		return &Result{Outcome: Passed}
	}
	n := 0
	runTests(context.Background(), numbered(10_000, &made), 2, exec, func(*Result) { n++ })
	if n != 10_000 {
		t.Fatalf("%d results", n)
	}
	if madeWhileBlocked > 4*2+2 {
		t.Errorf("%d tests were generated while the first was running; the window is %d", madeWhileBlocked, 4*2)
	}
}

func TestRunTestsStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exec := func(ctx context.Context, tt *Test) *Result {
		if tt.Seq == 5 {
			cancel()
		}
		return &Result{Outcome: Passed}
	}
	n := 0
	complete := runTests(ctx, numbered(1000, nil), 2, exec, func(*Result) { n++ })
	if complete {
		t.Error("a cancelled run reports that every test ran")
	}
	if n < 6 || n > 6+4*2 {
		t.Errorf("%d results after cancelling at the sixth", n)
	}
}
