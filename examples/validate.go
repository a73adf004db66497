package examples

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
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

// Check checks one example against the specification. An external
// example's request must reach an operation, and is then checked as its
// kind demands (a positive one as a server checks a request; a 405 or 415
// one for the method or Content-Type it exercises; other 4xx and 5xx may
// break the contract); its response must satisfy what its status declares.
// An inline example's values are each checked against the schema of the
// place they are written for. docs/examples.md ("Checking examples against
// the specification") gives the rules, notations included.
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
	path := contract.InlineText(p.value(ex.Request.Path, nil))
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
