package schema

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

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
