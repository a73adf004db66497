package mock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
)

// Matching a request with an example's request, and the notations of
// examples: the values an example's request names are compared with the
// request's, typed by the contract (the example's side was typed by the
// same schemas at load), in the examples package's Equal mode (Subset for
// a partial example) so that matchers and type placeholders apply where
// they are written. An example's response is evaluated against the
// request it answers ($(request.path.id) and the like), the example's
// data, the environment and the dictionary.

// baseContext is what every example's notations are resolved against,
// before the example's own data and the request are added.
func (s *Server) baseContext() *examples.Context {
	c := &examples.Context{Strict: s.opts.Strict, Generate: placeholder}
	if len(s.opts.Dictionary) > 0 {
		c.Dictionary = examples.MapDictionary(s.opts.Dictionary)
	}
	return c
}

// placeholder draws a value for a type placeholder such as (string) or an
// unresolved variable in a response: a fixed value of the type, which the
// response's schema then judges.
func placeholder(u examples.Unresolved) (any, error) {
	typ, format := u.Type.JSONType()
	switch format {
	case "email":
		return "user@example.com", nil
	case "date":
		return "2024-01-01", nil
	case "date-time":
		return "2024-01-01T00:00:00Z", nil
	case "time":
		return "10:00:00Z", nil
	case "uuid":
		return "3fa85f64-5717-4562-b3fc-2c963f66afa6", nil
	case "uri":
		return "https://example.com/", nil
	case "uri-reference":
		return "/", nil
	}
	switch typ {
	case "integer":
		return json.Number("1"), nil
	case "number":
		return json.Number("1.5"), nil
	case "boolean":
		return true, nil
	case "null":
		return nil, nil
	case "object":
		return map[string]any{}, nil
	case "array":
		return []any{}, nil
	}
	return "specgate", nil
}

// echoRequest is the request as $(request.…) reads it.
func (x *Exchange) echoRequest() *examples.EchoRequest {
	if x.echo != nil {
		return x.echo
	}
	r := x.Request
	e := &examples.EchoRequest{Method: r.Method, Path: r.URL.Path, Query: x.query(), Headers: r.Header, PathParams: map[string]string{}}
	if x.Route != nil {
		for _, p := range x.Route.PathParams {
			e.PathParams[p.Name] = p.Value
		}
	}
	e.Body, _ = x.body()
	x.echo = e
	return e
}

func (x *Exchange) query() map[string][]string {
	if x.rawQuery == nil {
		x.rawQuery = x.Request.URL.Query()
	}
	return x.rawQuery
}

// body is the request's body as a JSON value: as the contract decoded it
// (JSON, a form, multipart parts, XML), else read as JSON.
func (x *Exchange) body() (any, bool) {
	if x.hasValue {
		return x.Value, true
	}
	if len(x.Body) == 0 {
		return nil, false
	}
	v, err := contract.DecodeJSON(x.Body)
	if err != nil {
		return nil, false
	}
	x.Value, x.hasValue = v, true
	return v, true
}

// jsonText is the request's body read as JSON whatever its media type.
func (x *Exchange) jsonText() (any, bool) {
	v, err := contract.DecodeJSON(x.Body)
	return v, err == nil
}

// param is the value of a parameter of the request: typed by the contract
// when the operation declares it, else its text as sent (one string, or a
// list for a repeated query parameter or header).
func (x *Exchange) param(p *paramMatch) (any, bool) {
	if p.declared {
		var m map[string]any
		switch p.in {
		case "path":
			m = x.Params.Path
		case "query":
			m = x.Params.Query
		case "header":
			m = x.Params.Header
		case "cookie":
			m = x.Params.Cookie
		}
		if v, ok := m[p.name]; ok {
			return v, true
		}
	}
	var vals []string
	switch p.in {
	case "path":
		if x.Route != nil {
			v, ok := x.Route.Param(p.name)
			return v, ok
		}
	case "query":
		vals = x.query()[p.name]
	case "header":
		vals = x.Request.Header.Values(p.name)
	case "cookie":
		if c, err := x.Request.Cookie(p.name); err == nil {
			return c.Value, true
		}
	}
	switch len(vals) {
	case 0:
		return nil, false
	case 1:
		return vals[0], true
	}
	list := make([]any, len(vals))
	for i, v := range vals {
		list[i] = v
	}
	return list, true
}

// matches tells whether a request holds every value the example's request
// names. uses counts the matches of a transient example's matchers.
func (e *example) matches(x *Exchange, uses *examples.Uses) bool {
	m := e.request
	if m.method != "" && !strings.EqualFold(m.method, x.method) {
		return false
	}
	if m.contentType != "" {
		if _, ok := contract.MatchMediaType(x.Request.Header.Get("Content-Type"), []string{m.contentType}); !ok {
			return false
		}
	}
	for i := range m.params {
		p := &m.params[i]
		got, ok := x.param(p)
		if !ok || !e.ctx.Check(p.value, got, m.mode).OK() {
			return false
		}
	}
	if m.hasBody {
		if m.raw != nil {
			if strings.TrimSpace(string(x.Body)) != strings.TrimSpace(*m.raw) {
				return false
			}
		} else {
			got, ok := x.body()
			if m.jsonText {
				got, ok = x.jsonText()
			}
			if !ok || !e.ctx.Check(m.body, got, m.mode).OK() {
				return false
			}
		}
	}
	if e.limited {
		for _, mt := range e.matchers {
			if !uses.Available(mt.m, mt.valueIn(x)) {
				return false
			}
		}
	}
	return true
}

