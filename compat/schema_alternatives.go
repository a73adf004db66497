package compat

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

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
				if slices.Contains(seen, v) {
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
