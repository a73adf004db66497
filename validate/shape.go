package validate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// shape is what a value must look like. Every shape is a pointer, so shapes
// can key the walker's seen set.
type shape interface {
	// check reports the problems of n, which sits at the walker's position.
	check(w *walker, n *spec.Node)
	// accepts reports whether n has the JSON kind of the shape, to choose
	// among the alternatives of an either.
	accepts(n *spec.Node) bool
	// expect names the shape after "must be", e.g. "a string".
	expect() string
}

// scalar is a string, number, boolean or null, optionally an integer,
// limited to a list of values or to a format.
type scalar struct {
	kind    spec.Kind
	integer bool
	values  []string
	format  *format
}

var (
	str     = &scalar{kind: spec.String}
	integer = &scalar{kind: spec.Number, integer: true}
	number  = &scalar{kind: spec.Number}
	boolean = &scalar{kind: spec.Bool}
	null    = &scalar{kind: spec.Null}
	urlStr  = &scalar{kind: spec.String, format: urlFormat}
	email   = &scalar{kind: spec.String, format: emailFormat}
)

// oneOf is a string limited to the given values.
func oneOf(values ...string) *scalar { return &scalar{kind: spec.String, values: values} }

func (s *scalar) accepts(n *spec.Node) bool { return n.Kind == s.kind }

func (s *scalar) expect() string {
	if s.integer {
		return "an integer"
	}
	return "a " + s.kind.String()
}

func (s *scalar) check(w *walker, n *spec.Node) {
	if n.Kind != s.kind || (s.integer && !isInteger(n.Value)) {
		w.typeError(n, s.expect())
		return
	}
	if len(s.values) > 0 && !slices.Contains(s.values, n.Value) {
		w.report(n, fmt.Sprintf("%s must be one of %s, found %q", w.name(), quoteList(s.values, "or"), n.Value))
		return
	}
	if s.format != nil && !s.format.valid(n.Value) {
		w.report(n, fmt.Sprintf("%s is not a valid %s: %q", w.name(), s.format.name, n.Value))
	}
}

// isInteger accepts JSON Schema's integers: numbers without a fraction,
// however they are written (2, 2.0, 2e3).
func isInteger(lit string) bool {
	if _, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return true
	}
	f, err := strconv.ParseFloat(lit, 64)
	return err == nil && f == math.Trunc(f) && !math.IsInf(f, 0)
}

// anything accepts every value: examples, defaults, extension data.
type anything struct{}

var anyValue = &anything{}

func (*anything) check(*walker, *spec.Node) {}
func (*anything) accepts(*spec.Node) bool   { return true }
func (*anything) expect() string            { return "any value" }

// list is an array whose items all have one shape.
type list struct{ elem shape }

func listOf(elem shape) *list { return &list{elem: elem} }

func (l *list) accepts(n *spec.Node) bool { return n.Kind == spec.Array }
func (l *list) expect() string            { return "an array" }

func (l *list) check(w *walker, n *spec.Node) {
	if n.Kind != spec.Array {
		w.typeError(n, "an array")
		return
	}
	for i, it := range n.Items {
		w.enterItem(i, it, l.elem)
	}
}

// either is a value of one of several kinds, each with its own shape: a
// boolean or a schema, a string or an array of strings.
type either struct{ alts []shape }

func eitherOf(alts ...shape) *either { return &either{alts: alts} }

func (e *either) accepts(n *spec.Node) bool {
	for _, a := range e.alts {
		if a.accepts(n) {
			return true
		}
	}
	return false
}

func (e *either) expect() string {
	names := make([]string, len(e.alts))
	for i, a := range e.alts {
		names[i] = a.expect()
	}
	return strings.Join(names, " or ")
}

func (e *either) check(w *walker, n *spec.Node) {
	for _, a := range e.alts {
		if a.accepts(n) {
			a.check(w, n)
			return
		}
	}
	w.typeError(n, e.expect())
}

// refOr is a position where a Reference Object may stand instead of the
// target shape. The target of a reference is checked once, in its own file.
// With siblings, the object holding "$ref" is checked as the target shape
// too: a Path Item's $ref merges with its fields and a JSON Schema 2020-12
// $ref is one keyword among others.
type refOr struct {
	target   shape
	siblings bool
}

func ref(target shape) *refOr { return &refOr{target: target} }

// mergedRef is a position whose object may carry "$ref" beside its own
// fields (the target shape must declare "$ref" as a field).
func mergedRef(target shape) *refOr { return &refOr{target: target, siblings: true} }

func (r *refOr) accepts(n *spec.Node) bool { return isRef(n) || r.target.accepts(n) }
func (r *refOr) expect() string            { return r.target.expect() }

