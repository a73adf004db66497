package httpx

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/exchangetest"
	"github.com/specgate/specgate/internal/outputtest"
)

var testCatalog = &Catalog{
	Base:   "https://example.com/docs#",
	Titles: map[string]string{KindNotFound: "No such thing", KindInternal: "Internal error", KindTooLarge: "Too large"},
}

// logLines decodes the JSON log lines written so far.
func logLines(t *testing.T, logs *outputtest.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// serve runs h behind Logged on a loopback server and returns its URL and
// its log.
func serve(t *testing.T, h http.Handler) (string, *outputtest.Buffer) {
	t.Helper()
	logs := &outputtest.Buffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	ts := httptest.NewServer(Logged(logger, testCatalog, h))
	t.Cleanup(ts.Close)
	return ts.URL, logs
}

// A problem is written with its members in a fixed order, empty ones
// left out, the request's path and id, and noted on the access log line.
func TestWriteProblem(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := testCatalog.New(http.StatusNotFound, KindNotFound, "no <pets> here")
		p.Errors = []Issue{{In: "query", Name: "limit", Path: "$", Keyword: "maximum", Message: "must be at most 100"}}
		p.RetryAfter = 3
		WriteProblem(w, r, p)
	}))
	req, _ := http.NewRequest(http.MethodGet, url+"/pets/7?x=1", nil)
	req.Header.Set("X-Request-Id", "trace-1")
	resp, body := exchangetest.Send(t, req)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("status %d, want 404", resp.StatusCode)
	}
	for name, want := range map[string]string{
		"Content-Type": "application/problem+json", "Cache-Control": "no-store",
		"Retry-After": "3", "X-Request-Id": "trace-1",
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	want := `{"type":"https://example.com/docs#not-found","title":"No such thing","status":404,"detail":"no <pets> here","instance":"/pets/7",` +
		`"errors":[{"in":"query","name":"limit","path":"$","keyword":"maximum","message":"must be at most 100"}],"requestId":"trace-1"}` + "\n"
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
	lines := logLines(t, logs)
	if len(lines) != 1 || lines[0]["problem"] != KindNotFound || lines[0]["detail"] != "no <pets> here" || lines[0]["status"] != 404.0 {
		t.Errorf("log: %v", lines)
	}
}

// A kind without a title in the catalog takes the status text.
func TestCatalogUnknownKind(t *testing.T) {
	p := testCatalog.New(http.StatusTeapot, "teapot", "")
	if p.Title != "I'm a teapot" || p.Type != "https://example.com/docs#teapot" || p.Kind() != "teapot" {
		t.Errorf("%+v, kind %q", p, p.Kind())
	}
	if k := (&Problem{Type: "about:blank"}).Kind(); k != "about:blank" {
		t.Errorf("kind of about:blank: %q", k)
	}
}

// Each request gets one access log line with its id (kept from the
// request when it is well formed), method, path, status, size and what
// the handler added.
func TestLogged(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		LogAttrs(r.Context(), slog.String("operation", "listPets"))
		if RequestID(r.Context()) == "" {
			t.Error("no request id in the handler's context")
		}
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "hello")
	}))
	for _, id := range []string{"keep-me.1", "not valid!", ""} {
		req, _ := http.NewRequest(http.MethodPost, url+"/pets", nil)
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		resp, _ := exchangetest.Send(t, req)
		got := resp.Header.Get("X-Request-Id")
		if id == "keep-me.1" && got != id {
			t.Errorf("X-Request-Id %q, want it kept", got)
		}
		if id != "keep-me.1" && (len(got) != 16 || got == id) {
			t.Errorf("X-Request-Id %q for %q, want a new 16-digit id", got, id)
		}
	}
	lines := logLines(t, logs)
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3: %v", len(lines), lines)
	}
	l := lines[0]
	for k, want := range map[string]any{"msg": "request", "requestId": "keep-me.1", "method": "POST", "path": "/pets", "status": 201.0, "bytes": 5.0, "operation": "listPets"} {
		if l[k] != want {
			t.Errorf("log %s = %v, want %v", k, l[k], want)
		}
	}
	if _, ok := l["duration"]; !ok {
		t.Error("no duration in the log line")
	}
}

// A panicking handler answers a 500 problem and logs the panic; the server
// goes on serving.
func TestLoggedRecovers(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/boom" {
			panic("boom")
		}
		io.WriteString(w, "ok")
	}))
	resp, body := exchangetest.Send(t, mustRequest(t, http.MethodGet, url+"/boom", nil))
	if resp.StatusCode != 500 || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	var p Problem
	if err := json.Unmarshal(body, &p); err != nil || p.Type != testCatalog.Base+KindInternal || p.Title != "Internal error" {
		t.Errorf("problem %+v (%v)", p, err)
	}
	if resp, _ := exchangetest.Send(t, mustRequest(t, http.MethodGet, url+"/", nil)); resp.StatusCode != 200 {
		t.Errorf("after the panic: %d", resp.StatusCode)
	}
	lines := logLines(t, logs)
	if len(lines) != 3 || lines[0]["msg"] != "panic" || lines[0]["panic"] != "boom" || lines[1]["status"] != 500.0 {
		t.Errorf("log: %v", lines)
	}
}

