package contract

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
)

// Values are what a request is built from: parameter values by location
// and name, and a body. Values are JSON values (nil, bool, json.Number or
// Go numbers, string, []any, map[string]any); a File (or []byte) stands for
// the bytes of a binary body or file part.
type Values struct {
	Path, Query, Header, Cookie map[string]any
	// Body is the body's value; nil sends no body (json.RawMessage("null")
	// sends a JSON null).
	Body any
	// MediaType picks the request body's media type among those the
	// operation declares (a declared key, or a concrete type it covers);
	// "" takes the first the contract can write.
	MediaType string
	// Credentials, when not nil, are the raw credentials by security
	// scheme name that Authorize puts on the request.
	Credentials map[string]string
}

// Set puts a parameter's value in the map of its location ("path",
// "query", "header" or "cookie"), made when nil; a value of another
// location is dropped.
func (v *Values) Set(in, name string, value any) {
	setParam(&v.Path, &v.Query, &v.Header, &v.Cookie, in, name, value)
}

// setParam puts a value in the one of the four maps of parameters that
// holds its location, making it when nil.
func setParam(path, query, header, cookie *map[string]any, in, name string, value any) {
	var m *map[string]any
	switch in {
	case "path":
		m = path
	case "query":
		m = query
	case "header":
		m = header
	case "cookie":
		m = cookie
	default:
		return
	}
	if *m == nil {
		*m = map[string]any{}
	}
	(*m)[name] = value
}

// BuiltRequest is a request serialized by the contract of its operation.
type BuiltRequest struct {
	Method string // upper case
	// Path is the operation's path with its parameters serialized by
	// style, without a server prefix (see Contract.Prefix).
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
	// MediaType is the declared media type the body was written for.
	MediaType string
}

// URL joins a base URL (scheme, host and any prefix) and the request's
// path and query.
func (r *BuiltRequest) URL(base string) string {
	u := strings.TrimRight(base, "/") + r.Path
	if r.RawQuery != "" {
		u += "?" + r.RawQuery
	}
	return u
}

// HTTPRequest makes the request to send to base.
func (r *BuiltRequest) HTTPRequest(ctx context.Context, base string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL(base), bytes.NewReader(r.Body))
	if err != nil {
		return nil, err
	}
	for k, vs := range r.Header {
		req.Header[k] = slices.Clone(vs)
	}
	if r.Body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	return req, nil
}

// Request is the built request as CheckRequest takes it, served under
// prefix.
func (r *BuiltRequest) Request(prefix string) *Request {
	return &Request{Method: r.Method, Path: strings.TrimRight(prefix, "/") + r.Path, RawQuery: r.RawQuery, Header: r.Header.Clone(), Body: r.Body}
}

