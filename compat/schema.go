package compat

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// schemaKey identifies one comparison of two schemas: the dereferenced
// nodes and who writes the data.
type schemaKey struct {
	b, r *spec.Node
	dir  Direction
}

// relChange is a schema change found in the schema origin, at rel within
// it. A change is the same however its schema is reached, so a schema met
// through many paths (a diamond of $refs, a cycle) reports it once.
type relChange struct {
	rule    *Rule
	side    Side
	origin  *spec.Node
	rel     spec.Path
	message string
}

// changeID identifies a relChange.
type changeID struct {
	rule    *Rule
	side    Side
	origin  *spec.Node
	at, msg string
}

func (c *relChange) id() changeID {
	return changeID{c.rule, c.side, c.origin, spec.Pointer(c.rel), c.message}
}

// schemaDiffer compares schemas recursively, following $refs. Each pair of
// schemas is compared once for the whole document: its changes, and those
// of every pair it reaches, are kept and reused by every operation that
// reaches it. Recursive schemas make the pairs a graph with cycles; the
// pairs of one cycle (a strongly connected component, found as Tarjan's
// algorithm does) reach each other, so they share one set of changes,
// kept when the first pair of the cycle is done.
type schemaDiffer struct {
	d    *differ
	memo map[schemaKey][]relChange
	// index numbers the pairs in visiting order; onStack holds the pairs
	// whose component is not done yet, by index, and stack lists them.
	index   int
	onStack map[schemaKey]int
	stack   []schemaKey
	// paths holds, for each schema node compared, the first path it was
	// reached by: changes are located from it.
	paths map[*spec.Node]spec.Path
	views map[*spec.Node]*SchemaView
}

func newSchemaDiffer(d *differ) *schemaDiffer {
	return &schemaDiffer{d: d, memo: map[schemaKey][]relChange{}, onStack: map[schemaKey]int{},
		paths: map[*spec.Node]spec.Path{}, views: map[*spec.Node]*SchemaView{}}
}

// compare diffs the schemas b (at bsrc in the base) and r (at rsrc in the
// revision) for the operations of sc.
func (s *schemaDiffer) compare(sc scope, b *spec.Node, bsrc spec.Path, r *spec.Node, rsrc spec.Path) {
	found, _ := s.pair(b, bsrc, r, rsrc, sc.dir)
	for _, rc := range found {
		s.d.raw = append(s.d.raw, rawChange{rule: rc.rule, side: rc.side, path: join(s.paths[rc.origin], rc.rel), message: rc.message, ops: sc.ops})
	}
}

