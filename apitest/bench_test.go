package apitest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fastPets answers testdata/pets.yaml's GET /pets at once, correctly:
// what a benchmark of the runner needs from a service.
var fastPets = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") == "" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Total", "1")
	w.Write([]byte(`[{"id":1,"name":"Rex"}]`))
})

// BenchmarkRequests measures a test of GET /pets against a fast local
// server: the request generated, judged by the contract, sent, its
// response checked by every check (ignored_auth's second request
// included). req/s counts requests sent.
func BenchmarkRequests(b *testing.B) {
	for _, parallel := range []int{1, 4} {
		b.Run(fmt.Sprintf("parallel=%d", parallel), func(b *testing.B) {
			srv := httptest.NewServer(fastPets)
			defer srv.Close()
			p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: srv.URL,
				Filter: "PATH=/pets && METHOD=GET", Getenv: func(string) string { return "" }})
			if err != nil {
				b.Fatal(err)
			}
			var test *Test
			for t := range p.Tests() {
				test = t
			}
			var sent atomic.Int64
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			per := b.N / parallel
			for w := 0; w < parallel; w++ {
				n := per
				if w == 0 {
					n += b.N % parallel
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range n {
						r := p.exec(context.Background(), test)
						if r.Outcome != Passed {
							b.Errorf("%s: %s", r.Outcome, r.Message())
							return
						}
						sent.Add(int64(len(r.Attempts) + len(r.Probes)))
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(sent.Load())/time.Since(start).Seconds(), "req/s")
		})
	}
}

// TestGenerationMemory makes every test of github.json (about 1,300, a
// request generated and judged by the contract for each) and samples the
// heap as it goes: memory holds the document and its compiled schemas, and
// does not grow with the tests made. SPECGATE_BENCH=1 runs it (about 10 s).
func TestGenerationMemory(t *testing.T) {
	if os.Getenv("SPECGATE_BENCH") == "" {
		t.Skip("SPECGATE_BENCH=1 measures the generation of github.json's tests")
	}
	path := filepath.Join("..", "..", "shared", "corpus", "github.json")
	if _, err := os.Stat(path); err != nil {
		t.Skip("no corpus:", err)
	}
	runtime.GC()
	base := heap()
	start := time.Now()
	p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: path}}, BaseURL: "http://127.0.0.1:1", Negative: true,
		Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Since(start)
	runtime.GC()
	afterLoad := heap()

	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := heap(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
	}()
	n, skipped := 0, 0
	var atHalf uint64
	total := p.Count()
	for test := range p.Tests() {
		st := &runState{ctx: context.Background(), plan: p, test: test, secrets: &secrets{}, store: map[string]any{}}
		if _, err := test.make(st); err != nil {
			skipped++
		}
		n++
		if n == total/2 {
			runtime.GC()
			atHalf = heap()
		}
	}
	runtime.GC()
	atEnd := heap()
	runtime.KeepAlive(p)
	close(stop)
	<-done
	elapsed := time.Since(start)
	t.Logf("github.json: %d tests made (%d skipped) in %s (loading %s); heap: %d MiB before, %d MiB loaded, %d MiB at half, %d MiB at the end, peak %d MiB",
		n, skipped, elapsed.Round(time.Millisecond), loaded.Round(time.Millisecond), base>>20, afterLoad>>20, atHalf>>20, atEnd>>20, peak.Load()>>20)
	// The second half of the tests adds the schemas it compiles for the
	// first time, not the tests: far less than the document.
	if atEnd > atHalf+afterLoad/2 {
		t.Errorf("the heap grew from %d MiB at half the tests to %d MiB at the end", atHalf>>20, atEnd>>20)
	}
}

// heap is the memory the Go heap holds in live and not yet swept objects.
func heap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// manyOps writes a spec of n operations GET /items{i}/{id}, each with a
// required query parameter and an object response.
func manyOps(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Many operations, version: \"1.0\"}\npaths:\n")
	for i := range n {
		fmt.Fprintf(&b, `  /items%d/{id}:
    get:
      operationId: item%d
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}
        - {name: fields, in: query, required: true, schema: {type: string, enum: [all, short]}}
      responses:
        "200":
          description: the item
          content:
            application/json:
              schema:
                type: object
                required: [id, name]
                properties:
                  id: {type: integer}
                  name: {type: string, maxLength: 40}
`, i, i)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("many%d.yaml", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareWithSpecmatic runs specgate test and Specmatic's test
// (npm specmatic@2.55.1 on Java, from SPECGATE_SPECMATIC_JAR or
// ~/.cache/specgate-bench/specmatic) on the same specs against the same
// fast local server, and logs wall time and peak memory of each, measured
// by /usr/bin/time. SPECGATE_BENCH=1 runs it.
func TestCompareWithSpecmatic(t *testing.T) {
	if os.Getenv("SPECGATE_BENCH") == "" {
		t.Skip("SPECGATE_BENCH=1 compares specgate test with Specmatic")
	}
	timeBin, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		t.Skip("needs /usr/bin/time")
	}
	jar := os.Getenv("SPECGATE_SPECMATIC_JAR")
	if jar == "" {
		home, _ := os.UserHomeDir()
		jar = filepath.Join(home, ".cache", "specgate-bench", "specmatic", "node_modules", "specmatic", "specmatic.jar")
	}
	if _, err := os.Stat(jar); err != nil {
		jar = ""
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "specgate")
	build := exec.Command("go", "build", "-o", bin, "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/pets" {
			w.Write([]byte(`[{"id":1,"name":"Rex"}]`))
			return
		}
		w.Write([]byte(`{"id":1,"name":"Rex"}`))
	}))
	defer srv.Close()
	measure := func(name string, args ...string) (wall float64, rssMiB int64, out string) {
		cmd := exec.Command(timeBin, append([]string{"-f", "%e %M"}, args...)...)
		cmd.Dir = t.TempDir()
		b, _ := cmd.CombinedOutput()
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		fmt.Sscanf(lines[len(lines)-1], "%f %d", &wall, &rssMiB)
		return wall, rssMiB >> 10, string(b)
	}
	specs := []string{filepath.Join("testdata", "bench", "one.yaml"), manyOps(t, 100)}
	t.Log("| spec | tool | tests | wall | peak RSS |")
	t.Log("|---|---|---|---|---|")
	for _, s := range specs {
		abs, _ := filepath.Abs(s)
		wall, rss, out := measure("specgate", bin, "test", abs, "--testBaseURL", srv.URL, "--report-dir", "r")
		t.Logf("| %s | specgate | %s | %.2f s | %d MiB |", filepath.Base(s), countLine(out, "tests: ", "test: "), wall, rss)
		if jar != "" {
			wall, rss, out = measure("specmatic", "java", "-jar", jar, "test", abs, "--testBaseURL", srv.URL)
			t.Logf("| %s | Specmatic 2.55.1 | %s | %.2f s | %d MiB |", filepath.Base(s), countLine(out, "Tests run: "), wall, rss)
		}
	}
}

// countLine returns the rest of the first line of out that holds one of
// the prefixes, up to its first comma.
func countLine(out string, prefixes ...string) string {
	for _, l := range strings.Split(out, "\n") {
		for _, p := range prefixes {
			if i := strings.Index(l, p); i >= 0 {
				rest := l[:i] + l[i:]
				rest, _, _ = strings.Cut(rest, ",")
				return strings.TrimSpace(rest)
			}
		}
	}
	return "?"
}
