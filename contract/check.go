package contract

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Request is an HTTP request as the contract sees it.
type Request struct {
	Method string
	// Path is the request target's path as sent, still percent-encoded,
	// server prefix included.
	Path     string
	RawQuery string
	Header   http.Header
	// Body is the whole body; ReadBody bounds what a server reads.
	Body []byte
}

// Params are the decoded parameters of a request, typed by their schemas,
// by location and name.
type Params struct {
	Path, Query, Header, Cookie map[string]any
}

// RequestResult is what CheckRequest found.
type RequestResult struct {
	// Route is nil when no operation matches (Status 404 or 405).
	Route  *Route
	Params Params
	// MediaType is the declared media type (the key of the request body's
	// content) that the request's Content-Type matched; "" without a body.
	MediaType string
	// Body is the decoded body; nil when there is none, or when it is not
	// read (binary content). HasBody tells a JSON null from no body.
	Body    any
	HasBody bool
	// Parts are the parts of a multipart body.
	Parts    []Part
	Problems []Problem
	// Status is what a server answers the request: 200 when it passes,
	// else, in the order Prism decides, 404 (no route), 405 (method not
	// declared), 401 (no credentials), 415 (unsupported Content-Type), 406
	// (no acceptable response media type), then for invalid parameters or
	// body 400, or 422 when the operation declares 422 and not 400: a
	// client reads a 400 whatever the document says, and a documented 422
	// says how this API reports invalid data.
	Status int
	// Allow lists the declared methods with a 405.
	Allow []string
	// Challenges are the WWW-Authenticate challenges to send with a 401.
	Challenges []string
}

// OK reports whether the request passed every check.
func (r *RequestResult) OK() bool { return len(r.Problems) == 0 }

// CheckRequest routes a request and checks it against its operation: the
// method and path, security, parameters, the Content-Type and body, and
// whether the operation can answer its Accept header. Every problem is
// reported, and Status says what a server answers.
func (c *Contract) CheckRequest(req *Request) *RequestResult {
	res := &RequestResult{Status: http.StatusOK}
	route, err := c.RouteRequest(req)
	if err != nil {
		var re *RouteError
		errors.As(err, &re)
		res.Status, res.Allow = re.Status, re.Allow
		in := InPath
		if re.Status == http.StatusMethodNotAllowed {
			in = InMethod
		}
		res.Problems = []Problem{{In: in, Keyword: "undeclared", Message: re.Error()}}
		return res
	}
	res.Route = route
	o := route.op
	if req.Header == nil {
		req.Header = http.Header{}
	}
	var classes [4]bool // 401, 415, 406, 400/422
	if probs, ch := c.CheckSecurity(o.op, req); len(probs) > 0 {
		res.Problems = append(res.Problems, probs...)
		res.Challenges = ch
		classes[0] = true
	}
	bodyProbs, unsupported := c.checkRequestBody(o, req, res)
	if unsupported {
		res.Problems = append(res.Problems, bodyProbs...)
		bodyProbs = nil
		classes[1] = true
	}
	if accept := headerValues(req.Header, "Accept"); len(accept) > 0 && len(o.offered) > 0 {
		if _, ok := Negotiate(strings.Join(accept, ","), o.offered); !ok {
			res.Problems = append(res.Problems, Problem{In: InAccept, Keyword: "not-acceptable",
				Message: fmt.Sprintf("accept: none of %q is offered; the operation answers %s", strings.Join(accept, ", "), strings.Join(o.offered, ", ")),
				Schema:  c.locate(append(append(spec.Path{}, o.op.Source...), "responses"))})
			classes[2] = true
		}
	}
	paramProbs := c.checkParams(o, route, req, res)
	if len(paramProbs)+len(bodyProbs) > 0 {
		res.Problems = append(res.Problems, paramProbs...)
		res.Problems = append(res.Problems, bodyProbs...)
		classes[3] = true
	}
	switch {
	case classes[0]:
		res.Status = http.StatusUnauthorized
	case classes[1]:
		res.Status = http.StatusUnsupportedMediaType
	case classes[2]:
		res.Status = http.StatusNotAcceptable
	case classes[3]:
		res.Status = http.StatusBadRequest
		if o.declares(http.StatusUnprocessableEntity) && !o.declares(http.StatusBadRequest) {
			res.Status = http.StatusUnprocessableEntity
		}
	}
	return res
}

