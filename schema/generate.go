package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/specgate/specgate/spec"
)

// Generator draws generated values. It is deterministic: the same seed and
// the same sequence of calls give the same values. It is not safe for
// concurrent use; make one per goroutine (or per request) from a seed.
type Generator struct {
	rng  *rand.Rand
	opts GeneratorOptions
}

// GeneratorOptions tune a Generator.
type GeneratorOptions struct {
	// PreferGenerated builds values from the schema's keywords even where
	// the schema has a valid example, examples or default (the mock's
	// "Prefer: dynamic=true").
	PreferGenerated bool
	// MaxItems caps the length of generated arrays where maxItems allows
	// more (never below minItems); 0 means 2.
	MaxItems int
	// MaxValues bounds the size of one generated value: once it holds this
	// many values, optional properties are left out and arrays are as
	// short as minItems allows; 0 means 500.
	MaxValues int
}

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	return NewGeneratorWith(seed, GeneratorOptions{})
}

// NewGeneratorWith returns a generator seeded with seed, tuned by opts.
func NewGeneratorWith(seed uint64, opts GeneratorOptions) *Generator {
	if opts.MaxItems <= 0 {
		opts.MaxItems = 2
	}
	if opts.MaxValues <= 0 {
		opts.MaxValues = 500
	}
	return &Generator{rng: rand.New(rand.NewPCG(seed, 0x5eed5eed)), opts: opts}
}

const (
	// generateAttempts is how many whole values Generate draws before it
	// gives up on a schema.
	generateAttempts = 8
	// choiceAttempts is how many times a value with oneOf, anyOf, not or
	// if is drawn again when it fails them (more for a oneOf or anyOf of
	// more branches, up to maxChoiceAttempts).
	choiceAttempts    = 6
	maxChoiceAttempts = 24
	// maxDepth cuts values whose required properties nest without end.
	maxDepth = 48
)

// generation is the state of one Generate call.
type generation struct {
	g         *Generator
	set       *Set
	dir       Direction
	left      int                        // values the budget still allows
	ancestors map[*jsonschema.Schema]int // schemas of the values being built, to cut recursion
	name      string                     // the property whose value is being built, for realistic text
}

func (g *Generator) generate(sc *Schema, js *jsonschema.Schema, dir Direction) (any, error) {
	var last any
	for attempt := 0; attempt < generateAttempts; attempt++ {
		gn := &generation{g: g, set: sc.set, dir: dir, left: g.opts.MaxValues, ancestors: map[*jsonschema.Schema]int{}}
		v, ok := gn.value([]*jsonschema.Schema{js}, 0, nil)
		if !ok {
			continue
		}
		if js.Validate(v) == nil {
			return v, nil
		}
		last = v
	}
	loc := sc.Location()
	msg := "cannot generate a value valid against the schema"
	if last != nil {
		if ps := sc.Validate(last, dir); len(ps) > 0 {
			msg += fmt.Sprintf(" (%s: %s)", JSONPath(ps[0].Path), ps[0].Message)
		}
	} else {
		msg += " (its keywords contradict each other)"
	}
	name := ""
	if loc.File != nil {
		name = loc.File.Name
	}
	return nil, &spec.Error{File: name, Pos: loc.Range.Start, Pointer: loc.Pointer, Msg: msg}
}

// A view is the conjunction of schemas that one value must satisfy, with
// their keywords merged: allOf members and $ref targets are in it, each
// oneOf and anyOf is a choice still to make.
type view struct {
	roots   []*jsonschema.Schema // the schemas the view was made of
	schemas []*jsonschema.Schema // every schema that applies
	seen    map[*jsonschema.Schema]bool
	never   bool // a false schema applies

	choices []choice
	chosen  []*jsonschema.Schema // the branch taken of each choice, once made
	nots    []*jsonschema.Schema
	conds   []*jsonschema.Schema // schemas with if
	bases   []*discriminatorExt  // discriminators without oneOf/anyOf
	fixed   map[string]any       // property values a discriminator chose

	types  jsonType // allowed types; allTypes when unconstrained
	consts []any
	enums  [][]any

	min, max       *big.Rat
	exMin, exMax   bool
	fmtMin, fmtMax *big.Rat // the range of an int32 or int64 format
	multipleOf     *big.Rat
	formats        []string
	minLen, maxLen int // maxLen < 0: unbounded
	patterns       []jsonschema.Regexp

	minItems, maxItems int
	unique             bool
	prefix             [][]*jsonschema.Schema
	items              []*jsonschema.Schema
	noMoreItems        bool
	contains           []*jsonschema.Schema
	minContains        int

	props         map[string][]*jsonschema.Schema
	required      map[string]bool
	minProps      int
	maxProps      int
	propertyNames []*jsonschema.Schema
	readOnly      bool
	writeOnly     bool
}

