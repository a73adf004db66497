package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/internal/httpx"
)

// paddedSpec is smallSpec grown to about n bytes by a long extension
// string: cheap to lint, costly by its size.
func paddedSpec(n int) string {
	return smallSpec + "x-pad: " + strings.Repeat("a", max(n-len(smallSpec)-8, 0)) + "\n"
}

// healthInfo reads /health/info.
func (ts *testServer) healthInfo(t *testing.T) HealthInfo {
	t.Helper()
	r := ts.get(t, "/health/info")
	var hi HealthInfo
	if err := json.Unmarshal(r.body, &hi); err != nil {
		t.Fatalf("/health/info: %v\n%s", err, r.body)
	}
	return hi
}

// memoryHeld is the memory the lint requests in flight hold, from
// /health/info.
func (ts *testServer) memoryHeld(t *testing.T) int64 {
	t.Helper()
	checks := ts.healthInfo(t).Checks["lint:memory"]
	if len(checks) != 1 {
		t.Fatalf("/health/info has no lint:memory check")
	}
	n, _ := checks[0].ObservedValue.(float64)
	return int64(n)
}

// With a budget that holds one large request, a second one at the same
// time is refused with 503 and Retry-After, and admitted once the first
// is done.
func TestMemoryBudget(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	const budget = 30 << 20
	ts := start(t, Options{ConfigRepo: repo, MaxConcurrent: 4, MaxMemory: budget})
	body, _ := json.Marshal(map[string]string{"spec": paddedSpec(256 << 10)})
	cost := memoryCost(int64(len(body)))
	if cost > budget || 2*cost <= budget {
		t.Fatalf("a request costs %d bytes: the test needs one to fit in %d, not two", cost, budget)
	}

	// The first request sends its length, then holds back its body: the
	// server reserves its memory before reading it.
	pr, pw := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, ts.url+"/lint-reports", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	first := make(chan response, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- response{status: -1, body: []byte(err.Error())}
			return
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		first <- response{status: resp.StatusCode, header: resp.Header, body: data}
	}()
	if _, err := pw.Write(body[:1024]); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ts.memoryHeld(t) != cost; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first request holds %d bytes, want %d", ts.memoryHeld(t), cost)
		}
	}

	// The second request has no length (chunked): it is refused once read.
	second, err := http.NewRequest(http.MethodPost, ts.url+"/lint-reports", io.MultiReader(strings.NewReader(string(body))))
	if err != nil {
		t.Fatal(err)
	}
	second.Header.Set("Content-Type", "application/json")
	r := send(t, second)
	p := problem(t, r, 503, kindOverloaded)
	if r.header.Get("Retry-After") != "2" || !strings.Contains(p.Detail, "of the 30 MiB budget (--max-memory)") {
		t.Errorf("Retry-After %q, detail %q", r.header.Get("Retry-After"), p.Detail)
	}
	// The same with a length, refused before its body is read.
	p = problem(t, ts.do(t, http.MethodPost, "/lint-reports", "application/json", string(body)), 503, kindOverloaded)
	if !strings.Contains(p.Detail, "linting this spec takes about "+httpx.FormatBytes(cost)+" of memory, and the lint requests in flight hold "+httpx.FormatBytes(cost)) {
		t.Errorf("detail %q", p.Detail)
	}
	if hi := ts.healthInfo(t); hi.Checks["lint:memory"][0].Status != healthPass {
		t.Errorf("lint:memory = %+v", hi.Checks["lint:memory"])
	}

	if _, err := pw.Write(body[1024:]); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if rep := report(t, <-first); !hasRule(rep, "health-endpoint") {
		t.Errorf("the first request: %v", findings(rep))
	}
	report(t, ts.do(t, http.MethodPost, "/lint-reports", "application/json", string(body)))
	if held := ts.memoryHeld(t); held != 0 {
		t.Errorf("%d bytes still held with no request in flight", held)
	}
}

// A spec too large for the whole budget is refused as too large, without
// being read: the size limits are lowered to what the budget admits.
func TestMemoryBudgetLowersSizeLimits(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, MaxMemory: 30 << 20, AllowPrivateURLs: true})
	// (30 MiB - 4 MiB) / 60, rounded down to a KiB.
	const limit = "443 KiB"
	if got := httpx.FormatBytes(ts.bodyLimit.bytes); got != limit || httpx.FormatBytes(ts.specLimit.bytes) != limit {
		t.Fatalf("limits %s and %s, want %s", got, httpx.FormatBytes(ts.specLimit.bytes), limit)
	}
	large := paddedSpec(600 << 10)
	p := problem(t, ts.lint(t, map[string]string{"spec": large}), 413, kindTooLarge)
	if !strings.Contains(p.Detail, "larger than the "+limit+" limit (--max-body-size, lowered to fit --max-memory)") {
		t.Errorf("detail %q", p.Detail)
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, large) }))
	defer origin.Close()
	p = problem(t, ts.lint(t, map[string]string{"specUrl": origin.URL + "/large.yaml"}), 502, kindFetchFailed)
	if !strings.Contains(p.Detail, "the "+limit+" limit (--max-spec-size, lowered to fit --max-memory)") {
		t.Errorf("detail %q", p.Detail)
	}
	// Below the limit, the spec is linted.
	report(t, ts.lint(t, map[string]string{"spec": paddedSpec(400 << 10)}))
}