// checkParams reads and checks every parameter of the operation.
func (c *Contract) checkParams(o *operation, route *Route, req *Request, res *RequestResult) []Problem {
	var probs []Problem
	var query, cookies []qpair
	var qused, cused []bool
	queryDeclared, cookieDeclared := map[string]bool{}, map[string]bool{}
	for _, p := range o.params {
		switch p.in {
		case "query":
			queryDeclared[p.name] = true
		case "cookie":
			cookieDeclared[p.name] = true
		}
	}
	if req.RawQuery != "" {
		query = parseQuery(req.RawQuery)
		qused = make([]bool, len(query))
	}
	cookies = parseCookies(req.Header)
	cused = make([]bool, len(cookies))
	// Exploded form objects take the keys no other parameter does, so
	// they are read last.
	ordered := make([]*param, 0, len(o.params))
	for _, p := range o.params {
		if !(p.shape == object && p.explode && p.style == styleForm) {
			ordered = append(ordered, p)
		}
	}
	for _, p := range o.params {
		if p.shape == object && p.explode && p.style == styleForm {
			ordered = append(ordered, p)
		}
	}
	for _, p := range ordered {
		var v any
		var present bool
		var read []Problem
		var in In
		switch p.in {
		case "path":
			in = InPath
			raw, ok := "", false
			for _, pp := range route.PathParams {
				if pp.Name == p.name {
					raw, ok = pp.Raw, true
					break
				}
			}
			if ok {
				present = true
				v, read = c.readPath(p, raw)
			}
		case "query":
			in = InQuery
			v, present, read = c.readQuery(p, InQuery, query, qused, queryDeclared)
		case "header":
			in = InHeader
			switch strings.ToLower(p.name) {
			case "accept", "content-type", "authorization":
				continue // described elsewhere, as the OpenAPI specification says
			}
			v, present, read = c.readHeader(p, InHeader, req.Header)
		case "cookie":
			in = InCookie
			v, present, read = c.readCookie(p, cookies, cused, cookieDeclared)
		default:
			continue
		}
		if !present {
			if p.required {
				probs = append(probs, c.problem(p, in, nil, "required", "missing, and required", p.src))
			}
			continue
		}
		probs = append(probs, read...)
		ps := &res.Params
		setParam(&ps.Path, &ps.Query, &ps.Header, &ps.Cookie, p.in, p.name, v)
		if p.allowEmpty && v == "" {
			continue
		}
		probs = append(probs, c.validateParam(p, in, v, read, schema.Request)...)
	}
	if c.opts.RejectUnknownQuery {
		for i, q := range query {
			if !qused[i] {
				probs = append(probs, Problem{In: InQuery, Key: q.key, Keyword: "undeclared",
					Message: "query parameter " + q.key + ": not declared by " + strings.ToUpper(o.method) + " " + o.op.Path,
					Schema:  c.locate(o.op.Source)})
			}
		}
	}
	return probs
}

// validateParam checks a parameter's value against its schema. Problems at
// a path where the value could not be typed were reported by the reader,
// and are not reported again.
func (c *Contract) validateParam(p *param, in In, v any, read []Problem, dir schema.Direction) []Problem {
	l := p.lazy
	if p.content != nil {
		l = p.content.lazy
	}
	var out []Problem
	for _, sp := range c.validate(l, v, dir) {
		if typedAlready(read, sp.Path) {
			continue
		}
		key, rest := p.wire(sp.Path)
		out = append(out, Problem{In: in, Key: key, Path: sp.Path, Keyword: sp.Keyword,
			Message: p.label + " " + keyPath(key, rest) + ": " + sp.Message, Schema: sp.Schema})
	}
	return out
}

func typedAlready(read []Problem, path []any) bool {
	for _, r := range read {
		if len(r.Path) <= len(path) && slices.Equal(r.Path, path[:len(r.Path)]) {
			return true
		}
	}
	return false
}

// validate runs a compiled schema; nothing when there is no schema or it
// does not compile.
func (c *Contract) validate(l *lazySchema, v any, dir schema.Direction) []schema.Problem {
	s := c.compiled(l)
	if s == nil {
		return nil
	}
	return s.Validate(v, dir)
}