type jsonType uint8

const (
	tNull jsonType = 1 << iota
	tBoolean
	tInteger
	tNumber // not an integer
	tString
	tArray
	tObject
	allTypes = tNull | tBoolean | tInteger | tNumber | tString | tArray | tObject
)

var typeNames = map[string]jsonType{
	"null": tNull, "boolean": tBoolean, "integer": tInteger, "number": tNumber | tInteger,
	"string": tString, "array": tArray, "object": tObject,
}

type choice struct {
	owner    *jsonschema.Schema
	branches []*jsonschema.Schema
	disc     *discriminatorExt // nil for a plain oneOf/anyOf
}

// newView flattens schemas into a view.
func newView(roots []*jsonschema.Schema) *view {
	v := &view{
		roots: roots, seen: map[*jsonschema.Schema]bool{}, types: allTypes,
		maxLen: -1, maxItems: -1, maxProps: -1, props: map[string][]*jsonschema.Schema{}, required: map[string]bool{},
	}
	for _, s := range roots {
		v.add(s)
	}
	return v
}

// add puts a schema, and those it applies in place (allOf, $ref), into
// the view.
func (v *view) add(s *jsonschema.Schema) {
	if s == nil || v.seen[s] {
		return
	}
	v.seen[s] = true
	if s.Bool != nil {
		if !*s.Bool {
			v.never = true
		}
		return
	}
	v.schemas = append(v.schemas, s)
	v.merge(s)
	v.add(s.Ref)
	v.add(s.RecursiveRef)
	if s.DynamicRef != nil {
		v.add(s.DynamicRef.Ref)
	}
	for _, m := range s.AllOf {
		v.add(m)
	}
	if len(s.OneOf) > 0 {
		v.choices = append(v.choices, choice{owner: s, branches: s.OneOf})
	}
	if len(s.AnyOf) > 0 {
		v.choices = append(v.choices, choice{owner: s, branches: s.AnyOf})
	}
	if s.Not != nil {
		v.nots = append(v.nots, s.Not)
		if s.Not.Types != nil {
			// A value of another type fails the not schema.
			for _, name := range s.Not.Types.ToStrings() {
				if name != "number" {
					v.types &^= typeNames[name]
				}
			}
		}
	}
	if s.If != nil {
		v.conds = append(v.conds, s)
	}
	for _, ext := range s.Extensions {
		switch e := ext.(type) {
		case *nullableExt:
			// A generated value is not null where another will do.
			v.add(e.schema)
		case *discriminatorExt:
			if e.of != "" {
				v.choices = append(v.choices, choice{owner: s, branches: e.branches, disc: e})
			} else {
				v.bases = append(v.bases, e)
			}
		}
	}
}

