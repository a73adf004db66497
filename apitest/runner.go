package apitest

import (
	"context"
	"iter"
	"sync"
	"time"
)

// Sink receives a run as it goes: Begin once, Result for every test in
// plan order (whatever the parallelism), End once. Its methods are called
// from one goroutine at a time; a slow sink slows the run down rather
// than letting results pile up in memory.
type Sink interface {
	Begin(info *RunInfo)
	Result(r *Result)
	End(s *Summary)
}

// RunInfo describes a run as it starts.
type RunInfo struct {
	Start   time.Time
	BaseURL string
	Seed    uint64
	Shard   Shard
	Specs   []SpecInfo
	// Total is the number of tests the run will send, or -1 when it was
	// not counted (Options.Count).
	Total int
	// Checks are the names of the checks that run.
	Checks []string
}

// SpecInfo is one spec of a run.
type SpecInfo struct {
	Name       string // as given
	Title      string // info.title
	Version    string // info.version
	Format     string // "OpenAPI 3.1.0"
	Operations int
	// BaseURL is where the spec's tests are sent; BaseURLFromServers is
	// set when it is the URL of the spec's first absolute server, no base
	// URL being given.
	BaseURL            string
	BaseURLFromServers bool
}

// Summary is a finished run.
type Summary struct {
	Start   time.Time
	Elapsed time.Duration
	Tests   int
	Passed  int
	Failed  int
	Skipped int
	// Retries counts the attempts after the first of every test.
	Retries int
	// Coverage is one entry per spec, in the order of the run's specs.
	Coverage []*Coverage
	// Interrupted is set when the run was cancelled before every test ran.
	Interrupted bool
}

// OK reports whether no test failed.
func (s *Summary) OK() bool { return s.Failed == 0 && !s.Interrupted }

func (s *Summary) add(r *Result) {
	s.Tests++
	s.Retries += r.Retries()
	switch r.Outcome {
	case Passed:
		s.Passed++
	case Failed:
		s.Failed++
	default:
		s.Skipped++
	}
}

// executor runs one test.
type executor func(ctx context.Context, t *Test) *Result

// runTests runs the tests of seq on parallel workers and hands each
// result to emit in the order of seq, numbering the tests (Test.Seq) as
// they come. At most a window of tests is in flight or waiting for an
// earlier one to finish, so memory stays bounded whatever the number of
// tests. When ctx is cancelled, no further test starts; the tests in
// flight finish (their requests are cancelled with ctx). It reports
// whether every test of seq ran.
func runTests(ctx context.Context, seq iter.Seq[*Test], parallel int, exec executor, emit func(*Result)) bool {
	parallel = max(parallel, 1)
	type done struct {
		seq int
		r   *Result
	}
	jobs := make(chan *Test)
	results := make(chan done, parallel)
	window := make(chan struct{}, 4*parallel)
	complete := true

	go func() {
		defer close(jobs)
		n := 0
		for t := range seq {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				complete = false
				return
			}
			t.Seq = n
			n++
			select {
			case jobs <- t:
			case <-ctx.Done():
				complete = false
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				r := exec(ctx, t)
				r.Test = t
				results <- done{t.Seq, r}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int]*Result{}
	next := 0
	for d := range results {
		pending[d.seq] = d.r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			emit(r)
			next++
			<-window
		}
	}
	// The producer wrote complete before closing jobs, which happened
	// before the workers ended and results closed.
	return complete
}
