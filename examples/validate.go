package examples

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Codes of findings: what is wrong with an example, in the way lint rules
// are named.
const (
	// CodeNoOperation: the example's method and path match no operation.
	CodeNoOperation = "example-no-operation"
	// CodeStatusUndeclared: the response's status is declared neither
	// itself, nor by its range, nor by a default response.
	CodeStatusUndeclared = "example-status-undeclared"
	// Code405MethodDeclared: a 405 example sends a method its path declares.
	Code405MethodDeclared = "example-405-method-declared"
	// Code415TypeAccepted: a 415 example sends a Content-Type its operation
	// accepts (or none, or to an operation that takes no body).
	Code415TypeAccepted = "example-415-type-accepted"
	// CodeBodyInvalid: a request or response body breaks its schema, or is
	// missing, or is sent where none is declared.
	CodeBodyInvalid = "example-body-invalid"
	// CodeParamInvalid: a path, query, header or cookie value (of the
	// request or of the response's headers) breaks its schema, or a
	// required one is missing.
	CodeParamInvalid = "example-param-invalid"
	// CodeParamUndeclared: a query parameter the operation does not declare,
	// in an example that is not a badRequest example.
	CodeParamUndeclared = "example-param-undeclared"
	// CodeSecurityInvalid: a credential written in the example is not of
	// the form its security scheme takes ("Token x" for a bearer scheme).
	CodeSecurityInvalid = "example-security-invalid"
	// CodeContentType: a request Content-Type the operation does not
	// accept, a response Content-Type its status does not declare, or an
	// Accept header the operation cannot answer.
	CodeContentType = "example-content-type"
)

// Codes lists every finding code, for documentation and output filters.
var Codes = []string{
	CodeNoOperation, CodeStatusUndeclared, Code405MethodDeclared, Code415TypeAccepted,
	CodeBodyInvalid, CodeParamInvalid, CodeParamUndeclared, CodeSecurityInvalid, CodeContentType,
}

// Finding is one way in which an example breaks its specification.
type Finding struct {
	Code    string
	Example string // the example's name
	// Loc is where the failing field is written: in the example file, or
	// in the specification for an inline example.
	Loc Loc
	// Path is the JSON path of the failing field in that file:
	// $.http-request.body.age, $.http-request.method for a 405 example,
	// $.paths['/pets'].post.requestBody.content['application/json'].example.age.
	Path    string
	Message string
	// Rule is where the rule the example breaks is written in the
	// specification (a schema keyword, a parameter, the responses); its
	// File is "" when none applies.
	Rule Loc

	segs    []any // Path as keys and indices
	keyword string
	// in and param name the parameter a request problem is about (its
	// location and serialized key), for fix.
	in    contract.In
	param string
	rule  spec.Location
	dir   schema.Direction
}

// String writes the finding on one line: file:line:col code message (at path).
func (f Finding) String() string {
	return fmt.Sprintf("%s %s %s (at %s)", f.Loc, f.Code, f.Message, f.Path)
}

// Checker checks examples against one document through its contract. It
// is safe for concurrent use when its contract and schema set are.
type Checker struct {
	c       *contract.Contract
	doc     *spec.Document
	schemas *schema.Set
	schemes map[string]*spec.SecurityScheme
}

// NewChecker returns a checker of examples against c's document. schemas
// compiles the schemas that inline examples and non-JSON bodies are
// validated against directly: nil takes c's own (Contract.Schemas), which
// is what a caller should pass anyway.
func NewChecker(c *contract.Contract, schemas *schema.Set) *Checker {
	doc := c.Document()
	if schemas == nil {
		schemas = c.Schemas()
	}
	k := &Checker{c: c, doc: doc, schemas: schemas, schemes: map[string]*spec.SecurityScheme{}}
	for _, s := range doc.Views().SecuritySchemes {
		k.schemes[s.Name] = s
	}
	return k
}

// Check checks examples against c's document and returns the findings in
// the order of their files and positions. See Checker.Check.
func Check(c *contract.Contract, list []*Example) []Finding {
	return NewChecker(c, nil).CheckAll(list)
}

// CheckAll checks every example of list. Inline examples that share a
// value (the unnamed request of several response examples) have it
// checked once.
func (k *Checker) CheckAll(list []*Example) []Finding {
	var out []Finding
	seen := map[inlineKey]bool{}
	for _, ex := range list {
		if ex.Inline {
			out = append(out, k.inline(ex, seen)...)
		} else {
			out = append(out, k.external(ex)...)
		}
	}
	SortFindings(out)
	return out
}