// merge adds the keywords of one schema to the view.
func (v *view) merge(s *jsonschema.Schema) {
	if s.Types != nil {
		var t jsonType
		for _, name := range s.Types.ToStrings() {
			t |= typeNames[name]
		}
		v.types &= t
	}
	if s.Const != nil {
		v.consts = append(v.consts, *s.Const)
	}
	if s.Enum != nil {
		v.enums = append(v.enums, s.Enum.Values)
	}
	if s.Format != nil {
		v.formats = append(v.formats, s.Format.Name)
		switch s.Format.Name {
		case "int32":
			v.fmtMin, v.fmtMax = big.NewRat(-1<<31, 1), big.NewRat(1<<31-1, 1)
		case "int64":
			v.fmtMin, v.fmtMax = big.NewRat(-1<<63, 1), big.NewRat(1<<63-1, 1)
		}
	}
	if s.Minimum != nil {
		v.lower(s.Minimum, false)
	}
	if s.ExclusiveMinimum != nil {
		v.lower(s.ExclusiveMinimum, true)
	}
	if s.Maximum != nil {
		v.upper(s.Maximum, false)
	}
	if s.ExclusiveMaximum != nil {
		v.upper(s.ExclusiveMaximum, true)
	}
	if s.MultipleOf != nil {
		v.multipleOf = lcm(v.multipleOf, s.MultipleOf)
	}
	if s.MinLength != nil {
		v.minLen = max(v.minLen, *s.MinLength)
	}
	if s.MaxLength != nil {
		v.maxLen = minBound(v.maxLen, *s.MaxLength)
	}
	if s.Pattern != nil {
		v.patterns = append(v.patterns, s.Pattern)
	}
	if s.MinItems != nil {
		v.minItems = max(v.minItems, *s.MinItems)
	}
	if s.MaxItems != nil {
		v.maxItems = minBound(v.maxItems, *s.MaxItems)
	}
	v.unique = v.unique || s.UniqueItems
	switch items := s.Items.(type) {
	case *jsonschema.Schema:
		v.items = append(v.items, items)
	case []*jsonschema.Schema:
		v.addPrefix(items)
		switch extra := s.AdditionalItems.(type) {
		case bool:
			if !extra {
				v.noMoreItems = true
			}
		case *jsonschema.Schema:
			v.items = append(v.items, extra)
		}
	}
	v.addPrefix(s.PrefixItems)
	if s.Items2020 != nil {
		v.items = append(v.items, s.Items2020)
	}
	if s.Contains != nil {
		v.contains = append(v.contains, s.Contains)
		n := 1
		if s.MinContains != nil {
			n = *s.MinContains
		}
		v.minContains = max(v.minContains, n)
	}
	for name, p := range s.Properties {
		v.props[name] = append(v.props[name], p)
	}
	for _, name := range s.Required {
		v.required[name] = true
	}
	if s.MinProperties != nil {
		v.minProps = max(v.minProps, *s.MinProperties)
	}
	if s.MaxProperties != nil {
		v.maxProps = minBound(v.maxProps, *s.MaxProperties)
	}
	if s.PropertyNames != nil {
		v.propertyNames = append(v.propertyNames, s.PropertyNames)
	}
	v.readOnly = v.readOnly || s.ReadOnly
	v.writeOnly = v.writeOnly || s.WriteOnly
}

func (v *view) addPrefix(items []*jsonschema.Schema) {
	for i, it := range items {
		if i >= len(v.prefix) {
			v.prefix = append(v.prefix, nil)
		}
		v.prefix[i] = append(v.prefix[i], it)
	}
}

func minBound(cur, n int) int {
	if cur < 0 || n < cur {
		return n
	}
	return cur
}

func (v *view) lower(r *big.Rat, exclusive bool) {
	if c := cmpRat(r, v.min); v.min == nil || c > 0 || c == 0 && exclusive {
		v.min, v.exMin = r, exclusive
	}
}

func (v *view) upper(r *big.Rat, exclusive bool) {
	if c := cmpRat(r, v.max); v.max == nil || c < 0 || c == 0 && exclusive {
		v.max, v.exMax = r, exclusive
	}
}

func cmpRat(a, b *big.Rat) int {
	if b == nil {
		return 0
	}
	return a.Cmp(b)
}

// lcm is the least common multiple of two positive rationals (a nil one
// is absent).
func lcm(a, b *big.Rat) *big.Rat {
	if a == nil {
		return b
	}
	// lcm(p/q, r/s) = lcm(p, r) / gcd(q, s)
	p, q, r, s := a.Num(), a.Denom(), b.Num(), b.Denom()
	g := new(big.Int).GCD(nil, nil, p, r)
	l := new(big.Int).Mul(p, r)
	l.Quo(l, g)
	d := new(big.Int).GCD(nil, nil, q, s)
	return new(big.Rat).SetFrac(l, d)
}

// fits reports whether x satisfies every schema of the view.
func (v *view) fits(x any) bool {
	for _, s := range v.schemas {
		if s.Validate(x) != nil {
			return false
		}
	}
	return true
}

// fitsRoots reports whether x satisfies the schemas the view was made of.
func (v *view) fitsRoots(x any) bool {
	for _, s := range v.roots {
		if s.Validate(x) != nil {
			return false
		}
	}
	return true
}

