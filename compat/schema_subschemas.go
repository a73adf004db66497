package compat

import (
	"regexp"
	"strconv"

	"github.com/specgate/specgate/spec"
)

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
