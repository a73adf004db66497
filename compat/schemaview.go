package compat

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// This file reads what a schema means, whatever its spelling: a $ref and
// the schema it points to are one schema (with the $ref's sibling keywords
// of OpenAPI 3.1 beside it), allOf members add their keywords, true is {},
// false accepts nothing, and null is one fact however it is written
// (nullable, x-nullable, type: [x, "null"], or a null alternative of
// oneOf/anyOf). The rules compare views, never raw keywords.

// annotations are keywords that describe a value without constraining
// it: no rule reads them, and schemas that differ only in them are equal.
// Swagger 2.0 parameter objects double as their schema, so their own
// fields are here too.
var annotations = map[string]bool{
	"title": true, "description": true, "example": true, "examples": true, "$comment": true,
	"externalDocs": true, "xml": true, "deprecated": true, "discriminator": true,
	"$id": true, "$schema": true, "$anchor": true, "$dynamicAnchor": true, "$defs": true,
	"definitions": true, "$vocabulary": true,
	"name": true, "in": true, "collectionFormat": true, "allowEmptyValue": true,
}

// isAnnotation reports whether keyword k constrains nothing the rules read:
// an annotation, or an extension other than x-nullable and
// x-extensible-enum.
func isAnnotation(k string) bool {
	if strings.HasPrefix(k, "x-") {
		return k != "x-nullable" && k != "x-extensible-enum"
	}
	return annotations[k]
}

// SchemaView is a schema as the rules see it: the keywords of the schema
// and of everything it is made of (allOf members, a $ref's target, a
// single non-null alternative, the alternative a branch chose), each with
// the path where it is written, relative to Node.
type SchemaView struct {
	// Node is where the schema is written: the dereferenced schema, or a
	// $ref with sibling keywords. Paths of the view are relative to it.
	Node *spec.Node
	doc  *spec.Document
	vs   *viewSet
	// name is the last segment of the $ref the schema was first reached
	// through (its component's name), or "".
	name string

	// False is set when the schema accepts no value (false, or an allOf
	// with a false member).
	False bool
	// Types are the declared types without "null" (the intersection of
	// every type keyword met); empty when any type is allowed.
	Types []string
	// Nullable is set when null is declared: type null, nullable: true
	// (OpenAPI 3.0), x-nullable: true (Swagger 2.0), or a null alternative
	// of oneOf or anyOf.
	Nullable bool
	// nullAt is where null is declared, when it is.
	nullAt spec.Path

	// Properties in source order, own ones first, then those of allOf
	// members, each once.
	Properties []*Property
	props      map[string]*Property
	// Required maps each required name to the path of its entry in a
	// required list.
	Required map[string]spec.Path

	keywords map[string][]Occurrence
	// alts is the first group of oneOf/anyOf alternatives that this view
	// has not chosen from: a view with one is compared branch by branch.
	alts *altGroup
	// expand holds the alternative this view chose in each group (by the
	// group's list node): a branch of a schema with alternatives.
	expand map[*spec.Node]int
}

// Occurrence is one appearance of a keyword: its value as written, and
// the path of the keyword relative to the view.
type Occurrence struct {
	Value *spec.Node
	Path  spec.Path
}