// checkRequestBody reads and checks the request body. unsupported is true
// when its Content-Type is not one the operation accepts (415).
func (c *Contract) checkRequestBody(o *operation, req *Request, res *RequestResult) (probs []Problem, unsupported bool) {
	b := o.body
	if b == nil {
		return nil, false
	}
	ct := headerValue(req.Header, "Content-Type")
	if len(req.Body) == 0 {
		// An empty form is a form with no fields; any other empty body is
		// no body.
		if r, ok := parseMediaRange(ct); ok && familyOf(r) == famForm {
			if key, ok := MatchMediaType(ct, b.names); ok {
				res.MediaType, res.HasBody, res.Body = key, true, map[string]any{}
				return c.validateBody(b.media[slices.Index(b.names, key)], res.Body, nil, schema.Request, "request body"), false
			}
		}
		if b.required {
			probs = append(probs, Problem{In: InBody, Keyword: "required", Message: "request body is required (" + strings.Join(b.names, ", ") + ")", Schema: c.locate(b.src)})
		}
		return probs, false
	}
	sent := ct
	if ct == "" {
		// RFC 9110 section 8.3: a body without a type may be taken as
		// application/octet-stream.
		ct = "application/octet-stream"
	}
	key, ok := MatchMediaType(ct, b.names)
	if !ok {
		what := "content-type: " + strconv.Quote(sent) + " is not accepted"
		if sent == "" {
			what = "content-type: the request has a body but no Content-Type"
		}
		return []Problem{{In: InContentType, Keyword: "unsupported", Message: what + "; the operation accepts " + strings.Join(b.names, ", "), Schema: c.locate(b.src)}}, true
	}
	m := b.media[slices.Index(b.names, key)]
	res.MediaType, res.HasBody = key, true
	v, read, err := c.decodeBody(req.Body, m, ct)
	switch {
	case errors.Is(err, errUnread):
		return nil, false
	case err != nil:
		return []Problem{{In: InBody, Keyword: "syntax", Message: "request body: not " + key + ": " + err.Error(), Schema: c.locate(m.mt.Source)}}, false
	}
	res.Body, res.Parts = v, read.parts
	probs = append(probs, read.probs...)
	return append(probs, c.validateBody(m, v, read.probs, schema.Request, "request body")...), false
}

// validateBody checks a decoded body against its media type's schema, or
// field by field against Swagger 2.0's formData parameters.
func (c *Contract) validateBody(m *media, v any, typing []Problem, dir schema.Direction, what string) []Problem {
	var out []Problem
	if m.fields != nil {
		obj, _ := v.(map[string]any)
		for _, fp := range m.fields {
			fv, ok := obj[fp.name]
			if !ok {
				if fp.required {
					out = append(out, Problem{In: InBody, Key: fp.name, Path: []any{fp.name}, Keyword: "required",
						Message: "form field " + fp.name + ": missing, and required", Schema: c.locate(fp.src)})
				}
				continue
			}
			if fp.sch.n.GetStr("type") == "file" {
				continue
			}
			for _, sp := range c.validate(fp.lazy, fv, dir) {
				path := append([]any{fp.name}, sp.Path...)
				if typedAlready(typing, path) {
					continue
				}
				out = append(out, Problem{In: InBody, Key: fp.name, Path: path, Keyword: sp.Keyword,
					Message: "form field " + keyPath(fp.name, sp.Path) + ": " + sp.Message, Schema: sp.Schema})
			}
		}
		return out
	}
	form := m.fam == famForm || m.fam == famMultipart
	for _, sp := range c.validate(m.lazy, v, dir) {
		if typedAlready(typing, sp.Path) {
			continue
		}
		p := Problem{In: InBody, Path: sp.Path, Keyword: sp.Keyword, Schema: sp.Schema}
		if form && len(sp.Path) > 0 {
			if name, ok := sp.Path[0].(string); ok {
				p.Key = name
				p.Message = "form field " + keyPath(name, sp.Path[1:]) + ": " + sp.Message
				out = append(out, p)
				continue
			}
		}
		p.Message = what + " " + schema.JSONPath(sp.Path) + ": " + sp.Message
		out = append(out, p)
	}
	return out
}

