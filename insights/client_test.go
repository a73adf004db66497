package insights_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/insightsd"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/internal/insightstest"
)

// service is a real insights service on loopback, with a hook in front of
// it.
type service struct {
	srv      *insightsd.Server
	ts       *httptest.Server
	requests atomic.Int32
	// before answers a request itself when it returns true.
	before func(n int32, w http.ResponseWriter, r *http.Request) bool
}

func newService(t *testing.T, token string) *service {
	t.Helper()
	s := &service{}
	s.srv, s.ts = insightstest.Serve(t, insightsd.Options{Dir: t.TempDir(), Token: token}, func(w http.ResponseWriter, r *http.Request) bool {
		n := s.requests.Add(1)
		return s.before != nil && s.before(n, w, r)
	})
	return s
}

// sleeps records the waits between attempts without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func client(url, token string, sl *sleeps) *insights.Client {
	c := &insights.Client{URL: url, Token: token, HTTP: &http.Client{Timeout: 5 * time.Second}, Timeout: 10 * time.Second}
	if sl != nil {
		c.Sleep = sl.sleep
	}
	return c
}

func sub(id string) *insights.Submission {
	s := insights.NewSubmission("test", "contract", insights.Tool{Name: "specgate", Version: "test"}, insights.CI{RepoID: "acme/orders"})
	if id != "" {
		s.ID = id
	}
	s.Results = append(s.Results, insights.SpecResult{Spec: insights.SpecRef{ID: "api.yaml", Path: "api.yaml"}, Status: "passed"})
	return s
}

// TestSubmitRetried: 5xx answers and dropped connections are retried
// with growing waits until the service takes the submission.
func TestSubmitRetried(t *testing.T) {
	svc := newService(t, "")
	svc.before = func(n int32, w http.ResponseWriter, r *http.Request) bool {
		switch n {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		case 2:
			hj, _ := w.(http.Hijacker)
			conn, _, _ := hj.Hijack()
			conn.Close() // a dropped connection
			return true
		}
		return false
	}
	sl := &sleeps{}
	rec, err := client(svc.ts.URL, "", sl).Submit(context.Background(), sub("retried-0001"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID != "retried-0001" || rec.Duplicate {
		t.Errorf("receipt %+v", rec)
	}
	if n := svc.requests.Load(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if len(sl.d) != 2 || sl.d[0] < 250*time.Millisecond || sl.d[0] > 500*time.Millisecond || sl.d[1] < 500*time.Millisecond || sl.d[1] > time.Second {
		t.Errorf("waits %v, want one in [250ms, 500ms] then one in [500ms, 1s]", sl.d)
	}
	if svc.srv.Store().Count() != 1 {
		t.Error("not stored")
	}
}

// TestSubmitAnswerLost: when the service stored a submission but its
// answer was lost, the retry is recognised and not stored twice.
func TestSubmitAnswerLost(t *testing.T) {
	svc := newService(t, "")
	svc.before = func(n int32, w http.ResponseWriter, r *http.Request) bool {
		if n == 1 {
			svc.srv.Handler().ServeHTTP(httptest.NewRecorder(), r) // stored, answer dropped
			w.WriteHeader(http.StatusBadGateway)
			return true
		}
		return false
	}
	rec, err := client(svc.ts.URL, "", &sleeps{}).Submit(context.Background(), sub("lost-answer"))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Duplicate || svc.srv.Store().Count() != 1 {
		t.Errorf("receipt %+v, %d stored", rec, svc.srv.Store().Count())
	}
}

func TestSubmitFails(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tc := range []struct {
		name     string
		token    string // the client's
		before   func(n int32, w http.ResponseWriter, r *http.Request) bool
		url      string
		attempts int32
		want     string
	}{
		{
			name:     "outage",
			before:   func(int32, http.ResponseWriter, *http.Request) bool { panic(http.ErrAbortHandler) },
			attempts: insights.DefaultAttempts,
			want:     `submitting the reports to the insights service at URL failed: EOF (5 attempts in `,
		},
		{
			name: "503 with a problem",
			before: func(_ int32, w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(503)
				w.Write([]byte(`{"title":"Service Unavailable","detail":"the database is being upgraded"}`))
				return true
			},
			attempts: insights.DefaultAttempts,
			want:     "failed: 503 Service Unavailable: the database is being upgraded (5 attempts in ",
		},
		{
			name:     "a 400 is not retried",
			before:   func(_ int32, w http.ResponseWriter, r *http.Request) bool { http.Error(w, "no", 400); return true },
			attempts: 1,
			want:     "failed: 400 Bad Request: no",
		},
		{
			name:     "no token",
			before:   func(int32, http.ResponseWriter, *http.Request) bool { return false },
			attempts: 1,
			want:     "failed: 401 Unauthorized (no token was sent: set SPECGATE_INSIGHTS_TOKEN): this service requires a bearer token",
		},
		{
			name:     "wrong token",
			token:    "nope-not-it",
			before:   func(int32, http.ResponseWriter, *http.Request) bool { return false },
			attempts: 1,
			want:     "failed: 401 Unauthorized (the service does not accept the token in SPECGATE_INSIGHTS_TOKEN): the bearer token is not the one",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := newService(t, "right-token")
			svc.before = tc.before
			err := func() error {
				_, err := client(svc.ts.URL, tc.token, &sleeps{}).Submit(context.Background(), sub(""))
				return err
			}()
			var ie *insights.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v, want an *insights.Error", err)
			}
			msg := strings.ReplaceAll(err.Error(), svc.ts.URL, "URL")
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want it to contain %q", msg, tc.want)
			}
			if strings.Contains(msg, "nope-not-it") {
				t.Error("the token is in the message")
			}
			if n := svc.requests.Load(); n != tc.attempts {
				t.Errorf("%d requests, want %d", n, tc.attempts)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		_, err := client(closed.URL, "", &sleeps{}).Submit(context.Background(), sub(""))
		if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "(5 attempts in") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("not a URL", func(t *testing.T) {
		_, err := client("insights.example.com", "", nil).Submit(context.Background(), sub(""))
		if err == nil || !strings.Contains(err.Error(), "the URL must be http:// or https:// with a host") {
			t.Errorf("error %v", err)
		}
	})
}

// TestRetryAfter: a 429's Retry-After is waited for, within the time
// limit of the call.
func TestRetryAfter(t *testing.T) {
	svc := newService(t, "")
	svc.before = func(n int32, w http.ResponseWriter, r *http.Request) bool {
		if n == 1 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}
		return false
	}
	sl := &sleeps{}
	if _, err := client(svc.ts.URL, "", sl).Submit(context.Background(), sub("")); err != nil {
		t.Fatal(err)
	}
	if len(sl.d) != 1 || sl.d[0] != 3*time.Second {
		t.Errorf("waits %v, want [3s]", sl.d)
	}
	// A wait beyond the time limit is not waited for.
	svc.requests.Store(0)
	c := client(svc.ts.URL, "", &sleeps{})
	c.Timeout = 2 * time.Second
	_, err := c.Submit(context.Background(), sub(""))
	if err == nil || !strings.Contains(err.Error(), "429 Too Many Requests") {
		t.Errorf("error %v", err)
	}
}

// TestTimeLimit: a service that does not answer holds the call no longer
// than its time limit, waits included.
func TestTimeLimit(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	c := &insights.Client{URL: ts.URL, HTTP: &http.Client{}, Timeout: 300 * time.Millisecond}
	start := time.Now()
	_, err := c.Submit(context.Background(), sub(""))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s", took)
	}
	if err == nil || !strings.Contains(err.Error(), "no answer in time") {
		t.Errorf("error %v", err)
	}
}

// forwardProxy is an HTTP proxy on loopback that sends every request to
// target, whatever host it names, and records the hosts it was asked for.
func forwardProxy(t *testing.T, target string) (*httptest.Server, func() []string) {
	t.Helper()
	u, _ := url.Parse(target)
	var mu sync.Mutex
	var hosts []string
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		mu.Lock()
		hosts = append(hosts, r.In.Host)
		mu.Unlock()
		r.SetURL(u)
	}}
	ts := httptest.NewServer(rp)
	t.Cleanup(ts.Close)
	return ts, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hosts...)
	}
}

