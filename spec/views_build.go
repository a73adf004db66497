package spec

import (
	"strings"
)

// Methods are the HTTP methods a path item may hold, in the order the
// OpenAPI specification lists them. "query" is OpenAPI 3.2.
var Methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}

// Views returns the normalized views of the document, built on first use
// (once, whichever goroutines ask, until DropViews).
func (d *Document) Views() *Views {
	if v := d.views.Load(); v != nil {
		return v
	}
	d.viewsMu.Lock()
	defer d.viewsMu.Unlock()
	if v := d.views.Load(); v != nil {
		return v
	}
	b := &viewBuilder{d: d, v: &Views{}, seenSchema: map[*Node]*Schema{}, seenParam: map[*Node]*Parameter{}, seenMessage: map[*Node]*Message{}}
	b.build()
	d.views.Store(b.v)
	return b.v
}

// DropViews lets go of the document's views, for a holder of a large
// document that has read them and keeps the document for other work: a
// lint run evaluates its rules over an input built from them, and
// locates the findings in the tree alone. The views are garbage once no
// caller holds them; the next Views call builds them again, alike.
func (d *Document) DropViews() { d.views.Store(nil) }

type viewBuilder struct {
	d *Document
	v *Views
	// seenSchema indexes the schemas of v.Schemas by node.
	seenSchema  map[*Node]*Schema
	seenParam   map[*Node]*Parameter
	seenMessage map[*Node]*Message
	// consumes and produces are Swagger 2.0's document defaults.
	consumes, produces []string
}

func (b *viewBuilder) deref(n *Node) *Node { return b.d.Deref(n) }

func (b *viewBuilder) build() {
	root := b.d.Root.Root
	switch b.d.Format {
	case Swagger:
		b.consumes = strList(root.Get("consumes"))
		b.produces = strList(root.Get("produces"))
		b.swaggerServers(root)
		b.namedSchemas(root.Get("definitions"), Path{"definitions"})
		b.componentParams(root.Get("parameters"), Path{"parameters"})
		b.securitySchemes(root.Get("securityDefinitions"), Path{"securityDefinitions"})
		b.v.Security = b.security(root.Get("security"), Path{"security"})
		b.paths(root)
		b.componentResponses(root.Get("responses"), Path{"responses"})
	case OpenAPI:
		comps := root.Get("components")
		b.v.Servers = b.servers(root.Get("servers"), nil, "servers")
		b.namedSchemas(comps.Get("schemas"), Path{"components", "schemas"})
		b.componentParams(comps.Get("parameters"), Path{"components", "parameters"})
		b.securitySchemes(comps.Get("securitySchemes"), Path{"components", "securitySchemes"})
		b.v.Security = b.security(root.Get("security"), Path{"security"})
		b.paths(root)
		b.webhooks(root.Get("webhooks"))
		b.componentResponses(comps.Get("responses"), Path{"components", "responses"})
		b.componentBodies(comps.Get("requestBodies"), Path{"components", "requestBodies"})
		b.componentHeaders(comps.Get("headers"), Path{"components", "headers"})
	case AsyncAPI:
		b.asyncapi(root)
	}
	b.tags(root.Get("tags"), Path{"tags"})
	b.markUsage()
}

func strList(n *Node) []string {
	if n == nil || n.Kind != Array {
		return nil
	}
	out := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		if it.Kind == String {
			out = append(out, it.Value)
		}
	}
	return out
}

// each calls fn for every field of an object node.
func each(n *Node, fn func(key string, v *Node)) {
	if n == nil || n.Kind != Object {
		return
	}
	for _, f := range n.Fields {
		fn(f.Key, f.Value)
	}
}