// Response is an HTTP response as the contract sees it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Method is the method of the request it answers: a response to HEAD
	// carries no body to check.
	Method string
}

// CheckResponse checks a response against op: its status is declared (the
// status itself, its range such as 2XX, or default for a status not
// declared otherwise), its required headers are present and valid, its
// Content-Type is one the response declares (parameters ignored), and its
// body is valid for the schema as a response (a top-level JSON null
// matches a nullable schema). A response that declares no content must
// come with an empty body; one that declares content must not.
func (c *Contract) CheckResponse(op *spec.Operation, res *Response) []Problem {
	o, err := c.operation(op)
	if err != nil {
		return []Problem{{In: InStatus, Keyword: "undeclared", Message: err.Error()}}
	}
	h := res.Header
	if h == nil {
		h = http.Header{}
	}
	r := o.statusOf(res.Status)
	if r == nil {
		var declared []string
		for _, d := range o.resps {
			declared = append(declared, d.r.Status)
		}
		return []Problem{{In: InStatus, Keyword: "undeclared",
			Message: fmt.Sprintf("status %d is not declared by %s %s (declared: %s)", res.Status, strings.ToUpper(o.method), o.op.Path, strings.Join(declared, ", ")),
			Schema:  c.locate(append(append(spec.Path{}, o.op.Source...), "responses"))}}
	}
	var probs []Problem
	for _, hp := range r.headers {
		v, present, read := c.readHeader(hp, InHeader, h)
		if !present {
			if hp.required {
				probs = append(probs, c.problem(hp, InHeader, nil, "required", "missing, and required", hp.src))
			}
			continue
		}
		probs = append(probs, read...)
		probs = append(probs, c.validateParam(hp, InHeader, v, read, schema.Response)...)
	}
	if strings.EqualFold(res.Method, http.MethodHead) || res.Status == http.StatusNoContent || res.Status == http.StatusNotModified {
		return probs
	}
	return append(probs, c.checkResponseBody(r, h, res.Body)...)
}

func (c *Contract) checkResponseBody(r *response, h http.Header, body []byte) []Problem {
	name := "response " + r.r.Status
	at := c.locate(r.r.Source)
	ct := headerValue(h, "Content-Type")
	if len(r.media) == 0 {
		if len(body) > 0 {
			what := strconv.Itoa(len(body)) + " bytes"
			if ct != "" {
				what += " of " + ct
			}
			return []Problem{{In: InBody, Keyword: "undeclared", Message: "response body: " + name + " declares no content, got " + what, Schema: at}}
		}
		return nil
	}
	if len(body) == 0 {
		return []Problem{{In: InBody, Keyword: "required", Message: "response body is empty; " + name + " declares " + strings.Join(r.names, ", "), Schema: at}}
	}
	if ct == "" {
		return []Problem{{In: InContentType, Keyword: "required", Message: "content-type: the response has a body but no Content-Type; " + name + " declares " + strings.Join(r.names, ", "), Schema: at}}
	}
	key, ok := MatchMediaType(ct, r.names)
	if !ok {
		return []Problem{{In: InContentType, Keyword: "undeclared", Message: "content-type: " + strconv.Quote(ct) + " is not declared; " + name + " declares " + strings.Join(r.names, ", "), Schema: at}}
	}
	m := r.media[slices.Index(r.names, key)]
	v, read, err := c.decodeBody(body, m, ct)
	switch {
	case errors.Is(err, errUnread):
		return nil
	case err != nil:
		return []Problem{{In: InBody, Keyword: "syntax", Message: "response body: not " + key + ": " + err.Error(), Schema: c.locate(m.mt.Source)}}
	}
	return append(read.probs, c.validateBody(m, v, read.probs, schema.Response, "response body")...)
}

// NegotiateResponse picks the media type of a declared response for a
// request's Accept header (see Negotiate); ok is false when the response
// declares content and none of it is acceptable, and true with "" when it
// declares none.
func NegotiateResponse(r *spec.Response, accept string) (string, bool) {
	if len(r.Content) == 0 {
		return "", true
	}
	names := make([]string, len(r.Content))
	for i, mt := range r.Content {
		names[i] = mt.Name
	}
	return Negotiate(accept, names)
}