// value generates a value satisfying every schema of list; prefer, when
// not nil, is tried first (a discriminator value).
func (gn *generation) value(list []*jsonschema.Schema, depth int, prefer any) (any, bool) {
	name := gn.name
	gn.name = ""
	if depth > maxDepth {
		return nil, false
	}
	gn.left--
	v := newView(list)
	if v.never {
		return nil, false
	}
	if prefer != nil && v.fitsRoots(prefer) {
		return prefer, true
	}
	if !gn.g.opts.PreferGenerated {
		if x, ok := gn.example(v); ok {
			return x, true
		}
	}
	if len(v.consts) > 0 || len(v.enums) > 0 {
		// The values are listed: one that every schema takes, whatever
		// oneOf or anyOf branch it falls in.
		return gn.listed(v)
	}
	for _, s := range v.schemas {
		gn.ancestors[s]++
	}
	defer func() {
		for _, s := range v.schemas {
			gn.ancestors[s]--
		}
	}()
	if len(v.choices) == 0 && len(v.nots) == 0 && len(v.conds) == 0 {
		gn.name = name
		return gn.build(v, depth, 0)
	}
	var last any
	ok := false
	attempts := choiceAttempts
	for _, c := range v.choices {
		attempts = max(attempts, min(len(c.branches), maxChoiceAttempts))
	}
	offset := gn.g.rng.IntN(1 << 20)
	// A branch of an anyOf taken is the anyOf met: only a oneOf (which
	// other branches may meet too), not or if need the value checked here;
	// Generate checks the whole value in the end.
	check := len(v.nots) > 0 || len(v.conds) > 0
	for _, c := range v.choices {
		check = check || len(c.owner.OneOf) > 0 || c.disc != nil && c.disc.of == "oneOf"
	}
	for attempt := 0; attempt < attempts; attempt++ {
		w := gn.choose(list, attempt, offset)
		if w == nil {
			continue
		}
		if !gn.g.opts.PreferGenerated {
			// The chosen branches' own examples.
			if x, ok := gn.example(w); ok {
				return x, true
			}
		}
		gn.name = name
		x, built := gn.build(w, depth, attempt)
		if !built {
			continue
		}
		if w2 := gn.conditional(w, x); w2 != nil {
			if y, built := gn.build(w2, depth, attempt); built {
				x = y
			}
		}
		last, ok = x, true
		if !check || v.fitsRoots(x) {
			return x, true
		}
		if gn.separate(w, x) && v.fitsRoots(x) {
			return x, true
		}
	}
	return last, ok
}

// choose makes a view of list with a branch of each oneOf and anyOf
// chosen, and the discriminator values they take.
func (gn *generation) choose(list []*jsonschema.Schema, attempt, offset int) *view {
	w := newView(list)
	w.fixed = map[string]any{}
	for i := 0; i < len(w.choices) && i < 64; i++ {
		c := w.choices[i]
		var b *jsonschema.Schema
		if c.disc != nil {
			// A value that names a branch; a discriminator that names
			// none (inline branches, no mapping) is a plain choice.
			if values := c.disc.values(); len(values) > 0 {
				value := values[gn.g.rng.IntN(len(values))]
				b = c.disc.selected(value)
				w.fixed[c.disc.prop] = value
			}
		}
		if b == nil {
			b = gn.branch(w, c.branches, attempt, offset)
		}
		w.chosen = append(w.chosen, b)
		w.add(b)
	}
	if w.never {
		return nil
	}
	return w
}

// branch picks a branch among those whose types the view still allows,
// those that are not recursive first: successive attempts take
// successive branches from a random offset, so that they try them all.
func (gn *generation) branch(w *view, branches []*jsonschema.Schema, attempt, offset int) *jsonschema.Schema {
	var calm, wild []*jsonschema.Schema
	for _, b := range branches {
		bv := newView([]*jsonschema.Schema{b})
		if bv.never || bv.types&w.types == 0 {
			continue
		}
		recursive := false
		for _, s := range bv.schemas {
			if gn.ancestors[s] > 0 {
				recursive = true
				break
			}
		}
		if recursive {
			wild = append(wild, b)
		} else {
			calm = append(calm, b)
		}
	}
	fit := append(calm, wild...)
	if len(fit) == 0 {
		return branches[(offset+attempt)%len(branches)]
	}
	if len(calm) > 0 && attempt < len(calm) {
		return calm[(offset+attempt)%len(calm)]
	}
	return fit[(offset+attempt)%len(fit)]
}