// TestProxy: submissions go through HTTP_PROXY, and NO_PROXY sends them
// direct. The service is named by a host that only the proxy can reach
// (requests to loopback addresses never go through a proxy).
func TestProxy(t *testing.T) {
	svc := newService(t, "")
	proxy, seen := forwardProxy(t, svc.ts.URL)
	_, port, _ := net.SplitHostPort(svc.ts.Listener.Addr().String())
	insightsURL := "http://insights.specgate.invalid:" + port
	clientWith := func(vars map[string]string) *insights.Client {
		hc, err := httpx.NewClient(httpx.ClientOptions{Timeout: 5 * time.Second, Getenv: func(k string) string { return vars[k] }})
		if err != nil {
			t.Fatal(err)
		}
		return &insights.Client{URL: insightsURL, HTTP: hc, Timeout: 5 * time.Second, Attempts: 1}
	}
	if _, err := clientWith(map[string]string{"HTTP_PROXY": proxy.URL}).Submit(context.Background(), sub("")); err != nil {
		t.Fatal(err)
	}
	if got := seen(); len(got) != 1 || got[0] != "insights.specgate.invalid:"+port {
		t.Errorf("the proxy saw %v", got)
	}
	if svc.srv.Store().Count() != 1 {
		t.Error("not stored")
	}
	_, err := clientWith(map[string]string{"HTTP_PROXY": proxy.URL, "NO_PROXY": ".invalid"}).Submit(context.Background(), sub(""))
	if err == nil || !strings.Contains(err.Error(), "insights.specgate.invalid") {
		t.Errorf("direct to a name no resolver knows: %v", err)
	}
	if got := seen(); len(got) != 1 {
		t.Errorf("the proxy saw %v after NO_PROXY", got)
	}
}

// TestSubmitContentID: a submission without an id gets one made from its
// content, so the same reports sent twice are one submission (the second
// a replay), and other content gets another id.
func TestSubmitContentID(t *testing.T) {
	svc := newService(t, "")
	c := client(svc.ts.URL, "", &sleeps{})
	first, second, other := sub(""), sub(""), sub("")
	other.Results[0].Status = "failed"
	r1, err := c.Submit(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.Submit(context.Background(), second)
	if err != nil {
		t.Fatal(err)
	}
	r3, err := c.Submit(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(r1.ID) || first.ID != r1.ID {
		t.Errorf("id %q (submission %q)", r1.ID, first.ID)
	}
	if r2.ID != r1.ID || r1.Duplicate || !r2.Duplicate {
		t.Errorf("the same content sent twice: %+v, %+v", r1, r2)
	}
	if r3.ID == r1.ID || r3.Duplicate {
		t.Errorf("other content: %+v", r3)
	}
	if n := svc.srv.Store().Count(); n != 2 {
		t.Errorf("%d stored, want 2", n)
	}
}
