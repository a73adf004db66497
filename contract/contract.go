package contract

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Options configure a Contract.
type Options struct {
	// Prefixes, when not empty, are the path prefixes under which every
	// operation is served, in place of the servers' (the mock's --prefix);
	// []string{""} serves every operation at the root, ignoring servers.
	Prefixes []string
	// RejectUnknownQuery reports query parameters that the operation does
	// not declare. They are allowed by default, as OpenAPI allows them.
	RejectUnknownQuery bool
	// Codecs add or replace body codecs, keyed by media type
	// ("application/vnd.acme+json") or by a structured syntax suffix
	// ("+cbor"). The built-in ones serve JSON and +json, form, multipart,
	// text, XML and +xml, and binary types.
	Codecs map[string]Codec
}

// Contract is the HTTP contract of a document's operations, built once:
// routing, parameter styles, body codecs and checks. It is safe for
// concurrent use.
type Contract struct {
	doc     *spec.Document
	schemas *schema.Set
	opts    Options
	ops     []*operation
	byOp    map[*spec.Operation]*operation
	router  router
	schemes map[string]*spec.SecurityScheme
}

// operation is what the contract knows of one operation, prepared once.
type operation struct {
	op       *spec.Operation
	method   string
	params   []*param
	body     *reqBody
	resps    []*response
	prefixes []bool // by index in router.prefixes: served under it
	prefix   string // the first server's prefix, variables at their defaults
	// offered lists the media types of the success responses (of every
	// response when none succeeds with content), for Accept negotiation.
	offered []string
}

func (o *operation) servedUnder(p int) bool { return p < len(o.prefixes) && o.prefixes[p] }

// reqBody is an operation's request body.
type reqBody struct {
	required bool
	media    []*media
	names    []string // media type keys, for MatchMediaType
	formData []*param // Swagger 2.0 formData parameters
	src      spec.Path
}

// response is one declared response.
type response struct {
	r       *spec.Response
	media   []*media
	names   []string
	headers []*param
}

// media is one media type of a body, with its schema.
type media struct {
	name     string
	rng      mediaRange
	fam      family
	sch      sref
	lazy     *lazySchema
	encoding map[string]*encoding
	mt       *spec.MediaType
	// fields are Swagger 2.0's formData parameters, which stand for the
	// schema of a form or multipart body.
	fields []*param
}

// lazySchema compiles a schema on first use: a document of a thousand
// operations costs nothing for those no request reaches.
type lazySchema struct {
	once sync.Once
	sch  sref
	s    *schema.Schema
	err  error
}

// compiled returns the compiled schema, or nil when there is none or it
// does not compile (the value then goes unchecked: a broken schema is the
// document's problem, which the linter reports, not the request's).
func (c *Contract) compiled(l *lazySchema) *schema.Schema {
	if l == nil || l.sch.n == nil {
		return nil
	}
	l.once.Do(func() {
		// A schema the compiler cannot handle costs its checks, not the
		// server that asked.
		defer func() {
			if r := recover(); r != nil {
				l.s, l.err = nil, fmt.Errorf("%s: schema not compiled: %v", where(c.locate(l.sch.src)), r)
			}
		}()
		l.s, l.err = c.schemas.Compile(l.sch.n, l.sch.src)
	})
	return l.s
}