// inlineKey identifies an inline value checked against a schema: a
// schema's example stands in for every operation using the schema, each
// time as a value of its own, and is checked once.
type inlineKey struct {
	file   string
	at     spec.Pos
	schema *spec.Node
}

// Check checks one example against the specification.
//
// An external example's request must reach an operation (its method and
// path as written, or under an operation's server prefix). What else is
// checked depends on its kind:
//
//   - positive: the request is checked as a server checks it (parameters
//     by style, Content-Type, body, Accept), with no query parameter the
//     operation does not declare and credentials of the form their scheme
//     takes; credentials may be left out (a run supplies them);
//   - methodNotAllowed (405): the path exists and does not declare the
//     method;
//   - unsupportedMediaType (415): the operation takes a body and does not
//     accept the Content-Type;
//   - badRequest, unprocessable and other 4xx/5xx: the request may break
//     the contract (that is what they exercise), out-of-spec query
//     parameters included.
//
// For every kind the response's status must be declared (itself, its
// range, or default; 405 and 415 always may be, and 401 for an operation
// with security), and its headers, Content-Type and body must satisfy
// what that status declares. Missing required values are findings only
// in examples that are not partial, and never in responses' headers or an
// absent response body (a mock fills them, a test does not expect them).
// Notations are not literal values: $(…), ${NAME} without a default and
// matchers other than one exact value stand for any valid value and are
// skipped; (type), captures and dataType matchers are checked by their
// type alone; ${NAME:default} is checked as its default.
//
// An inline example's values are each checked against the schema of the
// place they are written for (parameter, header, media type), and located
// in the specification.
func (k *Checker) Check(ex *Example) []Finding {
	var out []Finding
	if ex.Inline {
		out = k.inline(ex, map[inlineKey]bool{})
	} else {
		out = k.external(ex)
	}
	SortFindings(out)
	return out
}

// SortFindings orders findings by file, line, column and code.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Loc.File, b.Loc.File),
			cmp.Compare(a.Loc.Range.Start.Line, b.Loc.Range.Start.Line),
			cmp.Compare(a.Loc.Range.Start.Col, b.Loc.Range.Start.Col),
			cmp.Compare(a.Code, b.Code), cmp.Compare(a.Path, b.Path))
	})
}

// Target is where an external example's request goes.
type Target struct {
	// Op is the operation; for a method the path does not declare (Status
	// 405), the path's first declared operation; nil when no path matches.
	Op    *spec.Operation
	Route *contract.Route // nil unless Status is 0
	// Path is the path routed, with the operation's server prefix when the
	// example leaves it out, without the query.
	Path string
	// Status is 0 when the method and path reach an operation, 404 when no
	// path matches, 405 when the path does not declare the method (Allow
	// lists those it does).
	Status int
	Allow  []string
}

// Route finds the operation of an example's request: its path as written
// (notations stand for any text), else under each server prefix of the
// document's operations.
func (k *Checker) Route(ex *Example) Target {
	if ex.Request == nil {
		return Target{Status: http.StatusNotFound}
	}
	var p plainer
	path := text(p.value(ex.Request.Path, nil))
	if q := ex.Request.RouteQuery(); q != "" {
		path += "?" + q
	}
	t := k.route(ex.Request.Method, path)
	t.Path, _, _ = strings.Cut(t.Path, "?")
	return t
}

func (k *Checker) route(method, path string) Target {
	path = escapePath(path)
	tries := []string{path}
	seen := map[string]bool{"": true}
	for _, op := range k.c.Operations() {
		if pre := strings.TrimRight(k.c.Prefix(op), "/"); !seen[pre] {
			seen[pre] = true
			tries = append(tries, pre+path)
		}
	}
	best := Target{Status: http.StatusNotFound, Path: path}
	for _, try := range tries {
		rt, err := k.c.Route(method, try)
		if err == nil {
			return Target{Op: rt.Op, Route: rt, Path: try}
		}
		var re *contract.RouteError
		if errors.As(err, &re) && re.Status == http.StatusMethodNotAllowed && best.Status != http.StatusMethodNotAllowed {
			best = Target{Status: re.Status, Allow: re.Allow, Path: try}
			if len(re.Allow) > 0 {
				if rt, err := k.c.Route(re.Allow[0], try); err == nil {
					best.Op = rt.Op
				}
			}
		}
	}
	return best
}

