package policy

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// Input builds the OPA input value of a document once, directly as an
// ast.Value (no JSON round trip). Its shape is documented in
// docs/input.md. Views share the converted values of the raw document, so
// a schema that appears in the raw tree and in input.schemas is one value.
func Input(doc *spec.Document) ast.Value {
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
	first.Go(func() { v = doc.Views() })
	all.Go(func() {
		refs, refsTo, unresolvedRefs, refsWithSiblings = newConverter().refs(doc)
		components, referenced = componentRefs(doc), referencedComponents(doc)
	})
	all.Go(func() { markup, examples = scanFiles(doc) })
	c := newConverter()
	document := c.node(doc.Root.Root)
	first.Wait()
	all.Go(func() {
		paramKeys = parameterKeys(doc.Root.Root, v.PathItems, slices.Concat(v.Operations, v.Webhooks, v.Callbacks))
	})
	// The schema-like values and the operations and the rest are built
	// on two cores, by converters that read c's values and keep what they
	// add: c is not written until both are done.
	var schemas []*ast.Term
	var schemasWith, schemasOfType, propertySchemas, received, receivedWith, receivedOfType, swaggerValues, swaggerValuesWith, swaggerValuesOfType *ast.Term
	sc := c.fork()
	all.Go(func() {
		labels := newLabeler(doc, v)
		schemas, schemasWith, schemasOfType, propertySchemas = c.schemas(v.Schemas, labels)
		received, receivedWith, receivedOfType = sc.received(doc, v, schemas, labels)
		swaggerValues, swaggerValuesWith, swaggerValuesOfType = sc.swaggerValues(doc, v)
	})
	oc := c.fork()
	pathItems, pathSegments := oc.pathItems(v.PathItems)
	operations := oc.operations(v.Operations)
	webhooks, callbacks, parameters := oc.operations(v.Webhooks), oc.operations(v.Callbacks), oc.parameters(v.Parameters)
	queryParameters := oc.parameters(queryParameters(v.Operations))
	responseUses, requestBodyUses := bodyUses(slices.Concat(v.Operations, v.Webhooks, v.Callbacks),
		slices.Concat(termsOf(operations), termsOf(webhooks), termsOf(callbacks)))
	securitySchemes, security, servers, tags := oc.securitySchemes(v.SecuritySchemes), oc.security(v.Security), oc.servers(v.Servers), oc.tags(v.Tags)
	channels, asyncOperations, messages := oc.channels(v.Channels), oc.asyncOperations(v.AsyncOperations), oc.messages(v.Messages)
	extensionRefs, files, refTargets := oc.extensionRefs(doc.Root.Root), oc.files(doc), oc.refTargets(doc)
	all.Wait()
	obj := []([2]*ast.Term){
		c.kv("format", c.str(string(doc.Format))),
		c.kv("version", c.str(doc.Version)),
		c.kv("formats", c.strs(doc.FormatTags())),
		c.kv("document", document),
		c.kv("pathItems", pathItems),
		c.kv("pathSegments", pathSegments),
		c.kv("operations", operations),
		c.kv("webhooks", webhooks),
		c.kv("callbacks", callbacks),
		c.kv("parameters", parameters),
		c.kv("queryParameters", queryParameters),
		c.kv("parameterKeys", paramKeys),
		c.kv("responseUses", responseUses),
		c.kv("requestBodyUses", requestBodyUses),
		c.kv("schemas", ast.ArrayTerm(schemas...)),
		c.kv("requestSchemas", ast.ArrayTerm(pick(schemas, v.Schemas, func(s *spec.Schema) bool { return s.Request })...)),
		c.kv("responseSchemas", ast.ArrayTerm(pick(schemas, v.Schemas, func(s *spec.Schema) bool { return s.Response })...)),
		c.kv("schemasWith", schemasWith),
		c.kv("schemasOfType", schemasOfType),
		c.kv("propertySchemas", propertySchemas),
		c.kv("received", received),
		c.kv("receivedWith", receivedWith),
		c.kv("receivedOfType", receivedOfType),
		c.kv("swaggerValues", swaggerValues),
		c.kv("swaggerValuesWith", swaggerValuesWith),
		c.kv("swaggerValuesOfType", swaggerValuesOfType),
		c.kv("securitySchemes", securitySchemes),
		c.kv("security", security),
		c.kv("servers", servers),
		c.kv("tags", tags),
		c.kv("channels", channels),
		c.kv("asyncOperations", asyncOperations),
		c.kv("messages", messages),
		c.kv("refs", refs),
		c.kv("refsTo", refsTo),
		c.kv("unresolvedRefs", unresolvedRefs),
		c.kv("refsWithSiblings", refsWithSiblings),
		c.kv("componentRefs", components),
		c.kv("referencedComponents", referenced),
		c.kv("extensionRefs", extensionRefs),
		c.kv("markupTexts", markup),
		c.kv("hasExamples", boolTerm(examples)),
		c.kv("files", files),
		c.kv("refTargets", refTargets),
	}
	obj = append(obj, formatFields(c, doc)...)
	return ast.NewObject(obj...)
}

type converter struct {
	// parent's values are read, not written, while this converter works
	// (see fork); a converter that is no fork has noParent, whose tables
	// are empty.
	parent  *converter
	terms   map[*spec.Node]*ast.Term // containers already converted
	keys    map[string]*ast.Term     // interned object keys and path segments
	values  map[string]*ast.Term     // interned string values (see intern)
	numbers map[string]*ast.Term     // interned numbers
	indices []*ast.Term              // interned small array indices
	params  map[*spec.Parameter]*ast.Term
	empty   *ast.Term    // the empty list
	recent  [4]*ast.Term // paths converted lately
	next    int          // where the next path goes in recent
}

func newConverter() *converter {
	return &converter{parent: noParent, terms: map[*spec.Node]*ast.Term{}, keys: map[string]*ast.Term{}, values: map[string]*ast.Term{},
		numbers: map[string]*ast.Term{}, params: map[*spec.Parameter]*ast.Term{}}
}

// noParent is the parent of a converter that is no fork: nil tables, which
// find nothing.
var noParent = &converter{}

