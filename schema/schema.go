// Package schema compiles the schemas of a loaded specification into
// validators and generators of values. It is the one place that maps the
// schema dialects of Swagger 2.0, OpenAPI 3.0 and OpenAPI 3.1/3.2 (JSON
// Schema 2020-12) onto one validator (santhosh-tekuri/jsonschema/v6): the
// mock server, the contract tests and the example commands all validate and
// generate values through it.
//
// Values are JSON values as encoding/json decodes them with UseNumber: nil,
// bool, json.Number, string, []any and map[string]any. Generated values have
// the same types.
package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/specgate/specgate/spec"
)

// Direction tells which side of an exchange a value travels: OpenAPI's
// readOnly properties are sent only by servers, writeOnly ones only by
// clients.
type Direction uint8

const (
	// Request values are sent by a client: readOnly properties are not
	// required and not generated.
	Request Direction = iota + 1
	// Response values are sent by a server: writeOnly properties are not
	// required and not generated.
	Response
)

func (d Direction) String() string {
	switch d {
	case Request:
		return "request"
	case Response:
		return "response"
	}
	return "any"
}

// Set compiles the schemas of one document on demand and keeps each
// compiled schema for the life of the set. It is safe for concurrent use.
//
// Each schema that is compiled, and each schema a $ref leads to, becomes a
// resource of its own for the validator (a unit), converted from the
// document's dialect when the validator first reaches it; $refs point at
// the units the loader resolved them to, so nothing is fetched and
// cross-file references hold as the loader read them. A document that
// marks properties readOnly or writeOnly has its units converted once per
// direction; any other has one conversion for both.
type Set struct {
	doc *spec.Document

	setup       sync.Once
	dialect     dialect
	directional bool

	mu       sync.Mutex // guards the compiler and the maps below
	c        *jsonschema.Compiler
	units    map[unitKey]*unit
	within   map[unitKey]place // where each converted schema object is
	compiled map[*spec.Node]*Schema
	nodes    map[*spec.File]map[*spec.Node]string // pointers of nodes found by search

	byURL    sync.Map // unit URL → *unit, read while validating
	patterns patternCache
}

// unit is a schema that is a resource of its own for the validator.
type unit struct {
	url  string
	node *spec.Node
	file *spec.File
	ptr  string    // JSON pointer of node within file
	dir  Direction // 0 when both directions share the unit
}

type unitKey struct {
	node *spec.Node
	dir  Direction
}

// place is a schema within a unit: a pointer within its converted value.
type place struct {
	u   *unit
	ptr string
}

// url is the validator's location of the schema.
func (p place) url() string {
	if p.ptr == "" {
		return p.u.url
	}
	return p.u.url + "#" + p.ptr
}

// baseURL prefixes the URLs of units. The validator never fetches it: the
// loader answers from the document.
const baseURL = "https://specgate.invalid/schema/"

// NewSet returns the set of schemas of doc. Nothing is compiled until a
// schema is asked for.
func NewSet(doc *spec.Document) *Set {
	return &Set{doc: doc}
}

// init reads the document's dialect and prepares the compiler.
func (s *Set) init() {
	s.setup.Do(func() {
		s.dialect = jsonSchema
		draft := jsonschema.Draft7
		switch {
		case s.doc.Format == spec.Swagger:
			s.dialect = swagger2
		case s.doc.Format == spec.OpenAPI && s.doc.Major == 3 && s.doc.Minor == 0:
			s.dialect = oas30
		case s.doc.Format == spec.Arazzo:
			// Arazzo's inputs and components are JSON Schema 2020-12.
			draft = jsonschema.Draft2020
		case s.doc.Format == spec.OpenAPI:
			draft = jsonschema.Draft2020
			if d := draftOf(s.doc.Root.Root.GetStr("jsonSchemaDialect")); d != nil {
				draft = d
			}
		}
		s.directional = hasDirectionalProperties(s.doc)
		c := jsonschema.NewCompiler()
		c.DefaultDraft(draft)
		c.AssertFormat()
		c.AssertVocabs()
		c.RegisterVocabulary(vocabulary)
		for _, f := range formats {
			c.RegisterFormat(f)
		}
		c.UseRegexpEngine(func(src string) (jsonschema.Regexp, error) {
			return s.patterns.compile(src)
		})
		c.UseLoader(loader{s})
		s.c = c
		s.units = map[unitKey]*unit{}
		s.within = map[unitKey]place{}
		s.compiled = map[*spec.Node]*Schema{}
	})
}