// escapePath percent-encodes what a path as written in an example may hold
// and a request target may not (spaces, non-ASCII text), keeping escapes
// already written.
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}#", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// exampleCheck is the check of one external example.
type exampleCheck struct {
	k     *Checker
	ex    *Example
	base  []any // "partial" for a partial example
	p     plainer
	out   []Finding
	query map[*Param][]any // where each query parameter is written
	// withheld is set when the request's body was not checked (its
	// Content-Type is not accepted): the contract then sees none.
	withheld bool
}

func (k *Checker) external(ex *Example) []Finding {
	x := &exampleCheck{k: k, ex: ex}
	if ex.Partial {
		x.base = []any{"partial"}
	}
	req := ex.Request
	if req == nil || req.Path == nil || req.Method == "" {
		return nil
	}
	t := k.Route(ex)
	kind := ex.Kind()
	switch {
	case t.Status == http.StatusNotFound:
		x.add(CodeNoOperation, x.reqSegs("path"), "", fmt.Sprintf("%s %s matches no operation of %s%s", req.Method, req.RawPath, k.doc.Root.Name, k.closestPath(t.Path)), spec.Location{})
		return x.out
	case kind == MethodNotAllowed && t.Status == 0:
		x.add(Code405MethodDeclared, x.reqSegs("method"), "", fmt.Sprintf("a 405 example sends a method its path does not declare, and %s declares %s (it declares %s)", t.Op.Path, req.Method, strings.Join(k.methods(t.Op.Path), ", ")), k.locate(t.Op.Source))
	case kind != MethodNotAllowed && t.Status == http.StatusMethodNotAllowed:
		at := spec.Location{}
		if t.Op != nil {
			at = k.locate(pathItemSource(t.Op))
		}
		x.add(CodeNoOperation, x.reqSegs("method"), "", fmt.Sprintf("%s does not declare %s (it declares %s)", pathOf(t), req.Method, strings.Join(t.Allow, ", ")), at)
		return x.out
	case kind == UnsupportedMediaType:
		x.unsupportedType(t.Op)
	case kind == Positive:
		x.request(t)
	}
	switch {
	case t.Status == http.StatusMethodNotAllowed && t.Op != nil:
		x.notAllowed(t)
	case t.Op != nil:
		x.response(t.Op)
	}
	return x.out
}

// notAllowed checks the response of a 405 example whose method the path
// does not declare. No operation answers it, so no response of the spec
// applies, default least of all, but a 405 the path's operation declares
// by its code; the Allow header it writes must not list the method
// refused.
func (x *exampleCheck) notAllowed(t Target) {
	resp := x.ex.Response
	if resp == nil {
		return
	}
	if contract.ExactResponse(t.Op, http.StatusMethodNotAllowed) != nil {
		x.response(t.Op)
	}
	h := resp.Header("Allow")
	if h == nil {
		return
	}
	value, whole, ok := leadingText(h.Value)
	if !ok || !whole {
		return
	}
	for _, m := range strings.Split(value, ",") {
		if strings.EqualFold(strings.TrimSpace(m), x.ex.Request.Method) {
			segs := x.respSegs("headers", h.Name)
			x.addAt(CodeParamInvalid, paramLoc(h, nil), segs, "allow", fmt.Sprintf("Allow lists %s, the method the example is refused (%s declares %s)",
				x.ex.Request.Method, t.Op.Path, strings.Join(t.Allow, ", ")), x.k.locate(pathItemSource(t.Op)))
			return
		}
	}
}

func pathOf(t Target) string {
	if t.Op != nil {
		return t.Op.Path
	}
	return t.Path
}

// pathItemSource is the path of the path item an operation is written in.
func pathItemSource(op *spec.Operation) spec.Path {
	if len(op.Source) > 0 {
		return op.Source[:len(op.Source)-1]
	}
	return op.Source
}

// methods lists the methods a path template declares, upper case.
func (k *Checker) methods(path string) []string {
	var out []string
	for _, op := range k.c.Operations() {
		if op.Path == path {
			out = append(out, strings.ToUpper(op.Method))
		}
	}
	return out
}

