package compat

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// This file holds what the schema rules (rules_schema.go) share: type
// sets, enums, and numeric and size limits; schema_findings.go holds the
// conservative judgements of not, if/then/else and dependencies.

// typesNotAccepted lists the types of from that by does not accept; no
// types means any type. A number accepts integers; for text values
// (parameters, headers) a string accepts the text of any scalar.
func typesNotAccepted(from, by []string, text bool) []string {
	if len(by) == 0 {
		return nil
	}
	if len(from) == 0 {
		// On the wire a text value of any type is a string.
		if text && slices.Contains(by, "string") {
			return nil
		}
		return []string{"any"}
	}
	var out []string
	for _, t := range from {
		ok := false
		for _, b := range by {
			if t == b || (t == "integer" && b == "number") ||
				(text && b == "string" && (t == "integer" || t == "number" || t == "boolean")) {
				ok = true
				break
			}
		}
		if !ok {
			out = append(out, t)
		}
	}
	return out
}

// wireTypes reads a set of types as the values it allows: for text
// values, a string or no type is any text, while an integer is only the
// text of integers.
func wireTypes(ts []string, text bool) []string {
	if text && slices.Contains(ts, "string") {
		return nil
	}
	return ts
}

func describeTypes(ts []string) string {
	if len(ts) == 0 {
		return "any"
	}
	return strings.Join(ts, "|")
}

// enumValues returns the values a schema's enum and const keywords allow
// (those of every occurrence), without null: null is read as nullable.
func enumValues(v *SchemaView, text bool) ([]string, bool) {
	var out []string
	found := false
	add := func(vals []string) {
		if !found {
			out, found = vals, true
			return
		}
		var both []string
		for _, x := range out {
			if slices.Contains(vals, x) {
				both = append(both, x)
			}
		}
		out = both
	}
	for _, o := range v.Occurrences("enum") {
		if o.Value.Kind == spec.Array {
			add(valueSet(o.Value, text))
		}
	}
	for _, o := range v.Occurrences("const") {
		if o.Value.Kind != spec.Null {
			add([]string{valueText(o.Value, text)})
		}
	}
	return out, found
}

// extensibleEnum returns the values of x-extensible-enum (Zalando's
// guideline: an enum that may gain values, which consumers must accept).
func extensibleEnum(v *SchemaView, text bool) ([]string, bool) {
	n, _ := v.Keyword("x-extensible-enum")
	if n == nil || n.Kind != spec.Array {
		return nil, false
	}
	return valueSet(n, text), true
}

// missing lists the values of a that b lacks.
func missing(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, v := range b {
		in[v] = true
	}
	var out []string
	for _, v := range a {
		if !in[v] {
			out = append(out, v)
		}
	}
	return out
}

func listValues(vs []string) string {
	const shown = 5
	if len(vs) <= shown {
		return strings.Join(vs, ", ")
	}
	return strings.Join(vs[:shown], ", ") + " and " + strconv.Itoa(len(vs)-shown) + " more"
}

// both reports whether base and revision each allow values of type t:
// keywords for t say something only then (maxLength limits strings; an
// object has none).
func (s *SchemaCheck) both(t string) bool { return s.Base.May(t) && s.Rev.May(t) }

// limit is one end of a range: a minimum or maximum, maybe exclusive.
type limit struct {
	set  bool
	v    float64
	excl bool
	text string // as written
	path spec.Path
}

func numberOf(n *spec.Node) (float64, bool) {
	if n == nil || n.Kind != spec.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	return f, err == nil
}

