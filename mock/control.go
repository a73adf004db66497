package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
)

// The mock's own endpoints, under ReservedPrefix.
var Endpoints = [][3]string{
	{"GET", ReservedPrefix + "health", "liveness, the specs served and the last reload (application/health+json)"},
	{"GET", ReservedPrefix + "usage", "the stub-usage report so far"},
	{"GET", ReservedPrefix + "expectations", "the examples added at run time"},
	{"POST", ReservedPrefix + "expectations", "add an example (the external example format) for the requests it matches"},
	{"DELETE", ReservedPrefix + "expectations", "remove the examples added at run time, and forget used transient examples"},
	{"GET", ReservedPrefix + "state", "the stateful mock's store: every spec's collections and resources, and what seeding did"},
	{"DELETE", ReservedPrefix + "state", "put the stateful mock's store back to its seeded state"},
	{"POST", ReservedPrefix + "state/save", "write the stateful mock's store to its --state-file now"},
}

func (s *Server) routes() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.URL.Path) >= len(ReservedPrefix) && r.URL.Path[:len(ReservedPrefix)] == ReservedPrefix {
			s.serveControl(w, r)
			return
		}
		s.serveAPI(w, r)
	})
}

func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	type route struct {
		method string
		h      http.HandlerFunc
	}
	var routes []route
	switch r.URL.Path[len(ReservedPrefix):] {
	case "health":
		routes = []route{{http.MethodGet, s.handleHealth}}
	case "usage":
		routes = []route{{http.MethodGet, func(w http.ResponseWriter, r *http.Request) {
			httpx.WriteJSON(w, http.StatusOK, "application/json", s.Usage())
		}}}
	case "expectations":
		routes = []route{{http.MethodGet, s.listExpectations}, {http.MethodPost, s.addExpectation}, {http.MethodDelete, s.clearExpectations}}
	case "state", "state/save":
		if s.state == nil {
			httpx.WriteProblem(w, r, problems.New(http.StatusNotFound, kindNotFound,
				fmt.Sprintf("%s is the stateful mock's; this mock is stateless (start it with --stateful, or type: stateful-mock)", r.URL.Path)))
			return
		}
		if r.URL.Path == ReservedPrefix+"state" {
			routes = []route{{http.MethodGet, s.dumpState}, {http.MethodDelete, s.resetState}}
		} else {
			routes = []route{{http.MethodPost, s.saveState}}
		}
	default:
		httpx.WriteProblem(w, r, problems.New(http.StatusNotFound, kindNotFound,
			fmt.Sprintf("no endpoint of the mock at %s; its endpoints are %shealth, usage, expectations and state", r.URL.Path, ReservedPrefix)))
		return
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	var allow []string
	for _, rt := range routes {
		if rt.method == method {
			rt.h(w, r)
			return
		}
		allow = append(allow, rt.method)
	}
	w.Header().Set("Allow", joinComma(allow))
	httpx.WriteProblem(w, r, problems.New(http.StatusMethodNotAllowed, kindMethodNotAllowed,
		fmt.Sprintf("%s answers %s, not %s", r.URL.Path, joinComma(allow), r.Method)))
}

func joinComma(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x)
	}
	return b.String()
}

// Health is the body of GET /_specgate/health.
type Health struct {
	Status string       `json:"status"` // pass, warn (the last reload failed), fail (shutting down)
	Output string       `json:"output,omitempty"`
	Specs  []SpecHealth `json:"specs"`
	// LoadedAt is when the serving specs and examples were loaded.
	LoadedAt     time.Time `json:"loadedAt"`
	Reloads      int       `json:"reloads"`
	ReloadErrors int       `json:"reloadErrors"`
	Expectations int       `json:"expectations"`
	UptimeSecs   int64     `json:"uptimeSeconds"`
	// Stateful is true for the stateful mock.
	Stateful bool `json:"stateful,omitempty"`
}

// SpecHealth is one served spec.
type SpecHealth struct {
	Spec       string   `json:"spec"`
	Version    string   `json:"version"`
	Prefixes   []string `json:"prefixes"`
	Operations int      `json:"operations"`
	Examples   int      `json:"examples"`
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	gen := s.current.Load()
	at, lastErr, reloads, failures := s.reloads.snapshot()
	h := Health{Status: "pass", LoadedAt: gen.loaded.UTC(), Reloads: reloads, ReloadErrors: failures,
		Expectations: s.expectations.count(), UptimeSecs: int64(time.Since(s.started).Seconds()), Specs: []SpecHealth{}, Stateful: s.state != nil}
	for _, a := range gen.apis {
		n := 0
		for _, op := range a.ops {
			n += len(op.examples)
		}
		h.Specs = append(h.Specs, SpecHealth{Spec: a.name, Version: a.doc.String(), Prefixes: a.prefixes, Operations: len(a.ops), Examples: n})
	}
	if lastErr != "" {
		h.Status, h.Output = "warn", fmt.Sprintf("the reload at %s failed; the specs loaded at %s keep serving: %s",
			at.UTC().Format(time.RFC3339), gen.loaded.UTC().Format(time.RFC3339), lastErr)
	}
	status := http.StatusOK
	if s.draining.Load() {
		h.Status, h.Output, status = "fail", "shutting down: finishing the requests in flight", http.StatusServiceUnavailable
	}
	httpx.WriteJSON(w, status, "application/health+json", h)
}

// expectations are the examples added at run time, newest first. They
// belong to an operation by its spec, method and path template, so that
// they survive reloads.
type expectations struct {
	mu   sync.RWMutex
	list []*expectation
	seq  int
}

type expectation struct {
	key  string // opKey of the operation
	ex   *example
	body json.RawMessage // as posted
}

