package builtins

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
	"github.com/open-policy-agent/opa/v1/util"
)

// specgate.schema_place(path, document, format) -> string
//
// names the schema at path (a source path of the entry document) for a
// message, by the longest known anchor (a named schema, a request or
// response body, a parameter, a header) and the keywords that lead from
// it to the schema: `schema "Pet"`, `property "tags" of schema "Pet"`,
// `items of the response 200 of GET /pets (application/json)`, or `the
// schema at <JSON pointer>`. document is the entry file's tree (parameter
// names are read from it) and format the input's ("swagger" has anchors
// of its own).
//
// Rules name a schema in every finding about one (correctness.where), and
// in Rego the name cost more than the finding. A segment or parameter name
// that is not a string is formatted as OPA's sprintf formats it, so
// messages read the same as when the name was spelled in Rego.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.schema_place",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.A, types.S), types.S),
	}, schemaPlaceBuiltin)
}

func schemaPlaceBuiltin(_ rego.BuiltinContext, path, document, format *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.schema_place", &err)
	arr, ok1 := path.Value.(*ast.Array)
	f, ok2 := format.Value.(ast.String)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("specgate.schema_place: operands must be a path (array), a document and a format (string)")
	}
	p := placePath{doc: document.Value, swagger: f == "swagger"}
	p.segs = make([]ast.Value, arr.Len())
	for i := range arr.Len() {
		p.segs[i] = arr.Elem(i).Value
	}
	return ast.StringTerm(p.where()), nil
}

// placePath is a schema's source path with what naming it reads.
type placePath struct {
	segs    []ast.Value
	doc     ast.Value
	swagger bool
}

// anchor is a place a path passes through: the number of segments up to
// it and its name.
type anchor struct {
	n    int
	text string
}

func (p *placePath) where() string {
	best, found := anchor{}, false
	for _, a := range p.anchors(p.segs) {
		if !found || a.n > best.n {
			best, found = a, true
		}
	}
	if !found {
		var b strings.Builder
		b.WriteString("the schema at ")
		for _, seg := range p.segs {
			b.WriteByte('/')
			if s, ok := seg.(ast.String); ok {
				b.WriteString(strings.ReplaceAll(strings.ReplaceAll(string(s), "~", "~0"), "/", "~1"))
			} else {
				b.WriteString(verb(seg))
			}
		}
		return b.String()
	}
	tokens := p.tokens(p.segs[min(best.n, len(p.segs)):])
	slices.Reverse(tokens)
	return strings.Join(append(tokens, best.text), " of ")
}

// arg is segment i as an argument of fmt.Sprintf (see sprintfArg); every
// caller has checked that the path is long enough.
func arg(segs []ast.Value, i int) any { return sprintfArg(segs[i]) }

// sprintfArg is what OPA's sprintf makes of a value before formatting it:
// a string is itself, an integer an int64 (a larger one a big.Int), a
// number with a fraction or exponent a float64, anything else its Rego
// text.
func sprintfArg(v ast.Value) any {
	switch x := v.(type) {
	case ast.String:
		return string(x)
	case ast.Number:
		ns := string(x)
		if strings.ContainsAny(ns, ".eE") {
			if f, ok := x.Float64(); ok {
				return f
			}
			return ns
		}
		if n, ok := util.Atoi64(ns); ok {
			return n
		}
		if b, ok := new(big.Int).SetString(ns, 10); ok {
			return b
		}
		return ns
	}
	return v.String()
}

// is tells whether segment i is the string want.
func is(segs []ast.Value, i int, want string) bool {
	if i < 0 || i >= len(segs) {
		return false
	}
	s, ok := segs[i].(ast.String)
	return ok && string(s) == want
}

// verb is OPA's sprintf("%v") of a segment.
func verb(v ast.Value) string { return fmt.Sprint(sprintfArg(v)) }

var placeMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true, "query": true}