// draftOf returns the draft a $schema or jsonSchemaDialect URL names, or
// nil. OpenAPI's own 3.1 dialect is 2020-12 with annotations.
func draftOf(u string) *jsonschema.Draft {
	u = strings.TrimSuffix(strings.TrimSuffix(u, "#"), "/")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	switch u {
	case "json-schema.org/draft/2020-12/schema", "json-schema.org/schema",
		"spec.openapis.org/oas/3.1/dialect/base", "spec.openapis.org/oas/3.1/dialect/2024-11-10",
		"spec.openapis.org/oas/3.2/dialect/base", "spec.openapis.org/oas/3.2/dialect/2025-09-17":
		return jsonschema.Draft2020
	case "json-schema.org/draft/2019-09/schema":
		return jsonschema.Draft2019
	case "json-schema.org/draft-07/schema":
		return jsonschema.Draft7
	case "json-schema.org/draft-06/schema":
		return jsonschema.Draft6
	case "json-schema.org/draft-04/schema":
		return jsonschema.Draft4
	}
	return nil
}

// hasDirectionalProperties reports whether any object of the document
// marks something readOnly or writeOnly.
func hasDirectionalProperties(doc *spec.Document) bool {
	return doc.AnyField(func(f spec.Field) bool { return (f.Key == "readOnly" || f.Key == "writeOnly") && f.Value.IsTrue() })
}

// unitFor returns the unit of node for dir, making it if needed. The
// caller holds s.mu.
func (s *Set) unitFor(node *spec.Node, file *spec.File, ptr string, dir Direction) *unit {
	if !s.directional {
		dir = 0
	}
	key := unitKey{node, dir}
	if u := s.units[key]; u != nil {
		return u
	}
	u := &unit{node: node, file: file, ptr: ptr, dir: dir}
	u.url = baseURL + dir.String() + "/" + strconv.Itoa(len(s.units)) + ".json"
	s.units[key] = u
	s.byURL.Store(u.url, u)
	return u
}

// resourceOf returns the unit of the component schema a unit lies in (a
// unit carved out of a component's inside has its component as its
// resource); u itself for any other. The caller holds s.mu.
func (s *Set) resourceOf(u *unit) *unit {
	for _, prefix := range []string{"/components/schemas/", "/definitions/", "/$defs/"} {
		rest, ok := strings.CutPrefix(u.ptr, prefix)
		if !ok {
			continue
		}
		name, inner, _ := strings.Cut(rest, "/")
		if inner == "" {
			return u
		}
		ptr := prefix + name
		if n := u.file.Root.At(spec.PointerPath(ptr)); n != nil {
			return s.unitFor(n, u.file, ptr, u.dir)
		}
	}
	return u
}

// register notes where a schema object is converted, so that compiling it
// later reuses the unit it is in. The caller holds s.mu.
func (s *Set) register(n *spec.Node, u *unit, cpath []string) bool {
	key := unitKey{n, u.dir}
	if _, ok := s.within[key]; ok {
		return false
	}
	s.within[key] = place{u, pointerJoin(cpath, nil)}
	return true
}

// compileNode compiles the schema at node for dir: where a unit converted
// already holds it, else (or when that unit does not compile: a bad
// schema beside it) as a unit of its own. The caller holds s.mu.
func (s *Set) compileNode(node *spec.Node, file *spec.File, ptr string, dir Direction) (*jsonschema.Schema, error) {
	if !s.directional {
		dir = 0
	}
	if p, ok := s.within[unitKey{node, dir}]; ok && p.ptr != "" {
		if js, err := s.c.Compile(p.url()); err == nil {
			return js, nil
		}
	}
	u := s.unitFor(node, file, ptr, dir)
	js, err := s.c.Compile(u.url)
	if err != nil {
		return nil, s.compileError(u, err)
	}
	return js, nil
}