func (b *viewBuilder) paths(root *Node) {
	paths := root.Get("paths")
	each(paths, func(p string, raw *Node) {
		if strings.HasPrefix(p, "x-") {
			return
		}
		src := Path{"paths", p}
		item := &PathItem{Path: p, Node: b.deref(raw), Source: src}
		item.Operations = b.pathItemOps(item.Node, src, p, func(op *Operation) {})
		b.v.PathItems = append(b.v.PathItems, item)
		b.v.Operations = append(b.v.Operations, item.Operations...)
	})
}

func (b *viewBuilder) webhooks(hooks *Node) {
	each(hooks, func(name string, raw *Node) {
		if strings.HasPrefix(name, "x-") {
			return
		}
		ops := b.pathItemOps(b.deref(raw), Path{"webhooks", name}, name, func(op *Operation) { op.Webhook = name })
		b.v.Webhooks = append(b.v.Webhooks, ops...)
	})
}

// pathItemOps builds the operations of one path item.
func (b *viewBuilder) pathItemOps(item *Node, src Path, path string, mark func(*Operation)) []*Operation {
	if item == nil || item.Kind != Object {
		return nil
	}
	shared := b.paramList(item.Get("parameters"), src, "parameters")
	itemServers := b.servers(item.Get("servers"), src, "servers")
	var ops []*Operation
	add := func(method string, opNode *Node, opSrc Path) {
		op := b.operation(path, method, b.deref(opNode), opSrc, shared)
		if len(op.Servers) == 0 {
			op.Servers = itemServers
		}
		mark(op)
		ops = append(ops, op)
	}
	for _, m := range Methods {
		if m == "query" && !(b.d.Format == OpenAPI && b.d.Minor >= 2) {
			continue
		}
		if n := item.Get(m); n != nil {
			add(m, n, src.with(m))
		}
	}
	// OpenAPI 3.2: other methods under additionalOperations.
	each(item.Get("additionalOperations"), func(m string, n *Node) {
		add(strings.ToLower(m), n, src.with("additionalOperations", m))
	})
	return ops
}

func (b *viewBuilder) operation(path, method string, n *Node, src Path, shared []*Parameter) *Operation {
	op := &Operation{
		Path: path, Method: method, Node: n, Source: src,
		OperationID: n.GetStr("operationId"),
		Summary:     n.GetStr("summary"),
		Description: n.GetStr("description"),
		Tags:        strList(n.Get("tags")),
		Deprecated:  n.Get("deprecated").IsTrue(),
	}
	own := b.paramList(n.Get("parameters"), src, "parameters")
	op.Parameters = mergeParams(shared, own)
	if b.d.Format == Swagger {
		op.RequestBody = b.swaggerBody(n, own, shared)
	} else if rb := n.Get("requestBody"); rb != nil {
		op.RequestBody = b.requestBody(b.deref(rb), src.with("requestBody"))
	}
	each(n.Get("responses"), func(status string, r *Node) {
		if strings.HasPrefix(status, "x-") {
			return
		}
		op.Responses = append(op.Responses, b.response(status, b.deref(r), src.with("responses", status), b.swaggerMedia(n.Get("produces"), b.produces)))
	})
	if s := n.Get("security"); s != nil {
		op.Security = b.security(s, src.with("security"))
	} else {
		op.Security = b.v.Security
	}
	op.Servers = b.servers(n.Get("servers"), src, "servers")
	each(n.Get("callbacks"), func(name string, cb *Node) {
		cbSrc := src.with("callbacks", name)
		each(b.deref(cb), func(expr string, item *Node) {
			if strings.HasPrefix(expr, "x-") {
				return
			}
			ops := b.pathItemOps(b.deref(item), cbSrc.with(expr), expr, func(o *Operation) { o.Callback = name })
			op.Callbacks = append(op.Callbacks, ops...)
			b.v.Callbacks = append(b.v.Callbacks, ops...)
		})
	})
	return op
}

