package validate

// maxMinor bounds the minor versions a table entry can apply to.
const maxMinor = 1 << 10

// entry is one line of an object's table: a field (key and shape) or a
// rule, with the minor versions of the specification it belongs to.
type entry struct {
	key          string
	shape        shape
	rule         rule
	requiredFrom int // first minor in which the field is required
	requiredTo   int // last minor in which the field is required
	from, to     int // minors in which the entry exists
}

// field declares an optional field present in every minor version.
func field(key string, s shape) entry {
	return entry{key: key, shape: s, requiredFrom: 1, requiredTo: 0, from: 0, to: maxMinor}
}

// check declares a rule present in every minor version.
func check(r rule) entry { return entry{rule: r, requiredFrom: 1, to: maxMinor} }

// required makes the field required in every minor where it exists.
func (e entry) required() entry { e.requiredFrom, e.requiredTo = 0, maxMinor; return e }

// requiredThrough makes the field required up to and including minor.
func (e entry) requiredThrough(minor int) entry { e.requiredFrom, e.requiredTo = 0, minor; return e }

// since limits the entry to minor and later.
func (e entry) since(minor int) entry { e.from = minor; return e }

// until limits the entry to minor and earlier.
func (e entry) until(minor int) entry { e.to = minor; return e }

// table builds the objects of one specification version. minor selects the
// entries of OpenAPI 3.x tables; other families use a single minor 0.
type table struct{ minor int }

// obj builds a named object from entries.
func (t table) obj(name string, entries ...entry) *object {
	return t.define(&object{name: name}, entries...)
}

// define fills an object declared earlier (objects refer to each other, and
// schemas to themselves), keeping only the entries of t's minor version.
func (t table) define(o *object, entries ...entry) *object {
	if o.fields == nil {
		o.fields = map[string]shape{}
	}
	for _, e := range entries {
		if t.minor < e.from || t.minor > e.to {
			continue
		}
		if e.rule != nil {
			o.rules = append(o.rules, e.rule)
			continue
		}
		o.fields[e.key] = e.shape
		if t.minor >= e.requiredFrom && t.minor <= e.requiredTo {
			o.required = append(o.required, e.key)
		}
	}
	return o
}

// pick returns newer from minor since on, older before.
func (t table) pick(since int, newer, older shape) shape {
	if t.minor >= since {
		return newer
	}
	return older
}

// with returns the entries of both groups, for objects that share fields.
func with(groups ...[]entry) []entry {
	var out []entry
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}
