// Package input builds the value every rule is evaluated over: the OPA
// input of a document (docs/input.md), made once in Go from package spec's
// views and the raw tree, directly as an ast.Value. It owns the input's
// shape, its private indexes (input.index) and the fields that readers of
// other formats register (RegisterField); the rule engine, package policy,
// only evaluates over it.
package input

import (
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// Build builds the OPA input value of a document once, directly as an
// ast.Value (no JSON round trip), with every member. Its shape is
// documented in docs/input.md. Views share the converted values of the raw
// document, so a schema that appears in the raw tree and in input.schemas
// is one value.
func Build(doc *spec.Document) ast.Value { return BuildMembers(doc, nil) }

// BuildMembers is Build with only the members of m (nil: every member):
// the work of the others is skipped and their keys are left out. format,
// version, formats and the fields that readers of other formats register
// are always there.
func BuildMembers(doc *spec.Document, m Members) ast.Value {
	// What needs no converted node (the views; the $refs, the markup
	// texts and the graph of components, which are strings and paths) is
	// built on other cores while the document is converted, the $refs
	// with interned strings of their own. Only the views and the document
	// are waited for before the next step: the rest goes on beside it, as
	// do the keys of the parameter lists, which need the views only.
	var v *spec.Views
	var refs, refsTo, unresolvedRefs, refsWithSiblings, markup, components, referenced, paramKeys *ast.Term
	var examples bool
	var first, all sync.WaitGroup
	fromSchemas := m.any(schemaMembers...)
	fromViews := m.any(viewMembers...)
	if fromViews || fromSchemas || m.Has("index.parameterKeys") {
		first.Go(func() { v = doc.Views() })
	}
	if m.any("refs", "refsTo", "index.unresolvedRefs", "index.refsWithSiblings") {
		all.Go(func() { refs, refsTo, unresolvedRefs, refsWithSiblings = newConverter().refs(doc) })
	}
	if m.any("componentRefs", "index.referencedComponents") {
		all.Go(func() {
			if m.Has("componentRefs") {
				components = componentRefs(doc)
			}
			if m.Has("index.referencedComponents") {
				referenced = referencedComponents(doc)
			}
		})
	}
	if m.any("index.markupTexts", "index.hasExamples") {
		all.Go(func() { markup, examples = scanFiles(doc) })
	}
	c := newConverter()
	var document *ast.Term
	// The schemas and the operations share the nodes the document
	// converted: when both are built, the document is converted first
	// even if no rule reads it.
	if m.Has("document") || fromSchemas && fromViews {
		// Every container of the entry file is converted: its table of
		// terms is made at its size once, rather than grown through copies.
		c.terms = make(map[*spec.Node]converted, containers(doc.Root.Root))
		document = c.node(doc.Root.Root)
	}
	first.Wait()
	if m.Has("index.parameterKeys") {
		all.Go(func() {
			paramKeys = parameterKeys(doc.Root.Root, v.PathItems, slices.Concat(v.Operations, v.Webhooks, v.Callbacks))
		})
	}
	// The schema-like values and the operations and the rest are built
	// on two cores, by converters that read c's values and keep what they
	// add: c is not written until both are done.
	var schemas []*ast.Term
	var schemasWith, schemasOfType, propertySchemas, received, receivedWith, receivedOfType, swaggerValues, swaggerValuesWith, swaggerValuesOfType *ast.Term
	sc := c.fork()
	if fromSchemas {
		all.Go(func() {
			labels := newLabeler(doc, v)
			wantReceived := m.any("received", "receivedWith", "receivedOfType")
			if wantReceived || m.any("schemas", "requestSchemas", "responseSchemas", "schemasWith", "schemasOfType", "index.propertySchemas") {
				schemas, schemasWith, schemasOfType, propertySchemas = c.schemas(v.Schemas, labels)
			}
			if wantReceived {
				received, receivedWith, receivedOfType = sc.received(doc, v, schemas, labels)
			}
			if m.any("swaggerValues", "swaggerValuesWith", "swaggerValuesOfType") {
				swaggerValues, swaggerValuesWith, swaggerValuesOfType = sc.swaggerValues(doc, v)
			}
		})
	}
	oc := c.fork()
	// each is build() when needed, else nil.
	each := func(needed bool, build func() *ast.Term) *ast.Term {
		if needed {
			return build()
		}
		return nil
	}
	var pathItems, pathSegments *ast.Term
	if m.any("pathItems", "pathSegments") {
		pathItems, pathSegments = oc.pathItems(v.PathItems)
	}
	// The body uses read the operations, webhooks and callbacks.
	uses := m.any("responseUses", "index.requestBodyUses")
	operations := each(uses || m.Has("operations"), func() *ast.Term { return oc.operations(v.Operations) })
	webhooks := each(uses || m.Has("webhooks"), func() *ast.Term { return oc.operations(v.Webhooks) })
	callbacks := each(uses || m.Has("callbacks"), func() *ast.Term { return oc.operations(v.Callbacks) })
	parameters := each(m.Has("parameters"), func() *ast.Term { return oc.parameters(v.Parameters) })
	queryParameters := each(m.Has("queryParameters"), func() *ast.Term { return oc.parameters(queryParameters(v.Operations)) })
	var responseUses, requestBodyUses *ast.Term
	if uses {
		responseUses, requestBodyUses = bodyUses(slices.Concat(v.Operations, v.Webhooks, v.Callbacks),
			slices.Concat(termsOf(operations), termsOf(webhooks), termsOf(callbacks)))
	}
	securitySchemes := each(m.Has("securitySchemes"), func() *ast.Term { return oc.securitySchemes(v.SecuritySchemes) })
	security := each(m.Has("security"), func() *ast.Term { return oc.security(v.Security) })
	servers := each(m.Has("servers"), func() *ast.Term { return oc.servers(v.Servers) })
	tags := each(m.Has("tags"), func() *ast.Term { return oc.tags(v.Tags) })
	channels := each(m.Has("channels"), func() *ast.Term { return oc.channels(v.Channels) })
	asyncOperations := each(m.Has("asyncOperations"), func() *ast.Term { return oc.asyncOperations(v.AsyncOperations) })
	messages := each(m.Has("messages"), func() *ast.Term { return oc.messages(v.Messages) })
	extensionRefs := each(m.Has("index.extensionRefs"), func() *ast.Term { return oc.extensionRefs(doc.Root.Root) })
	files := each(m.Has("files"), func() *ast.Term { return oc.files(doc) })
	refTargets := each(m.Has("refTargets"), func() *ast.Term { return oc.refTargets(doc) })
	all.Wait()
	obj := []([2]*ast.Term){
		c.kv("format", c.str(string(doc.Format))),
		c.kv("version", c.str(doc.Version)),
		c.kv("formats", c.strs(doc.FormatTags())),
	}
	// keep adds the members of m among pairs to the object's.
	keep := func(obj [][2]*ast.Term, pairs ...memberTerm) [][2]*ast.Term {
		for _, p := range pairs {
			if m.Has(p.name) {
				obj = append(obj, c.kv(strings.TrimPrefix(p.name, "index."), p.term()))
			}
		}
		return obj
	}
	obj = keep(obj,
		is("document", document),
		is("pathItems", pathItems),
		is("pathSegments", pathSegments),
		is("operations", operations),
		is("webhooks", webhooks),
		is("callbacks", callbacks),
		is("parameters", parameters),
		is("queryParameters", queryParameters),
		is("responseUses", responseUses),
		memberTerm{"schemas", func() *ast.Term { return ast.ArrayTerm(schemas...) }},
		memberTerm{"requestSchemas", func() *ast.Term {
			return ast.ArrayTerm(pick(schemas, v.Schemas, func(s *spec.Schema) bool { return s.Request })...)
		}},
		memberTerm{"responseSchemas", func() *ast.Term {
			return ast.ArrayTerm(pick(schemas, v.Schemas, func(s *spec.Schema) bool { return s.Response })...)
		}},
		is("schemasWith", schemasWith),
		is("schemasOfType", schemasOfType),
		is("received", received),
		is("receivedWith", receivedWith),
		is("receivedOfType", receivedOfType),
		is("swaggerValues", swaggerValues),
		is("swaggerValuesWith", swaggerValuesWith),
		is("swaggerValuesOfType", swaggerValuesOfType),
		is("securitySchemes", securitySchemes),
		is("security", security),
		is("servers", servers),
		is("tags", tags),
		is("channels", channels),
		is("asyncOperations", asyncOperations),
		is("messages", messages),
		is("refs", refs),
		is("refsTo", refsTo),
		is("componentRefs", components),
		is("files", files),
		is("refTargets", refTargets),
	)
	// The indexes that one rule (or two) reads to skip a scan, private
	// to the built-in rules' libraries (docs/input.md).
	index := keep(nil,
		is("index.parameterKeys", paramKeys),
		is("index.requestBodyUses", requestBodyUses),
		is("index.propertySchemas", propertySchemas),
		is("index.unresolvedRefs", unresolvedRefs),
		is("index.refsWithSiblings", refsWithSiblings),
		is("index.referencedComponents", referenced),
		is("index.extensionRefs", extensionRefs),
		is("index.markupTexts", markup),
		is("index.hasExamples", boolTerm(examples)),
	)
	if index != nil {
		obj = append(obj, c.kv("index", ast.ObjectTerm(index...)))
	}
	obj = append(obj, formatFields(c, doc)...)
	return ast.NewObject(obj...)
}

type converter struct {
	// parent's values are read, not written, while this converter works
	// (see fork); a converter that is no fork has noParent, whose tables
	// are empty.
	parent *converter
	terms  map[*spec.Node]converted // containers already converted
	// Converted containers by shape (see share): the first of each hash,
	// and the later ones of another shape whose hash was taken (a clash of
	// 64-bit hashes, rare), in order. One node a hash needs no slice.
	shapes  map[uint64]*spec.Node
	clashes map[uint64][]*spec.Node
	keys    map[string]*ast.Term // interned object keys and path segments
	values  *termTable           // interned string values (see intern)
	numbers *termTable           // interned numbers
	indices []*ast.Term          // interned small array indices
	params  map[*spec.Parameter]*ast.Term
	recent  [8]*ast.Term // paths converted lately (see path)
	next    int          // where the next path goes in recent
	// Scratch space for the members of the containers being converted
	// (a stack: each container's members are on top of its parent's) and
	// for the segments of a path: OPA copies an object's pairs, and a
	// container or path that turns out to be shared needs no slice of its
	// own, so only a new array's items are allocated.
	pairStack []([2]*ast.Term)
	itemStack []*ast.Term
	strLists  map[uint64][]*ast.Term // lists of strings converted (see strs)
	segs      []*ast.Term
}

func newConverter() *converter {
	return &converter{parent: noParent, terms: map[*spec.Node]converted{}, shapes: map[uint64]*spec.Node{}, keys: map[string]*ast.Term{}, values: newTermTable(),
		numbers: newTermTable(), params: map[*spec.Parameter]*ast.Term{}}
}

// noParent is the parent of a converter that is no fork: nil tables, which
// find nothing.
var noParent = &converter{}

// fork returns a converter that finds what c converted and keeps what it
// converts itself: forks of c can work in parallel while c is left alone.
func (c *converter) fork() *converter {
	f := newConverter()
	f.parent = c
	return f
}

// key interns an object key or path segment. A fork finds most in its
// parent (which converted the whole document first), so the parent's
// table is read first: the two never hold one key.
func (c *converter) key(k string) *ast.Term {
	t, ok := c.parent.keys[k]
	if !ok {
		t, ok = c.keys[k]
	}
	if !ok {
		t = ast.StringTerm(k)
		c.keys[k] = t
	}
	return t
}

// Scalars repeat ("string", "object", 0, true): short ones are shared.
var (
	nullTerm  = ast.NullTerm()
	trueTerm  = ast.BooleanTerm(true)
	falseTerm = ast.BooleanTerm(false)
)

// Values are interned, whatever their length: a large API writes most of
// its strings many times over (types, $refs, the descriptions an
// operation's view repeats from the document), and the tables go once the
// input is built. A table stops taking values when its first
// sampleInternedVals additions met fewer than half as many repeats (a huge
// enum of distinct values would only grow it), or once it holds
// maxInternedVals.
const (
	maxInternedVals    = 1 << 18
	sampleInternedVals = 1 << 14
)

// termTable interns the terms of values.
type termTable struct {
	m          map[string]*ast.Term
	hits, adds int
	closed     bool
}

func newTermTable() *termTable { return &termTable{m: map[string]*ast.Term{}} }

// get finds v's term; a nil table (noParent's) finds nothing.
func (t *termTable) get(v string) (*ast.Term, bool) {
	if t == nil {
		return nil, false
	}
	term, ok := t.m[v]
	return term, ok
}

func (t *termTable) add(v string, term *ast.Term) {
	if t.closed {
		return
	}
	t.m[v] = term
	t.adds++
	if t.adds == sampleInternedVals && 2*t.hits < t.adds || len(t.m) >= maxInternedVals {
		t.closed = true
	}
}

func (c *converter) number(v string) *ast.Term {
	return intern(c.numbers, c.parent.numbers, v, func() *ast.Term { return ast.NumberTerm(json.Number(v)) })
}

// intern returns v's term from inherited, the read-only table of a parent
// converter (where a fork finds most), or from table; else a new one, kept
// in table.
func intern(table, inherited *termTable, v string, mk func() *ast.Term) *ast.Term {
	if t, ok := inherited.get(v); ok {
		table.hits++
		return t
	}
	if t, ok := table.get(v); ok {
		table.hits++
		return t
	}
	t := mk()
	table.add(v, t)
	return t
}

func (c *converter) kv(k string, v *ast.Term) [2]*ast.Term { return [2]*ast.Term{c.key(k), v} }

func (c *converter) str(s string) *ast.Term {
	return intern(c.values, c.parent.values, s, func() *ast.Term { return ast.StringTerm(s) })
}

func (c *converter) strs(ss []string) *ast.Term {
	if len(ss) == 0 {
		// Empty lists (the siblings of nearly every $ref, say) are one.
		return ast.InternedEmptyArray
	}
	// Lists repeat too (an operation's tags, a path's methods, its
	// segments and its shape when it has no template): one term each.
	h := stringsHash(ss)
	for _, t := range c.strLists[h] {
		if sameStrings(t.Value.(*ast.Array), ss) {
			return t
		}
	}
	items := make([]*ast.Term, len(ss))
	for i, s := range ss {
		items[i] = c.str(s)
	}
	t := ast.ArrayTerm(items...)
	if c.strLists == nil {
		c.strLists = map[uint64][]*ast.Term{}
	}
	c.strLists[h] = append(c.strLists[h], t)
	return t
}

// stringsHash hashes a list of strings.
func stringsHash(ss []string) uint64 {
	var h maphash.Hash
	h.SetSeed(shapeSeed)
	var buf [8]byte
	for _, s := range ss {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.WriteString(s)
	}
	return h.Sum64()
}

// sameStrings tells whether an array of strings is ss.
func sameStrings(arr *ast.Array, ss []string) bool {
	if arr.Len() != len(ss) {
		return false
	}
	for i, s := range ss {
		if v, ok := arr.Elem(i).Value.(ast.String); !ok || string(v) != s {
			return false
		}
	}
	return true
}

func boolTerm(b bool) *ast.Term {
	if b {
		return trueTerm
	}
	return falseTerm
}

// node converts a node; nil becomes null.
func (c *converter) node(n *spec.Node) *ast.Term {
	if n == nil {
		return ast.NullTerm()
	}
	switch n.Kind {
	case spec.Null:
		return nullTerm
	case spec.Bool:
		if n.Value == "true" {
			return trueTerm
		}
		return falseTerm
	case spec.Number:
		return c.number(n.Value)
	case spec.String:
		return c.str(n.Value)
	}
	// Empty objects and lists are OPA's one of each.
	switch {
	case n.Kind == spec.Object && len(n.Fields) == 0:
		return ast.InternedEmptyObject
	case n.Kind == spec.Array && len(n.Items) == 0:
		return ast.InternedEmptyArray
	}
	if t, ok := c.converted(n); ok {
		return t.term
	}
	// The members first: the node's shape is made of theirs. Each
	// member is converted before it is pushed, since converting it pushes
	// and pops its own members.
	if n.Kind == spec.Object {
		start := len(c.pairStack)
		for i := range n.Fields {
			f := &n.Fields[i]
			k, v := c.key(f.Key), c.node(f.Value)
			c.pairStack = append(c.pairStack, [2]*ast.Term{k, v})
		}
		t := c.container(n, func() ast.Value { return ast.NewObject(c.pairStack[start:]...) })
		c.pairStack = c.pairStack[:start]
		return t
	}
	start := len(c.itemStack)
	for _, it := range n.Items {
		v := c.node(it)
		c.itemStack = append(c.itemStack, v)
	}
	t := c.container(n, func() ast.Value { return ast.NewArray(slices.Clone(c.itemStack[start:])...) })
	c.itemStack = c.itemStack[:start]
	return t
}

// container returns the term of a container whose members are converted:
// that of a container of the same shape converted before, else a new one
// made by mk.
func (c *converter) container(n *spec.Node, mk func() ast.Value) *ast.Term {
	shape := c.shape(n)
	if same := c.sameShape(n, shape); same != nil && shareShapes {
		c.terms[n] = converted{same, shape}
		return same
	}
	t := ast.NewTerm(mk())
	c.terms[n] = converted{t, shape}
	if _, taken := c.shapes[shape]; !taken {
		c.shapes[shape] = n
	} else {
		if c.clashes == nil {
			c.clashes = map[uint64][]*spec.Node{}
		}
		c.clashes[shape] = append(c.clashes[shape], n)
	}
	return t
}

// containers counts the non-empty objects and arrays of a tree.
func containers(n *spec.Node) int {
	count := 0
	var walk func(n *spec.Node)
	walk = func(n *spec.Node) {
		switch {
		case n == nil:
		case n.Kind == spec.Object && len(n.Fields) > 0:
			count++
			for i := range n.Fields {
				walk(n.Fields[i].Value)
			}
		case n.Kind == spec.Array && len(n.Items) > 0:
			count++
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	walk(n)
	return count
}

// converted is the term of a container node and the hash of its shape.
type converted struct {
	term  *ast.Term
	shape uint64
}

// converted finds the term of a container converted by c or its parent.
func (c *converter) converted(n *spec.Node) (converted, bool) {
	if t, ok := c.parent.terms[n]; ok {
		return t, true
	}
	t, ok := c.terms[n]
	return t, ok
}

// Containers of the same shape share one term (hash-consing): a large API
// writes the same small objects thousands of times ({"type": "string"},
// {"$ref": …}, the same list of required keys): on a large API, about
// one shape for every four objects. OPA's values are immutable and compared by
// value, and findings are located by the paths the rules build, never by
// a term's identity, so a shared term changes no result. Two containers
// have the same shape when their keys are the same in the same order and
// their members are the same scalars or share one term; a hash of the
// shape finds the candidates.

// shapeSeed seeds the hashes of shapes; forks hash as their parent does.
var shapeSeed = maphash.MakeSeed()

// shareShapes is false only in the test that builds inputs both ways.
var shareShapes = true

// shape hashes the shape of a container whose members are converted.
func (c *converter) shape(n *spec.Node) uint64 {
	var h maphash.Hash
	h.SetSeed(shapeSeed)
	var buf [8]byte
	member := func(m *spec.Node) {
		h.WriteByte(byte(m.Kind))
		if m.Kind == spec.Object || m.Kind == spec.Array {
			t, _ := c.converted(m)
			binary.LittleEndian.PutUint64(buf[:], t.shape) // 0 for an empty one
			h.Write(buf[:])
			return
		}
		h.WriteString(m.Value)
		h.WriteByte(0)
	}
	h.WriteByte(byte(n.Kind))
	if n.Kind == spec.Object {
		for i := range n.Fields {
			h.WriteString(n.Fields[i].Key)
			h.WriteByte(0)
			member(n.Fields[i].Value)
		}
	} else {
		for _, it := range n.Items {
			member(it)
		}
	}
	return h.Sum64()
}

// sameShape returns the term of a converted container of n's shape, or
// nil.
func (c *converter) sameShape(n *spec.Node, shape uint64) *ast.Term {
	for _, conv := range [...]*converter{c.parent, c} {
		first, ok := conv.shapes[shape]
		if !ok {
			continue
		}
		if c.alike(n, first) {
			t, _ := c.converted(first)
			return t.term
		}
		for _, o := range conv.clashes[shape] {
			if c.alike(n, o) {
				t, _ := c.converted(o)
				return t.term
			}
		}
	}
	return nil
}

// alike tells whether two containers whose members are converted have the
// same shape.
func (c *converter) alike(a, b *spec.Node) bool {
	if a.Kind != b.Kind || len(a.Fields) != len(b.Fields) || len(a.Items) != len(b.Items) {
		return false
	}
	if a.Kind == spec.Object {
		for i := range a.Fields {
			if a.Fields[i].Key != b.Fields[i].Key || !c.same(a.Fields[i].Value, b.Fields[i].Value) {
				return false
			}
		}
		return true
	}
	for i := range a.Items {
		if !c.same(a.Items[i], b.Items[i]) {
			return false
		}
	}
	return true
}

// same tells whether two converted members are one value: equal scalars,
// or containers of one term.
func (c *converter) same(a, b *spec.Node) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind != spec.Object && a.Kind != spec.Array {
		return a.Value == b.Value
	}
	if len(a.Fields)+len(a.Items) == 0 || len(b.Fields)+len(b.Items) == 0 {
		return len(a.Fields)+len(a.Items) == len(b.Fields)+len(b.Items)
	}
	ta, _ := c.converted(a)
	tb, _ := c.converted(b)
	return ta.term == tb.term
}

// index returns the term of an array index, shared like object keys: the
// paths of a large document repeat the same few segments many times.
func (c *converter) index(i int) *ast.Term {
	if i < len(c.indices) {
		if t := c.indices[i]; t != nil {
			return t
		}
	}
	if i < len(c.parent.indices) {
		if t := c.parent.indices[i]; t != nil {
			return t
		}
	}
	t := ast.NumberTerm(json.Number(strconv.Itoa(i)))
	if i < 256 {
		for len(c.indices) <= i {
			c.indices = append(c.indices, nil)
		}
		c.indices[i] = t
	}
	return t
}

// list converts items; an empty list is OPA's one empty array (the
// headers, servers and parameters most views lack).
func list[T any](items []T, fn func(T) *ast.Term) *ast.Term {
	if len(items) == 0 {
		return ast.InternedEmptyArray
	}
	out := make([]*ast.Term, len(items))
	for i, it := range items {
		out[i] = fn(it)
	}
	return ast.ArrayTerm(out...)
}

func (c *converter) obj(pairs ...[2]*ast.Term) *ast.Term { return ast.ObjectTerm(pairs...) }