// bounds reads a schema's lower and upper limits for numbers, the
// tightest of every occurrence: minimum and maximum with OpenAPI 3.0's
// boolean exclusive flags, or JSON Schema's numeric exclusiveMinimum and
// exclusiveMaximum.
func bounds(v *SchemaView) (lower, upper limit) {
	read := func(key, exclKey string, tighter func(a, b limit) bool) limit {
		var l limit
		for _, o := range v.Occurrences(key) {
			if f, ok := numberOf(o.Value); ok {
				e := limit{set: true, v: f, text: o.Value.Value, path: o.Path}
				// OpenAPI 3.0 writes exclusiveMinimum: true beside minimum.
				parent := o.Path[:len(o.Path)-1]
				for _, x := range v.Occurrences(exclKey) {
					if x.Value.IsTrue() && spec.Pointer(x.Path[:len(x.Path)-1]) == spec.Pointer(parent) {
						e.excl, e.path = true, x.Path
					}
				}
				if tighter(l, e) {
					l = e
				}
			}
		}
		for _, o := range v.Occurrences(exclKey) {
			if f, ok := numberOf(o.Value); ok {
				if e := (limit{set: true, v: f, excl: true, text: o.Value.Value, path: o.Path}); tighter(l, e) {
					l = e
				}
			}
		}
		return l
	}
	return read("minimum", "exclusiveMinimum", tighterMin), read("maximum", "exclusiveMaximum", tighterMax)
}

// tighterMin reports whether minimum b admits fewer values than a.
func tighterMin(a, b limit) bool {
	if !b.set {
		return false
	}
	return !a.set || b.v > a.v || (b.v == a.v && b.excl && !a.excl)
}

// tighterMax reports whether maximum b admits fewer values than a.
func tighterMax(a, b limit) bool {
	if !b.set {
		return false
	}
	return !a.set || b.v < a.v || (b.v == a.v && b.excl && !a.excl)
}

func (l limit) describe(op, strict string) string {
	if !l.set {
		return "none"
	}
	if l.excl {
		return strict + " " + l.text
	}
	return op + " " + l.text
}

// rangeChanges reports the numeric limits the revision tightened, or with
// widened, loosened.
func rangeChanges(s *SchemaCheck, widened bool) {
	bl, bu := bounds(s.Base)
	rl, ru := bounds(s.Rev)
	looseL, tightL, looseU, tightU := bl, rl, bu, ru
	if widened {
		looseL, tightL, looseU, tightU = rl, bl, ru, bu
	}
	if tighterMin(looseL, tightL) {
		s.inRevisionWas(rl.path, bl.path, "minimum is now %s (was %s)", rl.describe(">=", ">"), bl.describe(">=", ">"))
	}
	if tighterMax(looseU, tightU) {
		s.inRevisionWas(ru.path, bu.path, "maximum is now %s (was %s)", ru.describe("<=", "<"), bu.describe("<=", "<"))
	}
}

// multipleOfChanges reports the factors of to that some value of from is
// not a multiple of: a request's new factors against the base's values,
// or a response's old factors against the revision's values.
func multipleOfChanges(s *SchemaCheck, from, to *SchemaView) {
	fromFactors := factors(from)
	integers := slices.Contains(from.Types, "integer") && !slices.Contains(from.Types, "number")
	for _, f := range factors(to) {
		ok := integers && isMultiple(big.NewRat(1, 1), f.r)
		for _, g := range fromFactors {
			ok = ok || isMultiple(g.r, f.r)
		}
		if !ok {
			_, rp := s.Rev.Keyword("multipleOf")
			s.InRevision(rp, "multipleOf is now %s (was %s)", factorText(s.Rev), factorText(s.Base))
			return
		}
	}
}

type factor struct {
	r    *big.Rat
	text string
}

func factors(v *SchemaView) []factor {
	var out []factor
	for _, o := range v.Occurrences("multipleOf") {
		if o.Value.Kind != spec.Number {
			continue
		}
		if r, ok := new(big.Rat).SetString(o.Value.Value); ok && r.Sign() > 0 {
			out = append(out, factor{r, o.Value.Value})
		}
	}
	return out
}

func factorText(v *SchemaView) string {
	fs := factors(v)
	if len(fs) == 0 {
		return "none"
	}
	texts := make([]string, len(fs))
	for i, f := range fs {
		texts[i] = f.text
	}
	return strings.Join(texts, " and ")
}

// isMultiple reports whether x is a whole multiple of f.
func isMultiple(x, f *big.Rat) bool {
	return new(big.Rat).Quo(x, f).IsInt()
}

