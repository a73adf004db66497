package compat

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// schemaKey identifies one comparison of two schemas: the two views, who
// writes the data, and whether the values are text (parameters and
// headers, where 5 and "5" are the same characters).
type schemaKey struct {
	b, r *SchemaView
	dir  Direction
	text bool
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
	// context names the subschema the change is in when its place does
	// not say (properties the schema does not declare, property names):
	// the innermost one, shown before the message. The same change
	// reached through another subschema is the same change.
	context string
	// otherOrigin and otherRel place the change in the other version: the
	// other schema of the pair, at the same keyword or property when it
	// writes one.
	otherOrigin *spec.Node
	otherRel    spec.Path
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
//
// Some decisions ask whether one schema accepts everything another does
// (which alternative of a oneOf a schema became, whether an added `not`
// rejects anything the base accepted). Such a probe compares the two in a
// differ of the next level, with its own memory and cycles, whose changes
// are read and never reported.
type schemaDiffer struct {
	d     *differ
	vs    *viewSet
	level int
	memo  map[schemaKey][]relChange
	// index numbers the pairs in visiting order; onStack holds the pairs
	// whose component is not done yet, by index, and stack lists them.
	index   int
	onStack map[schemaKey]int
	stack   []schemaKey
	// paths holds, for each schema node compared, the first path it was
	// reached by: changes are located from it.
	paths  map[*spec.Node]spec.Path
	prober *schemaDiffer
}

// maxProbeLevel bounds probes within probes (alternatives of
// alternatives); deeper, a probe answers "not proven".
const maxProbeLevel = 6

func newSchemaDiffer(d *differ, vs *viewSet, level int) *schemaDiffer {
	return &schemaDiffer{d: d, vs: vs, level: level, memo: map[schemaKey][]relChange{}, onStack: map[schemaKey]int{},
		paths: map[*spec.Node]spec.Path{}}
}

// compare diffs the schemas b (written at bsrc in the base) and r
// (written at rsrc in the revision) for the operations of sc. text is set
// for parameters and headers.
func (s *schemaDiffer) compare(sc scope, b *spec.Node, bsrc spec.Path, r *spec.Node, rsrc spec.Path, text bool) {
	s.compareViews(sc, s.vs.view(s.d.base, b), bsrc, s.vs.view(s.d.rev, r), rsrc, text)
}

func (s *schemaDiffer) compareViews(sc scope, b *SchemaView, bsrc spec.Path, r *SchemaView, rsrc spec.Path, text bool) {
	found, _ := s.pair(b, bsrc, r, rsrc, sc.dir, text)
	for _, rc := range found {
		s.d.raw = append(s.d.raw, rawChange{rule: rc.rule, side: rc.side, path: join(s.paths[rc.origin], rc.rel), message: rc.message, context: rc.context, ops: sc.ops,
			other: join(s.paths[rc.otherOrigin], rc.otherRel), hasOther: true})
	}
}

func join(a, b spec.Path) spec.Path {
	out := make(spec.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// noCycle is the low-link of a comparison that met no pair of an
// unfinished component.
const noCycle = math.MaxInt

// probe compares b and r in the next level's differ and returns what it
// finds; ok is false when probes are nested too deep to answer.
func (s *schemaDiffer) probe(b, r *SchemaView, dir Direction, text bool) (found []relChange, ok bool) {
	if s.level >= maxProbeLevel {
		return nil, false
	}
	if s.prober == nil {
		s.prober = newSchemaDiffer(s.d, s.vs, s.level+1)
	}
	found, _ = s.prober.pair(b, nil, r, nil, dir, text)
	return found, true
}

// breaks reports whether a breaking change was found.
func breaks(found []relChange) bool {
	for _, c := range found {
		if c.rule.Level == Breaking {
			return true
		}
	}
	return false
}

// severity counts the breaking changes and warnings of a probe; a probe
// that could not answer counts as breaking.
func severity(found []relChange, ok bool) (breaking, warnings int) {
	if !ok {
		return 1, 0
	}
	for _, c := range found {
		switch c.rule.Level {
		case Breaking:
			breaking++
		case Warning:
			warnings++
		}
	}
	return breaking, warnings
}

// firstBreaking returns the message of the first breaking change of a
// probe, or "".
func firstBreaking(found []relChange, ok bool) string {
	if !ok {
		return "the schemas nest too deeply to compare"
	}
	for _, c := range found {
		if c.rule.Level == Breaking {
			return c.text()
		}
	}
	return ""
}

// text is the change's message with its context.
func (c *relChange) text() string {
	if c.context == "" {
		return c.message
	}
	return c.context + ": " + c.message
}

// pair compares two schemas, reached at bpath and rpath, and returns their
// changes with the lowest index of an unfinished pair the comparison met.
func (s *schemaDiffer) pair(b *SchemaView, bpath spec.Path, r *SchemaView, rpath spec.Path, dir Direction, text bool) ([]relChange, int) {
	k := schemaKey{b, r, dir, text}
	if res, ok := s.memo[k]; ok {
		return res, noCycle
	}
	if idx, ok := s.onStack[k]; ok {
		return nil, idx
	}
	if s.vs.equal(b, r) {
		s.memo[k] = nil
		return nil, noCycle
	}
	for _, n := range []struct {
		node *spec.Node
		path spec.Path
	}{{b.Node, bpath}, {r.Node, rpath}} {
		if _, ok := s.paths[n.node]; !ok {
			s.paths[n.node] = n.path
		}
	}
	s.index++
	idx := s.index
	s.onStack[k] = idx
	s.stack = append(s.stack, k)

	var out []relChange
	low := noCycle
	var seen map[changeID]bool
	child := func(cb *SchemaView, bp spec.Path, cr *SchemaView, rp spec.Path, label string, text bool, ignore func(relChange) bool) {
		if s.level > 0 && breaks(out) {
			// A probe has its answer: it only asks whether something breaks
			// (and what first).
			return
		}
		found, l := s.pair(cb, join(bpath, bp), cr, join(rpath, rp), dir, text)
		low = min(low, l)
		for _, rc := range found {
			if ignore != nil && ignore(rc) {
				continue
			}
			// The label names the subschema itself: a change deeper in it
			// is placed by its location alone.
			if label != "" && rc.context == "" && (rc.origin == cb.Node || rc.origin == cr.Node) {
				rc.context = label
			}
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
	check := &SchemaCheck{Base: b, Rev: r, Dir: dir, Text: text, sd: s, out: &out}
	switch {
	case dir == Request && b.False:
		// The base accepted no value here.
	case b.False || r.False:
		s.runRules(check, func(r *Rule) func(*SchemaCheck) { return r.False })
	case b.alts != nil || r.alts != nil:
		check.Pairs = s.pairAlternatives(b, r, dir, text)
		s.runRules(check, func(r *Rule) func(*SchemaCheck) { return r.Alternatives })
		single := (b.alts == nil) != (r.alts == nil)
		for _, p := range check.Pairs {
			if p.Base == nil || p.Rev == nil {
				continue
			}
			ignore := p.ignore
			if single {
				// A schema compared with each alternative of the other side
				// has more types than some of them: the alternatives divide
				// its values, which is no change of type.
				bn, rn, own := p.Base.view.Node, p.Rev.view.Node, p.ignore
				ignore = func(rc relChange) bool {
					return (rc.rule.ID == "type-changed-compatibly" && (rc.origin == bn || rc.origin == rn)) || (own != nil && own(rc))
				}
			}
			child(p.Base.view, nil, p.Rev.view, nil, "", text, ignore)
		}
	default:
		check.subs = s.subschemas(b, r)
		s.runRules(check, func(r *Rule) func(*SchemaCheck) { return r.Schema })
		for _, sp := range check.subs {
			if dir == Response && sp.Base.False != sp.Rev.False && sp.namesProperties() {
				// Properties the base forbade may now be sent, or those it
				// sent are now forbidden: the property rules report both.
				continue
			}
			// Property names are text: a schema without a type reads them
			// as the strings they are.
			child(sp.Base, sp.BasePath, sp.Rev, sp.RevPath, sp.label(sp.Base.False || sp.Rev.False), text || sp.Kind == "propertyNames", nil)
		}
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

func (s *schemaDiffer) runRules(check *SchemaCheck, hook func(*Rule) func(*SchemaCheck)) {
	for _, rule := range s.d.rules {
		if h := hook(rule); h != nil {
			check.rule = rule
			h(check)
		}
	}
}

// SubPair is a pair of subschemas the comparison recurses into: property
// schemas, items, additional and pattern properties, property names,
// contains, decoded content, the branches of an unchanged if, the
// dependent schemas both sides have. A side that leaves the keyword out
// stands for what it then accepts (an absent additionalProperties is
// true, an absent propertyNames any string), located where it would be
// written.
type SubPair struct {
	Kind      string // the keyword: properties, items, prefixItems, additionalProperties, …
	Name      string // the property, pattern or dependentSchemas key; the item's index
	Base, Rev *SchemaView
	// BasePath and RevPath are relative to the pair's schemas.
	BasePath, RevPath spec.Path
	// undeclared is set for a property one side declares and the other
	// describes only through its pattern or additional properties.
	undeclared Side
	partial    bool
}

// namesProperties reports whether the subschema describes the values of
// properties an object may have beyond its declared ones.
func (sp SubPair) namesProperties() bool {
	switch sp.Kind {
	case "properties", "additionalProperties", "unevaluatedProperties", "patternProperties":
		return true
	}
	return false
}

// label prefixes the changes found in a subschema whose place the
// location alone does not explain.
func (sp SubPair) label(falsePair bool) string {
	switch sp.Kind {
	case "properties":
		switch {
		case sp.partial && sp.undeclared == Revision:
			return "property " + strconv.Quote(sp.Name) + ", which the revision no longer declares"
		case sp.partial:
			return "property " + strconv.Quote(sp.Name) + ", which the base did not declare"
		case falsePair:
			return "property " + strconv.Quote(sp.Name)
		}
	case "prefixItems":
		if falsePair {
			return "item " + sp.Name
		}
	case "items":
		if falsePair {
			return "array items"
		}
	case "additionalProperties":
		return "properties the schema does not declare"
	case "unevaluatedProperties":
		return "properties no subschema evaluates (unevaluatedProperties, judged conservatively as if each property a subschema declares were evaluated)"
	case "unevaluatedItems":
		return "items no subschema evaluates (unevaluatedItems, judged conservatively as if each prefixItems position were evaluated)"
	case "patternProperties":
		return "properties matching " + strconv.Quote(sp.Name)
	case "propertyNames":
		return "property names"
	case "contains":
		return "the items contains looks for"
	case "contentSchema":
		return "the decoded content (contentSchema)"
	case "then":
		return "values the if schema accepts (then)"
	case "else":
		return "values the if schema rejects (else)"
	case "dependentSchemas":
		return "objects with property " + strconv.Quote(sp.Name) + " (dependentSchemas)"
	}
	return ""
}

// subschemas lists the subschema pairs of two views without alternatives.
func (s *schemaDiffer) subschemas(b, r *SchemaView) []SubPair {
	var out []SubPair
	vs := s.vs
	if b.May("object") && r.May("object") {
		for _, bp := range b.Properties {
			bv := vs.view(b.doc, bp.Node)
			if rp := r.Property(bp.Name); rp != nil {
				out = append(out, SubPair{Kind: "properties", Name: bp.Name, Base: bv, BasePath: bp.Path, Rev: vs.view(r.doc, rp.Node), RevPath: rp.Path})
			} else if rv, rpath := vs.forName(r, bp.Name); rv != nil {
				out = append(out, SubPair{Kind: "properties", Name: bp.Name, Base: bv, BasePath: bp.Path, Rev: rv, RevPath: rpath, partial: true, undeclared: Revision})
			}
		}
		for _, rp := range r.Properties {
			if b.Property(rp.Name) == nil {
				if bv, bpath := vs.forName(b, rp.Name); bv != nil {
					out = append(out, SubPair{Kind: "properties", Name: rp.Name, Base: bv, BasePath: bpath, Rev: vs.view(r.doc, rp.Node), RevPath: rp.Path, partial: true, undeclared: Base})
				}
			}
		}
		be, bek, bePath, bExplicit := vs.extra(b)
		re, rek, rePath, rExplicit := vs.extra(r)
		bpp, rpp := patternProperties(b), patternProperties(r)
		for _, pat := range unionKeys(bpp, rpp) {
			sp := SubPair{Kind: "patternProperties", Name: pat, Base: be, BasePath: bePath, Rev: re, RevPath: rePath}
			if o, ok := bpp.get(pat); ok {
				sp.Base, sp.BasePath = vs.view(b.doc, o.Value), o.Path
			}
			if o, ok := rpp.get(pat); ok {
				sp.Rev, sp.RevPath = vs.view(r.doc, o.Value), o.Path
			}
			out = append(out, sp)
		}
		if bExplicit || rExplicit {
			kind := rek
			if !rExplicit {
				kind = bek
			}
			out = append(out, SubPair{Kind: kind, Base: be, BasePath: bePath, Rev: re, RevPath: rePath})
		}
		if bn, rn := b.Occurrences("propertyNames"), r.Occurrences("propertyNames"); len(bn) > 0 || len(rn) > 0 {
			sp := SubPair{Kind: "propertyNames"}
			sp.Base, sp.BasePath = vs.sub(b, bn, "propertyNames", true)
			sp.Rev, sp.RevPath = vs.sub(r, rn, "propertyNames", true)
			out = append(out, sp)
		}
		bds, rds := dependentSchemas(b), dependentSchemas(r)
		for _, name := range unionKeys(bds, rds) {
			bo, bok := bds.get(name)
			ro, rok := rds.get(name)
			if bok && rok {
				out = append(out, SubPair{Kind: "dependentSchemas", Name: name, Base: vs.view(b.doc, bo.Value), BasePath: bo.Path,
					Rev: vs.view(r.doc, ro.Value), RevPath: ro.Path})
			}
		}
	}
	if b.May("array") && r.May("array") {
		bpre, btail := vs.arrayItems(b)
		rpre, rtail := vs.arrayItems(r)
		for i := range max(len(bpre), len(rpre)) {
			sp := SubPair{Kind: "prefixItems", Name: strconv.Itoa(i), Base: btail.view, BasePath: btail.path, Rev: rtail.view, RevPath: rtail.path}
			if i < len(bpre) {
				sp.Base, sp.BasePath = bpre[i].view, bpre[i].path
			}
			if i < len(rpre) {
				sp.Rev, sp.RevPath = rpre[i].view, rpre[i].path
			}
			out = append(out, sp)
		}
		if btail.explicit || rtail.explicit {
			kind := rtail.kind
			if !rtail.explicit {
				kind = btail.kind
			}
			out = append(out, SubPair{Kind: kind, Base: btail.view, BasePath: btail.path, Rev: rtail.view, RevPath: rtail.path})
		}
		bc, bcp := b.Keyword("contains")
		rc, rcp := r.Keyword("contains")
		if bc != nil && rc != nil {
			out = append(out, SubPair{Kind: "contains", Base: vs.view(b.doc, bc), BasePath: bcp, Rev: vs.view(r.doc, rc), RevPath: rcp})
		}
	}
	if b.May("string") && r.May("string") {
		if bc, rc := b.Occurrences("contentSchema"), r.Occurrences("contentSchema"); len(bc) > 0 || len(rc) > 0 {
			sp := SubPair{Kind: "contentSchema"}
			sp.Base, sp.BasePath = vs.sub(b, bc, "contentSchema", false)
			sp.Rev, sp.RevPath = vs.sub(r, rc, "contentSchema", false)
			out = append(out, sp)
		}
	}
	if bi, ri := b.Occurrences("if"), r.Occurrences("if"); len(bi) > 0 && len(ri) > 0 && vs.equal(vs.view(b.doc, bi[0].Value), vs.view(r.doc, ri[0].Value)) {
		for _, kw := range []string{"then", "else"} {
			if bo, ro := b.Occurrences(kw), r.Occurrences(kw); len(bo) > 0 || len(ro) > 0 {
				sp := SubPair{Kind: kw}
				sp.Base, sp.BasePath = vs.sub(b, bo, kw, false)
				sp.Rev, sp.RevPath = vs.sub(r, ro, kw, false)
				out = append(out, sp)
			}
		}
	}
	return out
}

// sub returns the view of the first occurrence of a keyword, or of what
// its absence means (any value; any string for property names), located
// where it would be written.
func (vs *viewSet) sub(v *SchemaView, occ []Occurrence, kw string, stringsOnly bool) (*SchemaView, spec.Path) {
	if len(occ) > 0 {
		return vs.view(v.doc, occ[0].Value), occ[0].Path
	}
	return vs.view(v.doc, vs.implied(v.Node, kw, stringsOnly)), spec.Path{kw}
}

// extra returns the schema of the properties v does not declare:
// additionalProperties, else unevaluatedProperties (read the same way,
// which is exact unless alternatives or conditionals declare
// properties), else any value. explicit is false for the last.
func (vs *viewSet) extra(v *SchemaView) (view *SchemaView, kind string, path spec.Path, explicit bool) {
	for _, kw := range []string{"additionalProperties", "unevaluatedProperties"} {
		if n, p := v.Keyword(kw); n != nil {
			return vs.view(v.doc, n), kw, p, true
		}
	}
	return vs.view(v.doc, vs.implied(v.Node, "additionalProperties", false)), "additionalProperties", spec.Path{"additionalProperties"}, false
}

// forName returns the schema v applies to an undeclared property name
// when it says something about it: a matching pattern property, or an
// additionalProperties (or unevaluatedProperties) that is a schema or
// false. An absent or true one accepts anything and says nothing.
func (vs *viewSet) forName(v *SchemaView, name string) (*SchemaView, spec.Path) {
	pp := patternProperties(v)
	for _, pat := range pp.keys {
		if re := vs.regexp(pat); re != nil && re.MatchString(name) {
			o, _ := pp.get(pat)
			return vs.view(v.doc, o.Value), o.Path
		}
	}
	if ev, _, p, explicit := vs.extra(v); explicit && !ev.acceptsAll() {
		return ev, p
	}
	return nil, nil
}

// regexp compiles a pattern once; a pattern Go cannot compile (ECMA
// syntax it lacks) matches nothing.
func (vs *viewSet) regexp(pat string) *regexp.Regexp {
	if re, ok := vs.regexps[pat]; ok {
		return re
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		re = nil
	}
	vs.regexps[pat] = re
	return re
}

// namedOccurrences are the entries of a keyword whose value maps names to
// schemas, first occurrence of each name first.
type namedOccurrences struct {
	keys []string
	by   map[string]Occurrence
}

func (n namedOccurrences) get(k string) (Occurrence, bool) {
	o, ok := n.by[k]
	return o, ok
}

func unionKeys(a, b namedOccurrences) []string {
	out := append([]string(nil), a.keys...)
	for _, k := range b.keys {
		if _, ok := a.by[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func named(v *SchemaView, kw string, keep func(*spec.Node) bool) namedOccurrences {
	out := namedOccurrences{by: map[string]Occurrence{}}
	for _, o := range v.Occurrences(kw) {
		if o.Value.Kind != spec.Object {
			continue
		}
		for _, f := range o.Value.Fields {
			if _, dup := out.by[f.Key]; !dup && (keep == nil || keep(f.Value)) {
				out.keys = append(out.keys, f.Key)
				out.by[f.Key] = Occurrence{f.Value, join(o.Path, spec.Path{f.Key})}
			}
		}
	}
	return out
}

func patternProperties(v *SchemaView) namedOccurrences { return named(v, "patternProperties", nil) }

// dependentSchemas reads dependentSchemas and the schema entries of the
// older dependencies keyword.
func dependentSchemas(v *SchemaView) namedOccurrences {
	out := named(v, "dependentSchemas", nil)
	old := named(v, "dependencies", func(n *spec.Node) bool { return n.Kind != spec.Array })
	for _, k := range old.keys {
		if _, dup := out.by[k]; !dup {
			out.keys = append(out.keys, k)
			out.by[k] = old.by[k]
		}
	}
	return out
}

// dependentRequired reads dependentRequired and the name-list entries of
// dependencies: for each property, the properties it requires, with the
// path of the list.
func dependentRequired(v *SchemaView) (keys []string, names map[string][]string, paths map[string]spec.Path) {
	names, paths = map[string][]string{}, map[string]spec.Path{}
	read := func(kw string) {
		for _, o := range v.Occurrences(kw) {
			if o.Value.Kind != spec.Object {
				continue
			}
			for _, f := range o.Value.Fields {
				if f.Value.Kind != spec.Array {
					continue
				}
				if _, ok := paths[f.Key]; !ok {
					keys = append(keys, f.Key)
					paths[f.Key] = join(o.Path, spec.Path{f.Key})
				}
				for _, it := range f.Value.Items {
					if it.Kind == spec.String {
						names[f.Key] = appendNew(names[f.Key], it.Value)
					}
				}
			}
		}
	}
	read("dependentRequired")
	read("dependencies")
	return keys, names, paths
}

// itemSchema is the schema of some items of an array, where it is written.
type itemSchema struct {
	view     *SchemaView
	path     spec.Path
	kind     string // the keyword it comes from
	explicit bool
}

// arrayItems reads the schemas of an array's items: the positional ones
// (prefixItems, or an items list as before JSON Schema 2020-12) and the
// one for the items after them (items, additionalItems, else
// unevaluatedItems, else any value).
func (vs *viewSet) arrayItems(v *SchemaView) (prefix []itemSchema, tail itemSchema) {
	items, itemsPath := v.Keyword("items")
	list, listPath := v.Keyword("prefixItems")
	tailKw := "items"
	switch {
	case list != nil && list.Kind == spec.Array:
	case items != nil && items.Kind == spec.Array:
		list, listPath = items, itemsPath
		items, itemsPath = v.Keyword("additionalItems")
		tailKw = "additionalItems"
	}
	if list != nil && list.Kind == spec.Array {
		for i, it := range list.Items {
			prefix = append(prefix, itemSchema{view: vs.view(v.doc, it), path: join(listPath, spec.Path{i}), kind: "prefixItems", explicit: true})
		}
	}
	if items == nil {
		items, itemsPath = v.Keyword("unevaluatedItems")
		tailKw = "unevaluatedItems"
	}
	if items != nil && items.Kind != spec.Array {
		return prefix, itemSchema{view: vs.view(v.doc, items), path: itemsPath, kind: tailKw, explicit: true}
	}
	return prefix, itemSchema{view: vs.view(v.doc, vs.implied(v.Node, "items", false)), path: spec.Path{"items"}, kind: "items"}
}

// AlternativePair pairs an alternative with the one of the other side
// that takes its values: in requests each alternative of the base with
// one of the revision that accepts what it accepted; in responses each
// alternative of the revision with one of the base that covered what it
// sends. A side without alternatives is one alternative.
type AlternativePair struct {
	Base, Rev *Alternative // nil when nothing takes its values
	// Overlap is another oneOf alternative of the revision that also
	// accepts every value of Base: such a value matches two alternatives,
	// which oneOf rejects.
	Overlap *Alternative
	// ignore drops the changes that only say the values went to another
	// alternative, when a schema is split across several (split).
	ignore func(relChange) bool
}

// split is a schema whose values the alternatives of the other side
// divide among themselves: by type (a string|integer became a oneOf of a
// string and an integer), or by the value of a property every alternative
// requires (a flat object with kind: [cat, dog] became a oneOf of a cat
// and a dog). Each part is compared with the schema, leaving out what
// only says that some values went to another part.
type split struct {
	parts  []int
	ignore func(relChange) bool
}

// splitAcross finds how the alternatives in must divide c's values, or nil.
func splitAcross(c *Alternative, must []*Alternative) *split {
	if sp := splitByType(c, must); sp != nil {
		return sp
	}
	return splitByProperty(c, must)
}

func splitByType(c *Alternative, must []*Alternative) *split {
	if len(c.view.Types) == 0 {
		return nil
	}
	var parts []int
	tops := map[*spec.Node]bool{c.view.Node: true}
	for j, m := range must {
		if len(m.view.Types) == 0 {
			return nil
		}
		if typesMeet(c.view, m.view) {
			for _, k := range parts {
				if typesMeet(must[k].view, m.view) {
					return nil
				}
			}
			parts = append(parts, j)
			tops[m.view.Node] = true
		}
	}
	for _, t := range c.view.Types {
		found := false
		for _, j := range parts {
			found = found || must[j].view.May(t)
		}
		if !found || len(parts) < 2 {
			return nil
		}
	}
	return &split{parts: parts, ignore: func(rc relChange) bool {
		switch rc.rule.ID {
		case "request-type-changed", "response-type-changed", "type-changed-compatibly":
			return tops[rc.origin]
		}
		return false
	}}
}

func splitByProperty(c *Alternative, must []*Alternative) *split {
	vs := c.view.vs
	for _, prop := range c.view.Properties {
		cv := vs.view(c.view.doc, prop.Node)
		values, ok := enumValues(cv, false)
		if !ok {
			continue
		}
		origins := map[*spec.Node]bool{cv.Node: true}
		var parts []int
		var seen []string
		fits := true
		for j, m := range must {
			mp := m.view.Property(prop.Name)
			_, req := m.view.Required[prop.Name]
			if mp == nil || !req {
				fits = false
				break
			}
			mv := vs.view(m.view.doc, mp.Node)
			mvals, ok := enumValues(mv, false)
			if !ok {
				fits = false
				break
			}
			for _, v := range mvals {
				if contains(seen, v) {
					fits = false
				}
			}
			seen = append(seen, mvals...)
			origins[mv.Node] = true
			if len(missing(values, mvals)) < len(values) {
				parts = append(parts, j)
			}
		}
		if !fits || len(parts) < 2 || len(missing(values, seen)) > 0 {
			continue
		}
		// Properties that moved to another part are not gone.
		elsewhere := map[string]bool{}
		tops := map[*spec.Node]bool{c.view.Node: true}
		for _, j := range parts {
			tops[must[j].view.Node] = true
			for _, p := range must[j].view.Properties {
				elsewhere[p.Name] = true
			}
		}
		return &split{parts: parts, ignore: func(rc relChange) bool {
			switch rc.rule.ID {
			case "request-enum-narrowed", "response-enum-widened":
				return origins[rc.origin]
			case "request-property-removed", "response-property-added":
				return tops[rc.origin] && len(rc.rel) > 0 && elsewhere[segText(rc.rel[len(rc.rel)-1])]
			}
			return false
		}}
	}
	return nil
}

func segText(seg any) string {
	if s, ok := seg.(string); ok {
		return s
	}
	return ""
}

// pairAlternatives pairs the branches of b and r: equal schemas first,
// then alternatives of the same name ($ref or title), then an alternative
// that accepts all of the other's values, then (for unnamed alternatives,
// and for a side without alternatives) the closest one of a common type.
func (s *schemaDiffer) pairAlternatives(b, r *SchemaView, dir Direction, text bool) []AlternativePair {
	bs, rs := s.vs.alternatives(b), s.vs.alternatives(r)
	cover, must := bs, rs
	if dir == Response {
		cover, must = rs, bs
	}
	orient := func(c, m *Alternative) (*SchemaView, *SchemaView) {
		if dir == Request {
			return c.view, m.view
		}
		return m.view, c.view
	}
	type score struct{ breaking, warnings int }
	scores := map[[2]int]score{}
	scoreOf := func(i, j int) score {
		if sc, ok := scores[[2]int{i, j}]; ok {
			return sc
		}
		bv, rv := orient(cover[i], must[j])
		br, wa := severity(s.probe(bv, rv, dir, text))
		sc := score{br, wa}
		scores[[2]int{i, j}] = sc
		return sc
	}
	partner := make([]int, len(cover))
	equal := make([]bool, len(cover))
	taken := make([]bool, len(must))
	for i := range partner {
		partner[i] = -1
	}
	for i, c := range cover {
		for j, m := range must {
			if !taken[j] && s.vs.equal(c.view, m.view) {
				partner[i], equal[i], taken[j] = j, true, true
				break
			}
		}
	}
	for i, c := range cover {
		if partner[i] >= 0 || !c.named {
			continue
		}
		for j, m := range must {
			if !taken[j] && m.named && m.Key == c.Key {
				partner[i], taken[j] = j, true
				break
			}
		}
	}
	// An unnamed alternative edited in place keeps its position when the
	// one there is of its kind (a common type, and properties in common
	// if it has any): no probe is needed to tell.
	for i, c := range cover {
		if partner[i] >= 0 || c.named || c.index < 0 {
			continue
		}
		for j, m := range must {
			if !taken[j] && !m.named && m.index == c.index && typesMeet(c.view, m.view) &&
				(len(c.view.Properties) == 0 || sharedProperties(c.view, m.view) > 0) {
				partner[i], taken[j] = j, true
				break
			}
		}
	}
	if len(must) == 1 && must[0].Keyword == "" {
		// The other side is one schema: an unnamed alternative is compared
		// with it; a named one that it does not name needs to be covered.
		for i, c := range cover {
			if partner[i] < 0 && (!c.named || c.Key == must[0].Key || scoreOf(i, 0) == (score{})) {
				partner[i] = 0
			}
		}
	}
	for i := range cover {
		if partner[i] >= 0 {
			continue
		}
		for _, untaken := range []bool{true, false} {
			for j := range must {
				if taken[j] != untaken && scoreOf(i, j) == (score{}) {
					partner[i], taken[j] = j, true
					break
				}
			}
			if partner[i] >= 0 {
				break
			}
		}
	}
	splits := map[int]*split{}
	for i, c := range cover {
		if partner[i] >= 0 || (c.named && c.Keyword != "") || len(must) < 2 {
			continue
		}
		if sp := splitAcross(c, must); sp != nil {
			splits[i] = sp
			continue
		}
		// Else the most alike: most properties in common, then fewest
		// breaking changes and warnings, then the first. An alternative
		// whose properties none of the others share has no partner.
		best, bestShared, bestScore := -1, 0, score{}
		for _, common := range []bool{true, false} {
			for j, m := range must {
				if common != typesMeet(c.view, m.view) {
					continue
				}
				shared := sharedProperties(c.view, m.view)
				if c.Keyword != "" && len(c.view.Properties) > 0 && shared == 0 {
					continue
				}
				sc := scoreOf(i, j)
				better := best < 0 || shared > bestShared ||
					(shared == bestShared && (sc.breaking < bestScore.breaking ||
						(sc.breaking == bestScore.breaking && sc.warnings < bestScore.warnings)))
				if better {
					best, bestShared, bestScore = j, shared, sc
				}
			}
			if best >= 0 || c.Keyword != "" {
				break
			}
		}
		partner[i] = best
	}

	out := make([]AlternativePair, 0, len(cover)+len(must))
	for i, c := range cover {
		if sp := splits[i]; sp != nil {
			for _, j := range sp.parts {
				p := AlternativePair{Base: c, Rev: must[j], ignore: sp.ignore}
				if dir == Response {
					p.Base, p.Rev = must[j], c
				}
				out = append(out, p)
			}
			continue
		}
		p := AlternativePair{}
		var m *Alternative
		if partner[i] >= 0 {
			m = must[partner[i]]
		}
		if dir == Request {
			p.Base, p.Rev = c, m
		} else {
			p.Base, p.Rev = m, c
		}
		if dir == Request && m != nil && r.alts != nil && r.alts.keyword == "oneOf" {
			p.Overlap = s.overlap(b, bs, i, equal[i], must, partner[i], taken, text)
		}
		out = append(out, p)
	}
	return out
}

// overlap finds an alternative of the revision's oneOf, other than the
// partner p of base alternative i, that accepts every value i accepts:
// those values now match two alternatives, which oneOf rejects. An
// ambiguity the base's own oneOf had already is not a change.
func (s *schemaDiffer) overlap(b *SchemaView, bs []*Alternative, i int, unchanged bool, rs []*Alternative, p int, taken []bool, text bool) *Alternative {
	c := bs[i]
	baseOneOf := b.alts != nil && b.alts.keyword == "oneOf"
	for j, m := range rs {
		if j == p || (baseOneOf && unchanged && taken[j] && s.vs.equalToAny(m.view, bs)) || disjoint(c.view, m.view) {
			continue
		}
		if br, wa := severity(s.probe(c.view, m.view, Request, text)); br+wa > 0 {
			continue
		}
		if baseOneOf {
			already := false
			for k, o := range bs {
				if k != i {
					if br, wa := severity(s.probe(c.view, o.view, Request, text)); br+wa == 0 {
						already = true
						break
					}
				}
			}
			if already {
				continue
			}
		}
		return m
	}
	return nil
}

func (vs *viewSet) equalToAny(v *SchemaView, alts []*Alternative) bool {
	for _, a := range alts {
		if vs.equal(v, a.view) {
			return true
		}
	}
	return false
}

// sharedProperties counts the properties two schemas both declare.
func sharedProperties(a, b *SchemaView) int {
	n := 0
	for _, p := range a.Properties {
		if b.Property(p.Name) != nil {
			n++
		}
	}
	return n
}

// typesMeet reports whether two schemas allow a common type.
func typesMeet(a, b *SchemaView) bool {
	if len(a.Types) == 0 || len(b.Types) == 0 {
		return true
	}
	for _, t := range a.Types {
		if b.May(t) {
			return true
		}
	}
	return false
}

// disjoint reports whether no value can be valid against both schemas, as
// far as cheap evidence shows: no common type, no common enum value, or a
// property both require whose enums (a discriminator's values) differ.
func disjoint(a, b *SchemaView) bool {
	if a.False || b.False {
		return true
	}
	if !typesMeet(a, b) && !(a.Nullable && b.Nullable) {
		return true
	}
	if ea, ok := enumValues(a, false); ok {
		if eb, ok := enumValues(b, false); ok && len(missing(ea, eb)) == len(ea) && !(a.Nullable && b.Nullable) {
			return true
		}
	}
	for name := range a.Required {
		if _, req := b.Required[name]; !req {
			continue
		}
		pa, pb := a.Property(name), b.Property(name)
		if pa == nil || pb == nil {
			continue
		}
		va, vb := a.vs.view(a.doc, pa.Node), b.vs.view(b.doc, pb.Node)
		if disjoint(va, vb) {
			return true
		}
	}
	return false
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