// closestPath suggests the operation path nearest to a path that matched
// none.
func (k *Checker) closestPath(path string) string {
	var paths []string
	for _, op := range k.c.Operations() {
		if !slices.Contains(paths, op.Path) {
			paths = append(paths, op.Path)
		}
	}
	return suggest.Hint(path, paths)
}

func (k *Checker) locate(p spec.Path) spec.Location {
	if p == nil {
		return spec.Location{}
	}
	return k.doc.Locate(p, nil)
}

func (x *exampleCheck) reqSegs(more ...any) []any {
	return with(with(x.base, "http-request"), more...)
}

func (x *exampleCheck) respSegs(more ...any) []any {
	return with(with(x.base, "http-response"), more...)
}

// add records a finding at segs (keys and indices from the file's root).
func (x *exampleCheck) add(code string, segs []any, keyword, msg string, rule spec.Location) {
	x.addAt(code, x.loc(segs), segs, keyword, msg, rule)
}

// addAt records a finding at segs written at loc (a query parameter inside
// the path's text has a place of its own).
func (x *exampleCheck) addAt(code string, loc Loc, segs []any, keyword, msg string, rule spec.Location) {
	x.out = append(x.out, Finding{Code: code, Example: x.ex.Name, Loc: loc, Path: jsonPath(segs),
		Message: msg, Rule: ruleLoc(rule), segs: segs, keyword: keyword, rule: rule})
}

func ruleLoc(l spec.Location) Loc {
	if l.File == nil {
		return Loc{}
	}
	return Loc{File: l.File.Name, Range: l.Range}
}

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
		return text(v), segs, len(p.holes) == 0
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

// opSchemes lists the security schemes an operation's requirement names,
// each once.
func (k *Checker) opSchemes(op *spec.Operation) []*spec.SecurityScheme {
	if op.Security == nil {
		return nil
	}
	var out []*spec.SecurityScheme
	for _, alt := range op.Security.Alternatives {
		for _, s := range alt.Schemes {
			if sc := k.schemes[s.Name]; sc != nil && !slices.Contains(out, sc) {
				out = append(out, sc)
			}
		}
	}
	return out
}

// security checks the credentials an example writes: each must have the
// form of one of the schemes its operation accepts. Credentials left out
// are not a finding: a run supplies them.
func (x *exampleCheck) security(op *spec.Operation) {
	schemes := x.k.opSchemes(op)
	var httpSchemes []*spec.SecurityScheme
	anyAuthorization := false // an API key named Authorization takes any value
	for _, s := range schemes {
		switch strings.ToLower(s.Type) {
		case "http", "oauth2", "openidconnect":
			httpSchemes = append(httpSchemes, s)
		case "apikey":
			x.apiKey(s)
			anyAuthorization = anyAuthorization || s.In == "header" && strings.EqualFold(s.ParamName, "Authorization")
		}
	}
	auth := x.ex.Request.Header("Authorization")
	if auth == nil || len(httpSchemes) == 0 || anyAuthorization {
		return
	}
	value, whole, ok := leadingText(auth.Value)
	if !ok {
		return
	}
	var forms []string
	for _, s := range httpSchemes {
		if credentialFits(s, value, whole) {
			return
		}
		forms = append(forms, credentialForm(s))
	}
	segs := x.reqSegs("headers", auth.Name)
	x.add(CodeSecurityInvalid, segs, "security", fmt.Sprintf("Authorization %q is not a credential %s %s takes: write %s", value, strings.ToUpper(op.Method), op.Path, strings.Join(forms, " or ")), x.k.locate(httpSchemes[0].Source))
}

// apiKey checks an API key the example writes: it must not be empty.
func (x *exampleCheck) apiKey(s *spec.SecurityScheme) {
	req := x.ex.Request
	var p *Param
	var segs []any
	var loc Loc
	switch s.In {
	case "header":
		if p = req.Header(s.ParamName); p != nil {
			segs = x.reqSegs("headers", p.Name)
		}
	case "query":
		if p = findParam(req.Query, s.ParamName); p != nil {
			segs = x.querySegs(p)
		}
	}
	if p == nil {
		return
	}
	loc = paramLoc(p, nil)
	if v, whole, ok := leadingText(p.Value); ok && whole && strings.TrimSpace(v) == "" {
		x.addAt(CodeSecurityInvalid, loc, segs, "security", fmt.Sprintf("the API key %s of security scheme %s is empty", s.ParamName, s.Name), x.k.locate(s.Source))
	}
}

