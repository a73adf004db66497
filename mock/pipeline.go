package mock

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
)

// The request pipeline: each step takes what the previous ones found and
// returns a value or a problem; serve strings them together. The decision
// table they implement is in docs/mock.md.
//
//	route → read body → security → validate → negotiate → answer (responder,
//	Prefer, examples, generate) → render

// Exchange is a request the mock is answering: its operation and what the
// steps read from it. A Responder sees it once the request passed the
// contract's checks.
type Exchange struct {
	Request   *http.Request
	Operation *spec.Operation
	Route     *contract.Route
	// Body is the request body as sent; Value its decoded JSON value when
	// it is JSON (nil otherwise).
	Body  []byte
	Value any
	// Params are the decoded parameters, typed by their schemas.
	Params contract.Params

	op  *operation
	gen *generation
}

// Answer is what the mock sends for an exchange.
type Answer struct {
	Status    int
	Header    http.Header
	MediaType string // the body's media type; "" for no body
	Body      any    // a JSON value, encoded for MediaType
	Raw       []byte // a body sent as it is, when not nil
	// Example names the example used, "generated" for a generated answer.
	Example string
	Delay   time.Duration
}

// Responder answers an exchange itself; ok false leaves it to the
// examples. It is the seam of the stateful mock, whose store takes over
// the operations shaped as create, read, update and delete.
type Responder func(*Exchange) (a *Answer, ok bool)

// prefs are the client's choices of answer: Prefer header (RFC 7240) or
// the query parameters __code, __example and __dynamic.
type prefs struct {
	code    int
	example string
	dynamic bool
	set     bool
}

func readPrefs(r *http.Request) (prefs, error) {
	var p prefs
	for _, h := range r.Header.Values("Prefer") {
		for part := range strings.SplitSeq(h, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
			value = strings.Trim(strings.TrimSpace(value), `"`)
			if err := p.set1(strings.ToLower(strings.TrimSpace(name)), value); err != nil {
				return p, fmt.Errorf("Prefer: %w", err)
			}
		}
	}
	if strings.Contains(r.URL.RawQuery, "__") {
		q := r.URL.Query()
		for _, name := range []string{"code", "example", "dynamic"} {
			if v, ok := q["__"+name]; ok && len(v) > 0 {
				if err := p.set1(name, v[0]); err != nil {
					return p, fmt.Errorf("query __%s: %w", name, err)
				}
			}
		}
	}
	return p, nil
}

func (p *prefs) set1(name, value string) error {
	switch name {
	case "code":
		n, err := strconv.Atoi(value)
		if err != nil || n < 100 || n > 599 {
			return fmt.Errorf("code=%q is not an HTTP status", value)
		}
		p.code, p.set = n, true
	case "example":
		p.example, p.set = value, true
	case "dynamic":
		p.dynamic, p.set = value == "true" || value == "", true
	}
	return nil
}