// paramList builds the parameters of a list, the member key of the
// object at parent, registering each distinct one in the parameter index.
// Swagger body and formData parameters are included here and separated by
// the caller. The list's path is made only when there is a list (most
// operations and path items have none).
func (b *viewBuilder) paramList(list *Node, parent Path, key string) []*Parameter {
	if list == nil || list.Kind != Array {
		return nil
	}
	src := parent.with(key)
	out := make([]*Parameter, 0, len(list.Items))
	for i, raw := range list.Items {
		out = append(out, b.parameter(raw, src.with(i), ""))
	}
	return out
}

func (b *viewBuilder) parameter(raw *Node, src Path, component string) *Parameter {
	n := b.deref(raw)
	if p := b.seenParam[n]; p != nil {
		if component != "" && p.Component == "" {
			p.Component = component
		}
		return p
	}
	p := &Parameter{Name: n.GetStr("name"), In: n.GetStr("in"), Required: n.Get("required").IsTrue(), Node: n, Source: src, Component: component}
	if b.d.Format == Swagger && p.In != "body" {
		p.Schema, p.SchemaSource = n, src
		if items := n.Get("items"); items != nil {
			b.schema(items, src.with("items"))
		}
	} else if s := n.Get("schema"); s != nil {
		p.Schema, p.SchemaSource = b.deref(s), src.with("schema")
		b.schema(s, p.SchemaSource)
	} else {
		// OpenAPI 3 parameters may describe their schema under content.
		each(n.Get("content"), func(mt string, m *Node) {
			if s := m.Get("schema"); s != nil && p.Schema == nil {
				p.Schema, p.SchemaSource = b.deref(s), src.with("content", mt, "schema")
				b.schema(s, p.SchemaSource)
			}
		})
	}
	b.seenParam[n] = p
	if p.In != "body" && p.In != "formData" {
		b.v.Parameters = append(b.v.Parameters, p)
	}
	return p
}

// mergeParams is mergeAll without Swagger body and formData parameters,
// which become the request body.
func mergeParams(shared, own []*Parameter) []*Parameter {
	all := mergeAll(shared, own)
	kept := all[:0]
	for _, p := range all {
		if p.In != "body" && p.In != "formData" {
			kept = append(kept, p)
		}
	}
	return kept
}

// mergeAll lets operation parameters replace path-item parameters with the
// same name and location: the path-item ones that remain, then the
// operation's.
func mergeAll(shared, own []*Parameter) []*Parameter {
	out := make([]*Parameter, 0, len(shared)+len(own))
	for _, s := range shared {
		overridden := false
		for _, o := range own {
			if o.Name == s.Name && o.In == s.In {
				overridden = true
				break
			}
		}
		if !overridden {
			out = append(out, s)
		}
	}
	return append(out, own...)
}

func (b *viewBuilder) componentParams(params *Node, src Path) {
	each(params, func(name string, n *Node) {
		b.parameter(n, src.with(name), name)
	})
}

func (b *viewBuilder) requestBody(n *Node, src Path) *RequestBody {
	rb := &RequestBody{Required: n.Get("required").IsTrue(), Description: n.GetStr("description"), Node: n, Source: src}
	rb.Content = b.content(n.Get("content"), src, "content")
	return rb
}

// content builds the media types of a content map, the member key of the
// object at parent (its path is made only when there is one).
func (b *viewBuilder) content(c *Node, parent Path, key string) []*MediaType {
	if c == nil {
		return nil
	}
	src := parent.with(key)
	var out []*MediaType
	each(c, func(mt string, m *Node) {
		m = b.deref(m)
		media := &MediaType{Name: mt, Node: m}
		if s := m.Get("schema"); s != nil {
			// The media type's source is the start of its schema's: one
			// array, each slice's capacity at its length (an append to
			// either copies).
			full := src.with(mt, "schema")
			media.Source, media.SchemaSource = full[:len(full)-1:len(full)-1], full
			media.Schema = b.deref(s)
			b.schema(s, media.SchemaSource)
		} else {
			media.Source = src.with(mt)
		}
		// OpenAPI 3.2 sequential media types.
		if s := m.Get("itemSchema"); s != nil {
			b.schema(s, src.with(mt, "itemSchema"))
		}
		if enc := m.Get("encoding"); enc != nil {
			b.encodingHeaders(enc, src.with(mt, "encoding"))
		}
		out = append(out, media)
	})
	return out
}