// separate makes an object that a oneOf's other branches take as well as
// the chosen one fail them: it gives a property that another branch
// declares, and the chosen branch leaves free, a value of a type the other
// branch rejects. (Error objects whose properties are all optional, for
// one, take any object.) It reports whether it changed x.
func (gn *generation) separate(w *view, x any) bool {
	obj, ok := x.(map[string]any)
	if !ok {
		return false
	}
	changed := false
	for i, c := range w.choices {
		if i >= len(w.chosen) || c.disc != nil || len(c.owner.OneOf) == 0 {
			continue
		}
		chosen := newView([]*jsonschema.Schema{w.chosen[i]})
		for _, o := range c.branches {
			if o == w.chosen[i] || o.Validate(obj) != nil {
				continue
			}
			other := newView([]*jsonschema.Schema{o})
			names := make([]string, 0, len(other.props))
			for name := range other.props {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				if _, declared := chosen.props[name]; declared || !gn.allowed(chosen, name) || len(gn.propertySchemas(chosen, name)) > 0 {
					continue
				}
				if bad, ok := rejected(other.props[name]); ok {
					obj[name] = bad
					changed = true
					break
				}
			}
		}
	}
	return changed
}

// rejected returns a simple value that one of the schemas rejects.
func rejected(list []*jsonschema.Schema) (any, bool) {
	for _, x := range []any{json.Number("0"), "x", true, map[string]any{}, []any{}} {
		for _, s := range list {
			if s.Validate(x) != nil {
				return x, true
			}
		}
	}
	return nil, false
}

// conditional returns the view with then or else added as x meets the if
// schemas, or nil when there is none.
func (gn *generation) conditional(w *view, x any) *view {
	if len(w.conds) == 0 {
		return nil
	}
	roots := slices.Clone(w.schemas)
	for _, s := range w.conds {
		if s.If.Validate(x) == nil {
			if s.Then != nil {
				roots = append(roots, s.Then)
			}
		} else if s.Else != nil {
			roots = append(roots, s.Else)
		}
	}
	w2 := newView(roots)
	w2.fixed = w.fixed
	return w2
}

// example returns the first example, examples item or default of the
// view's schemas that is valid for all of them, copied, without the
// properties that do not travel in the generation's direction.
func (gn *generation) example(v *view) (any, bool) {
	for _, s := range v.schemas {
		candidates := slices.Clone(s.Examples)
		if s.Default != nil {
			candidates = append(candidates, *s.Default)
		}
		for _, c := range candidates {
			if !v.fitsRoots(c) {
				continue
			}
			x := deepCopy(c)
			if y := gn.strip(x, v); v.fitsRoots(y) {
				x = y
			}
			return x, true
		}
	}
	return nil, false
}

// strip removes, from a copy of an example, the optional properties that
// do not travel in the generation's direction.
func (gn *generation) strip(x any, v *view) any {
	switch x := x.(type) {
	case map[string]any:
		for name, val := range x {
			ps := v.props[name]
			if len(ps) == 0 {
				continue
			}
			pv := newView(ps)
			if !v.required[name] && gn.skipped(pv) {
				delete(x, name)
				continue
			}
			x[name] = gn.strip(val, pv)
		}
	case []any:
		if len(v.items) > 0 {
			iv := newView(v.items)
			for i := len(v.prefix); i < len(x); i++ {
				x[i] = gn.strip(x[i], iv)
			}
		}
	}
	return x
}

// skipped reports whether a property of this view is left out for the
// direction: readOnly ones from requests, writeOnly ones from responses.
func (gn *generation) skipped(pv *view) bool {
	return gn.dir == Request && pv.readOnly || gn.dir != Request && pv.writeOnly
}

func deepCopy(x any) any {
	switch x := x.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = deepCopy(v)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = deepCopy(v)
		}
		return l
	case float64:
		return json.Number(fmt.Sprint(x))
	}
	return x
}

// listed picks a value among those a const or an enum of the view lists,
// one that the view's schemas take.
func (gn *generation) listed(v *view) (any, bool) {
	candidates := v.consts
	if len(candidates) == 0 {
		candidates = v.enums[0]
	}
	var fit []any
	null := false
	for _, c := range candidates {
		if v.fitsRoots(c) && v.fits(c) {
			if c == nil {
				null = true // taken only when nothing else is
				continue
			}
			fit = append(fit, c)
		}
	}
	if len(fit) == 0 {
		return nil, null
	}
	return deepCopy(fit[gn.g.rng.IntN(len(fit))]), true
}