// leadingText is the text a value starts with: all of it for a literal
// (whole), the text before its first notation for a template; ok is false
// when a notation comes first.
func leadingText(v Value) (s string, whole, ok bool) {
	switch v := v.(type) {
	case *Literal:
		return text(v.Value), true, true
	case *Template:
		var b strings.Builder
		for _, seg := range v.Parts {
			switch {
			case seg.Env != nil && seg.Env.HasDefault:
				b.WriteString(seg.Env.Default)
			case seg.Env != nil, seg.Lookup != nil:
				return b.String(), false, b.Len() > 0
			default:
				b.WriteString(seg.Text)
			}
		}
		return b.String(), true, true
	}
	return "", false, false
}

// credentialFits reports whether an Authorization value (or its start,
// when not whole) has the form a scheme takes.
func credentialFits(s *spec.SecurityScheme, value string, whole bool) bool {
	word, rest, _ := strings.Cut(strings.TrimSpace(value), " ")
	rest = strings.TrimSpace(rest)
	scheme := strings.ToLower(s.Scheme)
	if !strings.EqualFold(s.Type, "http") {
		scheme = "bearer"
	}
	switch scheme {
	case "basic":
		if !strings.EqualFold(word, "basic") {
			return false
		}
		if !whole {
			return true
		}
		dec, err := base64.StdEncoding.DecodeString(rest)
		return err == nil && strings.Contains(string(dec), ":")
	case "bearer":
		return strings.EqualFold(word, "bearer") && (rest != "" || !whole)
	}
	return strings.EqualFold(word, s.Scheme)
}

// credentialForm writes the form of a scheme's Authorization value.
func credentialForm(s *spec.SecurityScheme) string {
	if strings.EqualFold(s.Type, "http") {
		switch strings.ToLower(s.Scheme) {
		case "basic":
			return fmt.Sprintf("%q (%s)", "Basic <base64 of user:password>", s.Name)
		case "bearer":
		default:
			return fmt.Sprintf("%q (%s)", s.Scheme+" <credentials>", s.Name)
		}
	}
	return fmt.Sprintf("%q (%s)", "Bearer <token>", s.Name)
}

// exemptStatus reports whether a status may be sent though the operation
// does not declare it: 405 and 415, which the HTTP contract itself gives,
// and 401 for an operation that requires credentials.
func exemptStatus(op *spec.Operation, status int) bool {
	switch status {
	case http.StatusMethodNotAllowed, http.StatusUnsupportedMediaType:
		return true
	case http.StatusUnauthorized:
		return op.Security != nil && len(op.Security.Alternatives) > 0
	}
	return false
}