func (b *viewBuilder) encodingHeaders(enc *Node, src Path) {
	each(enc, func(prop string, e *Node) {
		each(e.Get("headers"), func(name string, h *Node) {
			b.header(name, h, src.with(prop, "headers", name))
		})
	})
}

func (b *viewBuilder) swaggerMedia(own *Node, def []string) []string {
	if own != nil {
		return strList(own)
	}
	if len(def) == 0 {
		return []string{"application/json"}
	}
	return def
}

// swaggerBody turns Swagger 2.0 body and formData parameters into a
// request body, one media type per consumes entry.
func (b *viewBuilder) swaggerBody(op *Node, own, shared []*Parameter) *RequestBody {
	all := mergeAll(shared, own)
	var rb *RequestBody
	consumes := b.swaggerMedia(op.Get("consumes"), b.consumes)
	for _, p := range all {
		switch p.In {
		case "body":
			rb = &RequestBody{Required: p.Required, Description: p.Node.GetStr("description"), Node: p.Node, Source: p.Source}
			for _, mt := range consumes {
				rb.Content = append(rb.Content, &MediaType{Name: mt, Schema: p.Schema, SchemaSource: p.SchemaSource, Node: p.Node, Source: p.Source})
			}
		case "formData":
			if rb == nil {
				rb = &RequestBody{Node: p.Node, Source: p.Source}
				for _, mt := range consumes {
					if mt == "multipart/form-data" || mt == "application/x-www-form-urlencoded" {
						rb.Content = append(rb.Content, &MediaType{Name: mt, Node: p.Node, Source: p.Source})
					}
				}
				if len(rb.Content) == 0 {
					rb.Content = []*MediaType{{Name: "application/x-www-form-urlencoded", Node: p.Node, Source: p.Source}}
				}
			}
			rb.FormData = append(rb.FormData, p)
			rb.Required = rb.Required || p.Required
		}
	}
	return rb
}

func (b *viewBuilder) response(status string, n *Node, src Path, produces []string) *Response {
	r := &Response{Status: status, Description: n.GetStr("description"), Node: n, Source: src}
	if b.d.Format == Swagger {
		if s := n.Get("schema"); s != nil {
			b.schema(s, src.with("schema"))
			for _, mt := range produces {
				r.Content = append(r.Content, &MediaType{Name: mt, Schema: b.deref(s), SchemaSource: src.with("schema"), Node: n, Source: src})
			}
		}
	} else {
		r.Content = b.content(n.Get("content"), src, "content")
	}
	each(n.Get("headers"), func(name string, h *Node) {
		r.Headers = append(r.Headers, b.header(name, h, src.with("headers", name)))
	})
	return r
}

func (b *viewBuilder) header(name string, raw *Node, src Path) *Header {
	n := b.deref(raw)
	h := &Header{Name: name, Required: n.Get("required").IsTrue(), Node: n, Source: src}
	if b.d.Format == Swagger {
		h.Schema, h.SchemaSource = n, src
	} else if s := n.Get("schema"); s != nil {
		h.Schema, h.SchemaSource = b.deref(s), src.with("schema")
		b.schema(s, h.SchemaSource)
	}
	return h
}

func (b *viewBuilder) componentResponses(resps *Node, src Path) {
	each(resps, func(name string, n *Node) {
		b.response(name, b.deref(n), src.with(name), b.produces)
	})
}

func (b *viewBuilder) componentBodies(bodies *Node, src Path) {
	each(bodies, func(name string, n *Node) {
		b.requestBody(b.deref(n), src.with(name))
	})
}

func (b *viewBuilder) componentHeaders(hs *Node, src Path) {
	each(hs, func(name string, n *Node) {
		b.header(name, n, src.with(name))
	})
}

