// Command mock measures specgate mock against Prism (@stoplight/prism-cli)
// in the same run, on the same machine:
//
//   - ready time (from the start of the process to its first HTTP answer)
//     and resident memory once ready, on stripe.yaml and github.json;
//
//   - requests per second and the 50th and 99th percentile latencies with
//     8 keep-alive clients on GET /pets of petstore-expanded.yaml (with
//     wrk when it is installed, else a Go load generator);
//
//   - resident memory sampled under that load for a minute (a leak shows
//     as memory that keeps growing), specgate only;
//
//   - for the stateful mock (--stateful), creates and reads per second with
//     8 clients on the same spec.
//
//     go run ./bench/mock -install     # Prism into the cache (npm), once; wrk: apt-get install -y wrk
//     go run ./bench/mock              # measure, print Markdown tables
//
// Prism is a measuring tool, not a dependency: it is installed at a pinned
// version into a cache outside the repository ($SPECGATE_BENCH_CACHE,
// default ~/.cache/specgate-bench).
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/specgate/specgate/bench/internal/cachedir"
)

const prismVersion = "5.14"

// server is a mock server to measure: how to start it on a port.
type server struct {
	name string
	// argv starts the server for spec on port.
	argv func(spec string, port int) []string
	// prefix is where it serves petstore-expanded's operations.
	prefix string
}

func main() {
	install := flag.Bool("install", false, "install Prism into the cache and exit")
	corpus := flag.String("corpus", "../shared/corpus", "folder of the corpus specs")
	duration := flag.Duration("duration", 10*time.Second, "length of each throughput run")
	soak := flag.Duration("soak", 60*time.Second, "length of the memory run under load (0: skip)")
	clients := flag.Int("clients", 8, "keep-alive clients of the throughput runs")
	runs := flag.Int("runs", 3, "start-ups per server and spec (the median is reported)")
	only := flag.String("tools", "specgate,prism", "servers to measure, comma-separated")
	readySpecs := flag.String("ready-specs", "stripe.yaml,github.json", "specs whose start-up is measured")
	stateful := flag.Bool("stateful", true, "measure the stateful mock's creates and reads")
	binFlag := flag.String("bin", "", "a specgate binary to measure (default: built from the working tree)")
	readyTimeout := flag.Duration("ready-timeout", 20*time.Minute, "how long a server may take to start")
	flag.Parse()

	cache := cachedir.Path()
	if *install {
		if err := installPrism(cache); err != nil {
			fail(err)
		}
		if _, err := exec.LookPath("wrk"); err != nil {
			fmt.Println("wrk is not installed (apt-get install -y wrk); the Go load generator will be used")
		}
		return
	}
	bin := *binFlag
	if bin == "" {
		bin = filepath.Join(cache, "specgate-mock-bench")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			fail(fmt.Errorf("building specgate: %v\n%s", err, out))
		}
	}
	prism := filepath.Join(cache, "prism", "node_modules", ".bin", "prism")
	var servers []server
	for _, name := range strings.Split(*only, ",") {
		switch name {
		case "specgate":
			servers = append(servers, server{name: "specgate", prefix: "/v2", argv: func(spec string, port int) []string {
				return []string{bin, "mock", spec, "--port", strconv.Itoa(port), "--watch-interval", "0", "--log-format", "json"}
			}})
		case "specgate-stateful":
			servers = append(servers, server{name: "specgate-stateful", prefix: "/v2", argv: func(spec string, port int) []string {
				return []string{bin, "mock", "--stateful", spec, "--port", strconv.Itoa(port), "--watch-interval", "0", "--log-format", "json"}
			}})
		case "prism":
			if _, err := os.Stat(prism); err != nil {
				fail(fmt.Errorf("Prism is not installed in %s: run go run ./bench/mock -install", cache))
			}
			servers = append(servers, server{name: "prism " + prismVersion, prefix: "", argv: func(spec string, port int) []string {
				return []string{prism, "mock", spec, "--port", strconv.Itoa(port), "--host", "127.0.0.1"}
			}})
		default:
			fail(fmt.Errorf("unknown tool %q", name))
		}
	}
	load := "a Go load generator"
	if _, err := exec.LookPath("wrk"); err == nil {
		load = "wrk"
	}
	fmt.Printf("specgate mock against Prism %s; %d cores, load average %s at the start; load by %s with %d keep-alive clients\n\n",
		prismVersion, numCPU(), loadAverage(), load, *clients)

	fmt.Println("| server | spec | ready (median) | RSS when ready |")
	fmt.Println("|---|---|---|---|")
	for _, spec := range strings.Split(*readySpecs, ",") {
		if spec == "" {
			continue
		}
		path := filepath.Join(*corpus, spec)
		for _, s := range servers {
			var readies []time.Duration
			var rss int64
			for range *runs {
				p, err := startServer(s, path, *readyTimeout)
				if err != nil {
					fmt.Printf("| %s | %s | failed: %v | |\n", s.name, spec, err)
					break
				}
				readies = append(readies, p.ready)
				rss = max(rss, p.rss())
				p.stop()
			}
			if len(readies) > 0 {
				slices.Sort(readies)
				fmt.Printf("| %s | %s | %s | %s |\n", s.name, spec, readies[len(readies)/2].Round(10*time.Millisecond), mib(rss))
			}
		}
	}

	pets := filepath.Join(*corpus, "petstore-expanded.yaml")
	fmt.Printf("\n| server | GET /pets, petstore-expanded.yaml | req/s | p50 | p99 |\n|---|---|---|---|---|\n")
	var specgateRate float64
	for _, s := range servers {
		p, err := startServer(s, pets, 2*time.Minute)
		if err != nil {
			fmt.Printf("| %s | failed: %v | | | |\n", s.name, err)
			continue
		}
		url := p.url + s.prefix + "/pets"
		warm(url)
		res, err := runLoad(url, *clients, *duration)
		p.stop()
		if err != nil {
			fmt.Printf("| %s | failed: %v | | | |\n", s.name, err)
			continue
		}
		note := ""
		if s.name == "specgate" {
			specgateRate = res.rate
		} else if specgateRate > 0 && res.rate > 0 {
			note = fmt.Sprintf(" (specgate ×%.0f)", specgateRate/res.rate)
		}
		fmt.Printf("| %s | %d requests, %d errors | %.0f%s | %s | %s |\n", s.name, res.requests, res.errors, res.rate, note, res.p50, res.p99)
	}

	if *stateful {
		s := server{name: "specgate --stateful", argv: func(spec string, port int) []string {
			return []string{bin, "mock", "--stateful", spec, "--port", strconv.Itoa(port), "--watch-interval", "0", "--log-format", "json"}
		}}
		p, err := startServer(s, pets, time.Minute)
		if err != nil {
			fail(err)
		}
		creates, reads, err := runStateful(p.url+"/v2/pets", *clients, *duration)
		p.stop()
		if err != nil {
			fail(err)
		}
		fmt.Printf("\n| specgate mock --stateful, petstore-expanded.yaml (Go load generator, %d clients) | requests | req/s | p50 | p99 |\n|---|---|---|---|---|\n", *clients)
		fmt.Printf("| POST /pets (create) | %d, %d errors, %d distinct ids | %.0f | %s | %s |\n", creates.requests, creates.errors, creates.distinct, creates.rate, creates.p50, creates.p99)
		fmt.Printf("| GET /pets/{id} (read) | %d, %d errors | %.0f | %s | %s |\n", reads.requests, reads.errors, reads.rate, reads.p50, reads.p99)
	}

	if *soak > 0 && slices.ContainsFunc(servers, func(s server) bool { return s.name == "specgate" }) {
		s := servers[slices.IndexFunc(servers, func(s server) bool { return s.name == "specgate" })]
		p, err := startServer(s, pets, time.Minute)
		if err != nil {
			fail(err)
		}
		url := p.url + s.prefix + "/pets"
		warm(url)
		var samples []int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(5 * time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					samples = append(samples, p.rss())
				}
			}
		}()
		res, err := runLoad(url, *clients, *soak)
		close(stop)
		wg.Wait()
		p.stop()
		if err != nil {
			fail(err)
		}
		var parts []string
		for _, s := range samples {
			parts = append(parts, mib(s))
		}
		fmt.Printf("\nRSS of specgate mock every 5 s under load for %s (%d requests, %.0f req/s): %s\n", *soak, res.requests, res.rate, strings.Join(parts, ", "))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/mock:", err)
	os.Exit(1)
}