func (p *placePath) anchors(s []ast.Value) []anchor {
	var out []anchor
	n := len(s)
	if n >= 3 && is(s, 0, "components") && is(s, 1, "schemas") {
		out = append(out, anchor{3, fmt.Sprintf("schema %q", arg(s, 2))})
	}
	if n >= 2 && is(s, 0, "definitions") {
		out = append(out, anchor{2, fmt.Sprintf("schema %q", arg(s, 1))})
	}
	if n >= 3 && is(s, 0, "components") {
		switch {
		case is(s, 1, "parameters") && is(s, 3, "schema"):
			out = append(out, anchor{4, fmt.Sprintf("parameter %q", arg(s, 2))})
		case is(s, 1, "headers") && is(s, 3, "schema"):
			out = append(out, anchor{4, fmt.Sprintf("header %q", arg(s, 2))})
		case is(s, 1, "responses") && is(s, 3, "content") && is(s, 5, "schema"):
			out = append(out, anchor{6, fmt.Sprintf("response %q (%s)", arg(s, 2), arg(s, 4))})
		case is(s, 1, "requestBodies") && is(s, 3, "content") && is(s, 5, "schema"):
			out = append(out, anchor{6, fmt.Sprintf("request body %q (%s)", arg(s, 2), arg(s, 4))})
		}
	}
	if p.swagger && n >= 2 {
		switch {
		case is(s, 0, "parameters"):
			out = append(out, anchor{2, fmt.Sprintf("parameter %q", arg(s, 1))})
		case is(s, 0, "responses") && is(s, 2, "schema"):
			out = append(out, anchor{3, fmt.Sprintf("response %q", arg(s, 1))})
		case is(s, 0, "responses") && is(s, 2, "headers") && n > 3:
			out = append(out, anchor{4, fmt.Sprintf("header %q of response %q", arg(s, 3), arg(s, 1))})
		}
	}
	for _, op := range p.operations(s) {
		if a, ok := p.bodyAnchor(op.prefix, op.name, s[len(op.prefix):]); ok {
			out = append(out, anchor{len(op.prefix) + a.n, a.text})
		}
	}
	if n > 3 && is(s, 0, "paths") && is(s, 2, "parameters") {
		name := p.nameAt(append(slices.Clip(s[:2]), ast.String("parameters"), s[3]))
		out = append(out, anchor{4, fmt.Sprintf("parameter %q of path %s", name, arg(s, 1))})
	}
	return out
}

// operation is an operation a path passes through, and its name.
type operation struct {
	prefix []ast.Value
	name   string
}

func (p *placePath) operations(s []ast.Value) []operation {
	var out []operation
	n := len(s)
	method := func(i int) bool {
		m, ok := s[i].(ast.String)
		return ok && placeMethods[string(m)]
	}
	if n > 3 && is(s, 0, "paths") && method(2) {
		out = append(out, operation{s[:3], fmt.Sprintf("%s %s", upper(s, 2), arg(s, 1))})
	}
	if n > 3 && is(s, 0, "webhooks") && method(2) {
		out = append(out, operation{s[:3], fmt.Sprintf("%s webhook %s", upper(s, 2), arg(s, 1))})
	}
	for i := range s {
		if is(s, i, "callbacks") && n > i+4 && method(i+3) {
			out = append(out, operation{s[:i+4], fmt.Sprintf("%s %s (callback %s)", upper(s, i+3), arg(s, i+2), arg(s, i+1))})
		}
	}
	return out
}