// New prepares the contract of doc's operations (those under paths;
// webhooks and callbacks are requests a server sends, not ones it routes).
// schemas compiles the document's schemas; nil makes a set for doc. The
// routing tree is built here; schemas are compiled when a request first
// needs them (Compile compiles them all now).
func New(doc *spec.Document, schemas *schema.Set, opts Options) (*Contract, error) {
	if doc == nil {
		return nil, errors.New("contract: no document")
	}
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return nil, fmt.Errorf("contract: %s is %s, not an OpenAPI document", doc.Root.Name, doc)
	}
	if schemas == nil {
		schemas = schema.NewSet(doc)
	}
	c := &Contract{doc: doc, schemas: schemas, opts: opts, byOp: map[*spec.Operation]*operation{}, schemes: map[string]*spec.SecurityScheme{}}
	v := doc.Views()
	for _, s := range v.SecuritySchemes {
		c.schemes[s.Name] = s
	}
	c.router.root = &rnode{}
	prefixIndex := map[string]int{}
	var prefixes []*prefix
	addPrefix := func(text string, vars *spec.Node) int {
		if i, ok := prefixIndex[text]; ok {
			return i
		}
		prefixIndex[text] = len(prefixes)
		prefixes = append(prefixes, newPrefix(text, vars))
		return len(prefixes) - 1
	}
	serverPrefixes := func(servers []*spec.Server) []int {
		if len(opts.Prefixes) > 0 {
			var out []int
			for _, p := range opts.Prefixes {
				out = append(out, addPrefix(strings.TrimRight(p, "/"), nil))
			}
			return out
		}
		if len(servers) == 0 {
			return []int{addPrefix("", nil)}
		}
		var out []int
		for _, s := range servers {
			tmpl, lit := serverPrefix(s)
			vars := s.Node.Get("variables")
			out = append(out, addPrefix(lit, nil))
			if tmpl != lit {
				out = append(out, addPrefix(tmpl, vars))
			}
		}
		return out
	}
	docPrefixes := serverPrefixes(v.Servers)
	opPrefixes := make([][]int, len(v.Operations))
	for i, op := range v.Operations {
		if len(op.Servers) > 0 && len(opts.Prefixes) == 0 {
			opPrefixes[i] = serverPrefixes(op.Servers)
		} else {
			opPrefixes[i] = docPrefixes
		}
	}
	// Longest prefix first, a template after a literal of the same length,
	// the root last; equal ones keep their order.
	order := make([]int, len(prefixes))
	for i := range order {
		order[i] = i
	}
	rank := func(p *prefix) (int, int) {
		vars := 0
		for _, s := range p.segs {
			vars += s.vars
		}
		return len(p.segs), vars
	}
	slices.SortStableFunc(order, func(a, b int) int {
		la, va := rank(prefixes[a])
		lb, vb := rank(prefixes[b])
		if la != lb {
			return lb - la
		}
		return va - vb
	})
	position := make([]int, len(prefixes))
	for pos, i := range order {
		position[i] = pos
		c.router.prefixes = append(c.router.prefixes, prefixes[i])
	}
	for i, op := range v.Operations {
		o := c.prepare(op)
		o.prefixes = make([]bool, len(prefixes))
		o.prefix = prefixes[opPrefixes[i][0]].text
		for _, p := range opPrefixes[i] {
			o.prefixes[position[p]] = true
		}
		c.ops = append(c.ops, o)
		c.byOp[op] = o
		c.router.add(op.Path, o)
	}
	return c, nil
}

// Document is the document the contract was built from.
func (c *Contract) Document() *spec.Document { return c.doc }

// Schemas is the set the contract compiles the document's schemas with:
// the one New was given, or its own. Others checking values of the same
// document (examples) share it, so that each schema is compiled once.
func (c *Contract) Schemas() *schema.Set { return c.schemas }

// Operations are the routed operations, in source order.
func (c *Contract) Operations() []*spec.Operation {
	out := make([]*spec.Operation, len(c.ops))
	for i, o := range c.ops {
		out[i] = o.op
	}
	return out
}

// Prefix is the path prefix under which op is served in the first place:
// its first server's path with variables at their defaults (or the first
// of Options.Prefixes); "" at the root. A client joins it between the base
// URL of a server and the operation's path.
func (c *Contract) Prefix(op *spec.Operation) string {
	if o := c.byOp[op]; o != nil {
		return o.prefix
	}
	return ""
}

func (c *Contract) operation(op *spec.Operation) (*operation, error) {
	if o := c.byOp[op]; o != nil {
		return o, nil
	}
	if op == nil {
		return nil, errors.New("contract: no operation")
	}
	return nil, fmt.Errorf("contract: %s %s is not an operation of %s", strings.ToUpper(op.Method), op.Path, c.doc.Root.Name)
}

// prepare reads what checking and building requests of op need.
func (c *Contract) prepare(op *spec.Operation) *operation {
	o := &operation{op: op, method: op.Method}
	for _, p := range op.Parameters {
		o.params = append(o.params, c.newParam(p))
	}
	if rb := op.RequestBody; rb != nil {
		b := &reqBody{required: rb.Required, src: rb.Source}
		for _, mt := range rb.Content {
			b.media = append(b.media, c.newMedia(mt))
			b.names = append(b.names, mt.Name)
		}
		for _, p := range rb.FormData {
			b.formData = append(b.formData, c.newParam(p))
		}
		if len(b.formData) > 0 {
			for _, m := range b.media {
				m.fields = b.formData
			}
		}
		o.body = b
	}
	for _, r := range op.Responses {
		resp := &response{r: r}
		for _, mt := range r.Content {
			resp.media = append(resp.media, c.newMedia(mt))
			resp.names = append(resp.names, mt.Name)
		}
		for _, h := range r.Headers {
			if strings.EqualFold(h.Name, "Content-Type") {
				continue // ignored, as the OpenAPI specification says
			}
			resp.headers = append(resp.headers, c.newHeader(h))
		}
		o.resps = append(o.resps, resp)
	}
	seen := map[string]bool{}
	offer := func(succeeding bool) {
		for _, r := range o.resps {
			if succeeding && !strings.HasPrefix(r.r.Status, "2") {
				continue
			}
			for _, n := range r.names {
				if !seen[n] {
					seen[n] = true
					o.offered = append(o.offered, n)
				}
			}
		}
	}
	if offer(true); len(o.offered) == 0 {
		offer(false)
	}
	return o
}