func numCPU() int {
	n := 0
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		n = bytes.Count(data, []byte("\nprocessor"))
		if bytes.HasPrefix(data, []byte("processor")) {
			n++
		}
	}
	return n
}

// loadAverage is the machine's 1-minute load average: measurements on a
// busy machine say so.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(data))[0]
}

func installPrism(cache string) error {
	dir := filepath.Join(cache, "prism")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "@stoplight/prism-cli@"+prismVersion)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// process is a started server.
type process struct {
	cmd   *exec.Cmd
	url   string
	ready time.Duration
	out   *bytes.Buffer
	done  chan struct{} // closed when the process has exited
}

// startServer starts s on a free port and waits until it answers HTTP.
func startServer(s server, spec string, timeout time.Duration) (*process, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	argv := s.argv(spec, port)
	cmd := exec.Command(argv[0], argv[1:]...)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = io.Discard, &limited{b: out, n: 64 << 10}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), out: out, done: make(chan struct{})}
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		close(p.done)
		exited <- err
	}()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	for {
		resp, err := client.Get(p.url + "/")
		if err == nil {
			resp.Body.Close()
			p.ready = time.Since(began)
			return p, nil
		}
		select {
		case err := <-exited:
			return nil, fmt.Errorf("%s exited before it answered (%v): %s", s.name, err, out.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("%s did not answer within %s", s.name, timeout)
		}
	}
}

// stop ends the server and everything it started.
func (p *process) stop() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// rss is the resident memory of the server's process group, in bytes:
// the sum over its processes (a node launcher and its children too).
func (p *process) rss() int64 {
	var total int64
	entries, _ := os.ReadDir("/proc")
	pgid := p.cmd.Process.Pid
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err != nil || g != pgid {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
				kib, _ := strconv.ParseInt(f[1], 10, 64)
				total += kib << 10
			}
		}
	}
	return total
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