func join(a, b spec.Path) spec.Path {
	out := make(spec.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// noCycle is the low-link of a comparison that met no pair of an
// unfinished component.
const noCycle = math.MaxInt

// pair compares two schemas, reached at bpath and rpath, and returns their
// changes with the lowest index of an unfinished pair the comparison met.
func (s *schemaDiffer) pair(b *spec.Node, bpath spec.Path, r *spec.Node, rpath spec.Path, dir Direction) ([]relChange, int) {
	b, r = s.d.base.Deref(b), s.d.rev.Deref(r)
	if b.Kind != spec.Object || r.Kind != spec.Object {
		return nil, noCycle
	}
	k := schemaKey{b, r, dir}
	if res, ok := s.memo[k]; ok {
		return res, noCycle
	}
	if idx, ok := s.onStack[k]; ok {
		return nil, idx
	}
	for _, n := range []struct {
		node *spec.Node
		path spec.Path
	}{{b, bpath}, {r, rpath}} {
		if _, ok := s.paths[n.node]; !ok {
			s.paths[n.node] = n.path
		}
	}
	s.index++
	idx := s.index
	s.onStack[k] = idx
	s.stack = append(s.stack, k)

	var out []relChange
	check := SchemaCheck{Base: s.view(s.d.base, b), Rev: s.view(s.d.rev, r), Dir: dir, out: &out}
	for _, rule := range s.d.rules {
		if rule.Schema != nil {
			check.rule = rule
			rule.Schema(&check)
		}
	}
	low := noCycle
	var seen map[changeID]bool
	child := func(cb *spec.Node, bp spec.Path, cr *spec.Node, rp spec.Path) {
		found, l := s.pair(cb, join(bpath, bp), cr, join(rpath, rp), dir)
		low = min(low, l)
		for _, rc := range found {
			if seen == nil {
				seen = make(map[changeID]bool, len(out)+len(found))
				for i := range out {
					seen[out[i].id()] = true
				}
			}
			if id := rc.id(); !seen[id] {
				seen[id] = true
				out = append(out, rc)
			}
		}
	}
	bv, rv := check.Base, check.Rev
	for _, bp := range bv.Properties {
		if rp := rv.Property(bp.Name); rp != nil {
			child(bp.Node, bp.Path, rp.Node, rp.Path)
		}
	}
	for _, kw := range []string{"items", "additionalProperties"} {
		if bi, ri := b.Get(kw), r.Get(kw); bi != nil && ri != nil && bi.Kind == spec.Object && ri.Kind == spec.Object {
			child(bi, spec.Path{kw}, ri, spec.Path{kw})
		}
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		matchAlternatives(bv.Alternatives(kw), rv.Alternatives(kw), func(ba, ra *Alternative) {
			if ba != nil && ra != nil {
				child(ba.Node, ba.Path, ra.Node, ra.Path)
			}
		})
	}
	if low < idx {
		return out, low
	}
	// k is the first pair of its component: every pair above it on the
	// stack reaches it and is reached by it, so all share its changes.
	for {
		top := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		delete(s.onStack, top)
		s.memo[top] = out
		if top == k {
			return out, noCycle
		}
	}
}

// SchemaView is a schema as a rule sees it: its own keywords, with
// properties, required names and type gathered through allOf.
type SchemaView struct {
	Node *spec.Node // the dereferenced schema
	doc  *spec.Document

	// Types are the declared types without "null"; empty when the schema
	// allows any type.
	Types []string
	// Nullable is set when null is declared: type null, nullable: true
	// (OpenAPI 3.0) or x-nullable: true (Swagger 2.0).
	Nullable bool

	// Properties in source order, own ones first, then those of allOf
	// members, each once.
	Properties []*Property
	props      map[string]*Property
	// Required maps each required name to the path of its entry in a
	// required list.
	Required map[string]spec.Path
}

// Property is a property of a schema with the path of its schema,
// relative to the schema that has it (through allOf).
type Property struct {
	Name string
	Node *spec.Node // as written (maybe a $ref)
	Path spec.Path
}

// Property returns the property name, or nil.
func (v *SchemaView) Property(name string) *Property { return v.props[name] }

// Flag reports whether a property's schema sets keyword (readOnly,
// writeOnly, deprecated) to true.
func (v *SchemaView) Flag(p *Property, keyword string) bool {
	return v.doc.Deref(p.Node).Get(keyword).IsTrue()
}

// Alternative is one schema of a oneOf or anyOf.
type Alternative struct {
	Key  string // the $ref's last segment, else the title, else "#index"
	Node *spec.Node
	Path spec.Path
}

// Alternatives lists the schemas of a oneOf or anyOf keyword.
func (v *SchemaView) Alternatives(keyword string) []*Alternative {
	list := v.Node.Get(keyword)
	if list == nil || list.Kind != spec.Array {
		return nil
	}
	out := make([]*Alternative, len(list.Items))
	for i, it := range list.Items {
		key := "#" + strconv.Itoa(i)
		if ref := it.Ref(); ref != "" {
			key = ref[strings.LastIndex(ref, "/")+1:]
		} else if t := it.GetStr("title"); t != "" {
			key = t
		}
		out[i] = &Alternative{Key: key, Node: it, Path: spec.Path{keyword, i}}
	}
	return out
}

// matchAlternatives pairs alternatives by key.
func matchAlternatives(base, rev []*Alternative, fn func(b, r *Alternative)) {
	kb := make([]keyed[Alternative], len(base))
	for i, a := range base {
		kb[i] = keyed[Alternative]{a.Key, a}
	}
	kr := make([]keyed[Alternative], len(rev))
	for i, a := range rev {
		kr[i] = keyed[Alternative]{a.Key, a}
	}
	pair(kb, kr, fn)
}

// view builds (once) the view of a dereferenced schema node of doc.
func (s *schemaDiffer) view(doc *spec.Document, n *spec.Node) *SchemaView {
	if v := s.views[n]; v != nil {
		return v
	}
	v := &SchemaView{Node: n, doc: doc, props: map[string]*Property{}, Required: map[string]spec.Path{}}
	seen := map[*spec.Node]bool{}
	var gather func(n *spec.Node, at spec.Path)
	gather = func(n *spec.Node, at spec.Path) {
		n = doc.Deref(n)
		if seen[n] || n.Kind != spec.Object {
			return
		}
		seen[n] = true
		if props := n.Get("properties"); props != nil && props.Kind == spec.Object {
			for _, f := range props.Fields {
				if v.props[f.Key] == nil {
					p := &Property{Name: f.Key, Node: f.Value, Path: join(at, spec.Path{"properties", f.Key})}
					v.props[f.Key] = p
					v.Properties = append(v.Properties, p)
				}
			}
		}
		if req := n.Get("required"); req != nil && req.Kind == spec.Array {
			for i, it := range req.Items {
				if _, dup := v.Required[it.Value]; it.Kind == spec.String && !dup {
					v.Required[it.Value] = join(at, spec.Path{"required", i})
				}
			}
		}
		if types, nullable := typesOf(n); len(at) == 0 {
			v.Types, v.Nullable = types, nullable
		} else if len(v.Types) == 0 {
			v.Types = types
		}
		if all := n.Get("allOf"); all != nil && all.Kind == spec.Array {
			for i, it := range all.Items {
				gather(it, join(at, spec.Path{"allOf", i}))
			}
		}
	}
	gather(n, nil)
	s.views[n] = v
	return v
}

// typesOf reads the type keyword (a string or a list) and the nullable
// markers of OpenAPI 3.0 and Swagger 2.0.
func typesOf(n *spec.Node) (types []string, nullable bool) {
	t := n.Get("type")
	add := func(s string) {
		if s == "null" {
			nullable = true
		} else if s != "" {
			types = append(types, s)
		}
	}
	if t != nil {
		switch t.Kind {
		case spec.String:
			add(t.Value)
		case spec.Array:
			for _, it := range t.Items {
				add(it.Str())
			}
		}
	}
	nullable = nullable || n.Get("nullable").IsTrue() || n.Get("x-nullable").IsTrue()
	if t == nil {
		types = impliedTypes(n)
	}
	return types, nullable
}

// impliedTypes reads the type a schema without a type keyword is written
// for: properties mean an object, items an array. Many specifications
// leave type: object out, and adding it later changes nothing.
func impliedTypes(n *spec.Node) []string {
	switch {
	case n.Get("properties") != nil || n.Get("additionalProperties") != nil:
		return []string{"object"}
	case n.Get("items") != nil:
		return []string{"array"}
	}
	return nil
}

// canonical renders a JSON value so that equal values compare equal:
// numbers by value (1 and 1.0), objects with sorted keys.
func canonical(n *spec.Node) string {
	var b strings.Builder
	writeCanonical(&b, n)
	return b.String()
}

func writeCanonical(b *strings.Builder, n *spec.Node) {
	switch n.Kind {
	case spec.Number:
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
		b.WriteString(n.Value)
	case spec.String:
		b.WriteString(strconv.Quote(n.Value))
	case spec.Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, it)
		}
		b.WriteByte(']')
	case spec.Object:
		keys := make([]int, len(n.Fields))
		for i := range keys {
			keys[i] = i
		}
		sort.Slice(keys, func(i, j int) bool { return n.Fields[keys[i]].Key < n.Fields[keys[j]].Key })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(n.Fields[k].Key))
			b.WriteByte(':')
			writeCanonical(b, n.Fields[k].Value)
		}
		b.WriteByte('}')
	default:
		b.WriteString(n.Value)
	}
}
