package spec

// markUsage sets Schema.Request and Schema.Response by walking, from the
// operations under paths, every schema their requests and responses reach.
func (b *viewBuilder) markUsage() {
	index := b.seenSchema
	req := usageWalk{d: b.d, index: index, seen: map[*Node]bool{}, marked: func(s *Schema) *bool { return &s.Request }}
	resp := usageWalk{d: b.d, index: index, seen: map[*Node]bool{}, marked: func(s *Schema) *bool { return &s.Response }}
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
// given, visiting each node once: an indexed schema's mark, false until
// the walk reaches it, tells whether it was visited, and seen holds the
// other nodes visited (a Swagger 2.0 parameter or header, which is its
// own schema).
type usageWalk struct {
	d      *Document
	index  map[*Node]*Schema
	seen   map[*Node]bool
	marked func(*Schema) *bool
}

func (w *usageWalk) walk(n *Node) {
	n = w.d.Deref(n)
	if n == nil || n.Kind != Object {
		return
	}
	if s := w.index[n]; s != nil {
		m := w.marked(s)
		if *m {
			return
		}
		*m = true
	} else {
		if w.seen[n] {
			return
		}
		w.seen[n] = true
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