// build generates a value from the keywords of a view whose choices are
// made. attempt counts the values drawn for the view already: it varies
// which optional properties an object gets (see object).
func (gn *generation) build(v *view, depth, attempt int) (any, bool) {
	name := gn.name
	gn.name = ""
	if v.never {
		return nil, false
	}
	if len(v.consts) > 0 || len(v.enums) > 0 {
		return gn.listed(v)
	}
	switch gn.pickType(v) {
	case tNull:
		return nil, true
	case tBoolean:
		return gn.g.rng.IntN(2) == 1, true
	case tInteger:
		return gn.number(v, true)
	case tNumber:
		return gn.number(v, false)
	case tString:
		return gn.string(v, name)
	case tArray:
		return gn.array(v, depth)
	case tObject:
		return gn.object(v, depth, attempt)
	}
	return nil, false
}

// pickType chooses the type of the value: the one the keywords of the
// view describe, else one the view allows, never null when another will
// do.
func (gn *generation) pickType(v *view) jsonType {
	t := v.types
	if t == 0 {
		return 0
	}
	hints := []struct {
		t  jsonType
		ok bool
	}{
		{tObject, len(v.props) > 0 || len(v.required) > 0 || v.minProps > 0},
		{tArray, len(v.items) > 0 || len(v.prefix) > 0 || v.minItems > 0 || len(v.contains) > 0},
		{tString, len(v.patterns) > 0 || v.minLen > 0 || v.maxLen >= 0 || len(v.formats) > 0 && stringFormats[v.formats[0]]},
		{tInteger, v.multipleOf != nil && v.multipleOf.IsInt() || len(v.formats) > 0 && (v.formats[0] == "int32" || v.formats[0] == "int64")},
		{tNumber, v.min != nil || v.max != nil || v.multipleOf != nil},
	}
	for _, h := range hints {
		if h.ok && t&h.t != 0 {
			if h.t == tNumber && t&tInteger != 0 && t&tNumber == 0 {
				return tInteger
			}
			return h.t
		}
	}
	if t == allTypes {
		return tString
	}
	order := []jsonType{tString, tInteger, tNumber, tBoolean, tObject, tArray, tNull}
	var allowed []jsonType
	for _, o := range order {
		if t&o != 0 {
			allowed = append(allowed, o)
		}
	}
	if len(allowed) > 1 && allowed[len(allowed)-1] == tNull {
		allowed = allowed[:len(allowed)-1]
	}
	return allowed[gn.g.rng.IntN(len(allowed))]
}

// number generates an integer or a number within the view's bounds.
func (gn *generation) number(v *view, integer bool) (any, bool) {
	rng := gn.g.rng
	lo, hi := v.min, v.max
	// A window where bounds leave one open: realistic small numbers.
	const window = 100
	switch {
	case lo == nil && hi == nil:
		lo, hi = big.NewRat(1, 1), big.NewRat(window, 1)
	case lo == nil:
		lo = new(big.Rat).Sub(hi, big.NewRat(window, 1))
		if hi.Sign() > 0 {
			lo = new(big.Rat)
		}
	case hi == nil:
		hi = new(big.Rat).Add(lo, big.NewRat(window, 1))
	}
	if v.fmtMin != nil && lo.Cmp(v.fmtMin) < 0 {
		lo = v.fmtMin
	}
	if v.fmtMax != nil && hi.Cmp(v.fmtMax) > 0 {
		hi = v.fmtMax
	}
	step := v.multipleOf
	if step == nil {
		if integer {
			step = big.NewRat(1, 1)
		} else {
			step = big.NewRat(1, 100)
		}
	} else if integer && !step.IsInt() {
		step = lcm(step, big.NewRat(1, 1))
	}
	// k·step within [lo, hi], exclusive ends moved in.
	kLo := ceilRat(new(big.Rat).Quo(lo, step))
	kHi := floorRat(new(big.Rat).Quo(hi, step))
	if v.exMin && new(big.Rat).Mul(new(big.Rat).SetInt(kLo), step).Cmp(lo) == 0 {
		kLo.Add(kLo, big.NewInt(1))
	}
	if v.exMax && new(big.Rat).Mul(new(big.Rat).SetInt(kHi), step).Cmp(hi) == 0 {
		kHi.Sub(kHi, big.NewInt(1))
	}
	if kLo.Cmp(kHi) > 0 {
		if integer || v.multipleOf != nil {
			return nil, false
		}
		// A range narrower than the step: its middle.
		mid := new(big.Rat).Add(lo, hi)
		mid.Quo(mid, big.NewRat(2, 1))
		return ratNumber(mid), true
	}
	span := new(big.Int).Sub(kHi, kLo)
	k := new(big.Int).Set(kLo)
	if span.IsInt64() && span.Int64() < 1<<62 {
		k.Add(k, big.NewInt(rng.Int64N(span.Int64()+1)))
	} else {
		k.Add(k, big.NewInt(rng.Int64N(1000)))
	}
	x := new(big.Rat).Mul(new(big.Rat).SetInt(k), step)
	return ratNumber(x), true
}