// response checks the example's response against what op declares for its
// status.
func (x *exampleCheck) response(op *spec.Operation) {
	resp := x.ex.Response
	if resp == nil || resp.Status == 0 {
		return
	}
	declared := x.k.c.Response(op, resp.Status)
	if declared == nil {
		if exemptStatus(op, resp.Status) {
			return
		}
		var list []string
		for _, r := range op.Responses {
			list = append(list, r.Status)
		}
		x.add(CodeStatusUndeclared, x.respSegs("status"), "undeclared", fmt.Sprintf("status %d is not declared by %s %s (it declares %s)", resp.Status, strings.ToUpper(op.Method), op.Path, strings.Join(list, ", ")), x.k.locate(append(with(op.Source), "responses")))
		return
	}
	if declared.Status == "default" {
		if near := nearSuccess(op, resp.Status); near != "" {
			// default beside declared successes describes the other
			// outcomes: a success it alone covers is more likely a slip
			// than a response held to the error's schema (nor repaired to
			// fit it).
			x.add(CodeStatusUndeclared, x.respSegs("status"), "undeclared", fmt.Sprintf("status %d is not declared by %s %s: only its default response covers it (did you mean %s?)", resp.Status, strings.ToUpper(op.Method), op.Path, near), x.k.locate(append(with(op.Source), "responses")))
			return
		}
		// Whatever is found of the response, say which response it is
		// held to.
		from := len(x.out)
		defer func() {
			for i := from; i < len(x.out); i++ {
				x.out[i].Message += fmt.Sprintf(" (status %d matches the default response)", resp.Status)
			}
		}()
	}
	cres := &contract.Response{Status: resp.Status, Header: http.Header{}, Method: x.ex.Request.Method}
	for _, h := range resp.Headers {
		v := x.p.value(h.Value, x.respSegs("headers", h.Name))
		if list, ok := v.([]any); ok {
			for _, it := range list {
				cres.Header.Add(h.Name, text(it))
			}
			continue
		}
		cres.Header.Add(h.Name, text(v))
	}
	var direct *spec.MediaType
	var body any
	if resp.Body != nil {
		body = x.p.value(resp.Body, x.respSegs("body"))
		ct := cres.Header.Get("Content-Type")
		if ct == "" {
			ct = responseType(declared, body)
			if ct != "" {
				cres.Header.Set("Content-Type", ct)
			}
		}
		data, ok := encodeBody(body, ct)
		if ok {
			cres.Body = data
		} else if key, found := contract.MatchMediaType(ct, mediaNames(declared)); found {
			direct = declared.Content[slices.IndexFunc(declared.Content, func(m *spec.MediaType) bool { return m.Name == key })]
		} else {
			cres.Body = []byte(notationText) // the Content-Type is checked on a body
		}
	}
	for _, pr := range x.k.c.CheckResponse(op, cres) {
		x.responseProblem(pr, direct != nil)
	}
	if direct != nil && direct.Schema != nil {
		sc, err := x.k.schemas.Compile(direct.Schema, direct.SchemaSource)
		if err != nil {
			return
		}
		for _, sp := range sc.Validate(body, schema.Response) {
			segs := x.respSegs(append([]any{"body"}, sp.Path...)...)
			if x.p.holes.hides(segs, sp.Keyword) || sp.Keyword == "required" && x.ex.Partial {
				continue
			}
			x.addProblem(CodeBodyInvalid, segs, contract.Problem{In: contract.InBody, Path: sp.Path, Keyword: sp.Keyword,
				Message: "response body " + schema.JSONPath(sp.Path) + ": " + sp.Message, Schema: sp.Schema}, schema.Response)
		}
	}
}

// nearSuccess is, for a 2xx status that only default covers, the status
// of the operation's declared success nearest to it ("200"); "" when the
// status is not a success or the operation declares none (default is
// then its success).
func nearSuccess(op *spec.Operation, status int) string {
	if status < 200 || status > 299 {
		return ""
	}
	best, dist := "", 1000
	for _, r := range op.Responses {
		code, err := strconv.Atoi(r.Status)
		if err != nil || code < 200 || code > 299 {
			continue
		}
		if d := max(code-status, status-code); d < dist {
			best, dist = r.Status, d
		}
	}
	return best
}

// responseProblem turns a problem the contract found with the response
// into a finding; direct is set when the body was left to its schema.
func (x *exampleCheck) responseProblem(pr contract.Problem, direct bool) {
	resp := x.ex.Response
	if pr.Keyword == "required" && (x.ex.Partial || pr.In == contract.InHeader || pr.In == contract.InBody && (resp.Body == nil || direct)) {
		return
	}
	var segs []any
	code := CodeParamInvalid
	switch pr.In {
	case contract.InHeader:
		if h := resp.Header(pr.Key); h != nil {
			segs = with(x.respSegs("headers", h.Name), pr.Path...)
		} else {
			segs = x.respSegs("headers")
		}
	case contract.InBody:
		code = CodeBodyInvalid
		segs = x.respSegs(append([]any{"body"}, pr.Path...)...)
	case contract.InContentType:
		code = CodeContentType
		segs = x.respSegs()
		if h := resp.Header("Content-Type"); h != nil {
			segs = x.respSegs("headers", h.Name)
		}
	case contract.InStatus:
		code = CodeStatusUndeclared
		segs = x.respSegs("status")
	default:
		segs = x.respSegs()
	}
	if x.p.holes.hides(segs, pr.Keyword) {
		return
	}
	x.addProblem(code, segs, pr, schema.Response)
}

func mediaNames(r *spec.Response) []string {
	out := make([]string, len(r.Content))
	for i, m := range r.Content {
		out[i] = m.Name
	}
	return out
}

// responseType picks the media type a response example without a
// Content-Type is sent as: the first JSON one for a structured body, else
// the first declared.
func responseType(r *spec.Response, body any) string {
	if len(r.Content) == 0 {
		return ""
	}
	if _, isString := body.(string); !isString {
		for _, m := range r.Content {
			if isJSONType(m.Name) {
				return m.Name
			}
		}
	}
	return r.Content[0].Name
}