// mismatch says why a request does not match the example's request: the
// first value that differs, where, what the example expects and what the
// request holds; n counts the values that differ (0 when it matches), to
// find the example nearest to a request.
func (e *example) mismatch(x *Exchange) (why string, n int) {
	m := e.request
	note := func(s string) {
		if n == 0 {
			why = s
		}
		n++
	}
	if m.method != "" && !strings.EqualFold(m.method, x.method) {
		note(fmt.Sprintf("method: expected %s, got %s", m.method, x.method))
	}
	if m.contentType != "" {
		if _, ok := contract.MatchMediaType(x.Request.Header.Get("Content-Type"), []string{m.contentType}); !ok {
			note(fmt.Sprintf("Content-Type: expected %s, got %q", m.contentType, x.Request.Header.Get("Content-Type")))
		}
	}
	for i := range m.params {
		p := &m.params[i]
		got, ok := x.param(p)
		if !ok {
			note(fmt.Sprintf("%s parameter %s: missing", p.in, p.name))
			continue
		}
		if r := e.ctx.Check(p.value, got, m.mode); !r.OK() {
			note(fmt.Sprintf("%s parameter %s: %s", p.in, p.name, problemText(r.Problems[0])))
		}
	}
	if m.hasBody {
		switch got, ok := x.body(); {
		case m.raw != nil:
			if strings.TrimSpace(string(x.Body)) != strings.TrimSpace(*m.raw) {
				note(fmt.Sprintf("body: expected %q, got %q", clipText(*m.raw), clipText(string(x.Body))))
			}
		case m.jsonText:
			got, ok = x.jsonText()
			fallthrough
		default:
			if !ok {
				note("body: missing, or not " + orJSON(m.contentType))
				break
			}
			r := e.ctx.Check(m.body, got, m.mode)
			for _, p := range r.Problems {
				note("body " + problemText(p))
			}
		}
	}
	return why, n
}

func problemText(p examples.Problem) string {
	return p.Path + ": " + p.Message
}

func orJSON(media string) string {
	if media == "" {
		return "JSON"
	}
	return media
}

func clipText(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// matcherAt is a matcher of a transient example's request that counts
// its uses (times), with where its value is in the request.
type matcherAt struct {
	m     *examples.Match
	param *paramMatch // nil for the body
	path  string      // the JSON path of the value in the parameter or body
}

// matchersOf lists the counted matchers of a request match.
func matchersOf(m *requestMatch) []matcherAt {
	var out []matcherAt
	collect := func(p *paramMatch, v examples.Value) {
		examples.Walk(v, func(path string, v examples.Value) bool {
			if mt, ok := v.(*examples.Match); ok && mt.Times > 0 {
				out = append(out, matcherAt{m: mt, param: p, path: path})
			}
			return true
		})
	}
	for i := range m.params {
		collect(&m.params[i], m.params[i].value)
	}
	if m.body != nil {
		collect(nil, m.body)
	}
	return out
}

// valueIn is the request's value that the matcher judges.
func (mt matcherAt) valueIn(x *Exchange) any {
	var v any
	if mt.param != nil {
		v, _ = x.param(mt.param)
	} else {
		v, _ = x.body()
	}
	return navigate(v, mt.path)
}

// navigate follows a JSON path written by examples.Walk ("$", "$.a",
// "$.a[0]", "$['a b']") into a value.
func navigate(v any, path string) any {
	path = strings.TrimPrefix(path, "$")
	for path != "" && v != nil {
		switch path[0] {
		case '.':
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			m, _ := v.(map[string]any)
			v, path = m[path[1:end+1]], path[end+1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil
			}
			key := path[1:end]
			path = path[end+1:]
			if n, err := strconv.Atoi(key); err == nil {
				a, _ := v.([]any)
				if n < 0 || n >= len(a) {
					return nil
				}
				v = a[n]
				continue
			}
			uq, err := strconv.Unquote(strings.ReplaceAll(key, "'", `"`))
			if err != nil {
				return nil
			}
			m, _ := v.(map[string]any)
			v = m[uq]
		default:
			return nil
		}
	}
	return v
}

// recordUses counts a transient example's matchers as used by x.
func (e *example) recordUses(x *Exchange, uses *examples.Uses) {
	for _, mt := range e.matchers {
		uses.Record(mt.m, mt.valueIn(x))
	}
}

// context is the example's context with the request it answers.
func (e *example) context(x *Exchange) *examples.Context {
	c := *e.ctx
	c.Request = x.echoRequest()
	return &c
}

// evalHeaders evaluates an example's response headers into h.
func (e *example) evalHeaders(x *Exchange, h http.Header) error {
	var ctx *examples.Context
	for _, p := range e.headers {
		if lit, ok := p.Value.(*examples.Literal); ok {
			h.Add(p.Name, scalarText(lit.Value))
			continue
		}
		if arr, ok := p.Value.(*examples.Array); ok && !examples.HasNotations(arr) {
			for _, it := range examples.Literalize(arr).([]any) {
				h.Add(p.Name, scalarText(it))
			}
			continue
		}
		if ctx == nil {
			ctx = e.context(x)
		}
		v, err := ctx.Eval(p.Value)
		if err != nil {
			return fmt.Errorf("header %s: %w", p.Name, err)
		}
		h.Set(p.Name, headerText(v))
	}
	return nil
}