func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func floorRat(r *big.Rat) *big.Int {
	q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q
}

// ratNumber writes an exact rational as a JSON number: exactly where it
// has a finite decimal expansion.
func ratNumber(r *big.Rat) json.Number {
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	if prec, exact := r.FloatPrec(); exact {
		return json.Number(r.FloatString(prec))
	}
	return json.Number(r.FloatString(12))
}

// array generates an array.
func (gn *generation) array(v *view, depth int) (any, bool) {
	if v.maxItems >= 0 && v.minItems > v.maxItems {
		return nil, false
	}
	itemView := func(i int) []*jsonschema.Schema {
		if i < len(v.prefix) {
			return v.prefix[i]
		}
		return v.items
	}
	recursive := gn.recursive(v.items)
	n := v.minItems
	if !recursive && gn.left > 0 {
		hi := max(v.minItems, gn.g.opts.MaxItems)
		if v.maxItems >= 0 {
			hi = min(hi, v.maxItems)
		}
		n = max(v.minItems, min(hi, 1+gn.g.rng.IntN(max(hi, 1))))
	}
	// A tuple has all its items.
	n = max(n, v.minContains, len(v.prefix))
	if v.noMoreItems && n > len(v.prefix) {
		n = max(len(v.prefix), v.minItems)
	}
	if v.maxItems >= 0 {
		n = min(n, v.maxItems)
	}
	out := make([]any, 0, n)
	seen := map[string]bool{}
	for i := 0; len(out) < n && i < n+8; i++ {
		list := itemView(len(out))
		if len(out) < v.minContains && len(v.contains) > 0 {
			list = append(slices.Clone(list), v.contains...)
		}
		x, ok := gn.value(list, depth+1, nil)
		if !ok {
			return nil, false
		}
		if v.unique {
			key := canonical(x)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, x)
	}
	if len(out) < v.minItems {
		return nil, false
	}
	return out, true
}