func (e *expectations) of(op *operation) []*example {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if len(e.list) == 0 {
		return nil
	}
	k := opKey(op.api.name, op.method, op.path)
	var out []*example
	for _, x := range e.list {
		if x.key == k {
			out = append(out, x.ex)
		}
	}
	return out
}

func (e *expectations) count() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.list)
}

// ExpectationAdded is the body of a 201 from POST /_specgate/expectations.
type ExpectationAdded struct {
	Name      string `json:"name"`
	Spec      string `json:"spec"`
	Operation string `json:"operation"`
	Status    int    `json:"status"`
}

func (s *Server) addExpectation(w http.ResponseWriter, r *http.Request) {
	body, p := problems.ReadBody(w, r, s.opts.MaxBodySize, "--max-body-size")
	if p != nil {
		httpx.WriteProblem(w, r, p)
		return
	}
	gen := s.current.Load()
	s.expectations.mu.Lock()
	s.expectations.seq++
	name := fmt.Sprintf("expectation-%d", s.expectations.seq)
	s.expectations.mu.Unlock()
	file := "expectation.json"
	if ct := r.Header.Get("Content-Type"); strings.Contains(ct, "yaml") {
		file = "expectation.yaml"
	}
	parsed, err := examples.Parse(file, body, examples.Options{})
	var op *operation
	var ex *example
	if err == nil {
		if parsed.Name == "expectation" {
			parsed.Name = name
		}
		op, ex, err = s.externalExample(gen, parsed, fromExpectation)
		if err == nil && op == nil {
			err = fmt.Errorf("%s: a 405 expectation is not supported; write it as an example file", parsed.Loc)
		}
	}
	if err == nil {
		if p := breaks(op, ex, parsed); p != nil {
			httpx.WriteProblem(w, r, p)
			return
		}
	}
	if err != nil {
		p := problems.New(http.StatusBadRequest, kindBadRequest, err.Error())
		var es examples.Errors
		var se *spec.Error
		if errors.As(err, &es) && len(es) > 0 {
			se = es[0]
		} else {
			errors.As(err, &se)
		}
		if se != nil {
			p.Line, p.Column = int(se.Pos.Line), int(se.Pos.Col)
		}
		httpx.WriteProblem(w, r, p)
		return
	}
	ex.usage = nil
	s.expectations.mu.Lock()
	s.expectations.list = slices.Insert(s.expectations.list, 0, &expectation{key: opKey(op.api.name, op.method, op.path), ex: ex, body: body})
	s.expectations.mu.Unlock()
	s.usage.mu.Lock()
	if c := s.usage.ops[opKey(op.api.name, op.method, op.path)]; c != nil {
		ex.usage = c.example(ex.name, ex.source)
	}
	s.usage.mu.Unlock()
	w.Header().Set("Location", ReservedPrefix+"expectations")
	httpx.WriteJSON(w, http.StatusCreated, "application/json", ExpectationAdded{Name: ex.name, Spec: op.api.name, Operation: op.String(), Status: ex.status})
}

// breaks checks an expectation against the spec of its operation as
// specgate examples validate does (its request's parameters and body, its
// response's status, headers and body, notations standing for the
// values they take), and refuses it with a 400 naming each problem and
// where it is written: an expectation that breaks its spec would never
// answer. A 4xx the operation does not declare is allowed, as in example
// files.
func breaks(op *operation, ex *example, parsed *examples.Example) *httpx.Problem {
	var found []examples.Finding
	for _, f := range op.api.checker.Check(parsed) {
		if f.Code == examples.CodeStatusUndeclared && ex.status >= 400 {
			continue
		}
		found = append(found, f)
	}
	if len(found) == 0 {
		return nil
	}
	first := found[0]
	p := problems.New(http.StatusBadRequest, kindBadRequest, fmt.Sprintf("the expectation breaks %s (%s): %s at %s", op.api.name, op, first.Message, first.Path))
	p.Line, p.Column = int(first.Loc.Range.Start.Line), int(first.Loc.Range.Start.Col)
	for _, f := range found {
		p.Errors = append(p.Errors, httpx.Issue{In: "body", Path: f.Path, Keyword: f.Code,
			Message: fmt.Sprintf("%d:%d: %s", f.Loc.Range.Start.Line, f.Loc.Range.Start.Col, f.Message)})
	}
	return p
}

func (s *Server) dumpState(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(s.state.snapshot(true))
}

func (s *Server) resetState(w http.ResponseWriter, r *http.Request) {
	if err := s.state.reset(); err != nil {
		httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, kindInternal, err.Error()))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) saveState(w http.ResponseWriter, r *http.Request) {
	if s.state.file == "" {
		httpx.WriteProblem(w, r, problems.New(http.StatusConflict, kindNoStateFile, "no state file: start the mock with --state-file FILE"))
		return
	}
	if err := s.state.save(); err != nil {
		httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, kindInternal, err.Error()))
		return
	}
	httpx.WriteJSON(w, http.StatusOK, "application/json", map[string]string{"file": s.state.file})
}

func (s *Server) listExpectations(w http.ResponseWriter, r *http.Request) {
	s.expectations.mu.RLock()
	out := make([]json.RawMessage, 0, len(s.expectations.list))
	for _, x := range s.expectations.list {
		out = append(out, x.body)
	}
	s.expectations.mu.RUnlock()
	httpx.WriteJSON(w, http.StatusOK, "application/json", out)
}

func (s *Server) clearExpectations(w http.ResponseWriter, r *http.Request) {
	s.expectations.mu.Lock()
	s.expectations.list = nil
	s.expectations.mu.Unlock()
	s.transient.reset()
	w.WriteHeader(http.StatusNoContent)
}
