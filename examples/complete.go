package examples

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Complete returns a partial example completed from the specification:
// its request gets the required query parameters, headers and cookies it
// leaves out and, when the operation requires a body, a body (an object
// body gets its missing required properties); its response gets a status
// (the operation's lowest 2xx when it names none), the required headers
// and, when its status declares content, a body or the body's missing
// required properties. Every value is drawn from g, so a seed gives the
// same completion; everything the example writes, notations included, is
// kept as written, and so are its name, metadata and fixtures.
//
// ex itself is not changed, and the result is not partial. A mock matches
// requests against ex (which names only some values) and answers with the
// completed response; a test sends the completed request. A complete
// example is returned as it is. The error says why the example cannot be
// completed: its request matches no operation.
func (k *Checker) Complete(ex *Example, g *schema.Generator) (*Example, error) {
	if !ex.Partial {
		return ex, nil
	}
	if ex.Request == nil {
		return nil, fmt.Errorf("%s: a partial example needs an http-request", ex.Loc)
	}
	t := k.Route(ex)
	if t.Status != 0 || t.Op == nil {
		return nil, fmt.Errorf("%s: %s %s matches no operation of %s", ex.Request.Loc, ex.Request.Method, ex.Request.RawPath, k.doc.Root.Name)
	}
	op := t.Op
	out := *ex
	out.Partial = false
	req := *ex.Request
	req.Query = slices.Clone(req.Query)
	req.Headers = slices.Clone(req.Headers)
	out.Request = &req
	var errs []error
	fail := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range op.Parameters {
		if !p.Required {
			continue
		}
		switch p.In {
		case "query":
			if findParam(req.Query, p.Name) == nil {
				v, err := k.paramValue(p, g)
				fail(err)
				if err == nil {
					req.Query = append(req.Query, Param{Name: p.Name, NameLoc: req.Loc, Value: valueOf(v, req.Loc)})
				}
			}
		case "header":
			switch strings.ToLower(p.Name) {
			case "accept", "content-type", "authorization":
				continue
			}
			if req.Header(p.Name) == nil {
				v, err := k.paramValue(p, g)
				fail(err)
				if err == nil {
					req.Headers = append(req.Headers, Param{Name: p.Name, NameLoc: req.Loc, Value: valueOf(v, req.Loc)})
				}
			}
		case "cookie":
			fail(k.completeCookie(&req, p, g))
		}
	}
	if rb := op.RequestBody; rb != nil && len(rb.Content) > 0 && req.FormFields == nil && req.Multipart == nil {
		ct := req.ContentType
		if ct == "" {
			ct = firstJSON(requestTypes(op))
		}
		if m := declaredMedia(rb.Content, ct); m != nil && m.Schema != nil {
			body, err := k.completeBody(req.Body, m, schema.Request, g, rb.Required, req.Loc)
			fail(err)
			if body != nil && req.Body == nil {
				req.Body = body
				k.setContentType(&req.Headers, &req.ContentType, m.Name, req.Loc)
			} else if body != nil {
				req.Body = body
			}
		}
	}
	out.Response = k.completeResponse(ex, op, g, fail)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: completing the partial example: %w", ex.Loc, errors.Join(errs...))
	}
	return &out, nil
}

// completeResponse completes the response of a partial example.
func (k *Checker) completeResponse(ex *Example, op *spec.Operation, g *schema.Generator, fail func(error)) *Response {
	resp := &Response{Loc: ex.Loc}
	if ex.Response != nil {
		r := *ex.Response
		r.Headers = slices.Clone(r.Headers)
		resp = &r
	}
	if resp.Status == 0 {
		resp.Status = defaultStatus(op)
		resp.StatusLoc = resp.Loc
	}
	declared := k.c.Response(op, resp.Status)
	if declared == nil {
		return resp
	}
	for _, h := range declared.Headers {
		if !h.Required || resp.Header(h.Name) != nil || strings.EqualFold(h.Name, "Content-Type") {
			continue
		}
		v, err := k.generate(h.Schema, h.SchemaSource, g, schema.Response)
		fail(err)
		if err == nil {
			resp.Headers = append(resp.Headers, Param{Name: h.Name, NameLoc: resp.Loc, Value: valueOf(v, resp.Loc)})
		}
	}
	if len(declared.Content) == 0 || resp.Status == http.StatusNoContent || resp.Status == http.StatusNotModified {
		return resp
	}
	ct := resp.ContentType
	if ct == "" {
		var p plainer
		ct = responseType(declared, p.value(resp.Body, nil))
	}
	m := declaredMedia(declared.Content, ct)
	if m == nil || m.Schema == nil {
		return resp
	}
	body, err := k.completeBody(resp.Body, m, schema.Response, g, true, resp.Loc)
	fail(err)
	if body != nil {
		if resp.Body == nil {
			k.setContentType(&resp.Headers, &resp.ContentType, m.Name, resp.Loc)
		}
		resp.Body = body
	}
	return resp
}