// routeRequest finds the operation of a request among the served specs:
// the match with the longest prefix wins, then the spec given first. No
// match is 404; a path whose templates do not declare the method is 405
// with Allow.
func (g *generation) routeRequest(r *http.Request) (*operation, *contract.Route, *httpx.Problem, []string) {
	path := r.URL.EscapedPath()
	var best *contract.Route
	var bestAPI *api
	var allow []string
	for _, a := range g.apis {
		rt, err := a.contract.Route(r.Method, path)
		if err != nil {
			var re *contract.RouteError
			if errors.As(err, &re) && re.Status == http.StatusMethodNotAllowed {
				for _, m := range re.Allow {
					if !containsString(allow, m) {
						allow = append(allow, m)
					}
				}
			}
			continue
		}
		if best == nil || len(rt.Prefix) > len(best.Prefix) {
			best, bestAPI = rt, a
		}
	}
	if best != nil {
		return bestAPI.byOp[best.Op], best, nil, nil
	}
	if len(allow) > 0 {
		return nil, nil, problems.New(http.StatusMethodNotAllowed, kindMethodNotAllowed,
			fmt.Sprintf("%s does not declare %s; it declares %s", r.URL.Path, r.Method, strings.Join(allow, ", "))), allow
	}
	return nil, nil, problems.New(http.StatusNotFound, kindNotFound,
		fmt.Sprintf("no operation of the specification matches %s %s", r.Method, r.URL.Path)), nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// serveAPI answers one request to the served specs.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	gen := s.current.Load()
	op, route, p, allow := gen.routeRequest(r)
	if p != nil {
		s.usage.unrouted.Add(1)
		if allow != nil {
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		httpx.WriteProblem(w, r, p)
		return
	}
	op.usage.hits.Add(1)
	httpx.LogAttrs(r.Context(), slog.String("spec", op.api.name), slog.String("operation", op.String()))
	body, err := httpx.ReadBody(w, r, s.opts.MaxBodySize)
	if err != nil {
		op.usage.problems.Add(1)
		if errors.Is(err, httpx.ErrTooLarge) {
			httpx.WriteProblem(w, r, problems.TooLarge(s.opts.MaxBodySize, "--max-body-size"))
			return
		}
		httpx.WriteProblem(w, r, problems.New(http.StatusBadRequest, kindBadRequest, err.Error()))
		return
	}
	ex := &Exchange{Request: r, Operation: op.op, Route: route, Body: body, op: op, gen: gen}
	pr, err := readPrefs(r)
	if err != nil {
		s.answerProblem(w, r, op, problems.New(http.StatusBadRequest, kindNoAnswer, err.Error()))
		return
	}
	if res, status := s.check(ex); !res.OK() {
		if !s.opts.Lenient {
			s.refuse(w, ex, res, status)
			return
		}
		httpx.LogAttrs(r.Context(), slog.Bool("lenient", true), slog.Any("problems", issues(res.Problems)))
	}
	ans, p := s.answer(ex, pr)
	if p != nil {
		s.answerProblem(w, r, op, p)
		return
	}
	s.render(w, r, ex, ans)
}

func (s *Server) answerProblem(w http.ResponseWriter, r *http.Request, op *operation, p *httpx.Problem) {
	op.usage.problems.Add(1)
	httpx.WriteProblem(w, r, p)
}

// refuse answers a request that breaks the contract: for invalid
// parameters or body, a badRequest example or a 4xx example matching it
// when there is one; else the status of the decision table as a problem.
func (s *Server) refuse(w http.ResponseWriter, ex *Exchange, res *contract.RequestResult, status int) {
	if status == http.StatusBadRequest || status == http.StatusUnprocessableEntity {
		if ans := s.errorExample(ex); ans != nil {
			ex.op.usage.problems.Add(1)
			s.render(w, ex.Request, ex, ans)
			return
		}
	}
	if status == http.StatusUnauthorized && len(res.Challenges) > 0 {
		w.Header().Set("WWW-Authenticate", strings.Join(res.Challenges, ", "))
	}
	p := problems.New(status, kindOf(status), fmt.Sprintf("%s: %s", ex.op, res.Problems[0].Message))
	p.Errors = issues(res.Problems)
	s.answerProblem(w, ex.Request, ex.op, p)
}

func (s *Server) declares(op *operation, status int) bool {
	code := strconv.Itoa(status)
	for _, r := range op.op.Responses {
		if r.Status == code {
			return true
		}
	}
	return false
}

// answer chooses what to send for a valid request: the responder's
// answer, then what the preferences ask for, then the most specific
// matching example, then the lowest declared 2xx response.
func (s *Server) answer(ex *Exchange, pr prefs) (*Answer, *httpx.Problem) {
	if s.opts.Responder != nil && !pr.set {
		if a, ok := s.opts.Responder(ex); ok {
			return a, nil
		}
	}
	candidates := s.candidates(ex.op)
	if pr.example != "" {
		for _, e := range candidates {
			if e.name == pr.example && (pr.code == 0 || e.status == pr.code) {
				return s.fromExample(ex, e)
			}
		}
		return nil, problems.New(http.StatusNotFound, kindNoAnswer,
			fmt.Sprintf("%s has no example named %q%s (examples: %s)", ex.op, pr.example, codeNote(pr.code), exampleNames(candidates)))
	}
	if !pr.dynamic {
		if e := s.bestExample(ex, candidates, pr.code); e != nil {
			return s.fromExample(ex, e)
		}
	}
	resp, status := lowestSuccess(ex.op.op)
	if pr.code != 0 {
		resp, status = responseFor(ex.op.op, pr.code), pr.code
		if resp == nil {
			return nil, problems.New(http.StatusNotFound, kindNoAnswer,
				fmt.Sprintf("%s declares no response %d (it declares %s)", ex.op, pr.code, statusList(ex.op.op)))
		}
	}
	if resp == nil {
		return nil, problems.New(http.StatusNotImplemented, kindNoAnswer, fmt.Sprintf("%s declares no response", ex.op))
	}
	if !pr.dynamic {
		if e := s.responseExample(ex, resp, status); e != nil {
			return s.fromExample(ex, e)
		}
	}
	return s.generate(ex, resp, status, pr.dynamic)
}

func codeNote(code int) string {
	if code == 0 {
		return ""
	}
	return fmt.Sprintf(" for status %d", code)
}

func exampleNames(exs []*example) string {
	var names []string
	for _, e := range exs {
		if !containsString(names, e.name) {
			names = append(names, e.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func statusList(op *spec.Operation) string {
	var out []string
	for _, r := range op.Responses {
		out = append(out, r.Status)
	}
	return strings.Join(out, ", ")
}

// candidates are the examples of an operation in precedence order:
// expectations (newest first), then the generation's own.
func (s *Server) candidates(op *operation) []*example {
	exp := s.expectations.of(op)
	if len(exp) == 0 {
		return op.examples
	}
	return append(exp, op.examples...)
}

// bestExample is the most specific example whose request matches (of the
// preferred status, when one is asked for); among equally specific ones,
// the first in precedence order. Transient examples answer once. Examples
// for requests that break the contract are not candidates here.
func (s *Server) bestExample(ex *Exchange, candidates []*example, code int) *example {
	var best *example
	bestScore := -1
	for _, e := range candidates {
		if e.badRequest || (code != 0 && e.status != code) || (code == 0 && e.status >= 400) {
			continue
		}
		if e.request == nil || !e.matches(ex) {
			continue
		}
		if e.transient && s.transient.isUsed(e) {
			continue
		}
		if sc := e.request.specificity(); sc > bestScore {
			best, bestScore = e, sc
		}
	}
	if best != nil && best.transient && !s.transient.take(best) {
		return s.bestExample(ex, candidates, code)
	}
	return best
}

// responseExample is the first example written for a response (a
// response-only inline example) of the given status.
func (s *Server) responseExample(ex *Exchange, resp *spec.Response, status int) *example {
	for _, e := range s.candidates(ex.op) {
		if e.response == resp && e.request == nil && (e.status == status || status == 0) && !(e.transient && s.transient.isUsed(e)) {
			if e.transient && !s.transient.take(e) {
				continue
			}
			return e
		}
	}
	return nil
}

// errorExample is the example that answers a request breaking the
// contract: a badRequest example or a 4xx example whose request matches.
func (s *Server) errorExample(ex *Exchange) *Answer {
	for _, e := range s.candidates(ex.op) {
		if !(e.badRequest || (e.status >= 400 && e.status < 500)) || e.request == nil || !e.matches(ex) {
			continue
		}
		a, p := s.fromExample(ex, e)
		if p == nil {
			return a
		}
	}
	return nil
}

// lowestSuccess is the response to answer with when nothing chooses
// another: the lowest declared 2xx status, then a 2XX range (as 200),
// then default (as 200, which default covers when it is not declared).
func lowestSuccess(op *spec.Operation) (*spec.Response, int) {
	var best *spec.Response
	bestStatus := 0
	var ranged, def *spec.Response
	for _, r := range op.Responses {
		n := statusOf(r.Status)
		switch {
		case r.Status == "default":
			def = r
		case n >= 200 && n < 300 && len(r.Status) == 3 && r.Status[1] != 'X' && r.Status[1] != 'x':
			if best == nil || n < bestStatus {
				best, bestStatus = r, n
			}
		case n == 200:
			ranged = r
		}
	}
	switch {
	case best != nil:
		return best, bestStatus
	case ranged != nil:
		return ranged, 200
	case def != nil:
		return def, 0
	}
	return nil, 0
}

// responseFor is the declared response for a status: the status itself,
// its range, then default.
func responseFor(op *spec.Operation, status int) *spec.Response {
	code := strconv.Itoa(status)
	var ranged, def *spec.Response
	for _, r := range op.Responses {
		switch {
		case r.Status == code:
			return r
		case len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "xx") && r.Status[0] == code[0]:
			ranged = r
		case r.Status == "default":
			def = r
		}
	}
	if ranged != nil {
		return ranged
	}
	return def
}

// seedFor is the generator's seed for an answer: the global seed, the
// operation, the status and the media type, so that the same request gets
// the same answer; dynamic answers draw a fresh one.
func (s *Server) seedFor(op *operation, status int, media string, dynamic bool) uint64 {
	if dynamic {
		return rand.Uint64()
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00%d\x00%s", s.opts.Seed, op.api.name, op.method, op.path, status, media)
	return h.Sum64()
}
