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

// relChange is a schema change with a path relative to the compared pair.
type relChange struct {
	rule    *Rule
	side    Side
	path    spec.Path
	message string
}

// schemaDiffer compares schemas recursively, following $refs. Shared and
// recursive schemas are compared once: complete results are kept per pair
// and reused by every operation that reaches the pair; a pair met again
// while it is being compared (a cycle) contributes nothing the second time.
type schemaDiffer struct {
	d     *differ
	memo  map[schemaKey][]relChange
	stack map[schemaKey]int // pairs being compared, by depth (from 1)
	// partial holds, during one compare call, the results that depended on
	// a pair still being compared higher up: correct for this call, not
	// for reuse.
	partial map[schemaKey][]relChange
	views   map[*spec.Node]*SchemaView
	depth   int
}

func newSchemaDiffer(d *differ) *schemaDiffer {
	return &schemaDiffer{d: d, memo: map[schemaKey][]relChange{}, stack: map[schemaKey]int{},
		views: map[*spec.Node]*SchemaView{}}
}

// compare diffs the schemas b (at bsrc in the base) and r (at rsrc in the
// revision) for the operations of sc.
func (s *schemaDiffer) compare(sc scope, b *spec.Node, bsrc spec.Path, r *spec.Node, rsrc spec.Path) {
	s.partial = map[schemaKey][]relChange{}
	found, _ := s.pair(b, r, sc.dir)
	for _, rc := range found {
		prefix := rsrc
		if rc.side == Base {
			prefix = bsrc
		}
		s.d.raw = append(s.d.raw, rawChange{rule: rc.rule, side: rc.side, path: join(prefix, rc.path), message: rc.message, ops: sc.ops})
	}
}

func join(a, b spec.Path) spec.Path {
	out := make(spec.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// noCycle is the low-water mark of a comparison that met no pair still
// being compared.
const noCycle = math.MaxInt

// pair compares two schemas and returns their changes and the smallest
// depth of a pair still being compared that the comparison met.
func (s *schemaDiffer) pair(b, r *spec.Node, dir Direction) ([]relChange, int) {
	b, r = s.d.base.Deref(b), s.d.rev.Deref(r)
	if b.Kind != spec.Object || r.Kind != spec.Object {
		return nil, noCycle
	}
	k := schemaKey{b, r, dir}
	if res, ok := s.memo[k]; ok {
		return res, noCycle
	}
	if dep, ok := s.stack[k]; ok {
		return nil, dep
	}
	if res, ok := s.partial[k]; ok {
		return res, 0
	}
	s.depth++
	depth := s.depth
	s.stack[k] = depth
	defer func() {
		delete(s.stack, k)
		s.depth--
	}()

	var out []relChange
	check := SchemaCheck{Base: s.view(s.d.base, b), Rev: s.view(s.d.rev, r), Dir: dir, out: &out}
	for _, rule := range s.d.rules {
		if rule.Schema != nil {
			check.rule = rule
			rule.Schema(&check)
		}
	}
	low := noCycle
	child := func(cb *spec.Node, bpath spec.Path, cr *spec.Node, rpath spec.Path) {
		found, l := s.pair(cb, cr, dir)
		low = min(low, l)
		for _, rc := range found {
			prefix := rpath
			if rc.side == Base {
				prefix = bpath
			}
			out = append(out, relChange{rule: rc.rule, side: rc.side, path: join(prefix, rc.path), message: rc.message})
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
	if low >= depth {
		s.memo[k] = out
		return out, noCycle
	}
	s.partial[k] = out
	return out, low
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

// Deref follows a $ref written in this schema's document.
func (v *SchemaView) Deref(n *spec.Node) *spec.Node { return v.doc.Deref(n) }

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
	return types, nullable
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