// lengthKeywords are the size limits of strings, arrays and objects, with
// the type they apply to.
var lengthKeywords = [][3]string{{"minLength", "maxLength", "string"}, {"minItems", "maxItems", "array"}, {"minProperties", "maxProperties", "object"}}

// size reads the tightest of a limit's occurrences; an absent minimum is
// 0, an absent maximum unbounded.
func size(v *SchemaView, key string, isMax bool) (val float64, text string, path spec.Path) {
	val, text = 0, "none"
	if isMax {
		val = math.Inf(1)
	}
	for _, o := range v.Occurrences(key) {
		if f, ok := numberOf(o.Value); ok && ((isMax && f < val) || (!isMax && f > val)) {
			val, text, path = f, o.Value.Value, o.Path
		}
	}
	return val, text, path
}

// lengthChanges reports the size limits the revision tightened, or with
// widened, loosened.
func lengthChanges(s *SchemaCheck, widened bool) {
	for _, kw := range lengthKeywords {
		text := kw[2] == "string" && !s.both("string") && s.stringsOnWire()
		if !s.both(kw[2]) && !text {
			continue
		}
		bmin, bminText, bminPath := size(s.Base, kw[0], false)
		rmin, rminText, rminPath := size(s.Rev, kw[0], false)
		bmax, bmaxText, bmaxPath := size(s.Base, kw[1], true)
		rmax, rmaxText, rmaxPath := size(s.Rev, kw[1], true)
		// A scalar that is not a string is sent as its text, whose length
		// its type and limits decide.
		if text && !s.Base.May("string") {
			bmin, bmax, bminText, bmaxText = textLength(s.Base)
			bminPath, bmaxPath = s.Base.At("type"), s.Base.At("type")
		}
		if text && !s.Rev.May("string") {
			rmin, rmax, rminText, rmaxText = textLength(s.Rev)
			rminPath, rmaxPath = s.Rev.At("type"), s.Rev.At("type")
		}
		if (!widened && rmin > bmin) || (widened && rmin < bmin) {
			s.inRevisionWas(rminPath, bminPath, "%s is now %s (was %s)", kw[0], rminText, bminText)
		}
		if (!widened && rmax < bmax) || (widened && rmax > bmax) {
			s.inRevisionWas(rmaxPath, bmaxPath, "%s is now %s (was %s)", kw[1], rmaxText, bmaxText)
		}
	}
}

// stringsOnWire reports whether the string keywords of the pair (lengths,
// pattern, content encoding) judge values the two sides share: both allow
// strings, or the values are text (parameters and headers) and one side
// allows strings while the other's scalars travel as their text, which
// the string's keywords then constrain. An integer parameter that became
// a string with maxLength: 3 rejects 1234. When the type change itself
// breaks consumers (a string parameter that became an integer),
// request-type-changed or response-type-changed says so, and the string's
// keywords are not compared as well.
func (s *SchemaCheck) stringsOnWire() bool {
	if s.both("string") {
		return true
	}
	scalar := func(v *SchemaView) bool { return v.May("string") || kindOf(v) == "primitive" }
	if !s.Text || !(s.Base.May("string") || s.Rev.May("string")) || !scalar(s.Base) || !scalar(s.Rev) {
		return false
	}
	from, to := s.Base, s.Rev
	if s.Dir == Response {
		from, to = s.Rev, s.Base
	}
	return len(typesNotAccepted(from.Types, to.Types, true)) == 0
}

// textLength is the shortest and longest text of the values of a scalar
// schema that allows no string: an enum's values, booleans (true, false),
// integers within their minimum and maximum; numbers may be written at any
// length.
func textLength(v *SchemaView) (lo, hi float64, loText, hiText string) {
	of := "the text of " + describeTypes(v.Types) + " values"
	if vals, ok := enumValues(v, true); ok && len(vals) > 0 {
		lo, hi = math.Inf(1), 0
		for _, q := range vals {
			n := float64(len(q))
			if uq, err := strconv.Unquote(q); err == nil {
				n = float64(len([]rune(uq)))
			}
			lo, hi = min(lo, n), max(hi, n)
		}
	} else {
		lo, hi = math.Inf(1), 0
		for _, t := range v.Types {
			var tlo, thi float64
			switch t {
			case "boolean":
				tlo, thi = 4, 5
			case "integer":
				tlo, thi = integerTextLength(v)
			default:
				tlo, thi = 1, math.Inf(1)
			}
			lo, hi = min(lo, tlo), max(hi, thi)
		}
	}
	show := func(n float64) string {
		if math.IsInf(n, 1) {
			return "none: " + of
		}
		return strconv.FormatFloat(n, 'f', -1, 64) + ": " + of
	}
	return lo, hi, show(lo), show(hi)
}