func (b *viewBuilder) security(n *Node, src Path) *Security {
	if n == nil || n.Kind != Array {
		return nil
	}
	s := &Security{Source: src, Alternatives: []SecurityAlternative{}}
	for i, alt := range n.Items {
		a := SecurityAlternative{Source: src.with(i)}
		each(alt, func(name string, scopes *Node) {
			a.Schemes = append(a.Schemes, SchemeScopes{Name: name, Scopes: strList(scopes)})
		})
		s.Alternatives = append(s.Alternatives, a)
	}
	return s
}

func (b *viewBuilder) securitySchemes(n *Node, src Path) {
	each(n, func(name string, raw *Node) {
		s := b.deref(raw)
		ss := &SecurityScheme{
			Name: name, Type: s.GetStr("type"), Scheme: strings.ToLower(s.GetStr("scheme")),
			In: s.GetStr("in"), ParamName: s.GetStr("name"), BearerFormat: s.GetStr("bearerFormat"),
			Node: s, Source: src.with(name),
		}
		if b.d.Format == Swagger && ss.Type == "basic" {
			ss.Type, ss.Scheme = "http", "basic"
		}
		b.v.SecuritySchemes = append(b.v.SecuritySchemes, ss)
	})
}

// servers builds the servers of a list, the member key of the object at
// parent (its path is made only when there is a list).
func (b *viewBuilder) servers(n *Node, parent Path, key string) []*Server {
	if n == nil || n.Kind != Array {
		return nil
	}
	src := parent.with(key)
	out := make([]*Server, 0, len(n.Items))
	for i, s := range n.Items {
		s = b.deref(s)
		out = append(out, &Server{URL: s.GetStr("url"), Description: s.GetStr("description"), Node: s, Source: src.with(i)})
	}
	return out
}

// swaggerServers derives servers from host, basePath and schemes.
func (b *viewBuilder) swaggerServers(root *Node) {
	host, base := root.GetStr("host"), root.GetStr("basePath")
	schemes := strList(root.Get("schemes"))
	src := Path{}
	switch {
	case root.Get("host") != nil:
		src = Path{"host"}
	case root.Get("basePath") != nil:
		src = Path{"basePath"}
	case root.Get("schemes") != nil:
		src = Path{"schemes"}
	}
	if host == "" {
		if base != "" || len(schemes) > 0 {
			b.v.Servers = append(b.v.Servers, &Server{URL: "/" + strings.TrimPrefix(base, "/"), Source: src})
		}
		return
	}
	if len(schemes) == 0 {
		schemes = []string{"https"}
	}
	for _, sc := range schemes {
		b.v.Servers = append(b.v.Servers, &Server{URL: sc + "://" + host + base, Source: src})
	}
}

// tags adds a tag list; an item may be a $ref to a tag (AsyncAPI 3).
func (b *viewBuilder) tags(n *Node, src Path) {
	if n == nil || n.Kind != Array {
		return
	}
	for i, raw := range n.Items {
		t := b.deref(raw)
		b.v.Tags = append(b.v.Tags, &Tag{Name: t.GetStr("name"), Description: t.GetStr("description"), Node: t, Source: src.with(i)})
	}
}

// namedSchemas registers every named schema before walking any of them,
// so that each gets its name and component path even when another
// component reaches it first through a $ref.
func (b *viewBuilder) namedSchemas(n *Node, src Path) {
	type named struct {
		node *Node
		src  Path
	}
	var todo []named
	each(n, func(name string, s *Node) {
		t := b.deref(s)
		if t.Kind != Object || b.seenSchema[t] != nil {
			return
		}
		schema := &Schema{Name: name, Node: t, Source: src.with(name)}
		b.seenSchema[t] = schema
		b.v.Schemas = append(b.v.Schemas, schema)
		todo = append(todo, named{t, schema.Source})
	})
	for _, s := range todo {
		b.subschemas(s.node, s.src)
	}
}