// fork returns a converter that finds what c converted and keeps what it
// converts itself: forks of c can work in parallel while c is left alone.
func (c *converter) fork() *converter {
	f := newConverter()
	f.parent, f.empty = c, c.empty
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

// Values are interned while the tables are small: the common ones ("string",
// "object", 0, 1) come early in any document, and a document of half a
// million distinct enum values must not grow a table as large.
const (
	maxInterned     = 32   // longest value interned
	maxInternedVals = 4096 // values per table
)

func (c *converter) number(v string) *ast.Term {
	return intern(c.numbers, c.parent.numbers, v, func() *ast.Term { return ast.NumberTerm(json.Number(v)) })
}

// intern returns v's term from inherited, the read-only table of a parent
// converter (where a fork finds most), or from table; else a new one, kept
// in table.
func intern(table, inherited map[string]*ast.Term, v string, mk func() *ast.Term) *ast.Term {
	if t, ok := inherited[v]; ok {
		return t
	}
	if t, ok := table[v]; ok {
		return t
	}
	t := mk()
	if len(v) <= maxInterned && len(table) < maxInternedVals {
		table[v] = t
	}
	return t
}

func (c *converter) kv(k string, v *ast.Term) [2]*ast.Term { return [2]*ast.Term{c.key(k), v} }

func (c *converter) str(s string) *ast.Term {
	return intern(c.values, c.parent.values, s, func() *ast.Term { return ast.StringTerm(s) })
}

func (c *converter) strs(ss []string) *ast.Term {
	if len(ss) == 0 {
		// Empty lists (the siblings of nearly every $ref, say) are one.
		if c.empty == nil {
			c.empty = ast.ArrayTerm()
		}
		return c.empty
	}
	items := make([]*ast.Term, len(ss))
	for i, s := range ss {
		items[i] = c.str(s)
	}
	return ast.ArrayTerm(items...)
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
	if t, ok := c.parent.terms[n]; ok {
		return t
	}
	if t, ok := c.terms[n]; ok {
		return t
	}
	var t *ast.Term
	if n.Kind == spec.Object {
		pairs := make([][2]*ast.Term, len(n.Fields))
		for i := range n.Fields {
			f := &n.Fields[i]
			pairs[i] = [2]*ast.Term{c.key(f.Key), c.node(f.Value)}
		}
		t = ast.NewTerm(ast.NewObject(pairs...))
	} else {
		items := make([]*ast.Term, len(n.Items))
		for i, it := range n.Items {
			items[i] = c.node(it)
		}
		t = ast.NewTerm(ast.NewArray(items...))
	}
	c.terms[n] = t
	return t
}

// path converts a source path; indices stay numbers.
func (c *converter) path(p spec.Path) *ast.Term {
	// A path often comes again right away: a Swagger 2.0 response, and
	// each media type it produces, share theirs.
	for _, t := range c.recent {
		if t != nil && isPath(t, p) {
			return t
		}
	}
	t := c.newPath(p)
	c.recent[c.next%len(c.recent)] = t
	c.next++
	return t
}

// isPath tells whether a converted path holds the segments of p.
func isPath(t *ast.Term, p spec.Path) bool {
	arr := t.Value.(*ast.Array)
	if arr.Len() != len(p) {
		return false
	}
	for i, seg := range p {
		switch s := seg.(type) {
		case string:
			if k, ok := arr.Elem(i).Value.(ast.String); !ok || string(k) != s {
				return false
			}
		case int:
			n, ok := arr.Elem(i).Value.(ast.Number)
			if !ok {
				return false
			}
			if v, ok := n.Int(); !ok || v != s {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func (c *converter) newPath(p spec.Path) *ast.Term {
	items := make([]*ast.Term, len(p))
	for i, s := range p {
		switch s := s.(type) {
		case int:
			items[i] = c.index(s)
		case string:
			items[i] = c.key(s)
		}
	}
	return ast.ArrayTerm(items...)
}

// pathKey is a map key for a path.
func pathKey(p spec.Path) string {
	var b strings.Builder
	for _, seg := range p {
		switch s := seg.(type) {
		case string:
			b.WriteString(strconv.Itoa(len(s)))
			b.WriteByte(':')
			b.WriteString(s)
		case int:
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(s))
			b.WriteByte(';')
		}
	}
	return b.String()
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

func list[T any](items []T, fn func(T) *ast.Term) *ast.Term {
	out := make([]*ast.Term, len(items))
	for i, it := range items {
		out[i] = fn(it)
	}
	return ast.ArrayTerm(out...)
}

func (c *converter) obj(pairs ...[2]*ast.Term) *ast.Term { return ast.ObjectTerm(pairs...) }

// pathItems are the path items under paths, each with the segments of
// its path (naming.path_segments) and its shape (templates as "{}");
// users indexes the items by segment, {segment: [i]}, each item once per
// segment, in order. The naming rules judge a segment once, where
// kubernetes.json's thousand paths have 8,000 segments, of 300 distinct
// spellings.
func (c *converter) pathItems(items []*spec.PathItem) (list, users *ast.Term) {
	out := make([]*ast.Term, len(items))
	index := map[string][]*ast.Term{}
	var order []string
	for i, p := range items {
		methods := make([]string, len(p.Operations))
		for j, op := range p.Operations {
			methods[j] = op.Method
		}
		segs := pathSegments(p.Path)
		shape := make([]string, len(segs))
		for j, seg := range segs {
			shape[j] = seg
			if strings.Contains(seg, "{") {
				shape[j] = pathTemplate().ReplaceAllString(seg, "{}")
			}
		}
		out[i] = c.obj(c.kv("path", c.str(p.Path)), c.kv("segments", c.strs(segs)), c.kv("shape", c.strs(shape)),
			c.kv("methods", c.strs(methods)), c.kv("node", c.node(p.Node)), c.kv("source", c.path(p.Source)))
		for j, seg := range segs {
			if slices.Contains(segs[:j], seg) {
				continue
			}
			if _, ok := index[seg]; !ok {
				order = append(order, seg)
			}
			index[seg] = append(index[seg], ast.InternedTerm(i))
		}
	}
	pairs := make([][2]*ast.Term, len(order))
	for i, seg := range order {
		pairs[i] = c.kv(seg, ast.ArrayTerm(index[seg]...))
	}
	return ast.ArrayTerm(out...), ast.ObjectTerm(pairs...)
}

var (
	// afterPath is what naming.path_segments cuts from a path: a query
	// or a fragment (written as Rego's regex.replace reads it).
	afterPath = lazyregexp.New(`[?#].*$`)
	// pathTemplate is a path template, which a shape writes as "{}".
	pathTemplate = lazyregexp.New(`\{[^{}]*\}`)
)

// pathSegments are the non-empty segments of a path template, up to any
// query or fragment (naming.path_segments).
func pathSegments(path string) []string {
	if strings.ContainsAny(path, "?#") {
		path = afterPath().ReplaceAllString(path, "")
	}
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

func (c *converter) operations(ops []*spec.Operation) *ast.Term {
	return list(ops, c.operation)
}

func (c *converter) operation(op *spec.Operation) *ast.Term {
	rb := ast.NullTerm()
	if op.RequestBody != nil {
		b := op.RequestBody
		rb = c.obj(c.kv("required", boolTerm(b.Required)), c.kv("description", c.str(b.Description)),
			c.kv("content", c.mediaTypes(b.Content)), c.kv("formData", c.parameters(b.FormData)),
			c.kv("node", c.node(b.Node)), c.kv("source", c.path(b.Source)))
	}
	responses := list(op.Responses, func(r *spec.Response) *ast.Term {
		headers := list(r.Headers, func(h *spec.Header) *ast.Term {
			return c.obj(c.kv("name", c.str(h.Name)), c.kv("required", boolTerm(h.Required)),
				c.kv("schema", c.node(h.Schema)), c.kv("schemaSource", c.path(h.SchemaSource)),
				c.kv("node", c.node(h.Node)), c.kv("source", c.path(h.Source)))
		})
		return c.obj(c.kv("status", c.str(r.Status)), c.kv("description", c.str(r.Description)),
			c.kv("content", c.mediaTypes(r.Content)), c.kv("headers", headers),
			c.kv("node", c.node(r.Node)), c.kv("source", c.path(r.Source)))
	})
	return c.obj(
		c.kv("path", c.str(op.Path)), c.kv("method", c.str(op.Method)),
		c.kv("operationId", c.str(op.OperationID)), c.kv("summary", c.str(op.Summary)),
		c.kv("description", c.str(op.Description)), c.kv("tags", c.strs(op.Tags)),
		c.kv("deprecated", boolTerm(op.Deprecated)),
		c.kv("parameters", c.parameters(op.Parameters)), c.kv("requestBody", rb),
		c.kv("responses", responses), c.kv("security", c.security(op.Security)),
		c.kv("servers", c.servers(op.Servers)),
		c.kv("webhook", c.str(op.Webhook)), c.kv("callback", c.str(op.Callback)),
		c.kv("node", c.node(op.Node)), c.kv("source", c.path(op.Source)),
	)
}

func (c *converter) mediaTypes(mts []*spec.MediaType) *ast.Term {
	return list(mts, func(m *spec.MediaType) *ast.Term {
		return c.obj(c.kv("mediaType", c.str(m.Name)), c.kv("schema", c.node(m.Schema)),
			c.kv("schemaSource", c.path(m.SchemaSource)), c.kv("node", c.node(m.Node)), c.kv("source", c.path(m.Source)))
	})
}

// parameters converts parameters; a parameter that several operations
// share (a path item's, or a $ref'd one) is one value.
func (c *converter) parameters(ps []*spec.Parameter) *ast.Term {
	return list(ps, func(p *spec.Parameter) *ast.Term {
		t, ok := c.params[p]
		if !ok {
			t, ok = c.parent.params[p]
		}
		if !ok {
			t = c.obj(c.kv("name", c.str(p.Name)), c.kv("in", c.str(p.In)), c.kv("required", boolTerm(p.Required)),
				c.kv("schema", c.node(p.Schema)), c.kv("schemaSource", c.path(p.SchemaSource)),
				c.kv("component", c.str(p.Component)), c.kv("node", c.node(p.Node)), c.kv("source", c.path(p.Source)))
			c.params[p] = t
		}
		return t
	})
}

// queryParameters are the distinct query parameters of ops, in the order
// they are first met: the pagination rules look for page parameters among
// them, and kubernetes.json's 1,100 operations list 8,800 parameters, a
// few dozen of them distinct.
func queryParameters(ops []*spec.Operation) []*spec.Parameter {
	var out []*spec.Parameter
	seen := map[*spec.Parameter]bool{}
	for _, op := range ops {
		for _, p := range op.Parameters {
			if p.In == "query" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// bodyUses are the uses of the responses and of the request bodies of ops
// (the operations under paths, webhooks and callbacks, in that order,
// with their converted terms), each judged once: once per operation for
// one written in place, and once for one written as a $ref, with the
// first operation that uses the reference for it (for a response, or for
// a request body). They are
// data.specgate.lib.style.response_uses and request_body_uses built in
// Go: the rules about what responses and request bodies declare judge one
// that hundreds of operations share once.
//
// Responses are {op, response, name, at}, request bodies {op,
// requestBody, name, at}: name and at are style.response_name and
// response_at of the pair (request_body_name and request_body_at of the
// operation), which messages and paths of findings take. A shared one is
// named by its reference and by the operations that use it, for a
// response or a request body, the first of them in order.
func bodyUses(ops []*spec.Operation, terms []*ast.Term) (responses, requestBodies *ast.Term) {
	first := map[string]int{}         // a $ref → the first operation using it
	users := map[string]int{}         // a $ref → how many operations use it
	last := map[string]int{}          // a $ref → the last operation counted
	firstResponse := map[string]int{} // a $ref → the first operation using it for a response
	firstBody := map[string]int{}     // a $ref → the first operation using it for its request body
	// use counts operation i among the users of n's $ref, noting it in
	// firstThere (firstResponse or firstBody) if it is the first there.
	use := func(n *spec.Node, i int, firstThere map[string]int) {
		r, ok := refString(n)
		if !ok {
			return
		}
		if _, seen := first[r]; !seen {
			first[r], last[r] = i, -1
		}
		if _, seen := firstThere[r]; !seen {
			firstThere[r] = i
		}
		if last[r] != i {
			users[r]++
			last[r] = i
		}
	}
	for i, op := range ops {
		if rs := op.Node.Get("responses"); rs != nil && rs.Kind == spec.Object {
			for _, f := range rs.Fields {
				use(f.Value, i, firstResponse)
			}
		}
		use(op.Node.Get("requestBody"), i, firstBody)
	}
	// shared is the name and the place of a use of a $ref: named by the
	// reference and its users, at the target of a local reference (else
	// where the operation writes it).
	shared := func(what, ref string, at *ast.Term) (*ast.Term, *ast.Term) {
		if path, ok := localRefPath(ref); ok {
			at = path
		}
		return ast.StringTerm(what + " " + ref + " (used by " + sharedBy(operationName(ops[first[ref]]), users[ref]) + ")"), at
	}
	field := func(i int, key *ast.Term) *ast.Term { return terms[i].Value.(ast.Object).Get(key) }
	source := func(t *ast.Term) *ast.Term { return t.Value.(ast.Object).Get(sourceKey) }
	responseRef := func(i int, status string) (string, bool) {
		return refString(ops[i].Node.Get("responses").Get(status))
	}
	var resps, bodies []*ast.Term
	addResponse := func(i, j int, ref string) {
		resp := field(i, responsesKey).Value.(*ast.Array).Elem(j)
		name, at := ast.StringTerm(operationName(ops[i])+" response "+ops[i].Responses[j].Status), source(resp)
		if ref != "" {
			name, at = shared("response", ref, at)
		}
		resps = append(resps, ast.ObjectTerm([2]*ast.Term{opKey, terms[i]}, [2]*ast.Term{responseKey, resp},
			[2]*ast.Term{nameKey, name}, [2]*ast.Term{atKey, at}))
	}
	addBody := func(i int, ref string) {
		body := field(i, requestBodyKey)
		name, at := ast.StringTerm("the request body of "+operationName(ops[i])), source(body)
		if ref != "" {
			name, at = shared("request body", ref, at)
		}
		bodies = append(bodies, ast.ObjectTerm([2]*ast.Term{opKey, terms[i]}, [2]*ast.Term{requestBodyKey, body},
			[2]*ast.Term{nameKey, name}, [2]*ast.Term{atKey, at}))
	}
	bodyRef := func(i int) (string, bool) { return refString(ops[i].Node.Get("requestBody")) }
	for i, op := range ops {
		for j, r := range op.Responses {
			if _, ok := responseRef(i, r.Status); !ok {
				addResponse(i, j, "")
			}
		}
		if _, ok := bodyRef(i); !ok && op.RequestBody != nil {
			addBody(i, "")
		}
	}
	// A shared one is judged with the first operation that uses the
	// reference for a response (for a request body), which the first user
	// of the reference, whom its name quotes, may not be.
	for _, ref := range slices.Sorted(maps.Keys(first)) {
		if i, ok := firstResponse[ref]; ok {
			for j, r := range ops[i].Responses {
				if got, ok := responseRef(i, r.Status); ok && got == ref {
					addResponse(i, j, ref)
				}
			}
		}
		if k, ok := firstBody[ref]; ok && ops[k].RequestBody != nil {
			addBody(k, ref)
		}
	}
	return ast.ArrayTerm(resps...), ast.ArrayTerm(bodies...)
}

// parameterKeys are the keys of the parameter lists as written, {"pathItems":
// [keys], "operations": [keys]}, one per path item and per operation
// under paths, webhooks and callbacks (correctness.operations), in order:
// null where the item writes no list, else the key of each entry, null
// for an entry that cannot be read. A key is [in, name], a header's name
// lower-cased (header names have no case); an entry that is a local $ref
// is read from its target, as health.deref reads it (one level, within
// the entry document). operation-parameters-unique looks for a repeated
// key in each list: kubernetes.json's 2,000 lists have 11,500 entries,
// nearly all $refs, which Rego read one by one.
func parameterKeys(root *spec.Node, items []*spec.PathItem, ops []*spec.Operation) *ast.Term {
	interned := map[string]*ast.Term{}
	key := func(p *spec.Node) *ast.Term {
		in, name := p.Get("in"), p.Get("name")
		if in == nil || in.Kind != spec.String || name == nil || name.Kind != spec.String {
			return ast.NullTerm()
		}
		n := name.Value
		if in.Value == "header" {
			n = strings.ToLower(n)
		}
		k := in.Value + "\x00" + n
		t, ok := interned[k]
		if !ok {
			t = ast.ArrayTerm(ast.StringTerm(in.Value), ast.StringTerm(n))
			interned[k] = t
		}
		return t
	}
	byRef := map[string]*ast.Term{} // the key of each $ref's target
	keys := func(owner *spec.Node) *ast.Term {
		list := owner.Get("parameters")
		if list == nil || list.Kind != spec.Array {
			return ast.NullTerm()
		}
		out := make([]*ast.Term, len(list.Items))
		for i, e := range list.Items {
			ref, isRef := refString(e)
			if !isRef {
				out[i] = key(e)
				continue
			}
			if out[i] = byRef[ref]; out[i] == nil {
				t := localTarget(root, e)
				out[i] = key(t)
				if t != e { // an unresolved $ref is read with its siblings
					byRef[ref] = out[i]
				}
			}
		}
		return ast.ArrayTerm(out...)
	}
	itemKeys := make([]*ast.Term, len(items))
	for i, it := range items {
		itemKeys[i] = keys(it.Node)
	}
	opKeys := make([]*ast.Term, len(ops))
	for i, op := range ops {
		opKeys[i] = keys(op.Node)
	}
	return ast.ObjectTerm([2]*ast.Term{ast.StringTerm("pathItems"), ast.ArrayTerm(itemKeys...)},
		[2]*ast.Term{ast.StringTerm("operations"), ast.ArrayTerm(opKeys...)})
}

// localTarget is what health.deref makes of a value: the object a local
// $ref of it names in the entry document (followed through objects only,
// and not itself a $ref), else the value.
func localTarget(root, n *spec.Node) *spec.Node {
	ref, ok := refString(n)
	if !ok {
		return n
	}
	segs, ok := refSegments(ref)
	if !ok {
		return n
	}
	t := root
	for _, seg := range segs {
		if t = t.Get(seg); t == nil {
			return n
		}
	}
	if t.Kind != spec.Object {
		return n
	}
	if _, isRef := refString(t); isRef {
		return n
	}
	return t
}

// sharedBy names the n operations that use a reference by the first of
// them (style.shared_by).
func sharedBy(first string, n int) string {
	switch n {
	case 1:
		return first
	case 2:
		return first + " and 1 other operation"
	}
	return first + " and " + strconv.Itoa(n-1) + " other operations"
}

// operationName is specgate.operation_name of an operation's view.
func operationName(op *spec.Operation) string {
	return nameOperation(op.Method, op.Path, op.Webhook, op.Callback)
}

// localRefPath is the path a local $ref names (util.ref_path): "#/a/x~1y"
// is ["a", "x/y"]; false for a reference to another file.
func localRefPath(ref string) (*ast.Term, bool) {
	segs, ok := refSegments(ref)
	if !ok {
		return nil, false
	}
	terms := make([]*ast.Term, len(segs))
	for i, seg := range segs {
		terms[i] = ast.StringTerm(seg)
	}
	return ast.ArrayTerm(terms...), true
}

// refSegments are the keys of the path a local $ref names, unescaped;
// false for a reference to another file.
func refSegments(ref string) ([]string, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	return pointerKeys(ref[1:]), true
}

// pointerKeys are the keys of a JSON pointer ("/a/x~1y" is "a", "x/y"),
// unescaped as util.unescape does; none for "".
func pointerKeys(ptr string) []string {
	if ptr == "" {
		return nil
	}
	keys := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, key := range keys {
		if strings.Contains(key, "~") {
			keys[i] = strings.ReplaceAll(strings.ReplaceAll(key, "~1", "/"), "~0", "~")
		}
	}
	return keys
}

var (
	opKey          = ast.StringTerm("op")
	nameKey        = ast.StringTerm("name")
	sourceKey      = ast.StringTerm("source")
	atKey          = ast.StringTerm("at")
	responseKey    = ast.StringTerm("response")
	responsesKey   = ast.StringTerm("responses")
	requestBodyKey = ast.StringTerm("requestBody")
)

// refString is the $ref of an object, when it is a string.
func refString(n *spec.Node) (string, bool) {
	if r := n.Get("$ref"); r != nil && r.Kind == spec.String {
		return r.Value, true
	}
	return "", false
}

// termsOf are the elements of an array term.
func termsOf(list *ast.Term) []*ast.Term {
	arr := list.Value.(*ast.Array)
	out := make([]*ast.Term, arr.Len())
	for i := range out {
		out[i] = arr.Elem(i)
	}
	return out
}

// received lists the schema-like values the API receives, each once:
// the request schemas but readOnly ones (clients do not send them) and,
// in Swagger 2.0, the non-body parameters operations under paths take,
// which carry type, maxLength and the like themselves. byKey and byType
// index them as schemasWith and schemasOfType do schemas.
func (c *converter) received(doc *spec.Document, v *spec.Views, schemas []*ast.Term, labels *labeler) (items, byKey, byType *ast.Term) {
	var out []*ast.Term
	keys := map[string][]*ast.Term{}
	types := map[string][]*ast.Term{}
	add := func(t *ast.Term, n *spec.Node) {
		out = append(out, t)
		if n != nil && n.Kind == spec.Object {
			for _, f := range n.Fields {
				keys[f.Key] = append(keys[f.Key], t)
			}
		}
		for _, name := range typeNames(n) {
			types[name] = append(types[name], t)
		}
	}
	for i, s := range v.Schemas {
		if isReceived(s) {
			add(schemas[i], s.Node)
		}
	}
	if doc.Format == spec.Swagger {
		seen := map[*spec.Parameter]bool{}
		for _, op := range v.Operations {
			ps := op.Parameters
			if op.RequestBody != nil {
				ps = append(slices.Clip(ps), op.RequestBody.FormData...)
			}
			for _, p := range ps {
				if !seen[p] {
					seen[p] = true
					add(c.obj(c.kv("node", c.node(p.Node)), c.kv("source", c.path(p.Source)), c.kv("name", c.str("")),
						c.kv("label", ast.StringTerm(labels.label("", p.Source)))), p.Node)
				}
			}
		}
	}
	return ast.ArrayTerm(out...), c.lists(keys), c.lists(types)
}

// isReceived tells whether the API receives what a schema describes: a
// request schema, but not a readOnly one (clients do not send it).
func isReceived(s *spec.Schema) bool { return s.Request && !readOnly(s.Node) }

// swaggerValues lists, for a Swagger 2.0 document, the objects other than
// schemas that hold schema keywords (type, enum, items, maxLength, ...):
// every non-body parameter, and the response headers of operations under
// paths (where the views place them) and of the document's reusable
// responses, each place once, as {node, source, name: ""}. byKey and
// byType index them as schemasWith and schemasOfType do schemas (by `type`
// only when a string: Swagger has no type lists).
func (c *converter) swaggerValues(doc *spec.Document, v *spec.Views) (items, byKey, byType *ast.Term) {
	var out []*ast.Term
	keys := map[string][]*ast.Term{}
	types := map[string][]*ast.Term{}
	type site struct {
		node   *spec.Node
		source string
	}
	seen := map[site]bool{}
	add := func(n *spec.Node, source spec.Path) {
		k := site{n, pathKey(source)}
		if seen[k] {
			return
		}
		seen[k] = true
		t := c.obj(c.kv("node", c.node(n)), c.kv("source", c.path(source)), c.kv("name", c.str("")))
		out = append(out, t)
		if n == nil || n.Kind != spec.Object {
			return
		}
		for _, f := range n.Fields {
			keys[f.Key] = append(keys[f.Key], t)
		}
		if typ := n.Get("type"); typ != nil && typ.Kind == spec.String {
			types[typ.Value] = append(types[typ.Value], t)
		}
	}
	if doc.Format == spec.Swagger {
		for _, p := range v.Parameters {
			add(p.Node, p.Source)
		}
		for _, op := range v.Operations {
			for _, r := range op.Responses {
				for _, h := range r.Headers {
					add(h.Node, h.Source)
				}
			}
		}
		for _, r := range fields(doc.Root.Root.Get("responses")) {
			for _, h := range fields(r.Value.Get("headers")) {
				if h.Value.Ref() == "" {
					add(h.Value, spec.Path{"responses", r.Key, "headers", h.Key})
				}
			}
		}
	}
	return ast.ArrayTerm(out...), c.lists(keys), c.lists(types)
}

// fields are the fields of an object node; none for another node or nil.
func fields(n *spec.Node) []spec.Field {
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	return n.Fields
}

// readOnly reports whether a schema is marked readOnly: the keyword with
// any value but false, as Rego's `not node.readOnly` reads it.
func readOnly(n *spec.Node) bool {
	r := n.Get("readOnly")
	return r != nil && !(r.Kind == spec.Bool && r.Value == "false")
}

// schemas converts the schemas and indexes them: byKey maps each key some
// schema has to the schemas that have it, byType each type name to the
// schemas whose `type` is or lists it, byProperty each property name to
// the schemas written as a property of that name (their source ends in
// properties/<name>), all in order. A rule about `enum`, about arrays or
// about properties named like a password then visits the few schemas
// concerned instead of every schema of the document. The items are built
// by two forks of c, each converting half of them (a large API has tens
// of thousands, stripe.yaml's conversion of them took three times what
// the operations beside them did); c is only read.
func (c *converter) schemas(ss []*spec.Schema, labels *labeler) (items []*ast.Term, byKey, byType, byProperty *ast.Term) {
	items = make([]*ast.Term, len(ss))
	half := len(ss) / 2
	var wg sync.WaitGroup
	first := c.fork()
	wg.Go(func() { first.schemaItems(ss[:half], labels, items[:half]) })
	second := c.fork()
	second.schemaItems(ss[half:], labels, items[half:])
	wg.Wait()
	keys := map[string][]*ast.Term{}
	types := map[string][]*ast.Term{}
	props := map[string][]*ast.Term{}
	for i, s := range ss {
		if name, ok := propertyName(s.Source); ok {
			props[name] = append(props[name], items[i])
		}
		if s.Node == nil || s.Node.Kind != spec.Object {
			continue
		}
		for _, f := range s.Node.Fields {
			keys[f.Key] = append(keys[f.Key], items[i])
		}
		for _, t := range typeNames(s.Node) {
			types[t] = append(types[t], items[i])
		}
	}
	return items, second.lists(keys), second.lists(types), second.lists(props)
}

// propertyName is the name of the property a schema is written as: the
// last segment of a source that ends in properties/<name>.
func propertyName(source spec.Path) (string, bool) {
	n := len(source)
	if n < 2 || source[n-2] != "properties" {
		return "", false
	}
	name, ok := source[n-1].(string)
	return name, ok
}

// schemaItems converts schema views into items.
func (c *converter) schemaItems(ss []*spec.Schema, labels *labeler, items []*ast.Term) {
	for i, s := range ss {
		fields := []([2]*ast.Term){c.kv("name", c.str(s.Name)), c.kv("node", c.node(s.Node)), c.kv("source", c.path(s.Source)),
			c.kv("request", boolTerm(s.Request)), c.kv("response", boolTerm(s.Response))}
		if isReceived(s) {
			fields = append(fields, c.kv("label", ast.StringTerm(labels.label(s.Name, s.Source))))
		}
		items[i] = c.obj(fields...)
	}
}

// typeNames are the type names a schema declares: its `type`, a string or
// each string of a list.
func typeNames(n *spec.Node) []string {
	switch t := n.Get("type"); {
	case t == nil:
	case t.Kind == spec.String:
		return []string{t.Value}
	case t.Kind == spec.Array:
		var out []string
		for _, it := range t.Items {
			if it.Kind == spec.String {
				out = append(out, it.Value)
			}
		}
		return out
	}
	return nil
}

// pick returns the converted schemas whose view satisfies keep: an index
// that spares rules about one side of the exchange a scan of every schema.
func pick(terms []*ast.Term, ss []*spec.Schema, keep func(*spec.Schema) bool) []*ast.Term {
	var out []*ast.Term
	for i, s := range ss {
		if keep(s) {
			out = append(out, terms[i])
		}
	}
	return out
}

// lists converts a map of lists to an object with sorted keys.
func (c *converter) lists(m map[string][]*ast.Term) *ast.Term {
	keys := slices.Sorted(maps.Keys(m))
	pairs := make([][2]*ast.Term, len(keys))
	for i, k := range keys {
		pairs[i] = c.kv(k, ast.ArrayTerm(m[k]...))
	}
	return ast.ObjectTerm(pairs...)
}

func (c *converter) securitySchemes(ss []*spec.SecurityScheme) *ast.Term {
	return list(ss, func(s *spec.SecurityScheme) *ast.Term {
		return c.obj(c.kv("name", c.str(s.Name)), c.kv("type", c.str(s.Type)), c.kv("scheme", c.str(s.Scheme)),
			c.kv("in", c.str(s.In)), c.kv("paramName", c.str(s.ParamName)), c.kv("bearerFormat", c.str(s.BearerFormat)),
			c.kv("node", c.node(s.Node)), c.kv("source", c.path(s.Source)))
	})
}

func (c *converter) security(s *spec.Security) *ast.Term {
	if s == nil {
		return ast.NullTerm()
	}
	alts := list(s.Alternatives, func(a spec.SecurityAlternative) *ast.Term {
		schemes := list(a.Schemes, func(ss spec.SchemeScopes) *ast.Term {
			return c.obj(c.kv("name", c.str(ss.Name)), c.kv("scopes", c.strs(ss.Scopes)))
		})
		return c.obj(c.kv("schemes", schemes), c.kv("source", c.path(a.Source)))
	})
	return c.obj(c.kv("alternatives", alts), c.kv("source", c.path(s.Source)))
}

func (c *converter) servers(ss []*spec.Server) *ast.Term {
	return list(ss, func(s *spec.Server) *ast.Term {
		return c.obj(c.kv("url", c.str(s.URL)), c.kv("description", c.str(s.Description)),
			c.kv("node", c.node(s.Node)), c.kv("source", c.path(s.Source)))
	})
}

func (c *converter) tags(ts []*spec.Tag) *ast.Term {
	return list(ts, func(t *spec.Tag) *ast.Term {
		return c.obj(c.kv("name", c.str(t.Name)), c.kv("description", c.str(t.Description)),
			c.kv("node", c.node(t.Node)), c.kv("source", c.path(t.Source)))
	})
}

func (c *converter) messageNames(ms []*spec.Message) *ast.Term {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return c.strs(names)
}

func (c *converter) channels(chs []*spec.Channel) *ast.Term {
	return list(chs, func(ch *spec.Channel) *ast.Term {
		return c.obj(c.kv("id", c.str(ch.ID)), c.kv("address", c.str(ch.Address)),
			c.kv("messages", c.messageNames(ch.Messages)), c.kv("node", c.node(ch.Node)), c.kv("source", c.path(ch.Source)))
	})
}

func (c *converter) asyncOperations(ops []*spec.AsyncOperation) *ast.Term {
	return list(ops, func(op *spec.AsyncOperation) *ast.Term {
		return c.obj(c.kv("id", c.str(op.ID)), c.kv("action", c.str(op.Action)), c.kv("channel", c.str(op.Channel)),
			c.kv("summary", c.str(op.Summary)), c.kv("description", c.str(op.Description)),
			c.kv("messages", c.messageNames(op.Messages)), c.kv("security", c.security(op.Security)),
			c.kv("node", c.node(op.Node)), c.kv("source", c.path(op.Source)))
	})
}

func (c *converter) messages(ms []*spec.Message) *ast.Term {
	return list(ms, func(m *spec.Message) *ast.Term {
		return c.obj(c.kv("name", c.str(m.Name)), c.kv("payload", c.node(m.Payload)),
			c.kv("payloadSource", c.path(m.PayloadSource)), c.kv("node", c.node(m.Node)), c.kv("source", c.path(m.Source)))
	})
}

// typedPath turns a JSON pointer within a file into a path whose array
// indices are numbers, as in the views' sources, so that a rule can look
// the place up in input.document.
func typedPath(root *spec.Node, ptr string) spec.Path {
	keys := pointerKeys(ptr)
	p := make(spec.Path, len(keys))
	n := root
	for i, key := range keys {
		p[i] = key
		switch {
		case n == nil:
		case n.Kind == spec.Array:
			k, err := strconv.Atoi(key)
			if err != nil || k < 0 || k >= len(n.Items) {
				n = nil
				continue
			}
			p[i], n = k, n.Items[k]
		default:
			n = n.Get(key)
		}
	}
	return p
}

// refs lists every $ref with where it is written: "file" names the file
// (empty for the entry file) and "path" is the path within that file;
// "targetFile" and "target" say the same of what it points at (target is
// null when it does not resolve: a "resolved" flag beside it would be a
// ninth key, and an object of more than eight keys takes a larger table,
// 5 MiB more of kubernetes.json's peak), and "siblings" are the other
// keys of the object that holds the $ref. byTarget
// indexes the resolved ones by what they point at, as
// "<targetFile>#<JSON pointer>" ("#/components/schemas/Pet" in the entry
// file), so that a rule asks "what references this?" without a scan.
// unresolved and withSiblings are the items that do not resolve and those
// whose object has other keys: a large API has tens of thousands of
// references, a rule about these few need not test them all.
func (c *converter) refs(doc *spec.Document) (list, byTarget, unresolved, withSiblings *ast.Term) {
	fileName := func(f *spec.File) string {
		if f == nil || f == doc.Root {
			return ""
		}
		return f.Name
	}
	to := map[string][]*ast.Term{}
	targets := map[string]*ast.Term{}
	var bad, beside []*ast.Term
	items := make([]*ast.Term, len(doc.Refs))
	for i, r := range doc.Refs {
		errMsg := ""
		if r.Err != nil {
			errMsg = r.Err.Msg
		}
		resolved := r.Target != nil && r.Err == nil
		target := nullTerm
		key := fileName(r.TargetFile) + "#" + r.TargetPtr
		if resolved {
			// Many references name one target: one path for all.
			if target = targets[key]; target == nil {
				target = c.path(typedPath(r.TargetFile.Root, r.TargetPtr))
				targets[key] = target
			}
		}
		siblings := make([]string, 0, len(r.Node.Fields))
		for _, f := range r.Node.Fields {
			if f.Key != "$ref" {
				siblings = append(siblings, f.Key)
			}
		}
		items[i] = c.obj(c.kv("ref", c.str(r.Value)), c.kv("file", c.str(fileName(r.File))),
			c.kv("path", c.path(r.Path)),
			c.kv("error", c.str(errMsg)),
			c.kv("circular", boolTerm(r.Circular)),
			c.kv("targetFile", c.str(fileName(r.TargetFile))), c.kv("target", target),
			c.kv("siblings", c.strs(siblings)))
		if resolved {
			to[key] = append(to[key], items[i])
		} else {
			bad = append(bad, items[i])
		}
		if len(siblings) > 0 {
			beside = append(beside, items[i])
		}
	}
	return ast.ArrayTerm(items...), c.lists(to), ast.ArrayTerm(bad...), ast.ArrayTerm(beside...)
}

// extensionRefs lists the "$ref" strings written inside `x-` extensions of
// the entry file, with their paths. The loader treats extensions as
// opaque and does not resolve these, but tools do follow some of them
// (GitHub's x-webhooks), so a rule deciding whether a component is used
// must count them.
func (c *converter) extensionRefs(root *spec.Node) *ast.Term {
	var out []*ast.Term
	var at segments
	var walk func(n *spec.Node, inExt bool)
	walk = func(n *spec.Node, inExt bool) {
		switch n.Kind {
		case spec.Object:
			for _, f := range n.Fields {
				if inExt && f.Key == "$ref" && f.Value.Kind == spec.String {
					out = append(out, c.obj(c.kv("ref", c.str(f.Value.Value)), c.kv("path", c.path(at.path()))))
				}
				at.pushKey(f.Key)
				walk(f.Value, inExt || strings.HasPrefix(f.Key, "x-"))
				at.pop()
			}
		case spec.Array:
			for i, it := range n.Items {
				at.pushIndex(i)
				walk(it, inExt)
				at.pop()
			}
		}
	}
	walk(root, false)
	return ast.ArrayTerm(out...)
}

// segments is the path of a walk, kept without boxing each key into an
// interface: walks over a whole document visit every node, and build a
// path or a pointer only for the few nodes they report.
type segments []segment

type segment struct {
	key   string
	index int // -1 for an object key
}

func (s *segments) pushKey(k string) { *s = append(*s, segment{key: k, index: -1}) }
func (s *segments) pushIndex(i int)  { *s = append(*s, segment{index: i}) }
func (s *segments) pop()             { *s = (*s)[:len(*s)-1] }

func (s segments) path() spec.Path {
	p := make(spec.Path, len(s))
	for i, seg := range s {
		if seg.index >= 0 {
			p[i] = seg.index
		} else {
			p[i] = seg.key
		}
	}
	return p
}

// componentRefs maps each reusable object of the entry file that holds
// references ("#/components/schemas/Pet"; Swagger: "#/definitions/Pet",
// "#/parameters/limit", "#/responses/Error") to the reusable objects of
// the entry file its references point at or into, directly. It is a graph
// for graph.reachable: which named schemas does a schema need, which
// components does an operation lead to.
func componentRefs(doc *spec.Document) *ast.Term {
	edges := map[string]map[string]bool{}
	for _, r := range doc.Refs {
		if r.Target == nil || r.Err != nil || r.File != doc.Root || r.TargetFile != doc.Root {
			continue
		}
		// The first three keys name the component an entry-file $ref is in.
		from, to := componentOf(doc.Format, spec.Pointer(r.Path[:min(len(r.Path), 3)])), componentOf(doc.Format, r.TargetPtr)
		if from == "" || to == "" {
			continue
		}
		if edges[from] == nil {
			edges[from] = map[string]bool{}
		}
		edges[from][to] = true
	}
	keys := slices.Sorted(maps.Keys(edges))
	pairs := make([][2]*ast.Term, len(keys))
	for i, k := range keys {
		tos := slices.Sorted(maps.Keys(edges[k]))
		items := make([]*ast.Term, len(tos))
		for j, t := range tos {
			items[j] = ast.StringTerm(t)
		}
		pairs[i] = [2]*ast.Term{ast.StringTerm(k), ast.ArrayTerm(items...)}
	}
	return ast.ObjectTerm(pairs...)
}

// referencedComponents are the entry file's reusable objects that a
// resolved $ref from outside them points at or into (one written in
// another file, or anywhere in the entry file but in the object itself),
// by the pointer of their map and their name: {"#/components/schemas":
// {"Pet": true}}, {"#/definitions": {"Pet": true}} in Swagger 2.0. A
// reusable object missing from it is used by nothing but itself;
// unused-components reads it instead of each object's references
// (stripe.yaml has 1,200 components and 9,000 references).
func referencedComponents(doc *spec.Document) *ast.Term {
	used := map[string]map[string]bool{}
	for _, r := range doc.Refs {
		if r.Target == nil || r.Err != nil || r.TargetFile != doc.Root {
			continue
		}
		key := componentOf(doc.Format, r.TargetPtr)
		if key == "" {
			continue
		}
		keys := pointerKeys(key[1:])
		if r.File == doc.Root && within(r.Path, keys) {
			continue
		}
		container, name := key[:strings.LastIndexByte(key, '/')], keys[len(keys)-1]
		if used[container] == nil {
			used[container] = map[string]bool{}
		}
		used[container][name] = true
	}
	pairs := make([][2]*ast.Term, 0, len(used))
	for _, c := range slices.Sorted(maps.Keys(used)) {
		names := slices.Sorted(maps.Keys(used[c]))
		inner := make([][2]*ast.Term, len(names))
		for i, n := range names {
			inner[i] = [2]*ast.Term{ast.StringTerm(n), trueTerm}
		}
		pairs = append(pairs, [2]*ast.Term{ast.StringTerm(c), ast.ObjectTerm(inner...)})
	}
	return ast.ObjectTerm(pairs...)
}

// within tells whether a path starts with the keys of another.
func within(path spec.Path, keys []string) bool {
	if len(path) < len(keys) {
		return false
	}
	for i, k := range keys {
		if s, ok := path[i].(string); !ok || s != k {
			return false
		}
	}
	return true
}

// componentOf returns "#" and the pointer of the reusable object a JSON
// pointer lies in, or "" when it lies in none.
func componentOf(format spec.Format, ptr string) string {
	segs := strings.SplitN(strings.TrimPrefix(ptr, "/"), "/", 4)
	switch {
	case format == spec.OpenAPI && len(segs) >= 3 && segs[0] == "components":
		return "#/" + strings.Join(segs[:3], "/")
	case format == spec.Swagger && len(segs) >= 2 && (segs[0] == "definitions" || segs[0] == "parameters" || segs[0] == "responses"):
		return "#/" + strings.Join(segs[:2], "/")
	}
	return ""
}

// scanFiles walks every file of the document once for what rules ask of
// the whole of it. markup is the set of title, summary and description
// strings, anywhere (examples and extensions included), that contain "<"
// or "javascript:" in any case: the only texts that can hold HTML or a
// script link. A rule about those tests a few texts' membership instead of
// searching every text of a large API. examples tells whether any object
// has an `example` or `examples` key: a rule that checks examples passes
// over the media types, parameters and headers of an API that has none
// (stripe.yaml has thousands of them, and no example) without reading
// each.
func scanFiles(doc *spec.Document) (markup *ast.Term, examples bool) {
	set := ast.NewSet()
	var walk func(n *spec.Node)
	walk = func(n *spec.Node) {
		switch n.Kind {
		case spec.Object:
			for _, f := range n.Fields {
				if proseKeys[f.Key] && f.Value.Kind == spec.String && hasMarkup(f.Value.Value) {
					set.Add(ast.StringTerm(f.Value.Value))
				}
				if f.Key == "example" || f.Key == "examples" {
					examples = true
				}
				walk(f.Value)
			}
		case spec.Array:
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	for _, f := range doc.Files() {
		walk(f.Root)
	}
	return ast.NewTerm(set), examples
}

// hasMarkup tells whether s contains "<" or, in any case, "javascript:".
func hasMarkup(s string) bool {
	if strings.Contains(s, "<") {
		return true
	}
	for i := strings.IndexAny(s, "jJ"); i >= 0; {
		if len(s)-i >= len("javascript:") && strings.EqualFold(s[i:i+len("javascript:")], "javascript:") {
			return true
		}
		next := strings.IndexAny(s[i+1:], "jJ")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func (c *converter) fileName(doc *spec.Document, f *spec.File) string {
	if f == doc.Root {
		return ""
	}
	return f.Name
}

// files holds the trees of the document's other files, by name; the entry
// file is input.document.
func (c *converter) files(doc *spec.Document) *ast.Term {
	var pairs [][2]*ast.Term
	for _, f := range doc.Files() {
		if f != doc.Root {
			pairs = append(pairs, c.kv(f.Name, c.node(f.Root)))
		}
	}
	return ast.ObjectTerm(pairs...)
}

// refTargets maps, per file, each $ref string to what it finally names:
// [file, path, value], following chains of references. Rules compiled from
// YAML/JSON definitions navigate the resolved document through it.
func (c *converter) refTargets(doc *spec.Document) *ast.Term {
	byFile := map[string]map[string]*ast.Term{}
	var order []string
	for _, r := range doc.Refs {
		if r.Target == nil || r.Err != nil {
			continue
		}
		from := c.fileName(doc, r.File)
		m := byFile[from]
		if m == nil {
			m = map[string]*ast.Term{}
			byFile[from] = m
			order = append(order, from)
		}
		if m[r.Value] != nil {
			continue
		}
		file, ptr, target := r.TargetFile, r.TargetPtr, r.Target
		for hops := 0; hops < 64; hops++ {
			next := doc.RefOf(target)
			if next == nil || next.Target == nil || next.Err != nil || next.Target == target {
				break
			}
			file, ptr, target = next.TargetFile, next.TargetPtr, next.Target
		}
		m[r.Value] = ast.ArrayTerm(c.str(c.fileName(doc, file)), c.path(spec.PointerPath(ptr)), c.node(target))
	}
	pairs := make([][2]*ast.Term, 0, len(order))
	for _, from := range order {
		inner := make([][2]*ast.Term, 0, len(byFile[from]))
		for ref, t := range byFile[from] {
			inner = append(inner, [2]*ast.Term{c.str(ref), t})
		}
		pairs = append(pairs, [2]*ast.Term{c.str(from), ast.ObjectTerm(inner...)})
	}
	return ast.ObjectTerm(pairs...)
}
