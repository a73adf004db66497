package server

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
)

// TestMemoryEstimate checks the estimate the memory budget admits lint
// requests by (memoryCost) against what they take: each corpus spec is
// posted inline through the handler with the garbage collector running
// often (GOGC=10), so that the heap stays close to what the request keeps
// alive, as it does under lint-server's memory limit when the budget is
// full; the heap's peak growth must stay within the estimate. It takes a
// minute or two; run it with
//
//	SPECGATE_MEMORY=1 go test ./server -run TestMemoryEstimate -v
func TestMemoryEstimate(t *testing.T) {
	if os.Getenv("SPECGATE_MEMORY") == "" {
		t.Skip("set SPECGATE_MEMORY=1 to measure the memory of lint requests")
	}
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": "profiles:\n  default: {rules: {extends: [recommended]}}\n  strict: {rules: {extends: [strict]}}\n"})
	srv, err := New(context.Background(), Options{ConfigRepo: repo, Logger: newTestLogger(io.Discard), MaxBodySize: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	t.Logf("%-8s %-24s %9s %10s %10s %7s %s", "profile", "spec", "size", "peak", "estimate", "factor", "time")
	for _, profile := range []string{"default", "strict"} {
		for _, file := range []string{"petstore-expanded.yaml", "asyncapi-slack-rtm.yml", "discord.json", "twilio-api-v2010.json", "openai.yaml", "kubernetes.json", "stripe.yaml", "github.json"} {
			data := corpusSpec(t, file)
			body := lintBody(map[string]string{"spec": data, "profile": profile})
			estimate := memoryCost(int64(len(body)))
			start := time.Now()
			peak := peakHeapGrowth(func() {
				rec := httptest.NewRecorder()
				srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/lint-reports", strings.NewReader(body)))
				if rec.Code != http.StatusOK {
					t.Errorf("%s: %d %s", file, rec.Code, rec.Body)
				}
			})
			t.Logf("%-8s %-24s %8dK %9.1fM %9.1fM %7.1f %s", profile, file, len(data)>>10, float64(peak)/(1<<20), float64(estimate)/(1<<20),
				float64(peak)/float64(len(data)), time.Since(start).Round(time.Millisecond))
			if peak > estimate {
				t.Errorf("%s with %s: the memory in use grew by %d MiB, more than the estimate, %d MiB", file, profile, peak>>20, estimate>>20)
			}
		}
	}
}

// peakHeapGrowth runs f and returns how far the heap's objects (live, and
// garbage not yet collected) grew, sampled every millisecond.
func peakHeapGrowth(f func()) int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	objects := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	runtime.GC()
	base, peak := objects(), int64(math.MinInt64)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, objects())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak - base
}