// schemaMaps and schemaLists are the JSON Schema keywords whose values hold
// subschemas, by shape.
var (
	schemaSingles = []string{"items", "additionalProperties", "not", "contains", "if", "then", "else",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"}
	schemaMaps  = []string{"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
	schemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// schema registers a schema and every schema inside it once, following
// $refs. Each target is visited once, so recursive schemas terminate.
func (b *viewBuilder) schema(raw *Node, src Path) {
	if raw == nil {
		return
	}
	n := b.deref(raw)
	if n.Kind != Object || b.seenSchema[n] != nil {
		return
	}
	s := &Schema{Node: n, Source: src}
	b.seenSchema[n] = s
	b.v.Schemas = append(b.v.Schemas, s)
	b.subschemas(n, src)
}

// subschemas registers the schemas inside n.
func (b *viewBuilder) subschemas(n *Node, src Path) {
	eachSubschema(n, func(c *Node, keys ...any) {
		if keys[0] == "definitions" && b.d.Format == Swagger && len(src) == 0 {
			return
		}
		b.schema(c, src.with(keys...))
	})
}

// eachSubschema calls fn for every subschema written inside n, with the keys
// that lead from n to it: the keywords of schemaSingles, then those of
// schemaMaps, then those of schemaLists, each in its list's order. The
// keywords are found in one pass over n's fields, where a lookup of each
// would read the fields 22 times.
func eachSubschema(n *Node, fn func(c *Node, keys ...any)) {
	var at [subschemaSlots]*Node
	found := false
	for i := range n.Fields {
		if slot := subschemaSlot(n.Fields[i].Key); slot >= 0 && at[slot] == nil {
			at[slot], found = n.Fields[i].Value, true
		}
	}
	if !found {
		return
	}
	for i, k := range schemaSingleKeys {
		if c := at[i]; c != nil && c.Kind == Object {
			fn(c, k)
		}
	}
	for i, k := range schemaMapKeys {
		each(at[len(schemaSingles)+i], func(name string, c *Node) { fn(c, k, name) })
	}
	for i, k := range schemaListKeys {
		slot := len(schemaSingles) + len(schemaMaps) + i
		if k == "items" {
			slot = 0 // one field, a schema when an object and a list when an array
		}
		if c := at[slot]; c != nil && c.Kind == Array {
			for j, it := range c.Items {
				fn(it, k, j)
			}
		}
	}
}

// schemaSingleKeys, schemaMapKeys and schemaListKeys are the keywords as
// path segments, made once.
var (
	schemaSingleKeys = anys(schemaSingles)
	schemaMapKeys    = anys(schemaMaps)
	schemaListKeys   = anys(schemaLists)
)

func anys(keys []string) []any {
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

// subschemaSlots is the number of distinct subschema keywords: "items" is
// both a single and a list.
const subschemaSlots = 21

// subschemaSlot is the index of key in schemaSingles, else in schemaMaps
// after them, else in schemaLists after both, or -1 when key holds no
// subschema (TestSubschemaSlots holds it to the lists).
func subschemaSlot(key string) int {
	switch key {
	case "items":
		return 0
	case "additionalProperties":
		return 1
	case "not":
		return 2
	case "contains":
		return 3
	case "if":
		return 4
	case "then":
		return 5
	case "else":
		return 6
	case "propertyNames":
		return 7
	case "unevaluatedItems":
		return 8
	case "unevaluatedProperties":
		return 9
	case "additionalItems":
		return 10
	case "contentSchema":
		return 11
	case "properties":
		return 12
	case "patternProperties":
		return 13
	case "dependentSchemas":
		return 14
	case "$defs":
		return 15
	case "definitions":
		return 16
	case "allOf":
		return 17
	case "anyOf":
		return 18
	case "oneOf":
		return 19
	case "prefixItems":
		return 20
	}
	return -1
}