func (c *Contract) newMedia(mt *spec.MediaType) *media {
	m := &media{name: mt.Name, mt: mt}
	m.rng, _ = parseMediaRange(mt.Name)
	m.fam = familyOf(m.rng)
	if mt.Schema != nil {
		m.sch = sref{n: c.deref(mt.Schema), src: mt.SchemaSource}
		m.lazy = &lazySchema{sch: m.sch}
	}
	for _, f := range mt.Node.Get("encoding").ObjectFields() {
		if m.encoding == nil {
			m.encoding = map[string]*encoding{}
		}
		m.encoding[f.Key] = newEncoding(c.deref(f.Value))
	}
	return m
}

// statusOf finds the declared response for a status (see ResponseFor).
func (o *operation) statusOf(status int) *response {
	if i := responseIndex(o.op.Responses, status); i >= 0 {
		return o.resps[i]
	}
	return nil
}

// ResponseFor is the response op declares for a status: the status
// itself, else its range (2XX), else default; nil when none applies.
func ResponseFor(op *spec.Operation, status int) *spec.Response {
	if i := responseIndex(op.Responses, status); i >= 0 {
		return op.Responses[i]
	}
	return nil
}

// ExactResponse is the response op declares for exactly this status, not
// by its range or default; nil when there is none.
func ExactResponse(op *spec.Operation, status int) *spec.Response {
	code := strconv.Itoa(status)
	for _, r := range op.Responses {
		if r.Status == code {
			return r
		}
	}
	return nil
}

// responseIndex is the index of the response that answers a status, as
// ResponseFor chooses it, or -1.
func responseIndex(resps []*spec.Response, status int) int {
	code := strconv.Itoa(status)
	ranged, def := -1, -1
	for i, r := range resps {
		s := r.Status
		switch {
		case s == code:
			return i
		case len(s) == 3 && (s[1] == 'X' || s[1] == 'x') && (s[2] == 'X' || s[2] == 'x') && s[0] == code[0]:
			if ranged < 0 {
				ranged = i
			}
		case s == "default":
			def = i
		}
	}
	if ranged >= 0 {
		return ranged
	}
	return def
}

// declares reports whether the operation declares exactly this status.
func (o *operation) declares(status int) bool { return ExactResponse(o.op, status) != nil }

// Response is the declared response of op for a status: the status
// itself, else its range (2XX), else default; nil when none applies.
func (c *Contract) Response(op *spec.Operation, status int) *spec.Response {
	o := c.byOp[op]
	if o == nil {
		return nil
	}
	if r := o.statusOf(status); r != nil {
		return r.r
	}
	return nil
}

// Compile compiles every schema the contract checks values against now,
// and returns the errors of those that do not compile (each naming its
// file, line and column). A server calls it at startup; without it,
// schemas are compiled on first use and one that does not compile leaves
// its values unchecked.
func (c *Contract) Compile() error {
	var errs []error
	try := func(l *lazySchema) {
		if l == nil || l.sch.n == nil {
			return
		}
		c.compiled(l)
		if l.err != nil {
			errs = append(errs, l.err)
		}
	}
	for _, o := range c.ops {
		for _, p := range o.params {
			try(p.lazy)
		}
		if o.body != nil {
			for _, m := range o.body.media {
				try(m.lazy)
			}
			for _, p := range o.body.formData {
				try(p.lazy)
			}
		}
		for _, r := range o.resps {
			for _, m := range r.media {
				try(m.lazy)
			}
			for _, h := range r.headers {
				try(h.lazy)
			}
		}
	}
	return errors.Join(errs...)
}

// locate resolves a path of the document to its place.
func (c *Contract) locate(p spec.Path) spec.Location {
	if p == nil {
		return spec.Location{}
	}
	return c.doc.Locate(p, nil)
}
