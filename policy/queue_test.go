package policy

import (
	"slices"
	"sync"
	"testing"
)

// Each worker starts at its own part of the list and goes on in order,
// then takes what is left after the others' starts, wrapping around.
func TestRuleQueueWorkerParts(t *testing.T) {
	q := newRuleQueue(10, 2)
	var got [2][]int
	take := func(w int) {
		i, ok := q.take(w)
		if !ok {
			t.Fatalf("worker %d found nothing left", w)
		}
		got[w] = append(got[w], i)
	}
	for range 3 {
		take(0)
		take(1)
	}
	if want := []int{0, 1, 2}; !slices.Equal(got[0], want) {
		t.Errorf("worker 0 took %v, want %v", got[0], want)
	}
	if want := []int{5, 6, 7}; !slices.Equal(got[1], want) {
		t.Errorf("worker 1 took %v, want %v", got[1], want)
	}
	// Worker 1 finishes its part, then wraps around to what worker 0
	// has not taken yet.
	for range 4 {
		take(1)
	}
	if want := []int{5, 6, 7, 8, 9, 3, 4}; !slices.Equal(got[1], want) {
		t.Errorf("worker 1 took %v, want %v", got[1], want)
	}
	for w := range 2 {
		if i, ok := q.take(w); ok {
			t.Errorf("worker %d took %d after every rule was taken", w, i)
		}
	}
}

// However the workers interleave, every rule is taken exactly once.
func TestRuleQueueTakesEachOnce(t *testing.T) {
	for _, c := range []struct{ rules, workers int }{{1, 1}, {3, 8}, {183, 2}, {183, 8}, {7, 3}} {
		q := newRuleQueue(c.rules, c.workers)
		counts := make([]int, c.rules)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range c.workers {
			wg.Go(func() {
				for {
					i, ok := q.take(w)
					if !ok {
						return
					}
					mu.Lock()
					counts[i]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		for i, n := range counts {
			if n != 1 {
				t.Errorf("%d rules, %d workers: rule %d taken %d times", c.rules, c.workers, i, n)
			}
		}
	}
}
