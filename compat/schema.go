package compat

import (
	"math"
	"strconv"

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
