package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/internal/exchangetest"
	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/internal/outputtest"
	"github.com/specgate/specgate/reports"
)

// commit writes files (an empty content deletes the file) and commits
// them; it returns the new commit.
func commit(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		if content == "" {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		filetest.File(t, dir, name, content)
	}
	return gittest.Commit(t, dir, "change")
}

// Configurations used across the tests.
const (
	// Two profiles: default (recommended) and strict, plus a custom rule
	// that runs in both.
	twoProfiles = `rules:
  title-short:
    description: Titles are short.
    message: "the title is longer than 10 characters"
    severity: warn
    given: "$.info.title"
    then: {function: length, functionOptions: {max: 10}}
profiles:
  default:
    rules:
      extends: [recommended]
  strict:
    rules:
      extends: [strict]
`
	// No profiles: the default ruleset.
	noProfiles = "rules: {}\n"
)

// A small spec with known findings: no health endpoints, a GET without
// summary or tags, a long title.
const smallSpec = `openapi: 3.1.0
info:
  title: A title longer than ten
  version: "1"
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: the pets
`

// testServer is a Server serving on a loopback port.
type testServer struct {
	*Server
	url    string
	logs   *outputtest.Buffer
	cancel context.CancelFunc
	done   chan error
}

func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// start runs a server with opts (ConfigRepo required) on 127.0.0.1:0 until
// the test ends.
func start(t testing.TB, opts Options) *testServer {
	t.Helper()
	logs := &outputtest.Buffer{}
	if opts.Logger == nil {
		opts.Logger = newTestLogger(logs)
	}
	srv, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{Server: srv, url: "http://" + ln.Addr().String(), logs: logs, cancel: cancel, done: make(chan error, 1)}
	go func() { ts.done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		if err := ts.stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ts
}

// stop shuts the server down and returns what Serve returned (once).
func (ts *testServer) stop() error {
	ts.cancel()
	select {
	case err, ok := <-ts.done:
		if ok {
			close(ts.done)
		}
		return err
	case <-time.After(time.Minute):
		return errors.New("Serve did not return within a minute")
	}
}

// response is an answer read in full.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (ts *testServer) do(t testing.TB, method, path, contentType, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, ts.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return send(t, req)
}

// send sends req and reads its answer in full.
func send(t testing.TB, req *http.Request) response {
	t.Helper()
	resp, body := exchangetest.Send(t, req)
	return response{status: resp.StatusCode, header: resp.Header, body: body}
}

func (ts *testServer) get(t testing.TB, path string) response {
	t.Helper()
	return ts.do(t, http.MethodGet, path, "", "")
}

// lint posts a lint request built from members (marshalled to JSON).
func (ts *testServer) lint(t testing.TB, members map[string]string) response {
	t.Helper()
	return ts.do(t, http.MethodPost, "/lint-reports", "application/json", lintBody(members))
}

// lintBody is the JSON body of a lint request with members ("spec",
// "profile", …) as strings.
func lintBody(members map[string]string) string {
	body, _ := json.Marshal(members) // a map of strings always encodes
	return string(body)
}

// corpusSpec is the text of a spec of the corpus beside the checkout; the
// test is skipped when the corpus is not there.
func corpusSpec(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpustest.Require(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// report decodes a 200 JSON lint report.
func report(t testing.TB, r response) reports.JSONReport {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	var rep reports.JSONReport
	if err := json.Unmarshal(r.body, &rep); err != nil {
		t.Fatalf("decoding the report: %v\n%s", err, r.body)
	}
	return rep
}

// problem decodes a problem response and checks its status and type.
func problem(t testing.TB, r response, status int, kind string) Problem {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json", ct)
	}
	var p Problem
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("decoding the problem: %v\n%s", err, r.body)
	}
	if p.Type != ProblemTypes+kind || p.Status != status || p.Title == "" {
		t.Fatalf("problem %+v, want type %s and status %d", p, kind, status)
	}
	return p
}

// findings lists a report's diagnostics as "rule line:col" strings.
func findings(rep reports.JSONReport) []string {
	var out []string
	for _, d := range rep.Diagnostics {
		out = append(out, d.RuleID+" "+strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Column))
	}
	return out
}

func hasRule(rep reports.JSONReport, rule string) bool {
	for _, d := range rep.Diagnostics {
		if d.RuleID == rule {
			return true
		}
	}
	return false
}

// status reads /config/status.
// lintHeld posts a lint request for a spec whose server answers only once
// release is closed, and returns once the request holds a lint slot (it
// is fetching the spec); its response arrives on the channel.
func (ts *testServer) lintHeld(t testing.TB) (<-chan response, chan<- struct{}) {
	entered, release := make(chan struct{}), make(chan struct{})
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		fmt.Fprint(w, smallSpec)
	}))
	t.Cleanup(origin.Close)
	out := make(chan response, 1)
	go func() { out <- ts.lint(t, map[string]string{"specUrl": origin.URL + "/spec.yaml"}) }()
	<-entered
	return out, release
}

func (ts *testServer) status(t testing.TB) ConfigStatus {
	t.Helper()
	r := ts.get(t, "/config/status")
	if r.status != http.StatusOK {
		t.Fatalf("/config/status: %d %s", r.status, r.body)
	}
	var st ConfigStatus
	if err := json.Unmarshal(r.body, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitFor polls /config/status until cond holds, for up to 30 seconds.
func (ts *testServer) waitFor(t testing.TB, what string, cond func(ConfigStatus) bool) ConfigStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := ts.status(t)
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: status %+v", what, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