type altGroup struct {
	keyword string // oneOf or anyOf
	list    *spec.Node
	path    spec.Path // of the keyword
	items   []int     // the indices of the alternatives that are not null
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
// writeOnly) to true.
func (v *SchemaView) Flag(p *Property, keyword string) bool {
	return v.vs.view(v.doc, p.Node).flag(keyword)
}

func (v *SchemaView) flag(keyword string) bool {
	for _, o := range v.keywords[keyword] {
		if o.Value.IsTrue() {
			return true
		}
	}
	return false
}

// NullAt returns where the schema declares null (a type list, nullable,
// x-nullable, a null alternative), or nil.
func (v *SchemaView) NullAt() spec.Path { return v.nullAt }

// Keyword returns the first value of keyword and the path to it, or nil.
func (v *SchemaView) Keyword(keyword string) (*spec.Node, spec.Path) {
	if occ := v.keywords[keyword]; len(occ) > 0 {
		return occ[0].Value, occ[0].Path
	}
	return nil, nil
}

// Occurrences lists every value of keyword, own first.
func (v *SchemaView) Occurrences(keyword string) []Occurrence { return v.keywords[keyword] }

// Str returns the first string value of keyword, or "".
func (v *SchemaView) Str(keyword string) string {
	n, _ := v.Keyword(keyword)
	return n.Str()
}

// At returns the path of the first of keywords the view has, or nil (the
// schema itself).
func (v *SchemaView) At(keywords ...string) spec.Path {
	for _, k := range keywords {
		if _, p := v.Keyword(k); p != nil {
			return p
		}
	}
	return nil
}

// acceptsAll reports whether the schema constrains nothing (true, {}).
func (v *SchemaView) acceptsAll() bool {
	return !v.False && v.alts == nil && len(v.keywords) == 0 && len(v.Properties) == 0 && len(v.Required) == 0 && len(v.Types) == 0 && !v.Nullable
}

// May reports whether a value of type t may be valid: the schema is not
// false and declares no type, or declares t (integers are numbers).
func (v *SchemaView) May(t string) bool {
	if v.False {
		return false
	}
	if len(v.Types) == 0 {
		return true
	}
	for _, have := range v.Types {
		if have == t || (t == "integer" && have == "number") || (t == "number" && have == "integer") {
			return true
		}
	}
	return false
}

// viewKey identifies a view: its node and the alternatives it chose.
type viewKey struct {
	n   *spec.Node
	exp string
}

// viewSet builds each view once, and holds the nodes that stand for
// keywords a schema leaves out (an absent additionalProperties is true).
type viewSet struct {
	views map[viewKey]*SchemaView
	synth map[synthKey]*spec.Node
	fps   map[*SchemaView]*fingerprint
	// regexps holds compiled patternProperties (nil for those Go cannot
	// compile).
	regexps map[string]*regexp.Regexp
}

type synthKey struct {
	parent *spec.Node
	slot   string
}

func newViewSet() *viewSet {
	return &viewSet{views: map[viewKey]*SchemaView{}, synth: map[synthKey]*spec.Node{}, fps: map[*SchemaView]*fingerprint{},
		regexps: map[string]*regexp.Regexp{}}
}

// view returns the view of the schema n (as written) in doc.
func (vs *viewSet) view(doc *spec.Document, n *spec.Node) *SchemaView {
	name := refName(n)
	if !refWithSiblings(doc, n) {
		n = doc.Deref(n)
	}
	v := vs.build(doc, n, nil)
	if v.name == "" {
		v.name = name
	}
	return v
}

// refName is the last segment of n's $ref, or "".
func refName(n *spec.Node) string {
	ref := n.Ref()
	return ref[strings.LastIndex(ref, "/")+1:]
}

// branch returns the view of v that chose alternative i of its first
// group.
func (vs *viewSet) branch(v *SchemaView, i int) *SchemaView {
	exp := make(map[*spec.Node]int, len(v.expand)+1)
	for k, x := range v.expand {
		exp[k] = x
	}
	exp[v.alts.list] = i
	return vs.build(v.doc, v.Node, exp)
}

// implied returns the node that stands for a keyword the schema at parent
// leaves out, in slot: a fresh node per place, so that a change found
// against it is located there.
func (vs *viewSet) implied(parent *spec.Node, slot string, stringsOnly bool) *spec.Node {
	k := synthKey{parent, slot}
	if n := vs.synth[k]; n != nil {
		return n
	}
	n := &spec.Node{Kind: spec.Object}
	if stringsOnly {
		n.Fields = []spec.Field{{Key: "type", Value: &spec.Node{Kind: spec.String, Value: "string"}}}
	}
	vs.synth[k] = n
	return n
}

func expandKey(exp map[*spec.Node]int) string {
	if len(exp) == 0 {
		return ""
	}
	parts := make([]string, 0, len(exp))
	for n, i := range exp {
		parts = append(parts, fmt.Sprintf("%p:%d", n, i))
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// refWithSiblings reports whether n is a $ref with keywords beside it that
// constrain the value: OpenAPI 3.1 and later apply both (JSON Schema
// 2020-12); earlier versions ignore a $ref's siblings.
func refWithSiblings(doc *spec.Document, n *spec.Node) bool {
	if n.Ref() == "" || !siblingsApply(doc) {
		return false
	}
	for _, f := range n.Fields {
		if f.Key != "$ref" && !isAnnotation(f.Key) {
			return true
		}
	}
	return false
}

// siblingsApply reports whether doc's schemas apply a $ref's sibling
// keywords.
func siblingsApply(doc *spec.Document) bool {
	return doc.Format == spec.OpenAPI && (doc.Major > 3 || doc.Minor >= 1)
}

// resolved reports whether the $ref n leads to a schema.
func resolved(doc *spec.Document, n *spec.Node) bool {
	t := doc.Deref(n)
	return t != n && t.Ref() == ""
}

func (vs *viewSet) build(doc *spec.Document, n *spec.Node, exp map[*spec.Node]int) *SchemaView {
	key := viewKey{n, expandKey(exp)}
	if v := vs.views[key]; v != nil {
		return v
	}
	v := &SchemaView{Node: n, doc: doc, vs: vs, props: map[string]*Property{}, Required: map[string]spec.Path{},
		keywords: map[string][]Occurrence{}, expand: exp}
	vs.views[key] = v
	g := gatherer{v: v, seen: map[*spec.Node]bool{}}
	g.gather(n, nil, true)
	v.Nullable = g.nullBranch || g.sameValueNull || (!g.sameValueTyped && g.memberNull)
	if !g.typed && !v.Nullable {
		// Without a type keyword, an enum or const that lists null allows it.
		for _, kw := range []string{"enum", "const"} {
			for _, o := range v.keywords[kw] {
				if o.Value.Kind == spec.Null || (o.Value.Kind == spec.Array && hasNull(o.Value.Items)) {
					v.Nullable = true
					g.sawNull(o.Path)
				}
			}
		}
	}
	v.nullAt = g.nullAt
	v.Types = g.types()
	if len(v.Types) == 0 && !g.typed {
		v.Types = impliedTypes(v)
	}
	return v
}

// gatherer collects the keywords of a view.
type gatherer struct {
	v    *SchemaView
	seen map[*spec.Node]bool
	// typeSets are the non-null types each type keyword allows.
	typeSets [][]string
	typed    bool
	// sameValueNull: a level that is the value itself (not an allOf
	// member) allows null; sameValueTyped: such a level declares a type.
	sameValueNull, sameValueTyped bool
	// memberNull: an allOf member allows null through its type.
	memberNull bool
	nullBranch bool
	nullAt     spec.Path
}

// sawNull notes where null is declared, the first place met.
func (g *gatherer) sawNull(at spec.Path) {
	if g.nullAt == nil {
		g.nullAt = at
	}
}

// gather reads the schema n, written at path at of the view. sameValue is
// false inside allOf members: OpenAPI 3.0's `nullable: true` beside an
// allOf of a $ref makes the value nullable although the member's type
// does not say so.
func (g *gatherer) gather(n *spec.Node, at spec.Path, sameValue bool) {
	v := g.v
	if n == nil {
		return
	}
	if n.Ref() != "" && resolved(v.doc, n) {
		if g.seen[n] {
			return
		}
		g.seen[n] = true
		if siblingsApply(v.doc) {
			g.fields(n, at, sameValue)
		}
		g.gather(v.doc.Deref(n), at, sameValue)
		return
	}
	switch n.Kind {
	case spec.Bool:
		if !n.IsTrue() {
			v.False = true
		}
		return
	case spec.Object:
	default:
		return
	}
	if g.seen[n] {
		return
	}
	g.seen[n] = true
	g.fields(n, at, sameValue)
}

func (g *gatherer) fields(n *spec.Node, at spec.Path, sameValue bool) {
	v := g.v
	for _, f := range n.Fields {
		k, val := f.Key, f.Value
		switch {
		case k == "$ref" && resolved(v.doc, n):
			// gather follows it
		case k == "allOf":
			if val.Kind == spec.Array {
				for i, it := range val.Items {
					g.gather(it, join(at, spec.Path{"allOf", i}), false)
				}
			}
		case k == "oneOf" || k == "anyOf":
			g.group(k, val, join(at, spec.Path{k}), sameValue)
		case k == "properties":
			if val.Kind == spec.Object {
				for _, p := range val.Fields {
					if v.props[p.Key] == nil {
						prop := &Property{Name: p.Key, Node: p.Value, Path: join(at, spec.Path{"properties", p.Key})}
						v.props[p.Key] = prop
						v.Properties = append(v.Properties, prop)
					}
				}
			}
			v.keywords[k] = append(v.keywords[k], Occurrence{val, join(at, spec.Path{k})})
		case k == "required":
			if val.Kind == spec.Array {
				for i, it := range val.Items {
					if _, dup := v.Required[it.Value]; it.Kind == spec.String && !dup {
						v.Required[it.Value] = join(at, spec.Path{"required", i})
					}
				}
			}
		case k == "type":
			set, null := typeSet(val)
			g.typed = true
			g.typeSets = append(g.typeSets, set)
			if sameValue {
				g.sameValueTyped = true
				g.sameValueNull = g.sameValueNull || null
				if null {
					g.sawNull(join(at, spec.Path{k}))
				}
			} else {
				g.memberNull = g.memberNull || null
			}
			v.keywords[k] = append(v.keywords[k], Occurrence{val, join(at, spec.Path{k})})
		case k == "nullable" || k == "x-nullable":
			if val.IsTrue() && sameValue {
				g.sameValueNull = true
				g.sawNull(join(at, spec.Path{k}))
			}
			v.keywords[k] = append(v.keywords[k], Occurrence{val, join(at, spec.Path{k})})
		case k == "not" && acceptsAnything(v.doc, val):
			// not: {} is the usual spelling of false.
			v.False = true
		case isAnnotation(k):
		default:
			v.keywords[k] = append(v.keywords[k], Occurrence{val, join(at, spec.Path{k})})
		}
	}
}

// group reads a oneOf or anyOf: null alternatives make the value
// nullable, a single other alternative is the value itself, and several
// are compared branch by branch (the first group; or the alternative this
// view chose).
func (g *gatherer) group(kw string, list *spec.Node, at spec.Path, sameValue bool) {
	v := g.v
	if list.Kind != spec.Array {
		return
	}
	var others []int
	for i, it := range list.Items {
		if isNullSchema(v.doc, it) {
			g.nullBranch = true
			g.sawNull(join(at, spec.Path{i}))
		} else {
			others = append(others, i)
		}
	}
	switch {
	case len(others) == 0:
	case len(others) == 1:
		if sameValue && v.name == "" {
			v.name = refName(list.Items[others[0]])
		}
		g.gather(list.Items[others[0]], join(at, spec.Path{others[0]}), sameValue)
	default:
		if i, ok := v.expand[list]; ok {
			g.gather(list.Items[i], join(at, spec.Path{i}), sameValue)
		} else if v.alts == nil {
			v.alts = &altGroup{keyword: kw, list: list, path: at, items: others}
		} else {
			v.keywords[kw] = append(v.keywords[kw], Occurrence{list, at})
		}
	}
}

// acceptsAnything reports whether a schema as written constrains nothing:
// true, or an object of annotations only.
func acceptsAnything(doc *spec.Document, n *spec.Node) bool {
	n = doc.Deref(n)
	switch n.Kind {
	case spec.Bool:
		return n.IsTrue()
	case spec.Object:
		for _, f := range n.Fields {
			if !isAnnotation(f.Key) {
				return false
			}
		}
		return true
	}
	return false
}

// isNullSchema reports whether a schema accepts only null.
func isNullSchema(doc *spec.Document, n *spec.Node) bool {
	n = doc.Deref(n)
	if n.Kind != spec.Object {
		return false
	}
	if t := n.Get("type"); t != nil {
		set, null := typeSet(t)
		return null && len(set) == 0
	}
	if c := n.Get("const"); c != nil {
		return c.Kind == spec.Null
	}
	if e := n.Get("enum"); e != nil && e.Kind == spec.Array && len(e.Items) > 0 {
		for _, it := range e.Items {
			if it.Kind != spec.Null {
				return false
			}
		}
		return true
	}
	return false
}

// typeSet reads a type keyword: its types other than null, and whether
// null is one.
func typeSet(t *spec.Node) (set []string, null bool) {
	add := func(s string) {
		if s == "null" {
			null = true
		} else if s != "" {
			set = append(set, s)
		}
	}
	switch t.Kind {
	case spec.String:
		add(t.Value)
	case spec.Array:
		for _, it := range t.Items {
			add(it.Str())
		}
	}
	return set, null
}

// types intersects the type sets: every type keyword applies. An integer
// is a number, so number and integer meet in integer. When no type
// satisfies them all, the first set stays: the rules compare it rather
// than read "no types" as "any type".
func (g *gatherer) types() []string {
	var out, first []string
	for _, set := range g.typeSets {
		switch {
		case len(set) == 0:
		case first == nil:
			first = set
			out = append([]string(nil), set...)
		default:
			var next []string
			for _, t := range out {
				for _, s := range set {
					switch {
					case t == s:
						next = appendNew(next, t)
					case t == "integer" && s == "number", t == "number" && s == "integer":
						next = appendNew(next, "integer")
					}
				}
			}
			if len(next) == 0 {
				return append([]string(nil), first...)
			}
			out = next
		}
	}
	return out
}

// impliedTypes reads the type a schema without a type keyword is written
// for: properties mean an object, items an array. Many specifications
// leave type: object out, and adding it later changes nothing.
func impliedTypes(v *SchemaView) []string {
	has := func(ks ...string) bool {
		for _, k := range ks {
			if len(v.keywords[k]) > 0 {
				return true
			}
		}
		return false
	}
	switch {
	case len(v.Properties) > 0 || has("additionalProperties", "patternProperties"):
		return []string{"object"}
	case has("items", "prefixItems"):
		return []string{"array"}
	}
	// An enum or const allows the types of its values.
	var out []string
	for _, kw := range []string{"enum", "const"} {
		for _, o := range v.keywords[kw] {
			vals := []*spec.Node{o.Value}
			if kw == "enum" {
				if o.Value.Kind != spec.Array {
					continue
				}
				vals = o.Value.Items
			}
			for _, val := range vals {
				if t := typeOfValue(val); t != "" {
					out = appendNew(out, t)
				}
			}
		}
		if out != nil {
			return out
		}
	}
	return nil
}

func hasNull(items []*spec.Node) bool {
	for _, it := range items {
		if it.Kind == spec.Null {
			return true
		}
	}
	return false
}

// typeOfValue names the JSON Schema type of a value; "" for null.
func typeOfValue(n *spec.Node) string {
	switch n.Kind {
	case spec.String:
		return "string"
	case spec.Bool:
		return "boolean"
	case spec.Number:
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == float64(int64(f)) {
			return "integer"
		}
		return "number"
	case spec.Object:
		return "object"
	case spec.Array:
		return "array"
	}
	return ""
}

// Alternative is one schema of a oneOf or anyOf, or the whole of a schema
// without alternatives compared with one.
type Alternative struct {
	Keyword string // oneOf or anyOf; "" for a schema without alternatives
	Key     string // the $ref's last segment, else the title, else "#index"
	Node    *spec.Node
	Path    spec.Path // relative to the schema that has the alternatives
	named   bool
	view    *SchemaView // the schema's keywords with this alternative's
	index   int
}

// alternatives lists the branches of v: one per alternative of its first
// group, or v itself.
func (vs *viewSet) alternatives(v *SchemaView) []*Alternative {
	if v.alts == nil {
		return []*Alternative{{Key: v.name, named: v.name != "", view: v, index: -1}}
	}
	out := make([]*Alternative, 0, len(v.alts.items))
	for _, i := range v.alts.items {
		it := v.alts.list.Items[i]
		a := &Alternative{Keyword: v.alts.keyword, Key: "#" + strconv.Itoa(i), Node: it, Path: join(v.alts.path, spec.Path{i}),
			view: vs.branch(v, i), index: i}
		if name := refName(it); name != "" {
			a.Key, a.named = name, true
		} else if t := v.doc.Deref(it).GetStr("title"); t != "" {
			a.Key, a.named = t, true
		}
		out = append(out, a)
	}
	return out
}
