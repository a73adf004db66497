package mock

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
)

// Refusals: the answers to requests that break the contract. A refusal
// is an answer the spec declares, as a real service's would be: the
// operation's response for the refusal's status (the status itself, its
// range, then default), in a media type it declares, with a body from its
// example or generated from its schema, its code and message fields
// saying why where they have room for it. Only a status the operation
// does not declare at all gets an RFC 9457 problem document. Either way
// the problem is logged with the request and summed up in the
// X-Specgate-Problem header, so that a client can always see why.

// ProblemHeader carries the kind and detail of a refusal answered in the
// form the spec declares ("bad-request: POST /pets: request body: …").
const ProblemHeader = "X-Specgate-Problem"

// refuse answers a request that breaks the contract (res says how): with
// an example written for such requests whose request matches it (a
// badRequest, 422, 415, 406, or 401 and 403 example) when there is one;
// else as refusal says.
func (s *Server) refuse(w http.ResponseWriter, ex *Exchange, res *contract.RequestResult) {
	status := res.Status
	if status == http.StatusUnauthorized && len(res.Challenges) > 0 {
		w.Header().Set("WWW-Authenticate", strings.Join(res.Challenges, ", "))
	}
	if ans := s.errorExample(ex, status); ans != nil {
		ex.op.usage.problems.Add(1)
		s.render(w, ex.Request, ex, ans)
		return
	}
	p := problems.New(status, kindOf(status), fmt.Sprintf("%s: %s", ex.op, res.Problems[0].Message))
	p.Errors = issues(res.Problems)
	s.refuseWith(w, ex, p)
}

// refuseWith answers an exchange with the refusal p.
func (s *Server) refuseWith(w http.ResponseWriter, ex *Exchange, p *httpx.Problem) {
	ex.op.usage.problems.Add(1)
	s.render(w, ex.Request, ex, s.refusal(ex, p))
}

// refusal is the answer that refuses an exchange for the reason p gives,
// in the form the operation declares for p's status: its response for the
// status (exactly, by range, or default) when it declares one; else p
// itself, as application/problem+json.
func (s *Server) refusal(x *Exchange, p *httpx.Problem) *Answer {
	resp := contract.ResponseFor(x.op.op, p.Status)
	if resp == nil {
		return &Answer{Status: p.Status, Problem: p}
	}
	a := s.declaredRefusal(x, resp, p)
	if a.Problem == nil {
		a.Refused = p
	}
	return a
}

// declaredRefusal answers with resp, the response the operation declares
// for a refusal's status: no body where it declares no content; else, in
// the media type the Accept header prefers among those it declares (JSON
// first when it accepts none), the problem document itself where that
// media type is application/problem+json and its schema takes it, else
// the response's own example, else a body generated from its schema that
// says why in its code and message fields.
func (s *Server) declaredRefusal(x *Exchange, resp *spec.Response, p *httpx.Problem) *Answer {
	status := p.Status
	if len(resp.Content) == 0 {
		a := &Answer{Status: status, Header: http.Header{}, Example: "refusal"}
		s.fillHeaders(x, resp, a, false)
		return a
	}
	mt := pickMedia(resp, x.Request.Header.Get("Accept"))
	if mt == nil {
		mt = pickMedia(resp, "")
	}
	if isProblemJSON(mt.Name) {
		if doc := problemValue(x.Request, p); x.op.invalid(mt, doc) == "" {
			a := &Answer{Status: status, Header: http.Header{}, MediaType: mt.Name, Body: doc, Example: "problem"}
			s.fillHeaders(x, resp, a, false)
			return a
		}
	}
	if a := s.refusalExample(x, resp, status); a != nil {
		return a
	}
	a, gp := s.generateAs(x, resp, mt, status, false)
	if gp != nil {
		return &Answer{Status: status, Problem: p}
	}
	s.trim(x, resp, a)
	s.say(x, resp, a, status, p.Detail)
	return a
}