// defaultStatus is the status a partial example without one answers: the
// operation's lowest declared 2xx, else 200.
func defaultStatus(op *spec.Operation) int {
	best := 0
	for _, r := range op.Responses {
		if code, err := strconv.Atoi(r.Status); err == nil && code >= 200 && code < 300 && (best == 0 || code < best) {
			best = code
		}
	}
	if best == 0 {
		return http.StatusOK
	}
	return best
}

// setContentType writes a Content-Type header for a body the completion
// added.
func (k *Checker) setContentType(headers *[]Param, ct *string, mediaType string, at Loc) {
	if findHeader(*headers, "Content-Type") != nil {
		return
	}
	if strings.ContainsAny(mediaType, "*") {
		mediaType = "application/json"
	}
	*headers = append(*headers, Param{Name: "Content-Type", NameLoc: at, Value: &Literal{Value: mediaType, At: at}})
	*ct = mediaType
}

// completeBody generates a body when there is none and one is required,
// or fills in the required properties an object body leaves out; nil when
// there is nothing to do.
func (k *Checker) completeBody(body Value, m *spec.MediaType, dir schema.Direction, g *schema.Generator, required bool, at Loc) (Value, error) {
	sc, err := k.schemas.Compile(m.Schema, m.SchemaSource)
	if err != nil {
		return nil, err
	}
	if body == nil {
		if !required {
			return nil, nil
		}
		v, err := sc.Generate(g, dir)
		if err != nil {
			return nil, err
		}
		return valueOf(v, at), nil
	}
	if _, isObject := body.(*Object); !isObject {
		return nil, nil
	}
	body = cloneValue(body)
	var whole any
	for round := 0; round < 8; round++ {
		var p plainer
		plain := p.value(body, nil)
		added := false
		for _, pr := range sc.Validate(plain, dir) {
			if pr.Keyword != "required" || p.holes.hides(pr.Path, pr.Keyword) {
				continue
			}
			obj, ok := objectAt(body, pr.Path)
			if !ok {
				continue
			}
			name := missingProperty(pr)
			if name == "" || obj.Get(name) != nil {
				continue
			}
			if whole == nil {
				if whole, err = sc.Generate(g, dir); err != nil {
					return nil, err
				}
			}
			v, found := looseAt(whole, append(slices.Clone(pr.Path), name))
			if !found {
				if v, err = k.propertyValue(pr.Schema, name, g, dir); err != nil {
					continue
				}
			}
			obj.Fields = append(obj.Fields, Field{Key: name, KeyAt: obj.At, Value: valueOf(v, obj.At)})
			added = true
		}
		if !added {
			break
		}
	}
	return body, nil
}

// cloneValue copies the objects and arrays of a value tree, so that
// fields can be added without changing the original.
func cloneValue(v Value) Value {
	switch v := v.(type) {
	case *Object:
		o := &Object{At: v.At, Fields: make([]Field, len(v.Fields))}
		for i, f := range v.Fields {
			o.Fields[i] = Field{Key: f.Key, KeyAt: f.KeyAt, Value: cloneValue(f.Value)}
		}
		return o
	case *Array:
		a := &Array{At: v.At, Items: make([]Value, len(v.Items))}
		for i, it := range v.Items {
			a.Items[i] = cloneValue(it)
		}
		return a
	}
	return v
}

// objectAt returns the object written at path in a value tree.
func objectAt(v Value, path []any) (*Object, bool) {
	for _, seg := range path {
		switch cur := v.(type) {
		case *Object:
			key, _ := seg.(string)
			v = cur.Get(key)
		case *Array:
			i, ok := seg.(int)
			if !ok || i < 0 || i >= len(cur.Items) {
				return nil, false
			}
			v = cur.Items[i]
		default:
			return nil, false
		}
	}
	o, ok := v.(*Object)
	return o, ok
}