func (r *refOr) check(w *walker, n *spec.Node) {
	if isRef(n) {
		w.follow(n, r)
		if !r.siblings {
			return
		}
	}
	if w.firstVisit(n, r.target) {
		r.target.check(w, n)
	}
}

func isRef(n *spec.Node) bool { return n.Kind == spec.Object && n.Field("$ref") != nil }

// variant is an object whose allowed fields depend on its own content, such
// as a Swagger body parameter against the other parameters.
type variant struct{ pick func(n *spec.Node) shape }

// A variant accepts any kind: its pick sends a value of the wrong kind to a
// shape that reports it.
func (v *variant) accepts(*spec.Node) bool { return true }
func (v *variant) expect() string          { return "an object" }

func (v *variant) check(w *walker, n *spec.Node) { v.pick(n).check(w, n) }

// byField picks an object by the string value of key, falling back to other
// when the value is missing or unknown (other then reports it).
func byField(key string, cases map[string]*object, other *object) *variant {
	return &variant{pick: func(n *spec.Node) shape {
		if o := cases[n.GetStr(key)]; o != nil {
			return o
		}
		return other
	}}
}

// rule is a constraint across the fields of one object (or below it) that
// a field table cannot say.
type rule func(w *walker, o *object, n *spec.Node)

// object is a specification object: fixed fields, required fields, and
// optionally patterned fields (entries) whose keys are checked by keyCheck.
// A plain map (isMap) has only entries, and its x- keys are entries too.
type object struct {
	name     string // "Info object", used in messages
	fields   map[string]shape
	required []string
	entries  shape
	keyCheck func(key string) string // a message when key is not a valid entry key
	isMap    bool
	open     bool // unknown fields are allowed (JSON Schema vocabularies)
	rules    []rule
}

func (o *object) accepts(n *spec.Node) bool { return n.Kind == spec.Object }
func (o *object) expect() string            { return "an object" }

func (o *object) check(w *walker, n *spec.Node) {
	if n.Kind != spec.Object {
		w.typeError(n, "an object")
		return
	}
	if !o.isMap && isRef(n) && o.fields["$ref"] == nil {
		w.report(n, fmt.Sprintf("%s cannot be a $ref: a reference is not allowed in place of the %s", w.name(), o.name))
		w.follow(n, o)
		return
	}
	for i := range n.Fields {
		o.checkField(w, &n.Fields[i])
	}
	for _, key := range o.required {
		if n.Field(key) == nil {
			w.report(n, fmt.Sprintf("missing required field %q in the %s", key, o.name))
		}
	}
	for _, r := range o.rules {
		r(w, o, n)
	}
}

func (o *object) checkField(w *walker, f *spec.Field) {
	if s := o.fields[f.Key]; s != nil {
		w.enterField(f, s)
		return
	}
	ext := isExtension(f.Key)
	if o.entries != nil && (o.isMap || !ext) {
		if o.keyCheck != nil {
			if msg := o.keyCheck(f.Key); msg != "" {
				w.reportKey(f, msg)
				return
			}
		}
		w.enterField(f, o.entries)
		return
	}
	if ext || o.open || w.tolerateUnknown {
		return
	}
	w.reportKey(f, fmt.Sprintf("unknown field %q in the %s (extensions must start with x-)", f.Key, o.name))
}

func isExtension(key string) bool { return strings.HasPrefix(key, "x-") }

// mapOf is a map from free keys to values of one shape.
func mapOf(elem shape) *object { return &object{name: "map", entries: elem, isMap: true} }

// namedMap is a map whose keys must pass keyCheck, such as component names.
func namedMap(elem shape, keyCheck func(string) string) *object {
	return &object{name: "map", entries: elem, isMap: true, keyCheck: keyCheck}
}

// openObject is any object: the protocol bindings of AsyncAPI (defined by
// separate, versioned specifications) and the inner objects of Arazzo.
var openObject = &object{name: "object", open: true}

func (w *walker) typeError(n *spec.Node, want string) {
	found := n.Kind.String()
	if n.Kind == spec.Number || n.Kind == spec.Bool {
		found += " " + n.Value
	}
	msg := fmt.Sprintf("%s must be %s, found %s", w.name(), want, found)
	// A scalar of another kind (a number for a string) reads as intended;
	// a container where a scalar stands, or the reverse, does not.
	if n.Kind == spec.Object || n.Kind == spec.Array || strings.Contains(want, "object") || strings.Contains(want, "array") {
		w.reportUnreadable(n, msg)
		return
	}
	w.report(n, msg)
}

// quoteList renders ["a","b","c"] as `"a", "b" or "c"`.
func quoteList(values []string, conj string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}