// trim cuts a body generated for a refusal down to what its schema
// requires and the fields that say why (see lean), where the schema takes
// the smaller body.
func (s *Server) trim(x *Exchange, resp *spec.Response, a *Answer) {
	mt := declaredMedia(resp, a.MediaType)
	if mt == nil || a.Body == nil {
		return
	}
	if small := lean(typer{x.op.api.doc}, mt.Schema, a.Body, 0); x.op.invalid(mt, small) == "" {
		a.Body, a.Raw = small, nil
	}
}

// lean is a refusal's generated body v (of schema sch) cut down to the
// members its objects require and those that say why (the code and
// message fields say fills, and an error object holding them): an error
// schema such as Stripe's holds every object an error may concern, and a
// body generated whole from it ran to 10 KB where a person reads a line.
func lean(t typer, sch *spec.Node, v any, depth int) any {
	if depth > 16 {
		return v
	}
	switch vv := v.(type) {
	case map[string]any:
		required := t.required(sch, 0)
		out := make(map[string]any, len(required)+2)
		for k, x := range vv {
			ps := t.property(sch, k, 0)
			_, isObject := x.(map[string]any)
			if slices.Contains(required, k) || saysWhy(t, ps, k) || depth == 0 && isObject && strings.Contains(strings.ToLower(k), "error") {
				out[k] = lean(t, ps, x, depth+1)
			}
		}
		return out
	case []any:
		it := t.items(sch)
		out := make([]any, len(vv))
		for i, x := range vv {
			out[i] = lean(t, it, x, depth+1)
		}
		return out
	}
	return v
}

// saysWhy tells whether the property k (of schema ps) is one that say
// fills: a code field that takes an integer, a message field that takes
// a string.
func saysWhy(t typer, ps *spec.Node, k string) bool {
	switch whyField(k) {
	case codeField:
		return t.types(ps)&contract.TypeInteger != 0
	case messageField:
		return t.types(ps)&contract.TypeString != 0
	}
	return false
}

// The fields say fills: a status code, a message.
const (
	codeField = iota + 1
	messageField
)

// whyField is which field say fills a property is, by its name; 0 for
// neither.
func whyField(k string) int {
	switch strings.ToLower(strings.ReplaceAll(k, "_", "")) {
	case "code", "status", "statuscode", "httpstatus", "httpcode":
		return codeField
	case "message", "detail", "details", "error", "errormessage", "description", "errordescription":
		return messageField
	}
	return 0
}

// refusalExample answers from an example written for resp whose status is
// the refusal's (or the one resp stands for: 400 for 4XX, none for
// default), response-only examples first; the answer takes the refusal's
// status.
func (s *Server) refusalExample(x *Exchange, resp *spec.Response, status int) *Answer {
	generic := statusOf(resp.Status)
	for _, paired := range []bool{false, true} {
		for _, e := range s.candidates(x.op) {
			if e.response != resp || (e.request != nil) != paired || e.transient || e.status != status && e.status != generic {
				continue
			}
			if a, ok := s.fromExample(x, e); ok {
				a.Status = status
				return a
			}
		}
	}
	return nil
}

// errorExample answers a request that breaks the contract with refusal
// status from an example written for such requests whose request matches
// it: a badRequest or 422 example for invalid parameters or body, a 415
// example for an unsupported Content-Type, a 406 one for an Accept that
// cannot be satisfied, a 401 or 403 one for missing credentials.
func (s *Server) errorExample(ex *Exchange, status int) *Answer {
	return s.bestExample(ex, s.candidates(ex.op), func(e *example) bool {
		switch status {
		case http.StatusBadRequest, http.StatusUnprocessableEntity:
			return e.status == http.StatusBadRequest || e.status == http.StatusUnprocessableEntity
		case http.StatusUnauthorized:
			return e.status == http.StatusUnauthorized || e.status == http.StatusForbidden
		}
		return e.status == status
	})
}