// canonical is a value's JSON text with keys sorted, to compare values.
func canonical(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// recursive reports whether a value of these schemas would nest a value
// being built.
func (gn *generation) recursive(list []*jsonschema.Schema) bool {
	if len(list) == 0 {
		return false
	}
	for _, s := range newView(list).schemas {
		if gn.ancestors[s] > 0 {
			return true
		}
	}
	return false
}

// object generates an object: its required properties, then (while the
// budget lasts and unless they would recurse) its optional ones, then
// extra properties up to minProperties. A first attempt has every
// optional property, a second none, later ones about half: a oneOf, anyOf
// or not over required lists (exactly one of a and b) takes one of them.
func (gn *generation) object(v *view, depth, attempt int) (any, bool) {
	out := map[string]any{}
	names := make([]string, 0, len(v.props)+len(v.required))
	for name := range v.required {
		names = append(names, name)
	}
	for name := range v.props {
		if !v.required[name] {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if v.required[names[i]] != v.required[names[j]] {
			return v.required[names[i]]
		}
		return names[i] < names[j]
	})
	for _, name := range names {
		required := v.required[name]
		if v.maxProps >= 0 && len(out) >= v.maxProps {
			if required {
				return nil, false
			}
			break
		}
		if !gn.allowed(v, name) {
			if required {
				return nil, false
			}
			continue
		}
		list := gn.propertySchemas(v, name)
		if !required {
			if gn.left <= 0 || depth > 8 || attempt == 1 || attempt > 1 && gn.g.rng.IntN(2) == 0 {
				continue
			}
			pv := newView(list)
			if gn.skipped(pv) || gn.recursive(list) {
				continue
			}
		}
		prefer := v.fixed[name]
		if prefer == nil {
			prefer = gn.subtype(v, name)
		}
		gn.name = name
		x, ok := gn.value(list, depth+1, prefer)
		if !ok {
			if required {
				return nil, false
			}
			continue
		}
		out[name] = x
	}
	for i := 0; len(out) < v.minProps && i < v.minProps+8; i++ {
		name, list, ok := gn.extraProperty(v, i)
		if !ok {
			return nil, false
		}
		if _, dup := out[name]; dup {
			continue
		}
		x, ok := gn.value(list, depth+1, nil)
		if !ok {
			return nil, false
		}
		out[name] = x
	}
	return out, true
}

// propertySchemas lists the schemas a property's value must satisfy: its
// properties entries, the patternProperties it matches, and
// additionalProperties where neither names it.
func (gn *generation) propertySchemas(v *view, name string) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, s := range v.schemas {
		matched := false
		if p, ok := s.Properties[name]; ok {
			out = append(out, p)
			matched = true
		}
		for re, p := range s.PatternProperties {
			if re.MatchString(name) {
				out = append(out, p)
				matched = true
			}
		}
		if !matched {
			if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// allowed reports whether every schema of the view admits a property
// name: additionalProperties false admits only the names its own
// properties and patternProperties give; propertyNames must hold.
func (gn *generation) allowed(v *view, name string) bool {
	for _, s := range v.schemas {
		if b, ok := s.AdditionalProperties.(bool); ok && !b {
			if _, declared := s.Properties[name]; !declared {
				matched := false
				for re := range s.PatternProperties {
					if re.MatchString(name) {
						matched = true
						break
					}
				}
				if !matched {
					return false
				}
			}
		}
	}
	for _, pn := range v.propertyNames {
		if pn.Validate(name) != nil {
			return false
		}
	}
	return true
}

// extraProperty names a property beyond those declared, to reach
// minProperties: one a patternProperties expression draws, else a plain
// name that additionalProperties admits.
func (gn *generation) extraProperty(v *view, i int) (string, []*jsonschema.Schema, bool) {
	for _, s := range v.schemas {
		res := make([]jsonschema.Regexp, 0, len(s.PatternProperties))
		for re := range s.PatternProperties {
			res = append(res, re)
		}
		sort.Slice(res, func(a, b int) bool { return res[a].String() < res[b].String() })
		for _, re := range res {
			if p, ok := re.(*pattern); ok {
				if name, ok := gn.fromPattern([]jsonschema.Regexp{p}, 1, 40); ok && gn.allowed(v, name) {
					return name, gn.propertySchemas(v, name), true
				}
			}
		}
	}
	for j := 0; j < 16; j++ {
		name := fmt.Sprintf("%s%d", words[(i+j)%len(words)], i+j+1)
		if gn.allowed(v, name) {
			return name, gn.propertySchemas(v, name), true
		}
	}
	return "", nil, false
}

// subtype returns the value a discriminator without oneOf or anyOf gives
// a value of this view's schema (a subtype through allOf): the mapping
// value that names a schema of the view, else the name of the component
// the view's outermost schema is. nil when there is none.
func (gn *generation) subtype(v *view, name string) any {
	for _, b := range v.bases {
		if b.prop != name {
			continue
		}
		for _, m := range b.mapping {
			for _, s := range v.schemas {
				if s.Location == m.url+"#" {
					return m.value
				}
			}
		}
		for _, s := range v.schemas {
			if component := gn.componentName(s); component != "" {
				return component
			}
		}
	}
	return nil
}

// componentName returns the name under which a schema is a named
// component (components/schemas, definitions), or "".
func (gn *generation) componentName(s *jsonschema.Schema) string {
	base, frag, _ := strings.Cut(s.Location, "#")
	if frag != "" {
		return ""
	}
	uv, ok := gn.set.byURL.Load(base)
	if !ok {
		return ""
	}
	ptr := uv.(*unit).ptr
	for _, prefix := range []string{"/components/schemas/", "/definitions/"} {
		if rest, ok := strings.CutPrefix(ptr, prefix); ok && !strings.Contains(rest, "/") {
			return lastToken(ptr)
		}
	}
	return ""
}