// integerTextLength is the shortest and longest decimal text of the
// integers between a schema's minimum and maximum.
func integerTextLength(v *SchemaView) (lo, hi float64) {
	lower, upper := bounds(v)
	const huge = 1e15 // beyond it, float64 holds no exact integer text
	first, last := math.Inf(-1), math.Inf(1)
	if lower.set && math.Abs(lower.v) < huge {
		first = math.Ceil(lower.v)
		if lower.excl && first == lower.v {
			first++
		}
	}
	if upper.set && math.Abs(upper.v) < huge {
		last = math.Floor(upper.v)
		if upper.excl && last == upper.v {
			last--
		}
	}
	width := func(n float64) float64 { return float64(len(strconv.FormatFloat(n, 'f', 0, 64))) }
	switch {
	case first > last:
		return 1, 1 // no integer at all: nothing is sent
	case first >= 0:
		lo = width(first)
	case last <= 0:
		lo = width(last)
	default:
		lo = 1 // 0
	}
	hi = math.Inf(1)
	if !math.IsInf(first, -1) && !math.IsInf(last, 1) {
		hi = max(width(first), width(last))
	}
	return lo, hi
}

// patterns lists the patterns every value must match.
func patterns(v *SchemaView) []string {
	var out []string
	for _, o := range v.Occurrences("pattern") {
		if p := o.Value.Str(); p != "" {
			out = appendNew(out, p)
		}
	}
	return out
}

// widerFormat maps a format to the one that accepts all its values and
// more.
var widerFormat = map[string]string{"int32": "int64", "float": "double"}

func describeFormat(f string) string {
	if f == "" {
		return "none"
	}
	return strconv.Quote(f)
}

// containsBounds reads how many items must match contains: minContains
// (1 when absent), maxContains (unbounded when absent); none without
// contains.
func containsBounds(v *SchemaView) (has bool, lo, hi float64, loText, hiText string) {
	if c, _ := v.Keyword("contains"); c == nil {
		return false, 0, math.Inf(1), "0", "none"
	}
	lo, loText = 1, "1"
	if n, _ := v.Keyword("minContains"); n != nil {
		if f, ok := numberOf(n); ok {
			lo, loText = f, n.Value
		}
	}
	hi, hiText, _ = size(v, "maxContains", true)
	return true, lo, hi, loText, hiText
}

// containsChanges reports what to demands of an array's items beyond what
// from did: for a request, the revision against the base; for a
// response (widened), the base against the revision, reported as what the
// revision no longer guarantees.
func containsChanges(s *SchemaCheck, from, to *SchemaView, widened bool) {
	fh, flo, fhi, floText, fhiText := containsBounds(from)
	th, tlo, thi, tloText, thiText := containsBounds(to)
	if !th {
		return
	}
	rev := s.Rev.At("contains")
	if !fh {
		if tlo <= 0 {
			return
		}
		if widened {
			s.InRevision(nil, "contains was removed: arrays may lack the item it guaranteed")
		} else {
			s.InRevision(rev, "arrays must now contain an item matching contains")
		}
		return
	}
	if tlo > flo {
		now, was := tloText, floText
		if widened {
			now, was = floText, tloText
		}
		s.InRevision(s.Rev.At("minContains", "contains"), "minContains is now %s (was %s)", now, was)
	}
	if thi < fhi {
		now, was := thiText, fhiText
		if widened {
			now, was = fhiText, thiText
		}
		s.InRevision(s.Rev.At("maxContains", "contains"), "maxContains is now %s (was %s)", now, was)
	}
}