// BuildRequest serializes a request of op from values, each parameter by
// its style (query values percent-encoded as the OpenAPI specification's
// style examples show them), the body by the codec of its media type.
// Every path variable needs a value; values for parameters the operation
// does not declare are sent as given (query and cookies in form style),
// so that a test can send what the contract does not expect.
func (c *Contract) BuildRequest(op *spec.Operation, v Values) (*BuiltRequest, error) {
	o, err := c.operation(op)
	if err != nil {
		return nil, err
	}
	r := &BuiltRequest{Method: strings.ToUpper(op.Method), Header: http.Header{}}
	byName := func(in, name string) *param {
		for _, p := range o.params {
			if p.in == in && p.name == name {
				return p
			}
		}
		return nil
	}
	// The path, segment by segment; a query the template writes leads the
	// query string; a fragment it writes is no part of the path (see
	// Route), what it names is among the parameters.
	template, _, _ := strings.Cut(op.Path, "#")
	template, fixed, _ := strings.Cut(template, "?")
	var path strings.Builder
	for _, seg := range parseTemplate(template) {
		path.WriteByte('/')
		for _, part := range seg.parts {
			if !part.isVar {
				path.WriteString(part.lit)
				continue
			}
			val, ok := v.Path[part.name]
			if !ok {
				return nil, fmt.Errorf("%s %s: path parameter %s has no value", r.Method, op.Path, part.name)
			}
			p := byName("path", part.name)
			if p == nil {
				p = &param{name: part.name, in: "path", style: styleSimple, shape: shapeOfValue(val)}
			}
			s, err := c.pathText(p, val)
			if err != nil {
				return nil, fmt.Errorf("path parameter %s: %w", part.name, err)
			}
			path.WriteString(s)
		}
	}
	r.Path = path.String()
	// The query: declared parameters in order, then the others by name.
	var query []string
	if fixed != "" {
		query = append(query, fixed)
	}
	for _, p := range o.params {
		if val, ok := v.Query[p.name]; ok && p.in == "query" {
			if query, err = c.writeQuery(p, val, query); err != nil {
				return nil, fmt.Errorf("query parameter %s: %w", p.name, err)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(v.Query)) {
		if byName("query", name) == nil {
			p := &param{name: name, in: "query", style: styleForm, explode: true, shape: shapeOfValue(v.Query[name])}
			query, _ = c.writeQuery(p, v.Query[name], query)
		}
	}
	r.RawQuery = strings.Join(query, "&")
	// Headers.
	for _, name := range slices.Sorted(maps.Keys(v.Header)) {
		val := v.Header[name]
		p := byName("header", name)
		if p == nil {
			for _, q := range o.params {
				if q.in == "header" && strings.EqualFold(q.name, name) {
					p = q
				}
			}
		}
		if p == nil {
			p = &param{name: name, in: "header", style: styleSimple, shape: shapeOfValue(val)}
		}
		s, err := c.headerText(p, val)
		if err != nil {
			return nil, fmt.Errorf("header %s: %w", name, err)
		}
		r.Header.Add(p.name, s)
	}
	// Cookies.
	var cookies []string
	for _, p := range o.params {
		if val, ok := v.Cookie[p.name]; ok && p.in == "cookie" {
			pairs, err := c.cookiePairs(p, val)
			if err != nil {
				return nil, fmt.Errorf("cookie %s: %w", p.name, err)
			}
			cookies = append(cookies, pairs...)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(v.Cookie)) {
		if byName("cookie", name) == nil {
			p := &param{name: name, in: "cookie", style: styleForm, shape: shapeOfValue(v.Cookie[name])}
			pairs, _ := c.cookiePairs(p, v.Cookie[name])
			cookies = append(cookies, pairs...)
		}
	}
	addCookies(r.Header, cookies)
	// The body.
	if v.Body != nil {
		if err := c.buildBody(o, v, r); err != nil {
			return nil, err
		}
	}
	if v.Credentials != nil {
		if err := c.Authorize(op, r, v.Credentials); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// buildBody encodes the body in the media type asked for, or the first
// declared one a codec writes.
func (c *Contract) buildBody(o *operation, v Values, r *BuiltRequest) error {
	b := o.body
	if b == nil || len(b.media) == 0 {
		// Not declared: sent as JSON (or as given), for tests that send
		// what the contract does not expect.
		ct := v.MediaType
		if ct == "" {
			ct = "application/json"
		}
		data, sent, err := c.encode(v.Body, nil, ct)
		if err != nil {
			return err
		}
		r.Body, r.MediaType = data, ""
		r.Header.Set("Content-Type", sent)
		return nil
	}
	var m *media
	concrete := ""
	if v.MediaType != "" {
		key, ok := MatchMediaType(v.MediaType, b.names)
		if !ok {
			return fmt.Errorf("%s %s does not accept a body of %s (it accepts %s)", r.Method, o.op.Path, v.MediaType, strings.Join(b.names, ", "))
		}
		m = b.media[slices.Index(b.names, key)]
		concrete = v.MediaType
		if rng, _ := parseMediaRange(v.MediaType); rng.typ == "*" || rng.sub == "*" {
			concrete = concreteType(rng, v.Body)
		}
	} else {
		m = b.media[0]
		for _, cand := range b.media {
			if familyOf(cand.rng) != famOther {
				m = cand
				break
			}
		}
		concrete = m.name
		if m.rng.typ == "*" || m.rng.sub == "*" {
			concrete = concreteType(m.rng, v.Body)
		}
	}
	data, sent, err := c.encode(v.Body, m, concrete)
	if err != nil {
		return fmt.Errorf("request body (%s): %w", m.name, err)
	}
	r.Body, r.MediaType = data, m.name
	r.Header.Set("Content-Type", sent)
	return nil
}

// concreteType picks a media type inside a declared range for a value:
// JSON where the range allows it (and the value is not bytes), else
// octet-stream, text/plain for text/*.
func concreteType(rng mediaRange, v any) string {
	_, isFile := v.(File)
	_, isBytes := v.([]byte)
	switch {
	case rng.typ == "text":
		return "text/plain"
	case (rng.typ == "*" || rng.typ == "application") && !isFile && !isBytes:
		return "application/json"
	case rng.typ == "*":
		return "application/octet-stream"
	}
	return rng.typ + "/octet-stream"
}
