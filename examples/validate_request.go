package examples

import (
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// unsupportedType checks a 415 example: its operation takes a body, and
// its Content-Type is not one the operation accepts.
func (x *exampleCheck) unsupportedType(op *spec.Operation) {
	names := requestTypes(op)
	rule := x.k.locate(op.Source)
	if op.RequestBody != nil {
		rule = x.k.locate(op.RequestBody.Source)
	}
	if len(names) == 0 {
		x.add(Code415TypeAccepted, x.reqSegs(), "", fmt.Sprintf("a 415 example sends a body of a type its operation does not accept, and %s %s takes no body", strings.ToUpper(op.Method), op.Path), rule)
		return
	}
	ct, segs, known := x.contentType()
	switch {
	case !known:
	case ct == "":
		x.add(Code415TypeAccepted, x.reqSegs(), "", fmt.Sprintf("a 415 example names the Content-Type %s %s does not accept; this one sends none (it accepts %s)", strings.ToUpper(op.Method), op.Path, strings.Join(names, ", ")), rule)
	default:
		if key, ok := contract.MatchMediaType(ct, names); ok {
			x.add(Code415TypeAccepted, segs, "", fmt.Sprintf("a 415 example sends a Content-Type its operation does not accept, and %s %s accepts %q (as %s)", strings.ToUpper(op.Method), op.Path, ct, key), rule)
		}
	}
}

// contentType is the request's Content-Type as a run sends it, and where
// it is written; known is false when a notation writes it.
func (x *exampleCheck) contentType() (ct string, segs []any, known bool) {
	req := x.ex.Request
	if h := req.Header("Content-Type"); h != nil {
		segs := x.reqSegs("headers", h.Name)
		var p plainer
		v := p.value(h.Value, segs)
		return contract.InlineText(v), segs, len(p.holes) == 0
	}
	switch {
	case req.FormFields != nil:
		return "application/x-www-form-urlencoded", x.reqSegs("form-fields"), true
	case req.Multipart != nil:
		return "multipart/form-data", x.reqSegs("multipart-formdata"), true
	}
	return "", x.reqSegs(), true
}

// requestTypes lists the media types an operation's body is declared in.
func requestTypes(op *spec.Operation) []string {
	if op.RequestBody == nil {
		return nil
	}
	out := make([]string, 0, len(op.RequestBody.Content))
	for _, m := range op.RequestBody.Content {
		out = append(out, m.Name)
	}
	return out
}

// querySegs is where a query parameter is written: under query, or in the
// path's query string.
func (x *exampleCheck) querySegs(q *Param) []any {
	if segs, ok := x.query[q]; ok {
		return segs
	}
	segs := x.reqSegs("query", q.Name)
	if pl := x.ex.Request.Path; pl != nil {
		at, pat := q.NameLoc.Range.Start, pl.Where().Range
		if q.NameLoc.File == pl.Where().File && !posBefore(at, pat.Start) && posBefore(at, pat.End) {
			segs = x.reqSegs("path")
		}
	}
	if x.query == nil {
		x.query = map[*Param][]any{}
	}
	x.query[q] = segs
	return segs
}

func posBefore(a, b spec.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// request checks the request of a positive example as a server would.
func (x *exampleCheck) request(t Target) {
	req, op := x.ex.Request, t.Op
	v := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Header: map[string]any{}}
	for _, pp := range t.Route.PathParams {
		v.Path[pp.Name] = pp.Value
	}
	for i := range req.Query {
		q := &req.Query[i]
		val := x.p.value(q.Value, x.querySegs(q))
		if prev, ok := v.Query[q.Name]; ok {
			if list, isList := prev.([]any); isList && x.repeated(q.Name) {
				v.Query[q.Name] = append(list, val)
			} else {
				v.Query[q.Name] = []any{prev, val}
			}
			continue
		}
		v.Query[q.Name] = val
	}
	for _, h := range req.Headers {
		if strings.EqualFold(h.Name, "Content-Type") {
			continue
		}
		v.Header[h.Name] = x.p.value(h.Value, x.reqSegs("headers", h.Name))
	}
	x.undeclaredQuery(op)
	x.security(op)
	if body, segs, ok := x.requestBody(); ok {
		names := requestTypes(op)
		ct, ctSegs, known := x.contentType()
		if ct == "" && len(names) > 0 {
			ct = names[0]
		}
		switch {
		case len(names) == 0 && (op.RequestBody == nil || len(op.RequestBody.FormData) == 0):
			x.withheld = true
			x.add(CodeBodyInvalid, segs, "undeclared", fmt.Sprintf("%s %s takes no request body", strings.ToUpper(op.Method), op.Path), x.k.locate(op.Source))
		case !known:
			v.Body, v.MediaType = body, names[0]
		default:
			if _, ok := contract.MatchMediaType(ct, names); !ok {
				x.withheld = true
				x.add(CodeContentType, ctSegs, "unsupported", fmt.Sprintf("Content-Type %q is not accepted by %s %s (it accepts %s)", ct, strings.ToUpper(op.Method), op.Path, strings.Join(names, ", ")), x.k.locate(op.RequestBody.Source))
				break
			}
			v.Body, v.MediaType = body, ct
		}
	}
	built, err := x.k.c.BuildRequest(op, v)
	if err != nil {
		x.add(CodeBodyInvalid, x.reqSegs(), "", fmt.Sprintf("the request cannot be written by the contract of %s %s: %v", strings.ToUpper(op.Method), op.Path, err), spec.Location{})
		return
	}
	built.Path = t.Path
	res := x.k.c.CheckRequest(built.Request(""))
	for _, pr := range res.Problems {
		x.requestProblem(t, pr)
	}
}

// repeated reports whether a query parameter's name is written more than
// once (so that its values form a list).
func (x *exampleCheck) repeated(name string) bool {
	n := 0
	for _, q := range x.ex.Request.Query {
		if q.Name == name {
			n++
		}
	}
	return n > 1
}

// requestBody is the request's body as a run sends it: a body, form
// fields or multipart parts; ok is false when there is none.
func (x *exampleCheck) requestBody() (body any, segs []any, ok bool) {
	req := x.ex.Request
	switch {
	case req.Body != nil:
		segs = x.reqSegs("body")
		return x.p.value(req.Body, segs), segs, true
	case req.FormFields != nil:
		m := map[string]any{}
		for _, f := range req.FormFields {
			m[f.Name] = x.p.value(f.Value, x.reqSegs("form-fields", f.Name))
		}
		return m, x.reqSegs("form-fields"), true
	case req.Multipart != nil:
		m := map[string]any{}
		for i, part := range req.Multipart {
			var val any
			if part.File != "" {
				val = contract.File{Filename: part.Filename, ContentType: part.ContentType, Data: []byte(notationText)}
			} else {
				val = x.p.value(part.Content, x.reqSegs("multipart-formdata", i, "content"))
			}
			if prev, dup := m[part.Name]; dup {
				if list, isList := prev.([]any); isList {
					m[part.Name] = append(list, val)
				} else {
					m[part.Name] = []any{prev, val}
				}
				continue
			}
			m[part.Name] = val
		}
		return m, x.reqSegs("multipart-formdata"), true
	}
	return nil, nil, false
}

// requestProblem turns a problem the contract found with the request into
// a finding at the place of the example that writes the failing value.
func (x *exampleCheck) requestProblem(t Target, pr contract.Problem) {
	req := x.ex.Request
	if pr.Keyword == "required" && (x.ex.Partial || x.withheld && pr.In == contract.InBody && len(pr.Path) == 0) {
		return // a partial example's missing values are completed from the spec
	}
	var segs []any
	var loc *Loc
	code := CodeParamInvalid
	switch pr.In {
	case contract.InSecurity, contract.InMethod:
		return // credentials are checked by form (security); the method was routed
	case contract.InPath:
		if pr.Keyword == "undeclared" {
			return
		}
		for _, pp := range t.Route.PathParams {
			if pp.Name == pr.Key && strings.Contains(pp.Raw, notationText) {
				return
			}
		}
		segs = x.reqSegs("path")
	case contract.InQuery:
		q := x.queryParam(pr.Key)
		if q == nil {
			segs = x.reqSegs()
			for i := range req.Query {
				if qs := x.querySegs(&req.Query[i]); qs[len(qs)-1] != "path" {
					segs = x.reqSegs("query")
				}
			}
			break
		}
		segs = x.querySegs(q)
		if segs[len(segs)-1] == "path" {
			l := paramLoc(q, nil)
			loc = &l
		} else if x.declaredParam(t.Op, "query", q.Name) {
			segs = with(segs, pr.Path...)
		}
	case contract.InHeader, contract.InCookie:
		name := pr.Key
		if pr.In == contract.InCookie {
			name = "Cookie"
		}
		if h := req.Header(name); h != nil {
			segs = with(x.reqSegs("headers", h.Name), pr.Path...)
		} else {
			segs = x.reqSegs("headers")
		}
	case contract.InBody:
		code = CodeBodyInvalid
		segs = x.bodySegs(pr)
	case contract.InContentType, contract.InAccept:
		code = CodeContentType
		name := "Content-Type"
		if pr.In == contract.InAccept {
			name = "Accept"
		}
		segs = x.reqSegs()
		if h := req.Header(name); h != nil {
			segs = x.reqSegs("headers", h.Name)
		}
	default:
		segs = x.reqSegs()
	}
	if x.p.holes.hides(segs, pr.Keyword) {
		return
	}
	x.addProblem(code, segs, pr, schema.Request)
	if loc != nil {
		x.out[len(x.out)-1].Loc = *loc
	}
}

// addProblem records a contract problem as a finding; a type problem at a
// typed placeholder says what the placeholder stands for.
func (x *exampleCheck) addProblem(code string, segs []any, pr contract.Problem, dir schema.Direction) {
	msg := pr.Message
	if h := x.p.holes.at(segs); h != nil {
		msg = h.raw + " stands for a value of another type: " + msg
	}
	x.add(code, segs, pr.Keyword, msg, pr.Schema)
	f := &x.out[len(x.out)-1]
	f.dir, f.in, f.param = dir, pr.In, pr.Key
}

// bodySegs is where a body problem is written: in the body, a form field
// or a multipart part.
func (x *exampleCheck) bodySegs(pr contract.Problem) []any {
	req := x.ex.Request
	switch {
	case req.Body != nil:
		return x.reqSegs(append([]any{"body"}, pr.Path...)...)
	case req.FormFields != nil:
		if pr.Key != "" && len(pr.Path) > 0 {
			if findParam(req.FormFields, pr.Key) != nil {
				return x.reqSegs(append([]any{"form-fields"}, pr.Path...)...)
			}
			return x.reqSegs("form-fields")
		}
		return x.reqSegs("form-fields")
	case req.Multipart != nil:
		if len(pr.Path) > 0 {
			for i, part := range req.Multipart {
				if part.Name == pr.Path[0] {
					if part.File != "" {
						return x.reqSegs("multipart-formdata", i, "filename")
					}
					return x.reqSegs(append([]any{"multipart-formdata", i, "content"}, pr.Path[1:]...)...)
				}
			}
		}
		return x.reqSegs("multipart-formdata")
	}
	return x.reqSegs()
}

func findParam(ps []Param, name string) *Param {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

// queryParam finds the query parameter a problem's serialized key names:
// itself, or the deepObject parameter it belongs to (filter[status]).
func (x *exampleCheck) queryParam(key string) *Param {
	qs := x.ex.Request.Query
	if p := findParam(qs, key); p != nil {
		return p
	}
	if name, _, ok := strings.Cut(key, "["); ok {
		return findParam(qs, name)
	}
	return nil
}

func (x *exampleCheck) declaredParam(op *spec.Operation, in, name string) bool {
	for _, p := range op.Parameters {
		if p.In == in && p.Name == name {
			return true
		}
	}
	return false
}

// undeclaredQuery reports query parameters that the operation does not
// declare (nor its API key schemes read).
func (x *exampleCheck) undeclaredQuery(op *spec.Operation) {
	var declared []string
	free := false
	for _, p := range op.Parameters {
		if p.In != "query" {
			continue
		}
		declared = append(declared, p.Name)
		if s := x.k.doc.Deref(p.Schema); s != nil && (s.GetStr("type") == "object" || s.Get("properties") != nil) {
			style := p.Node.GetStr("style")
			if style == "" || style == "form" {
				free = free || p.Node.Get("explode") == nil || p.Node.Get("explode").IsTrue()
			}
		}
	}
	keys := declared
	if _, fixed, ok := strings.Cut(op.Path, "?"); ok {
		// The query the path template writes selects the operation.
		for _, pair := range strings.Split(fixed, "&") {
			name, _, _ := strings.Cut(pair, "=")
			keys = append(keys, name)
		}
	}
	for _, s := range x.k.opSchemes(op) {
		if strings.EqualFold(s.Type, "apiKey") && s.In == "query" {
			keys = append(keys, s.ParamName)
		}
	}
	if free {
		return
	}
	reported := map[string]bool{}
	for i := range x.ex.Request.Query {
		q := &x.ex.Request.Query[i]
		name, _, _ := strings.Cut(q.Name, "[")
		if slices.Contains(keys, q.Name) || slices.Contains(declared, name) || reported[q.Name] {
			continue
		}
		reported[q.Name] = true
		list := "it declares none"
		if len(declared) > 0 {
			list = "it declares " + strings.Join(declared, ", ")
		}
		segs := x.querySegs(q)
		x.out = append(x.out, Finding{Code: CodeParamUndeclared, Example: x.ex.Name, Loc: q.NameLoc, Path: jsonPath(segs),
			Message: fmt.Sprintf("query parameter %q is not declared by %s %s (%s%s); only a badRequest (400) example may send one", q.Name, strings.ToUpper(op.Method), op.Path, list, suggest.Hint(q.Name, keys)),
			Rule:    ruleLoc(x.k.locate(op.Source)), segs: segs, keyword: "undeclared", rule: x.k.locate(op.Source)})
	}
}
