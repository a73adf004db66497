package spec

// markUsage sets Schema.Request and Schema.Response by walking, from the
// operations under paths, every schema their requests and responses reach.
func (b *viewBuilder) markUsage() {
	index := make(map[*Node]*Schema, len(b.v.Schemas))
	for _, s := range b.v.Schemas {
		index[s.Node] = s
	}
	req := usageWalk{d: b.d, index: index, seen: map[*Node]bool{}, mark: func(s *Schema) { s.Request = true }}
	resp := usageWalk{d: b.d, index: index, seen: map[*Node]bool{}, mark: func(s *Schema) { s.Response = true }}
	for _, op := range b.v.Operations {
		for _, p := range op.Parameters {
			req.walk(p.Schema)
		}
		if rb := op.RequestBody; rb != nil {
			for _, m := range rb.Content {
				req.walk(m.Schema)
			}
			for _, p := range rb.FormData {
				req.walk(p.Schema)
			}
		}
		for _, r := range op.Responses {
			for _, m := range r.Content {
				resp.walk(m.Schema)
			}
			for _, h := range r.Headers {
				resp.walk(h.Schema)
			}
		}
	}
}

// usageWalk marks every indexed schema reachable from the schemas it is
// given, visiting each node once.
type usageWalk struct {
	d     *Document
	index map[*Node]*Schema
	seen  map[*Node]bool
	mark  func(*Schema)
}

func (w *usageWalk) walk(n *Node) {
	n = w.d.Deref(n)
	if n == nil || n.Kind != Object || w.seen[n] {
		return
	}
	w.seen[n] = true
	if s := w.index[n]; s != nil {
		w.mark(s)
	}
	EachDescribingSubschema(n, func(c *Node, _ ...any) { w.walk(c) })
}

// EachDescribingSubschema calls fn for every subschema written inside n
// that describes the value (every one but those under not and if, which
// test it), with the keys that lead from n to it: the children the walk
// that sets Schema.Request and Schema.Response follows.
func EachDescribingSubschema(n *Node, fn func(c *Node, keys ...any)) {
	eachSubschema(n, func(c *Node, keys ...any) {
		if keys[0] != "not" && keys[0] != "if" {
			fn(c, keys...)
		}
	})
}