// limited keeps the first n bytes written.
type limited struct {
	mu sync.Mutex
	b  *bytes.Buffer
	n  int
}

func (l *limited) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// warm sends a few requests first: the first answer of an operation
// compiles its schemas.
func warm(url string) {
	for range 50 {
		if resp, err := http.Get(url); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
}

// loadResult is a throughput run's outcome.
type loadResult struct {
	requests, errors int64
	rate             float64
	p50, p99         time.Duration
}

// runLoad sends GET url from clients keep-alive connections for d.
func runLoad(url string, clients int, d time.Duration) (loadResult, error) {
	if _, err := exec.LookPath("wrk"); err == nil {
		return runWrk(url, clients, d)
	}
	return runGo(url, clients, d)
}

var (
	wrkRate    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkTotal   = regexp.MustCompile(`(\d+) requests in`)
	wrkErrors  = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkLatency = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
)

func runWrk(url string, clients int, d time.Duration) (loadResult, error) {
	threads := min(clients, 2)
	out, err := exec.Command("wrk", "-t", strconv.Itoa(threads), "-c", strconv.Itoa(clients), "-d", fmt.Sprintf("%ds", int(d.Seconds())), "--latency", url).CombinedOutput()
	if err != nil {
		return loadResult{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	var r loadResult
	m := wrkRate.FindSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("wrk's output has no rate: %s", out)
	}
	r.rate, _ = strconv.ParseFloat(string(m[1]), 64)
	if m := wrkTotal.FindSubmatch(out); m != nil {
		r.requests, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	if m := wrkErrors.FindSubmatch(out); m != nil {
		r.errors, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	for _, m := range wrkLatency.FindAllSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(string(m[2]), 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[3])]
		lat := time.Duration(v * float64(unit)).Round(time.Microsecond)
		if string(m[1]) == "50" {
			r.p50 = lat
		} else {
			r.p99 = lat
		}
	}
	return r, nil
}

var idField = regexp.MustCompile(`"id":\s*"?([^",}]+)`)

// statefulResult is a stateful run's outcome: a loadResult and how many
// distinct ids the creates got.
type statefulResult struct {
	loadResult
	distinct int
}

// runStateful creates resources from clients for d (each create's id
// recorded), then reads them back by id for d.
func runStateful(collection string, clients int, d time.Duration) (statefulResult, statefulResult, error) {
	var mu sync.Mutex
	var ids []string
	seen := map[string]bool{}
	create := func(c *http.Client) (bool, error) {
		resp, err := c.Post(collection, "application/json", strings.NewReader(`{"name": "bench", "tag": "load"}`))
		if err != nil {
			return false, err
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return false, nil
		}
		m := idField.FindSubmatch(data)
		if m == nil {
			return false, nil
		}
		mu.Lock()
		ids = append(ids, string(m[1]))
		seen[string(m[1])] = true
		mu.Unlock()
		return true, nil
	}
	cr, err := runGoFunc(clients, d, func(c *http.Client, _ int) (bool, error) { return create(c) })
	if err != nil {
		return statefulResult{}, statefulResult{}, err
	}
	created := statefulResult{loadResult: cr, distinct: len(seen)}
	if len(ids) == 0 {
		return created, statefulResult{}, errors.New("no resource was created")
	}
	rd, err := runGoFunc(clients, d, func(c *http.Client, n int) (bool, error) {
		resp, err := c.Get(collection + "/" + ids[n%len(ids)])
		if err != nil {
			return false, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
	return created, statefulResult{loadResult: rd}, err
}

// runGo is the load generator used without wrk: clients goroutines, each
// with its own keep-alive connection, each latency recorded.
func runGo(url string, clients int, d time.Duration) (loadResult, error) {
	return runGoFunc(clients, d, func(c *http.Client, _ int) (bool, error) {
		resp, err := c.Get(url)
		if err != nil {
			return false, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode < 400, nil
	})
}

// runGoFunc runs do from clients goroutines, each with its own keep-alive
// connection, for d; do says whether its request succeeded (n counts the
// client's requests).
func runGoFunc(clients int, d time.Duration, do func(c *http.Client, n int) (bool, error)) (loadResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var total, errs atomic.Int64
	lats := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	began := time.Now()
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			for n := i; ctx.Err() == nil; n += clients {
				t := time.Now()
				ok, err := do(c, n)
				if err != nil || !ok {
					if ctx.Err() == nil {
						errs.Add(1)
					}
					continue
				}
				lats[i] = append(lats[i], time.Since(t))
				total.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	if len(all) == 0 {
		return loadResult{}, errors.New("no request succeeded")
	}
	slices.Sort(all)
	return loadResult{requests: total.Load(), errors: errs.Load(), rate: float64(total.Load()) / elapsed.Seconds(),
		p50: all[len(all)/2].Round(time.Microsecond), p99: all[len(all)*99/100].Round(time.Microsecond)}, nil
}
