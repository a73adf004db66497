package mock

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
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
	// method is the method the request is answered as: its own, or GET
	// for a HEAD where the path declares GET.
	method   string
	hasValue bool // Value holds the decoded body
	rawQuery map[string][]string
	echo     *examples.EchoRequest
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
	// Problem, when set, is sent instead (application/problem+json).
	Problem *httpx.Problem
	// Refused, when set, is why the request is refused, for an answer in
	// the form the spec declares for the refusal's status: it is logged,
	// and summed up in the X-Specgate-Problem header.
	Refused *httpx.Problem
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

// routeRequest finds the operation of a request made with method among
// the served specs: the match with the longest prefix wins, then the spec
// given first. No match is 404, with a hint when the path matches under a
// spec's prefix; a path whose templates do not declare the method is 405
// with Allow.
func (g *generation) routeRequest(method string, r *http.Request) (*operation, *contract.Route, *httpx.Problem, []string) {
	path := r.URL.EscapedPath()
	// Routed with the query and headers: some documents tell operations
	// of one path apart by a query they write into the path
	// ("/templates/{id}?full=true"), or by a query or header after a '#'
	// ("/#X-Amz-Target=Service.Action").
	req := &contract.Request{Method: method, Path: path, RawQuery: r.URL.RawQuery, Header: r.Header}
	var best *contract.Route
	var bestAPI *api
	var allow []string
	for _, a := range g.apis {
		rt, err := a.contract.RouteRequest(req)
		if err != nil {
			var re *contract.RouteError
			if errors.As(err, &re) && re.Status == http.StatusMethodNotAllowed {
				for _, m := range re.Allow {
					if !slices.Contains(allow, m) {
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
		allow = withHead(allow)
		return nil, nil, problems.New(http.StatusMethodNotAllowed, kindMethodNotAllowed,
			fmt.Sprintf("%s does not declare %s; it declares %s", r.URL.Path, r.Method, strings.Join(allow, ", "))), allow
	}
	detail := fmt.Sprintf("no operation of the specification matches %s %s", r.Method, r.URL.Path)
	if hint := g.prefixHint(r.Method, path); hint != "" {
		detail += "; " + hint
	}
	return nil, nil, problems.New(http.StatusNotFound, kindNotFound, detail), nil
}

// withHead adds HEAD after GET to the methods a path declares: the mock
// answers HEAD wherever GET is declared (RFC 9110, 9.3.2).
func withHead(allow []string) []string {
	if slices.Contains(allow, http.MethodHead) {
		return allow
	}
	i := slices.Index(allow, http.MethodGet)
	if i < 0 {
		return allow
	}
	return slices.Insert(slices.Clone(allow), i+1, http.MethodHead)
}

// prefixHint names where a path that matches no operation would: under a
// spec's prefix, with the path as sent or with some of its first segments
// replaced by the prefix (/v1/things where the spec serves /base/v2).
func (g *generation) prefixHint(method, path string) string {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for _, a := range g.apis {
		for _, p := range a.prefixes {
			if p == "" {
				continue
			}
			for drop := 0; drop < len(segs) && drop <= 3; drop++ {
				try := p + "/" + strings.Join(segs[drop:], "/")
				if try == path {
					continue
				}
				if _, err := a.contract.Route(method, try); err == nil || isMethodNotAllowed(err) {
					return fmt.Sprintf("%s serves its operations under %s: %s %s", a.name, p, method, unescape(try))
				}
			}
		}
	}
	return ""
}

func isMethodNotAllowed(err error) bool {
	var re *contract.RouteError
	return errors.As(err, &re) && re.Status == http.StatusMethodNotAllowed
}

func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// serveAPI answers one request to the served specs.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	gen := s.current.Load()
	method := r.Method
	op, route, p, allow := gen.routeRequest(method, r)
	if p != nil && method == http.MethodHead && slices.Contains(allow, http.MethodGet) {
		// HEAD where GET is declared: answered as GET, without the body.
		method = http.MethodGet
		op, route, p, allow = gen.routeRequest(method, r)
	}
	if p != nil {
		s.usage.unrouted.Add(1)
		if allow != nil {
			s.refuseMethod(w, r, gen, p, allow)
			return
		}
		httpx.WriteProblem(w, r, p)
		return
	}
	op.usage.hits.Add(1)
	httpx.LogAttrs(r.Context(), slog.String("spec", op.api.name), slog.String("operation", op.String()))
	ex := &Exchange{Request: r, Operation: op.op, Route: route, op: op, gen: gen, method: method}
	body, p := problems.ReadBody(w, r, s.opts.MaxBodySize, "--max-body-size")
	if p != nil {
		s.refuseWith(w, ex, p)
		return
	}
	ex.Body = body
	pr, err := readPrefs(r)
	if err != nil {
		s.answerProblem(w, r, op, problems.New(http.StatusBadRequest, kindNoAnswer, err.Error()))
		return
	}
	if res := s.check(ex); !res.OK() {
		if !s.opts.Lenient {
			s.refuse(w, ex, res)
			return
		}
		httpx.LogAttrs(r.Context(), slog.Bool("lenient", true), slog.Any("problems", issues(res.Problems)))
	}
	ans, p := s.answer(ex, pr)
	if p != nil {
		s.answerProblem(w, r, op, p)
		return
	}
	if ans.Problem != nil || ans.Refused != nil {
		op.usage.problems.Add(1)
	}
	s.render(w, r, ex, ans)
}

func (s *Server) answerProblem(w http.ResponseWriter, r *http.Request, op *operation, p *httpx.Problem) {
	op.usage.problems.Add(1)
	httpx.WriteProblem(w, r, p)
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
	return s.answerFromSpec(ex, pr)
}

// answerFromSpec chooses the answer to a valid request from the spec:
// what the preferences ask for, then the most specific matching example,
// then the lowest declared 2xx response (its example, else generated).
func (s *Server) answerFromSpec(ex *Exchange, pr prefs) (*Answer, *httpx.Problem) {
	candidates := s.candidates(ex.op)
	if pr.example != "" {
		for _, e := range candidates {
			if e.name == pr.example && (pr.code == 0 || e.status == pr.code) {
				if a, ok := s.fromExample(ex, e); ok {
					return a, nil
				}
				return nil, problems.New(http.StatusInternalServerError, kindInternal,
					fmt.Sprintf("%s: example %q (%s) does not give a valid answer: %s", ex.op, e.name, e.source, e.invalid))
			}
		}
		return nil, problems.New(http.StatusNotFound, kindNoAnswer,
			fmt.Sprintf("%s has no example named %q%s (examples: %s)", ex.op, pr.example, codeNote(pr.code), exampleNames(candidates)))
	}
	dynamic := pr.dynamic || s.opts.Generative
	if !dynamic {
		if a := s.bestExample(ex, candidates, func(e *example) bool { return answersValid(e, pr.code) }); a != nil {
			return a, nil
		}
		if s.opts.StrictExamples && pr.code == 0 {
			return nil, s.noExample(ex, candidates)
		}
	}
	resp, status := ex.op.success, ex.op.successStatus
	if pr.code != 0 {
		resp, status = contract.ResponseFor(ex.op.op, pr.code), pr.code
		if resp == nil {
			return nil, problems.New(http.StatusNotFound, kindNoAnswer,
				fmt.Sprintf("%s declares no response %d (it declares %s)", ex.op, pr.code, statusList(ex.op.op)))
		}
	}
	if resp == nil {
		return nil, problems.New(http.StatusNotImplemented, kindNoAnswer, fmt.Sprintf("%s declares no response", ex.op))
	}
	if !dynamic {
		if a := s.responseExample(ex, resp, status); a != nil {
			return a, nil
		}
	}
	return s.generate(ex, resp, status, pr.dynamic)
}

// answersValid tells whether an example may answer a valid request (of
// the preferred status, when one is asked for): any example whose request
// matches, a 400 or 422 one too (a rule the schema does not say, such as
// GitHub's "invalid state transition" 422 for a state the schema allows),
// except those written for a method or a Content-Type the operation does
// not take (405 and 415 examples), which no valid request matches.
func answersValid(e *example, code int) bool {
	if code != 0 {
		return e.status == code
	}
	switch e.kind {
	case examples.MethodNotAllowed, examples.UnsupportedMediaType:
		return false
	}
	return true
}

// noExample is the 400 of a mock whose examples are strict (lenient:
// false in specgate.yaml): a valid request that no example matches. It
// says why the nearest example (the one with the fewest values that
// differ) does not match.
func (s *Server) noExample(ex *Exchange, candidates []*example) *httpx.Problem {
	detail := fmt.Sprintf("%s: no example matches the request, and the mock answers from examples only (examples: %s)", ex.op, exampleNames(candidates))
	var nearest *example
	var why string
	least := 0
	for _, e := range candidates {
		if e.request == nil || !answersValid(e, 0) {
			continue
		}
		if w, n := e.mismatch(ex); n > 0 && (nearest == nil || n < least) {
			nearest, why, least = e, w, n
		}
	}
	if nearest != nil {
		detail += fmt.Sprintf("; the nearest, %q (%s), differs in %d place(s): %s", nearest.name, nearest.source, least, why)
	}
	return problems.New(http.StatusBadRequest, kindNoExample, detail)
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
		if !slices.Contains(names, e.name) {
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

// bestExample answers from the most specific example whose request
// matches among those keep accepts; among equally specific ones, the
// first in precedence order. An example that cannot answer (its response
// is not valid) gives way to the next. Transient examples answer once, or
// until their matchers' times are used up.
func (s *Server) bestExample(ex *Exchange, candidates []*example, keep func(*example) bool) *Answer {
	var matched []*example
	uses := s.transient.counts()
	for _, e := range candidates {
		if e.request == nil || !keep(e) {
			continue
		}
		if e.transient && !e.limited && s.transient.isUsed(e) {
			continue
		}
		if e.matches(ex, uses) {
			matched = append(matched, e)
		}
	}
	if len(matched) == 0 {
		return nil
	}
	slices.SortStableFunc(matched, func(a, b *example) int { return b.request.specificity() - a.request.specificity() })
	for _, e := range matched {
		if e.transient && !e.limited && !s.transient.take(e) {
			continue
		}
		if a, ok := s.fromExample(ex, e); ok {
			if e.limited {
				e.recordUses(ex, uses)
			}
			return a
		}
	}
	return nil
}

// responseExample answers from the first example written for a response
// without a request (a response-only inline example) of the given status.
func (s *Server) responseExample(ex *Exchange, resp *spec.Response, status int) *Answer {
	for _, e := range s.candidates(ex.op) {
		if e.response != resp || e.request != nil || (e.status != status && status != 0) {
			continue
		}
		if e.transient && (s.transient.isUsed(e) || !s.transient.take(e)) {
			continue
		}
		if a, ok := s.fromExample(ex, e); ok {
			return a
		}
	}
	return nil
}

// lowestSuccess is the response to answer with when nothing chooses
// another: the lowest declared 2xx status, then a 2XX range (as 200),
// then default (as 200, which default covers when it is not declared);
// for an operation that declares none of them, its lowest declared status
// (a redirect, say), so that every answer is one the operation declares.
func lowestSuccess(op *spec.Operation) (*spec.Response, int) {
	var best, lowest *spec.Response
	bestStatus, lowestStatus := 0, 0
	var ranged, def *spec.Response
	for _, r := range op.Responses {
		n := statusOf(r.Status)
		exact := len(r.Status) == 3 && r.Status[1] != 'X' && r.Status[1] != 'x'
		switch {
		case r.Status == "default":
			def = r
		case n >= 200 && n < 300 && exact:
			if best == nil || n < bestStatus {
				best, bestStatus = r, n
			}
		case n == 200:
			ranged = r
		}
		if n >= 100 && (lowest == nil || n < lowestStatus) {
			lowest, lowestStatus = r, n
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
	return lowest, lowestStatus
}

// generator draws the values of an answer (see seedFor). A dynamic answer
// (Prefer: dynamic=true) is built from the schema's keywords even where
// the schema has a valid example, which otherwise answers.
func (s *Server) generator(op *operation, status int, media string, dynamic bool) *schema.Generator {
	return schema.NewGeneratorWith(s.seedFor(op, status, media, dynamic), schema.GeneratorOptions{PreferGenerated: dynamic})
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