// isJSONType reports whether a media type is JSON or a +json type.
func isJSONType(mt string) bool {
	mt = strings.ToLower(mt)
	base, _, _ := strings.Cut(mt, ";")
	base = strings.TrimSpace(base)
	return base == "application/json" || strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "/json") || base == "*/*" || base == "application/*"
}

// encodeBody writes a body value as it travels in media type ct: JSON for
// JSON types, text for a string or a scalar in a text type. ok is false
// for a structured value in another type (XML, a form), which only its
// schema can check.
func encodeBody(v any, ct string) ([]byte, bool) {
	if ct == "" || isJSONType(ct) {
		b, err := json.Marshal(v)
		return b, err == nil
	}
	switch v := v.(type) {
	case string:
		return []byte(v), true
	case map[string]any, []any:
		return nil, false
	}
	return []byte(text(v)), true
}

// loc returns where the part of the example at segs (from the file's root)
// is written: the deepest part found.
func (x *exampleCheck) loc(segs []any) Loc {
	ex := x.ex
	rest := segs[len(x.base):]
	at := ex.Loc
	if len(rest) == 0 {
		return at
	}
	next := func() any {
		s := rest[0]
		rest = rest[1:]
		return s
	}
	switch next() {
	case "http-request":
		r := ex.Request
		if r == nil {
			return at
		}
		at = r.Loc
		if len(rest) == 0 {
			if r.keyAt.File != "" {
				return r.keyAt
			}
			return at
		}
		switch next() {
		case "method":
			return r.MethodLoc
		case "path":
			return r.Path.Where()
		case "query":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := findParam(r.Query, name); p != nil {
				return paramLoc(p, rest)
			}
		case "headers":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := r.Header(name); p != nil {
				return paramLoc(p, rest)
			}
		case "body":
			return bodyLoc(r.Body, r.bodyKeyAt, rest)
		case "form-fields":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := findParam(r.FormFields, name); p != nil {
				return paramLoc(p, rest)
			}
		case "multipart-formdata":
			if len(rest) == 0 {
				return at
			}
			i, _ := next().(int)
			if i < 0 || i >= len(r.Multipart) {
				return at
			}
			part := r.Multipart[i]
			if len(rest) == 0 {
				return part.Loc
			}
			switch next() {
			case "content":
				l, _ := Locate(part.Content, rest)
				return l
			case "filename":
				return part.FileLoc
			}
			return part.Loc
		}
	case "http-response":
		r := ex.Response
		if r == nil {
			return at
		}
		at = r.Loc
		if len(rest) == 0 {
			if r.keyAt.File != "" {
				return r.keyAt
			}
			return at
		}
		switch next() {
		case "status":
			if r.StatusLoc.File != "" {
				return r.StatusLoc
			}
		case "headers":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := r.Header(name); p != nil {
				return paramLoc(p, rest)
			}
		case "body":
			return bodyLoc(r.Body, r.bodyKeyAt, rest)
		}
	}
	return at
}

// bodyLoc locates a part of a body: its key for the body itself (a YAML
// block's value starts a line below), else the part inside.
func bodyLoc(body Value, keyAt Loc, path []any) Loc {
	if len(path) == 0 && keyAt.File != "" {
		return keyAt
	}
	l, _ := Locate(body, path)
	return l
}

// paramLoc locates a part of a named value: the name through a scalar
// value for the value itself, else the part inside the value.
func paramLoc(p *Param, path []any) Loc {
	if len(path) == 0 {
		l := p.NameLoc
		if end := p.Value.Where(); end.File == l.File && !posBefore(end.Range.End, l.Range.End) {
			switch p.Value.(type) {
			case *Object, *Array:
			default:
				l.Range.End = end.Range.End
			}
		}
		return l
	}
	if l, exact := Locate(p.Value, path); exact {
		return l
	}
	return p.NameLoc
}

