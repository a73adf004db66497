package examples

import (
	"strconv"
	"strings"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Value is one value of an example as written: a JSON literal, an object,
// an array, or a notation parsed from a string (Template, Capture, TypeOf,
// Match). Every value keeps where it is written.
type Value interface {
	// Where is the position of the value in its file.
	Where() Loc
	isValue()
}

// Literal is a JSON scalar: nil, bool, json.Number or string.
type Literal struct {
	Value any
	At    Loc
}

// Object is a JSON object; its fields keep the order in which they are
// written.
type Object struct {
	Fields []Field
	At     Loc
}

// Field is one key of an object with the key's own position.
type Field struct {
	Key   string
	KeyAt Loc
	Value Value
}

// Array is a JSON array.
type Array struct {
	Items []Value
	At    Loc
}

// Template is a string holding ${...} or $(...) notations, alone ("$(id)")
// or inside text ("Bearer $(token)"). A template that is one notation and
// nothing else evaluates to the notation's value with its own JSON type; any
// other template evaluates to a string.
type Template struct {
	Parts []Segment
	Raw   string // the string as written
	At    Loc
}

// Segment is one piece of a template: literal text, an environment
// reference, or a lookup. Exactly one of its fields is set.
type Segment struct {
	Text   string
	Env    *Env
	Lookup *Lookup
}

// Env is ${NAME}, ${NAME:default} or ${A|B:default}: the first of the names
// set in the environment, else the default.
type Env struct {
	Names      []string
	Default    string
	HasDefault bool
	Raw        string
	At         Loc
}

// Lookup is $(root.a.b[0]): a value captured by a fixture, a value of a
// data source (the example's own data is the source named "data"), or a part
// of the incoming request ($(request.path.id), $(request.query.q),
// $(request.headers.X-Id), $(request.body.a.b)).
type Lookup struct {
	Root  string
	Steps []Step
	Raw   string
	At    Loc
}

// Step is one step of a lookup path: an object key, an array index, or a
// key or index that is itself looked up ([ROLE] in $(roles[ROLE].scope)).
type Step struct {
	Key     string
	Index   int
	IsIndex bool
	Ref     *Lookup
}

// Capture is (NAME:type) in an expected response: the received value at
// that place, which must be of the type, is stored under NAME for later
// requests.
type Capture struct {
	Name string
	Type DataType
	Raw  string
	At   Loc
}

// TypeOf is a data type placeholder such as (string) or (integer): in an
// expectation any value of the type matches; in a value to send, a value of
// the type is drawn from the dictionary or generated.
type TypeOf struct {
	Type DataType
	Raw  string
	At   Loc
}

func (v *Literal) Where() Loc  { return v.At }
func (v *Object) Where() Loc   { return v.At }
func (v *Array) Where() Loc    { return v.At }
func (v *Template) Where() Loc { return v.At }
func (v *Capture) Where() Loc  { return v.At }
func (v *TypeOf) Where() Loc   { return v.At }
func (v *Match) Where() Loc    { return v.At }

// notation is a value written in one of the notations: a template, a
// capture, a typed placeholder or a matcher.
type notation interface {
	Value
	// raw is the text the notation was parsed from.
	raw() string
}

func (v *Template) raw() string { return v.Raw }
func (v *Capture) raw() string  { return v.Raw }
func (v *TypeOf) raw() string   { return v.Raw }
func (v *Match) raw() string    { return v.Raw }

func (*Literal) isValue()  {}
func (*Object) isValue()   {}
func (*Array) isValue()    {}
func (*Template) isValue() {}
func (*Capture) isValue()  {}
func (*TypeOf) isValue()   {}
func (*Match) isValue()    {}

// Get returns the value of key, or nil.
func (o *Object) Get(key string) Value {
	if o == nil {
		return nil
	}
	for i := range o.Fields {
		if o.Fields[i].Key == key {
			return o.Fields[i].Value
		}
	}
	return nil
}

// Keys returns the object's keys in order.
func (o *Object) Keys() []string {
	keys := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		keys[i] = f.Key
	}
	return keys
}

// String writes a lookup as written.
func (l *Lookup) String() string { return l.Raw }