func (p *placePath) bodyAnchor(prefix []ast.Value, op string, rest []ast.Value) (anchor, bool) {
	param := func() any {
		return p.nameAt(append(slices.Clip(prefix), ast.String("parameters"), rest[1]))
	}
	switch {
	case is(rest, 0, "requestBody") && is(rest, 1, "content") && is(rest, 3, "schema"):
		return anchor{4, fmt.Sprintf("the request body of %s (%s)", op, arg(rest, 2))}, true
	case is(rest, 0, "responses") && is(rest, 2, "content") && is(rest, 4, "schema"):
		return anchor{5, fmt.Sprintf("the response %s of %s (%s)", arg(rest, 1), op, arg(rest, 3))}, true
	case is(rest, 0, "responses") && is(rest, 2, "headers") && is(rest, 4, "schema"):
		return anchor{5, fmt.Sprintf("header %q of the response %s of %s", arg(rest, 3), arg(rest, 1), op)}, true
	case p.swagger && is(rest, 0, "responses") && is(rest, 2, "headers") && len(rest) > 3:
		return anchor{4, fmt.Sprintf("header %q of the response %s of %s", arg(rest, 3), arg(rest, 1), op)}, true
	case is(rest, 0, "responses") && is(rest, 2, "schema"):
		return anchor{3, fmt.Sprintf("the response %s of %s", arg(rest, 1), op)}, true
	case p.swagger && is(rest, 0, "parameters") && is(rest, 2, "schema"):
		return anchor{3, fmt.Sprintf("the body of %s", op)}, true
	case is(rest, 0, "parameters") && is(rest, 2, "schema"):
		return anchor{3, fmt.Sprintf("parameter %q of %s", param(), op)}, true
	case is(rest, 0, "parameters") && len(rest) > 1:
		return anchor{2, fmt.Sprintf("parameter %q of %s", param(), op)}, true
	}
	return anchor{}, false
}

// nameAt is the "name" of the object at path in the document, "" when
// there is none (object.get's default), as an argument of fmt.Sprintf.
func (p *placePath) nameAt(path []ast.Value) any {
	v := p.doc
	for _, seg := range append(path, ast.String("name")) {
		switch x := v.(type) {
		case ast.Object:
			t := x.Get(ast.NewTerm(seg))
			if t == nil {
				return ""
			}
			v = t.Value
		case *ast.Array:
			n, ok := seg.(ast.Number)
			i, isInt := n.Int()
			if !ok || !isInt || i < 0 || i >= x.Len() {
				return ""
			}
			v = x.Elem(i).Value
		default:
			return ""
		}
	}
	return sprintfArg(v)
}

func (p *placePath) tokens(rest []ast.Value) []string {
	var out []string
	for i := range rest {
		if !p.isArgument(rest, i) {
			out = append(out, p.token(rest, i))
		}
	}
	return out
}

var (
	namedKeywords   = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}
	indexedKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
)

func pairKeyword(v ast.Value) bool {
	s, ok := v.(ast.String)
	return ok && (namedKeywords[string(s)] || indexedKeywords[string(s)])
}

// isArgument tells whether rest[i] is the name or index after a keyword
// such as properties or allOf: within a run of such keywords, every
// other segment.
func (p *placePath) isArgument(rest []ast.Value, i int) bool {
	if i == 0 || !pairKeyword(rest[i-1]) {
		return false
	}
	start := 0
	for j := i - 1; j >= 0; j-- {
		if !pairKeyword(rest[j]) {
			start = j + 1
			break
		}
	}
	return (i-start)%2 == 1
}

func (p *placePath) token(rest []ast.Value, i int) string {
	kw, isStr := rest[i].(ast.String)
	if isStr && i+1 < len(rest) {
		switch k := string(kw); {
		case k == "properties":
			return fmt.Sprintf("property %q", arg(rest, i+1))
		case indexedKeywords[k]:
			return fmt.Sprintf("%s member %s", k, verb(rest[i+1]))
		case namedKeywords[k]:
			return fmt.Sprintf("%s %q", k, arg(rest, i+1))
		}
	}
	return verb(rest[i])
}

// upper is segment i, an HTTP method, in upper case.
func upper(segs []ast.Value, i int) string {
	m, _ := segs[i].(ast.String)
	return strings.ToUpper(string(m))
}