// refuseMethod answers a method that the request's path does not declare:
// with the 405 example written for that method and path; else with the
// 405 that an operation of the path declares by its code (the first in
// the order of Allow); else with the problem p. Allow lists the methods
// the path declares.
func (s *Server) refuseMethod(w http.ResponseWriter, r *http.Request, gen *generation, p *httpx.Problem, allow []string) {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	if e := gen.notAllowedExample(r, allow); e != nil {
		s.render(w, r, &Exchange{Request: r, gen: gen, method: r.Method}, s.plainAnswer(e))
		return
	}
	for _, m := range allow {
		op, route, _, _ := gen.routeRequest(m, r)
		if op != nil && declaredResponse(op.op, "405") != nil {
			x := &Exchange{Request: r, Operation: op.op, Route: route, op: op, gen: gen, method: r.Method}
			s.render(w, r, x, s.refusal(x, p))
			return
		}
	}
	httpx.WriteProblem(w, r, p)
}

// notAllowedExample is the 405 example for a method that the request's
// path does not declare.
func (g *generation) notAllowedExample(r *http.Request, allow []string) *example {
	if len(g.notAllowed) == 0 {
		return nil
	}
	a, template := g.templateOf(allow[0], r.URL.EscapedPath())
	key := notAllowedKey(a, template, r.Method)
	for _, e := range g.notAllowed {
		if e.notAllowed == key {
			return e
		}
	}
	return nil
}

// say writes why a request was refused into a generated body, where its
// schema has room for it: its status code fields (code, status) and its
// message fields (message, detail, error, description), at its top level
// and in an error object it holds. The body stays as generated when the
// schema does not take them (an enum, a length).
func (s *Server) say(x *Exchange, resp *spec.Response, a *Answer, status int, detail string) {
	m, ok := a.Body.(map[string]any)
	mt := declaredMedia(resp, a.MediaType)
	if !ok || mt == nil {
		return
	}
	t := typer{x.op.api.doc}
	for _, codes := range []bool{true, false} {
		said := sayIn(t, mt.Schema, m, status, detail, codes, 0)
		if x.op.invalid(mt, said) == "" {
			a.Body, a.Raw = said, nil
			return
		}
	}
}

func sayIn(t typer, sch *spec.Node, m map[string]any, status int, detail string, codes bool, depth int) map[string]any {
	out := maps.Clone(m)
	for k, v := range out {
		ps := t.property(sch, k, 0)
		ts := t.types(ps)
		switch whyField(k) {
		case codeField:
			if codes && ts&contract.TypeInteger != 0 {
				out[k] = json.Number(strconv.Itoa(status))
			}
		case messageField:
			if ts&contract.TypeString != 0 {
				out[k] = detail
			}
		}
		if sub, ok := v.(map[string]any); ok && depth == 0 && strings.Contains(strings.ToLower(k), "error") {
			out[k] = sayIn(t, ps, sub, status, detail, codes, depth+1)
		}
	}
	return out
}

// isProblemJSON reports whether a media type is RFC 9457's
// application/problem+json.
func isProblemJSON(media string) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(media, ";", 2)[0]))
	return m == "application/problem+json"
}

// problemValue is p as the JSON value it is sent as, its instance and
// request id filled in for r.
func problemValue(r *http.Request, p *httpx.Problem) any {
	q := *p
	q.Instance = r.URL.Path
	q.RequestID = httpx.RequestID(r.Context())
	b, err := json.Marshal(&q)
	if err != nil {
		return nil
	}
	v, err := contract.DecodeJSON(b)
	if err != nil {
		return nil
	}
	return v
}

// problemHeaderValue sums up a refusal on one header line: its kind and
// detail, control characters as spaces, at most 1 KiB.
func problemHeaderValue(p *httpx.Problem) string {
	text := p.Kind() + ": " + p.Detail
	var b strings.Builder
	for _, r := range text {
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		if b.Len()+utf8.RuneLen(r) > 1024 {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