// Literalize returns v as plain JSON, each notation written back as the
// text it was parsed from: what an exact matcher compares a referenced
// value with, and what a tool writes when it saves an example unchanged.
func Literalize(v Value) any {
	switch v := v.(type) {
	case nil:
		return nil
	case *Literal:
		return v.Value
	case *Object:
		m := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			m[f.Key] = Literalize(f.Value)
		}
		return m
	case *Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = Literalize(it)
		}
		return out
	case notation:
		return v.raw()
	}
	return nil
}

// HasNotations reports whether v holds a notation anywhere.
func HasNotations(v Value) bool {
	switch v := v.(type) {
	case *Object:
		for _, f := range v.Fields {
			if HasNotations(f.Value) {
				return true
			}
		}
	case *Array:
		for _, it := range v.Items {
			if HasNotations(it) {
				return true
			}
		}
	case *Template, *Capture, *TypeOf, *Match:
		return true
	}
	return false
}

// Locate returns where the part of v at path is written (object keys as
// strings, array indices as ints, as schema problems give them): the key of
// an object field (through its value when that is a scalar), or the item of
// an array. exact is false when the path leaves what v writes; the location
// is then that of the deepest part reached.
func Locate(v Value, path []any) (loc Loc, exact bool) {
	if v == nil {
		return Loc{}, false
	}
	loc = v.Where()
	for _, seg := range path {
		switch cur := v.(type) {
		case *Object:
			key, ok := seg.(string)
			if !ok {
				return loc, false
			}
			var found *Field
			for i := range cur.Fields {
				if cur.Fields[i].Key == key {
					found = &cur.Fields[i]
					break
				}
			}
			if found == nil {
				return loc, false
			}
			v = found.Value
			loc = found.KeyAt
			if _, container := v.(*Object); !container {
				if _, isArray := v.(*Array); !isArray && found.KeyAt.File == v.Where().File {
					loc.Range.End = v.Where().Range.End
				}
			}
		case *Array:
			i, ok := seg.(int)
			if !ok || i < 0 || i >= len(cur.Items) {
				return loc, false
			}
			v = cur.Items[i]
			loc = v.Where()
		default:
			return loc, false
		}
	}
	return loc, true
}

// Walk calls fn for v and every value inside it, depth first, with the JSON
// path of each ("$", "$.a", "$.a[0]"). fn returning false skips what is
// inside the value.
func Walk(v Value, fn func(path string, v Value) bool) {
	walk(v, "$", fn)
}

func walk(v Value, path string, fn func(string, Value) bool) {
	if v == nil || !fn(path, v) {
		return
	}
	switch v := v.(type) {
	case *Object:
		for _, f := range v.Fields {
			walk(f.Value, childPath(path, f.Key), fn)
		}
	case *Array:
		for i, it := range v.Items {
			walk(it, indexPath(path, i), fn)
		}
	}
}

// childPath appends a key to a JSON path: $.a for a plain key, $['a b']
// for any other.
func childPath(path, key string) string {
	if isPlainKey(key) {
		return path + "." + key
	}
	return path + "['" + strings.ReplaceAll(strings.ReplaceAll(key, `\`, `\\`), "'", `\'`) + "']"
}

func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func isPlainKey(key string) bool {
	if key == "" {
		return false
	}
	for i, c := range key {
		switch {
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' || c == '-':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// literalValue converts a node into a value without parsing notations: the
// inline examples of a specification are data, not templates.
func literalValue(n *spec.Node, file string) Value {
	at := Loc{File: file, Range: n.Range}
	switch n.Kind {
	case spec.Object:
		o := &Object{At: at, Fields: make([]Field, len(n.Fields))}
		for i, f := range n.Fields {
			o.Fields[i] = Field{Key: f.Key, KeyAt: Loc{File: file, Range: f.KeyRange}, Value: literalValue(f.Value, file)}
		}
		return o
	case spec.Array:
		a := &Array{At: at, Items: make([]Value, len(n.Items))}
		for i, it := range n.Items {
			a.Items[i] = literalValue(it, file)
		}
		return a
	}
	return &Literal{Value: schema.JSONValue(n), At: at}
}