// loader gives the validator the converted value of a unit; it refuses
// any other URL.
type loader struct{ s *Set }

func (l loader) Load(url string) (any, error) {
	v, ok := l.s.byURL.Load(url)
	if !ok {
		return nil, fmt.Errorf("%s is not part of the document; schemas are never fetched", url)
	}
	u := v.(*unit)
	cv := &converter{s: l.s, u: u}
	out := cv.schema(u.node, nil)
	if cv.err != nil {
		// The unit is not a resource: none of its schemas is found in it.
		for _, key := range cv.registered {
			delete(l.s.within, key)
		}
		return nil, cv.err
	}
	return out, nil
}

// Compile returns the schema written at node, whose path from the entry
// file's root is src (as spec.Views gives them: MediaType.Schema and
// SchemaSource, Parameter.Schema and SchemaSource, …). node may be a $ref
// object. Compiling the same node twice returns the same *Schema.
//
// A Swagger 2.0 non-body parameter or header object is the schema of its
// value: its parameter-only keys (name, in, required, collectionFormat, …)
// are left out. An error is a *spec.Error naming the file, line and column
// of what does not compile: a regular expression that no engine reads, a
// $ref that does not resolve. A bad schema fails only the schemas that
// reach it.
func (s *Set) Compile(node *spec.Node, src spec.Path) (*Schema, error) {
	if node == nil {
		return nil, errors.New("schema: no schema to compile")
	}
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc := s.compiled[node]; sc != nil {
		if sc.err != nil {
			return nil, sc.err
		}
		return sc, nil
	}
	file, ptr := s.locateNode(node, src)
	sc := &Schema{set: s, node: node, file: file, ptr: ptr}
	s.compiled[node] = sc
	st := &sc.state[0]
	st.once.Do(func() { st.js, st.err = s.compileNode(node, file, ptr, Request) })
	if !s.directional {
		sc.state[1].once.Do(func() { sc.state[1].js, sc.state[1].err = st.js, st.err })
	}
	if sc.err = st.err; sc.err != nil {
		return nil, sc.err
	}
	return sc, nil
}

// locateNode finds the file and JSON pointer where node is written: where src
// leads, or where the $refs from there lead, or else by a search of the
// document's files.
func (s *Set) locateNode(node *spec.Node, src spec.Path) (*spec.File, string) {
	loc := s.doc.Locate(src, nil)
	if loc.Exact && loc.File != nil {
		at := loc.File.Root.At(spec.PointerPath(loc.Pointer))
		file, ptr := loc.File, loc.Pointer
		for hops := 0; at != nil && hops < 64; hops++ {
			if at == node {
				return file, ptr
			}
			r := s.doc.RefOf(at)
			if r == nil || r.Target == nil {
				break
			}
			at, file, ptr = r.Target, r.TargetFile, r.TargetPtr
		}
	}
	for _, f := range s.doc.Files() {
		if ptr, ok := s.search(f, node); ok {
			return f, ptr
		}
	}
	// A node from elsewhere: its own positions still name lines.
	return s.doc.Root, ""
}

// search finds the pointer of node within f, indexing f on first use.
func (s *Set) search(f *spec.File, node *spec.Node) (string, bool) {
	if s.nodes == nil {
		s.nodes = map[*spec.File]map[*spec.Node]string{}
	}
	idx := s.nodes[f]
	if idx == nil {
		idx = map[*spec.Node]string{}
		var walk func(n *spec.Node, ptr string)
		walk = func(n *spec.Node, ptr string) {
			if _, seen := idx[n]; seen {
				return
			}
			idx[n] = ptr
			for _, fl := range n.Fields {
				walk(fl.Value, ptr+"/"+escapeToken(fl.Key))
			}
			for i, it := range n.Items {
				walk(it, ptr+"/"+strconv.Itoa(i))
			}
		}
		walk(f.Root, "")
		s.nodes[f] = idx
	}
	ptr, ok := idx[node]
	return ptr, ok
}