func mustRequest(t *testing.T, method, url string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// An incoming request id is kept only when it is 1 to 128 letters, digits,
// '.', '_', ':' or '-'.
func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"trace-42":               true,
		"a.b_c:d-E9":             true,
		strings.Repeat("x", 128): true,
		strings.Repeat("x", 129): false,
		"":                       false,
		"with space":             false,
		"new\nline":              false,
		"é":                      false,
		"{id}":                   false,
		"a/b":                    false,
	} {
		if got := ValidRequestID(id); got != want {
			t.Errorf("ValidRequestID(%q) = %v, want %v", id, got, want)
		}
	}
}

// endless is a body that never ends, sent without a Content-Length.
type endless struct{ sent int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.sent += int64(len(p))
	return len(p), nil
}

// ReadBody refuses a body beyond its limit whether its length is declared
// (before reading any of it) or not (after reading the limit), and
// Catalog.ReadBody answers that with the problem of the limit's flag.
func TestReadBody(t *testing.T) {
	const limit = 1 << 10
	url, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, p := testCatalog.ReadBody(w, r, limit, "--max-body-size")
		if p != nil {
			WriteProblem(w, r, p)
			return
		}
		w.Write(body)
	}))
	tests := []struct {
		name   string
		body   func() io.Reader
		length int64 // -1: chunked
		status int
		echoed int
	}{
		{"empty", func() io.Reader { return http.NoBody }, 0, 200, 0},
		{"at the limit", func() io.Reader { return strings.NewReader(strings.Repeat("a", limit)) }, limit, 200, limit},
		{"declared larger", func() io.Reader { return strings.NewReader(strings.Repeat("a", limit+1)) }, limit + 1, 413, 0},
		{"chunked at the limit", func() io.Reader { return strings.NewReader(strings.Repeat("a", limit)) }, -1, 200, limit},
		{"chunked and endless", func() io.Reader { return io.LimitReader(&endless{}, 100<<20) }, -1, 413, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := mustRequest(t, http.MethodPost, url, tt.body())
			req.ContentLength = tt.length
			resp, body := exchangetest.Send(t, req)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.status == 413 {
				var p Problem
				if err := json.Unmarshal(body, &p); err != nil || p.Detail != "the request body is larger than the 1 KiB limit (--max-body-size)" {
					t.Errorf("problem %+v (%v)", p, err)
				}
			} else if len(body) != tt.echoed {
				t.Errorf("echoed %d bytes", len(body))
			}
		})
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1 << 10: "1 KiB", 1536: "1.5 KiB", 100 << 20: "100 MiB", 2 << 30: "2 GiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// Listen binds the loopback address by default and picks a free port for
// port 0; BaseURL names an address a client on the machine reaches.
func TestListen(t *testing.T) {
	ln, err := Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if host != "127.0.0.1" || port == "0" {
		t.Errorf("listening on %s", ln.Addr())
	}
	if got := BaseURL(ln.Addr()); got != "http://127.0.0.1:"+port {
		t.Errorf("BaseURL %q", got)
	}
	if _, err := Listen("", 70000); err == nil || !strings.Contains(err.Error(), "between 0 and 65535") {
		t.Errorf("port 70000: %v", err)
	}
	for addr, want := range map[string]string{"0.0.0.0:80": "http://127.0.0.1:80", "[::]:81": "http://[::1]:81", "[::1]:82": "http://[::1]:82"} {
		a, _ := net.ResolveTCPAddr("tcp", addr)
		if got := BaseURL(a); got != want {
			t.Errorf("BaseURL(%s) = %q, want %q", addr, got, want)
		}
	}
}

// Serve finishes the requests in flight when its context ends, refusing
// new connections, and reports requests still running at the deadline.
func TestServeShutdown(t *testing.T) {
	for _, tt := range []struct {
		name    string
		timeout time.Duration
		wantErr string
	}{
		{"in time", 5 * time.Second, ""},
		{"deadline", 50 * time.Millisecond, "requests still in flight after 50ms (--shutdown-timeout)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			entered, release := make(chan struct{}), make(chan struct{})
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				close(entered)
				<-release
				io.WriteString(w, "done")
			})
			ln, err := Listen("", 0)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			drained := make(chan struct{})
			served := make(chan error, 1)
			go func() {
				served <- Serve(ctx, NewServer(h, slog.New(slog.DiscardHandler)), ln, Shutdown{
					Timeout: tt.timeout, Flag: "--shutdown-timeout", Draining: func() { close(drained) },
				})
			}()
			answer := make(chan string, 1)
			go func() {
				resp, err := http.Get(BaseURL(ln.Addr()))
				if err != nil {
					answer <- err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				answer <- string(b)
			}()
			<-entered
			cancel()
			<-drained
			// New connections are refused once shutting down.
			deadline := time.Now().Add(5 * time.Second)
			for {
				c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second)
				if err != nil {
					break
				}
				c.Close()
				if time.Now().After(deadline) {
					t.Fatal("connections still accepted during shutdown")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if tt.wantErr == "" {
				close(release)
				if got := <-answer; got != "done" {
					t.Errorf("the request in flight got %q", got)
				}
				if err := <-served; err != nil {
					t.Errorf("Serve: %v", err)
				}
				return
			}
			err = <-served
			close(release)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Serve: %v, want %q", err, tt.wantErr)
			}
			<-answer
		})
	}
}

