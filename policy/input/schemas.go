package input

import (
	"maps"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// received lists the schema-like values the API receives, each once:
// the request schemas but readOnly ones (clients do not send them) and,
// in Swagger 2.0, the non-body parameters operations under paths take,
// which carry type, maxLength and the like themselves. byKey and byType
// index them as schemasWith and schemasOfType do schemas.
func (c *converter) received(doc *spec.Document, v *spec.Views, schemas []*ast.Term, labels *labeler) (items, byKey, byType *ast.Term) {
	count := 0
	for _, s := range v.Schemas {
		if isReceived(s) {
			count++
		}
	}
	out, nodes := make([]*ast.Term, 0, count), make([]*spec.Node, 0, count)
	for i, s := range v.Schemas {
		if isReceived(s) {
			out, nodes = append(out, schemas[i]), append(nodes, s.Node)
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
					out = append(out, c.obj(c.kv("node", c.node(p.Node)), c.kv("source", c.path(p.Source)), c.kv("name", c.str("")),
						c.kv("label", c.str(labels.label("", p.Source)))))
					nodes = append(nodes, p.Node)
				}
			}
		}
	}
	idx := grouped(2, func(add func(int, string, *ast.Term)) {
		for i, n := range nodes {
			for _, f := range fields(n) {
				add(0, f.Key, out[i])
			}
			eachTypeName(n, func(name string) { add(1, name, out[i]) })
		}
	})
	return ast.ArrayTerm(out...), c.lists(idx[0]), c.lists(idx[1])
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
// by two forks of c, each converting half of them, since a large API's
// schemas outnumber and outweigh its operations; c is only read.
func (c *converter) schemas(ss []*spec.Schema, labels *labeler) (items []*ast.Term, byKey, byType, byProperty *ast.Term) {
	items = make([]*ast.Term, len(ss))
	half := len(ss) / 2
	var wg sync.WaitGroup
	first := c.fork()
	wg.Go(func() { first.schemaItems(ss[:half], labels, items[:half]) })
	second := c.fork()
	second.schemaItems(ss[half:], labels, items[half:])
	wg.Wait()
	idx := grouped(3, func(add func(int, string, *ast.Term)) {
		for i, s := range ss {
			if name, ok := propertyName(s.Source); ok {
				add(2, name, items[i])
			}
			if s.Node == nil || s.Node.Kind != spec.Object {
				continue
			}
			for _, f := range s.Node.Fields {
				add(0, f.Key, items[i])
			}
			eachTypeName(s.Node, func(t string) { add(1, t, items[i]) })
		}
	})
	return items, second.lists(idx[0]), second.lists(idx[1]), second.lists(idx[2])
}

// grouped builds n indexes of terms by key, {key: [term]}, from what
// visit adds to each (index i, key, term), in order. visit runs twice:
// once to count each list's terms, once to fill lists cut at their length
// from one array, where lists grown by appending left about as much
// garbage as they kept.
func grouped(n int, visit func(add func(i int, key string, t *ast.Term))) []map[string][]*ast.Term {
	counts := make([]map[string]int, n)
	for i := range counts {
		counts[i] = map[string]int{}
	}
	total := 0
	visit(func(i int, key string, _ *ast.Term) {
		counts[i][key]++
		total++
	})
	all := make([]*ast.Term, total)
	out := make([]map[string][]*ast.Term, n)
	for i, m := range counts {
		out[i] = make(map[string][]*ast.Term, len(m))
		for key, count := range m {
			out[i][key], all = all[:0:count], all[count:]
		}
	}
	visit(func(i int, key string, t *ast.Term) { out[i][key] = append(out[i][key], t) })
	return out
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
		// Room for the label: OPA copies the pairs, which stay on the stack.
		fields := make([]([2]*ast.Term), 0, 6)
		fields = append(fields, c.kv("name", c.str(s.Name)), c.kv("node", c.node(s.Node)), c.kv("source", c.path(s.Source)),
			c.kv("request", boolTerm(s.Request)), c.kv("response", boolTerm(s.Response)))
		if isReceived(s) {
			fields = append(fields, c.kv("label", c.str(labels.labelSchema(s))))
		}
		items[i] = c.obj(fields...)
	}
}

// eachTypeName calls fn with each type name a schema declares: its
// `type`, a string or each string of a list.
func eachTypeName(n *spec.Node, fn func(string)) {
	switch t := n.Get("type"); {
	case t == nil:
	case t.Kind == spec.String:
		fn(t.Value)
	case t.Kind == spec.Array:
		for _, it := range t.Items {
			if it.Kind == spec.String {
				fn(it.Value)
			}
		}
	}
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
