package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
)

// TestLoad is the lint server's load benchmark, on loopback only and
// bounded in time: for each spec, a few clients post it inline as fast as
// the server answers, for SPECGATE_LOAD_SECONDS (default 10) seconds each.
// It prints requests per second and p50/p99 latency. Run it with
//
//	SPECGATE_LOAD=1 go test ./server -run TestLoad -v
func TestLoad(t *testing.T) {
	if os.Getenv("SPECGATE_LOAD") == "" {
		t.Skip("set SPECGATE_LOAD=1 to run the load benchmark")
	}
	seconds, err := strconv.Atoi(os.Getenv("SPECGATE_LOAD_SECONDS"))
	if err != nil || seconds <= 0 {
		seconds = 10
	}
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": "profiles:\n  default: {rules: {extends: [recommended]}}\n"})
	ts := start(t, Options{ConfigRepo: repo, Logger: newTestLogger(io.Discard), QueueTimeout: time.Minute})
	t.Logf("%-24s %9s %8s %8s %8s %10s %10s", "spec", "size", "clients", "requests", "req/s", "p50", "p99")
	for _, spec := range []struct {
		file    string
		clients int
	}{{"petstore-expanded.yaml", 4}, {"stripe.yaml", 2}} {
		data := corpusSpec(t, spec.file)
		latencies := hammer(t, ts.url+"/lint-reports", []byte(lintBody(map[string]string{"spec": data})), spec.clients, time.Duration(seconds)*time.Second)
		slices.Sort(latencies)
		pct := func(p float64) time.Duration {
			return latencies[int(p*float64(len(latencies)-1))].Round(100 * time.Microsecond)
		}
		t.Logf("%-24s %8dK %8d %8d %8.1f %10s %10s", spec.file, len(data)>>10, spec.clients, len(latencies),
			float64(len(latencies))/float64(seconds), pct(0.50), pct(0.99))
	}
}

// hammer posts body from clients goroutines until d has passed and returns
// every request's latency; any answer but 200 fails the test.
func hammer(t *testing.T, url string, body []byte, clients int, d time.Duration) []time.Duration {
	var mu sync.Mutex
	var latencies []time.Duration
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				start := time.Now()
				resp, err := http.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("status %d", resp.StatusCode)
					return
				}
				mu.Lock()
				latencies = append(latencies, time.Since(start))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return latencies
}

// BenchmarkLintRequest is the cost of one inline lint request of the
// small corpus spec through the handler, without the network.
func BenchmarkLintRequest(b *testing.B) {
	body := lintBody(map[string]string{"spec": corpusSpec(b, "petstore-expanded.yaml")})
	repo := gittest.Repo(b, map[string]string{"specgate-lint.yaml": "profiles:\n  default: {rules: {extends: [recommended]}}\n"})
	srv, err := New(context.Background(), Options{ConfigRepo: repo})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	handler := srv.Handler()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/lint-reports", strings.NewReader(body))
		handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}