func TestMemoryBudgetOptions(t *testing.T) {
	const baseline = 100 << 20
	tests := []struct {
		name                     string
		maxMemory, goLimit, want int64
		err                      string
	}{
		{name: "default", want: DefaultMaxMemory},
		{name: "flag", maxMemory: 512 << 20, want: 512 << 20},
		{name: "flag over GOMEMLIMIT", maxMemory: 512 << 20, goLimit: 1 << 30, want: 512 << 20},
		{name: "GOMEMLIMIT", goLimit: 1 << 30, want: 1<<30 - baseline},
		{name: "GOMEMLIMIT too low", goLimit: baseline + 1<<20, err: "GOMEMLIMIT=101 MiB leaves no memory for lint requests: the server holds 100 MiB once its configuration is loaded"},
		{name: "flag too low", maxMemory: 1 << 20, err: "--max-memory 1 MiB is less than a lint request takes (4 MiB at least)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := memoryBudgetFor(tt.maxMemory, tt.goLimit, baseline)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("budget %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

func TestParseMemory(t *testing.T) {
	for in, want := range map[string]int64{"1073741824": 1 << 30, "512MiB": 512 << 20, "2GiB": 2 << 30, "64 KiB": 64 << 10, "100B": 100, "1TiB": 1 << 40} {
		if got, err := ParseMemory(in); err != nil || got != want {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1GiB", "2GB", "1.5GiB", "lots", "9999999TiB"} {
		if _, err := ParseMemory(in); err == nil || !strings.Contains(err.Error(), "is not a memory size") {
			t.Errorf("ParseMemory(%q): %v", in, err)
		}
	}
}

// Each client may make --rate-limit requests a minute; the others get 429
// with Retry-After. Every response says how many are left; health checks
// are not counted.
func TestRateLimit(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, RateLimit: 3})
	for i := range 3 {
		r := ts.get(t, "/config/status")
		if r.status != 200 || r.header.Get("RateLimit-Policy") != `"client";q=3;w=60` ||
			!strings.HasPrefix(r.header.Get("RateLimit"), fmt.Sprintf(`"client";r=%d;t=`, 2-i)) {
			t.Fatalf("request %d: %d, RateLimit %q, RateLimit-Policy %q", i, r.status, r.header.Get("RateLimit"), r.header.Get("RateLimit-Policy"))
		}
		if h := ts.get(t, "/health"); h.status != 200 || h.header.Get("RateLimit") != "" {
			t.Fatalf("/health: %d, RateLimit %q", h.status, h.header.Get("RateLimit"))
		}
	}
	r := ts.lint(t, map[string]string{"spec": smallSpec})
	p := problem(t, r, 429, kindRateLimited)
	if ra := r.header.Get("Retry-After"); ra == "" || ra == "0" || !strings.Contains(p.Detail, "more than 3 requests this minute (--rate-limit); retry in "+ra+" s") {
		t.Errorf("Retry-After %q, detail %q", ra, p.Detail)
	}
	if !strings.HasPrefix(r.header.Get("RateLimit"), `"client";r=0;t=`) {
		t.Errorf("RateLimit %q", r.header.Get("RateLimit"))
	}
	if h := ts.get(t, "/health/info"); h.status != 200 {
		t.Errorf("/health/info is rate-limited: %d", h.status)
	}
	// Without --rate-limit, no field is sent.
	plain := start(t, Options{ConfigRepo: repo})
	if r := plain.get(t, "/config/status"); r.header.Get("RateLimit") != "" || r.header.Get("RateLimit-Policy") != "" {
		t.Errorf("fields without --rate-limit: %v", r.header)
	}
}

// The limiter counts each client apart, in windows of a minute.
func TestRateLimiterWindows(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	l := newRateLimiter(2)
	l.start, l.now = now, func() time.Time { return now }
	a, b := netip.MustParsePrefix("192.0.2.7/32"), netip.MustParsePrefix("2001:db8:1:2::/64")
	check := func(client netip.Prefix, wantOK bool, wantRemaining, wantReset int) {
		t.Helper()
		ok, remaining, reset := l.take(client)
		if ok != wantOK || remaining != wantRemaining || reset != wantReset {
			t.Errorf("take(%s) at +%s = %v, %d, %d; want %v, %d, %d", client, now.Sub(l.start), ok, remaining, reset, wantOK, wantRemaining, wantReset)
		}
	}
	check(a, true, 1, 60)
	now = now.Add(20*time.Second + time.Millisecond)
	check(a, true, 0, 40)
	check(a, false, 0, 40)
	check(b, true, 1, 40)
	now = now.Add(40 * time.Second)
	check(a, true, 1, 60) // a new window
	if len(l.counts) != 1 {
		t.Errorf("%d counters kept from the last window", len(l.counts))
	}

	for remote, want := range map[string]string{
		"192.0.2.7:51000":                 "192.0.2.7/32",
		"[2001:db8:1:2:aaaa::1]:443":      "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9%eth0]:443": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.7]:80":           "192.0.2.7/32",
	} {
		if got := clientOf(&http.Request{RemoteAddr: remote}); got.String() != want {
			t.Errorf("clientOf(%s) = %s, want %s", remote, got, want)
		}
	}
}

// Once the server shuts down, its health checks fail with 503, so that
// load balancers send it nothing more.
func TestHealthWhileShuttingDown(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	srv, err := New(context.Background(), Options{ConfigRepo: repo})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.draining.Store(true)
	for _, path := range []string{"/health", "/health/info"} {
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		var h Health
		if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil || rec.Code != 503 || h.Status != healthFail || h.Output != drainingOutput ||
			rec.Header().Get("Content-Type") != "application/health+json" {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}