// looseAt returns the part of a generated value at path, taking the first
// item of an array where the path's index is beyond it (the items share a
// schema).
func looseAt(v any, path []any) (any, bool) {
	for _, seg := range path {
		switch cur := v.(type) {
		case map[string]any:
			key, _ := seg.(string)
			next, ok := cur[key]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, ok := seg.(int)
			if !ok || len(cur) == 0 {
				return nil, false
			}
			if i < 0 || i >= len(cur) {
				i = 0
			}
			v = cur[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// missingProperty reads the name a "required" problem says is missing:
// the entry of the required list it points at, else its message.
func missingProperty(pr schema.Problem) string {
	if pr.Schema.File != nil {
		if n := pr.Schema.File.Root.At(spec.PointerPath(pr.Schema.Pointer)); n != nil && n.Kind == spec.String {
			return n.Value
		}
	}
	const marker = "missing required property "
	if i := strings.LastIndex(pr.Message, marker); i >= 0 {
		if name, err := strconv.Unquote(pr.Message[i+len(marker):]); err == nil {
			return name
		}
	}
	return ""
}

// subschema returns the schema object holding the keyword a problem
// failed, from where the problem says the keyword is written.
func subschema(at spec.Location, keyword string) *spec.Node {
	if at.File == nil {
		return nil
	}
	toks := spec.PointerPath(at.Pointer)
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i] == keyword {
			toks = toks[:i]
			break
		}
	}
	return at.File.Root.At(toks)
}

// propertyValue generates a value for a property that a required list
// names, from the schema holding the list: its properties entry, else a
// value of the whole schema.
func (k *Checker) propertyValue(at spec.Location, name string, g *schema.Generator, dir schema.Direction) (any, error) {
	sub := subschema(at, "required")
	if sub == nil {
		return nil, fmt.Errorf("no schema for property %q", name)
	}
	if prop := sub.Get("properties").Get(name); prop != nil {
		return k.generate(prop, nil, g, dir)
	}
	whole, err := k.generate(sub, nil, g, dir)
	if err != nil {
		return nil, err
	}
	if m, ok := whole.(map[string]any); ok {
		if v, ok := m[name]; ok {
			return v, nil
		}
	}
	return nil, fmt.Errorf("no value for property %q", name)
}

// generate draws a value of the schema written at node.
func (k *Checker) generate(node *spec.Node, src spec.Path, g *schema.Generator, dir schema.Direction) (any, error) {
	if node == nil {
		return nil, errors.New("no schema")
	}
	sc, err := k.schemas.Compile(node, src)
	if err != nil {
		return nil, err
	}
	return sc.Generate(g, dir)
}

// paramValue draws a value of a parameter.
func (k *Checker) paramValue(p *spec.Parameter, g *schema.Generator) (any, error) {
	node, src := p.Schema, p.SchemaSource
	if node == nil {
		if content := p.Node.Get("content"); content != nil && content.Kind == spec.Object && len(content.Fields) > 0 {
			mt := k.doc.Deref(content.Fields[0].Value)
			node, src = mt.Get("schema"), with(p.Source, "content", content.Fields[0].Key, "schema")
		}
	}
	if node == nil {
		return "value", nil
	}
	v, err := k.generate(node, src, g, schema.Request)
	if err != nil {
		return nil, fmt.Errorf("parameter %s: %w", p.Name, err)
	}
	return v, nil
}

// completeCookie adds a required cookie to the Cookie header.
func (k *Checker) completeCookie(req *Request, p *spec.Parameter, g *schema.Generator) error {
	h := req.Header("Cookie")
	var cur string
	if h != nil {
		l, ok := h.Value.(*Literal)
		if !ok {
			return nil // a notation writes the cookies
		}
		cur = contract.InlineText(l.Value)
		for _, pair := range strings.Split(cur, ";") {
			if name, _, _ := strings.Cut(strings.TrimSpace(pair), "="); name == p.Name {
				return nil
			}
		}
	}
	v, err := k.paramValue(p, g)
	if err != nil {
		return err
	}
	pair := p.Name + "=" + contract.InlineText(v)
	if cur != "" {
		pair = cur + "; " + pair
	}
	val := &Literal{Value: pair, At: req.Loc}
	if h != nil {
		h.Value = val
		return nil
	}
	req.Headers = append(req.Headers, Param{Name: "Cookie", NameLoc: req.Loc, Value: val})
	return nil
}

// declaredMedia returns the declared media type that applies to ct.
func declaredMedia(content []*spec.MediaType, ct string) *spec.MediaType {
	names := make([]string, len(content))
	for i, m := range content {
		names[i] = m.Name
	}
	if ct == "" && len(content) > 0 {
		return content[0]
	}
	key, ok := contract.MatchMediaType(ct, names)
	if !ok {
		return nil
	}
	return content[slices.Index(names, key)]
}

// firstJSON returns the first JSON media type of a list, else its first.
func firstJSON(names []string) string {
	for _, n := range names {
		if isJSONType(n) {
			return n
		}
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}
