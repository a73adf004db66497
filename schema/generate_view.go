package schema

import (
	"math/big"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

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