// locate resolves a local reference ("#/…") written in file to the node it
// names, following $refs on the way; nil when it names nothing.
func (s *Set) locate(file *spec.File, ref string) (spec.Location, *spec.Node) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return spec.Location{}, nil
	}
	var last *spec.Node
	loc := s.doc.LocateIn(file, spec.PointerPath(frag), func(n *spec.Node) { last = n })
	if !loc.Exact {
		return loc, nil
	}
	return loc, last
}

// Schema is one compiled schema.
type Schema struct {
	set   *Set
	node  *spec.Node
	file  *spec.File
	ptr   string // where node is written
	err   error
	state [2]compiledState // by direction: Request, Response
}

type compiledState struct {
	once sync.Once
	js   *jsonschema.Schema
	err  error
}

// compiledFor returns the validator of the schema for dir (Response for
// any value but Request), compiling it on first use.
func (sc *Schema) compiledFor(dir Direction) (*jsonschema.Schema, error) {
	i := 1
	if dir == Request {
		i = 0
	} else {
		dir = Response
	}
	st := &sc.state[i]
	st.once.Do(func() {
		sc.set.mu.Lock()
		defer sc.set.mu.Unlock()
		st.js, st.err = sc.set.compileNode(sc.node, sc.file, sc.ptr, dir)
	})
	return st.js, st.err
}

// Location is where the schema is written.
func (sc *Schema) Location() spec.Location {
	return sc.set.doc.LocateIn(sc.file, spec.PointerPath(sc.ptr), nil)
}

// Validate checks v against the schema for values travelling in dir and
// returns every problem found; nil when v is valid. dir is Request or
// Response (any other value reads as Response).
//
// Direction follows OpenAPI and is lenient, as Prism is: a request need not
// carry the readOnly properties its schema requires, nor a response the
// writeOnly ones; a readOnly property present in a request, or a writeOnly
// one in a response, is accepted. A JSON null is valid against a nullable
// schema (OpenAPI 3.0's nullable, Swagger's x-nullable), at the top level
// too. Problems come sorted by path; for a failed oneOf or anyOf they are
// those of the branch the value came closest to (with a discriminator, the
// branch it selects), not those of every branch.
func (sc *Schema) Validate(v any, dir Direction) []Problem {
	js, err := sc.compiledFor(dir)
	if err != nil {
		return []Problem{{Keyword: "$schema", Message: "the schema does not compile: " + err.Error(), Schema: sc.Location()}}
	}
	verr := js.Validate(v)
	if verr == nil {
		return nil
	}
	return sc.set.problems(v, verr)
}

// Generate returns a value valid against the schema for dir, drawn from g.
// The schema's own example, examples or default come first where they are
// valid (unless g prefers generated values).
func (sc *Schema) Generate(g *Generator, dir Direction) (any, error) {
	js, err := sc.compiledFor(dir)
	if err != nil {
		return nil, err
	}
	return g.generate(sc, js, dir)
}

// Problem is one failure of a value against a schema.
type Problem struct {
	// Path locates the failing value within the validated value: object
	// keys as strings, array indices as ints; empty for the value itself.
	Path []any
	// Keyword is the failing keyword: "type", "required", "pattern", …
	Keyword string
	// Message says what is wrong in plain words, without the path.
	Message string
	// Schema is where the failing keyword is written in the specification.
	Schema spec.Location
}

// String renders the problem as "$.path: message".
func (p Problem) String() string { return JSONPath(p.Path) + ": " + p.Message }

// JSONPath renders a path within a value as a JSONPath: "$" for the value
// itself, "$.items[0].name", and brackets for keys that are not plain
// names ("$[\"a b\"]").
func JSONPath(path []any) string {
	var b strings.Builder
	b.WriteByte('$')
	for _, seg := range path {
		switch s := seg.(type) {
		case int:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s))
			b.WriteByte(']')
		case string:
			if plainName(s) {
				b.WriteByte('.')
				b.WriteString(s)
			} else {
				b.WriteByte('[')
				b.WriteString(strconv.Quote(s))
				b.WriteByte(']')
			}
		default:
			fmt.Fprintf(&b, "[%v]", s)
		}
	}
	return b.String()
}

// plainName reports whether a key may follow a dot in a JSONPath (RFC
// 9535's member-name-shorthand).
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