// inline checks the values of an inline example, each against the schema
// of the place it is written for; values in seen were checked already
// against the same schema.
func (k *Checker) inline(ex *Example, seen map[inlineKey]bool) []Finding {
	op := ex.Operation
	if op == nil {
		return nil
	}
	var out []Finding
	check := func(v Value, sch *spec.Node, src spec.Path, dir schema.Direction, code, media string) {
		if v == nil || sch == nil {
			return
		}
		key := inlineKey{v.Where().File, v.Where().Range.Start, sch}
		if seen[key] {
			return
		}
		seen[key] = true
		if _, isString := Literalize(v).(string); isString && media != "" && !isJSONType(media) && k.doc.Deref(sch).GetStr("type") != "string" {
			return // serialized text of another media type (XML, CSV): only its codec reads it
		}
		sc, err := k.schemas.Compile(sch, src)
		if err != nil {
			return
		}
		for _, sp := range sc.Validate(Literalize(v), dir) {
			loc, exact := Locate(v, sp.Path)
			if !exact {
				loc = v.Where()
			}
			segs := k.inlineSegs(ex, v)
			full := with(segs, sp.Path...)
			out = append(out, Finding{Code: code, Example: ex.Name, Loc: loc, Path: jsonPath(full), Message: sp.String(),
				Rule: ruleLoc(sp.Schema), segs: full, keyword: sp.Keyword, rule: sp.Schema, dir: dir})
		}
	}
	param := func(in, name string) *spec.Parameter {
		for _, p := range op.Parameters {
			if p.In == in && p.Name == name {
				return p
			}
		}
		return nil
	}
	paramSchema := func(p *spec.Parameter) (*spec.Node, spec.Path) {
		if p.Schema != nil {
			return p.Schema, p.SchemaSource
		}
		if content := p.Node.Get("content"); content != nil && content.Kind == spec.Object && len(content.Fields) > 0 {
			mt := k.doc.Deref(content.Fields[0].Value)
			return mt.Get("schema"), with(p.Source, "content", content.Fields[0].Key, "schema")
		}
		return nil, nil
	}
	if r := ex.Request; r != nil {
		for _, group := range []struct {
			in     string
			params []Param
		}{{"path", r.PathParams}, {"query", r.Query}, {"header", r.Headers}} {
			for _, pv := range group.params {
				if p := param(group.in, pv.Name); p != nil {
					sch, src := paramSchema(p)
					check(pv.Value, sch, src, schema.Request, CodeParamInvalid, "")
				}
			}
		}
		if rb := op.RequestBody; rb != nil {
			for _, f := range r.FormFields {
				for _, p := range rb.FormData {
					if p.Name == f.Name {
						check(f.Value, p.Schema, p.SchemaSource, schema.Request, CodeParamInvalid, "")
					}
				}
			}
			body := r.inlineBody
			if body == nil {
				body = r.Body
			}
			for _, m := range rb.Content {
				if m.Name == r.ContentType && len(rb.FormData) == 0 {
					check(body, m.Schema, m.SchemaSource, schema.Request, CodeBodyInvalid, m.Name)
				}
			}
		}
	}
	if r := ex.Response; r != nil {
		for _, d := range op.Responses {
			if d.Status != r.SpecStatus {
				continue
			}
			for _, m := range d.Content {
				if m.Name == r.ContentType {
					check(r.Body, m.Schema, m.SchemaSource, schema.Response, CodeBodyInvalid, m.Name)
				}
			}
			for _, hv := range r.Headers {
				for _, h := range d.Headers {
					if h.Name == hv.Name {
						check(hv.Value, h.Schema, h.SchemaSource, schema.Response, CodeParamInvalid, "")
					}
				}
			}
		}
	}
	return out
}

// inlineSegs is the path of an inline value from the root of the file it
// is written in.
func (k *Checker) inlineSegs(ex *Example, v Value) []any {
	src, ok := ex.valuePaths[v]
	if !ok {
		return nil
	}
	loc := k.doc.Locate(src, nil)
	if loc.File == nil {
		return nil
	}
	return pointerSegs(loc.File.Root, loc.Pointer)
}

// pointerSegs turns a JSON pointer within root into keys and indices.
func pointerSegs(root *spec.Node, pointer string) []any {
	var out []any
	n := root
	for _, tok := range spec.PointerPath(pointer) {
		key, _ := tok.(string)
		if n != nil && n.Kind == spec.Array {
			i, err := strconv.Atoi(key)
			if err == nil {
				out = append(out, i)
				if i >= 0 && i < len(n.Items) {
					n = n.Items[i]
				} else {
					n = nil
				}
				continue
			}
		}
		out = append(out, key)
		if n != nil {
			n = n.Get(key)
		}
	}
	return out
}