// countingWriter counts the writes it gets.
type countingWriter struct {
	mu     sync.Mutex
	writes int
	buf    bytes.Buffer
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	return c.buf.Write(p)
}

func (c *countingWriter) state() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes, c.buf.String()
}

// A LogBuffer writes lines in batches: when its time is up, when it is
// full, and on Close; nothing is lost or reordered.
func TestLogBuffer(t *testing.T) {
	w := &countingWriter{}
	b := NewLogBuffer(w, 64, 30*time.Millisecond)
	for i := range 3 {
		fmt.Fprintf(b, "line %d\n", i)
	}
	if n, _ := w.state(); n != 0 {
		t.Fatalf("%d writes before the flush interval", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if n, got := w.state(); n == 1 {
			if got != "line 0\nline 1\nline 2\n" {
				t.Fatalf("flushed %q", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no flush after the interval")
		}
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Fprint(b, strings.Repeat("a", 60))
	fmt.Fprint(b, strings.Repeat("b", 10)) // does not fit: the a's go out first
	if n, got := w.state(); n != 2 || !strings.HasSuffix(got, strings.Repeat("a", 60)) {
		t.Fatalf("after filling the buffer: %d writes, %q", n, got)
	}
	fmt.Fprint(b, strings.Repeat("c", 100)) // larger than the buffer: written through
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, got := w.state(); !strings.HasSuffix(got, strings.Repeat("b", 10)+strings.Repeat("c", 100)) {
		t.Fatalf("after Close: %q", got)
	}
}

// TestLoggedFlushes: a handler behind Logged that flushes sends its first
// part to the client before it writes the rest.
func TestLoggedFlushes(t *testing.T) {
	release := make(chan struct{})
	h := Logged(slog.New(slog.DiscardHandler), &Catalog{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "second\n")
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer close(release)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "first\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
}

// Shutting down closes at once the connections that carry no request: an
// idle keep-alive one, and one opened and never used (a browser's
// preconnect), which net/http would otherwise wait 5 s for. A request in
// flight still finishes, told to close its connection.
func TestServeShutdownClosesUnusedConnections(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(entered)
			<-release
		}
		io.WriteString(w, "done")
	})
	ln, err := Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, NewServer(h, slog.New(slog.DiscardHandler)), ln, Shutdown{Timeout: 30 * time.Second, Flag: "--shutdown-timeout"})
	}()
	dial := func() net.Conn {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// One connection opened and never used, one idle after a request.
	unused := dial()
	idle := dial()
	fmt.Fprintf(idle, "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
	idleReader := bufio.NewReader(idle)
	resp, err := http.ReadResponse(idleReader, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	// One with a request in flight.
	busy := dial()
	fmt.Fprintf(busy, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
	<-entered

	began := time.Now()
	cancel()
	for name, c := range map[string]net.Conn{"unused": unused, "idle": idle} {
		c.SetReadDeadline(time.Now().Add(3 * time.Second))
		var r io.Reader = c
		if name == "idle" {
			r = idleReader
		}
		if n, err := r.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("the %s connection: read %d bytes, %v; want it closed by the server", name, n, err)
		}
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("the unused connections were closed after %s", took)
	}
	close(release)
	busy.SetReadDeadline(time.Now().Add(3 * time.Second))
	resp, err = http.ReadResponse(bufio.NewReader(busy), nil)
	if err != nil {
		t.Fatalf("the request in flight: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "done" || !resp.Close {
		t.Errorf("the request in flight got %q (Connection: close %v), want done and its connection closed", body, resp.Close)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("Serve returned %s after the shutdown began", took)
	}
}

func TestWriteJSON(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteJSON(rec, http.StatusCreated, "application/health+json", map[string]any{"status": "pass", "note": "<a & b>"})
	want := "{\n  \"note\": \"<a & b>\",\n  \"status\": \"pass\"\n}\n"
	if rec.Code != http.StatusCreated || rec.Body.String() != want {
		t.Errorf("WriteJSON: %d %q, want 201 %q", rec.Code, rec.Body.String(), want)
	}
	if ct, cc := rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"); ct != "application/health+json" || cc != "no-store" {
		t.Errorf("headers: Content-Type %q, Cache-Control %q", ct, cc)
	}
	rec = httptest.NewRecorder()
	WriteJSON(rec, http.StatusOK, "application/json", map[string]any{"c": make(chan int)})
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "unsupported type") {
		t.Errorf("a value that does not encode: %d %q, want a 500 saying why", rec.Code, rec.Body.String())
	}
}
