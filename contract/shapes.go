package contract

import (
	"encoding/json"
	"strings"

	"github.com/specgate/specgate/spec"
)

// sref is a schema as the document writes it: its node ($refs followed)
// and its path from the entry file's root, so that a problem can name the
// place of the keyword it breaks. The zero sref is "no schema": anything
// goes.
type sref struct {
	n   *spec.Node
	src spec.Path
}

func (s sref) at(segs ...any) spec.Path {
	out := make(spec.Path, len(s.src), len(s.src)+len(segs))
	copy(out, s.src)
	return append(out, segs...)
}

// types is a set of JSON types a schema admits, read from its type keyword
// (and nullable, and those of its allOf/anyOf/oneOf members). Reading
// strings off the wire by it does not decide validity: the compiled schema
// does. The empty set admits anything.
type types uint8

const (
	tNull types = 1 << iota
	tBool
	tInt
	tNum
	tStr
	tArr
	tObj
)

var typeNames = []struct {
	t    types
	name string
}{{tInt, "integer"}, {tNum, "number"}, {tBool, "boolean"}, {tStr, "string"}, {tArr, "array"}, {tObj, "object"}, {tNull, "null"}}

func (t types) String() string {
	var names []string
	for _, tn := range typeNames {
		if t&tn.t != 0 && !(tn.t == tInt && t&tNum != 0) {
			names = append(names, tn.name)
		}
	}
	switch len(names) {
	case 0:
		return "any value"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func typeNamed(s string) types {
	switch s {
	case "null":
		return tNull
	case "boolean":
		return tBool
	case "integer":
		return tInt
	case "number":
		return tNum
	case "string", "file":
		return tStr
	case "array":
		return tArr
	case "object":
		return tObj
	}
	return 0
}

// deref follows a $ref from n.
func (c *Contract) deref(n *spec.Node) *spec.Node { return c.doc.Deref(n) }

// schemaAt is the schema under key of s ("items", "additionalProperties").
func (c *Contract) schemaAt(s sref, segs ...any) sref {
	n := s.n
	for _, seg := range segs {
		switch k := seg.(type) {
		case string:
			n = n.Get(k)
		case int:
			if n == nil || n.Kind != spec.Array || k >= len(n.Items) {
				return sref{}
			}
			n = n.Items[k]
		}
		n = c.deref(n)
	}
	if n == nil || n.Kind != spec.Object {
		return sref{}
	}
	return sref{n: n, src: s.at(segs...)}
}

// typesOf reads the types a schema admits.
func (c *Contract) typesOf(s sref) types { return c.typesOfNode(s.n, 0) }

func (c *Contract) typesOfNode(n *spec.Node, depth int) types {
	n = c.deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return 0
	}
	var t types
	switch ty := n.Get("type"); {
	case ty == nil:
	case ty.Kind == spec.String:
		t = typeNamed(ty.Value)
	case ty.Kind == spec.Array:
		for _, it := range ty.Items {
			t |= typeNamed(it.Value)
		}
	}
	if t == 0 {
		for _, k := range [...]string{"allOf", "anyOf", "oneOf"} {
			for _, m := range items(n.Get(k)) {
				t |= c.typesOfNode(m, depth+1)
			}
		}
	}
	if t == 0 {
		switch {
		case n.Get("properties") != nil || n.Get("additionalProperties") != nil || n.Get("required") != nil:
			t = tObj
		case n.Get("items") != nil || n.Get("prefixItems") != nil:
			t = tArr
		}
	}
	if t == 0 {
		for _, e := range items(n.Get("enum")) {
			t |= kindType(e.Kind)
		}
		if cst := n.Get("const"); cst != nil {
			t |= kindType(cst.Kind)
		}
	}
	if t != 0 && (n.Get("nullable").IsTrue() || n.Get("x-nullable").IsTrue()) {
		t |= tNull
	}
	return t
}

func kindType(k spec.Kind) types {
	switch k {
	case spec.Null:
		return tNull
	case spec.Bool:
		return tBool
	case spec.Number:
		return tNum
	case spec.String:
		return tStr
	case spec.Array:
		return tArr
	case spec.Object:
		return tObj
	}
	return 0
}

func items(n *spec.Node) []*spec.Node {
	if n == nil || n.Kind != spec.Array {
		return nil
	}
	return n.Items
}

// shape is how a parameter's value is laid out: a primitive, an array or
// an object.
type shape uint8

const (
	primitive shape = iota
	array
	object
)

func (c *Contract) shapeOf(s sref) shape {
	t := c.typesOf(s)
	switch {
	case t&tArr != 0 && t&^(tArr|tNull) == 0:
		return array
	case t&tObj != 0 && t&^(tObj|tNull) == 0:
		return object
	case t&tArr != 0 && t&tObj == 0 && t&tStr == 0:
		return array
	}
	return primitive
}

// itemsOf is the schema of an array's items.
func (c *Contract) itemsOf(s sref) sref {
	if it := c.schemaAt(s, "items"); it.n != nil {
		return it
	}
	for _, k := range [...]string{"allOf", "anyOf", "oneOf"} {
		for i := range items(s.n.Get(k)) {
			if it := c.itemsOf(c.schemaAt(s, k, i)); it.n != nil {
				return it
			}
		}
	}
	return sref{}
}

// propertyOf is the schema of an object's property name: declared under
// properties (of the schema or a member of allOf/anyOf/oneOf), else
// additionalProperties. ok is false when the schema declares no such
// property and has no schema for others.
func (c *Contract) propertyOf(s sref, name string) (sref, bool) {
	return c.propertyAt(s, name, 0)
}

func (c *Contract) propertyAt(s sref, name string, depth int) (sref, bool) {
	if s.n == nil || depth > 8 {
		return sref{}, false
	}
	if props := s.n.Get("properties"); props != nil && props.Get(name) != nil {
		return c.schemaAt(s, "properties", name), true
	}
	for _, k := range [...]string{"allOf", "anyOf", "oneOf"} {
		for i := range items(s.n.Get(k)) {
			if p, ok := c.propertyAt(c.schemaAt(s, k, i), name, depth+1); ok {
				return p, true
			}
		}
	}
	if ap := s.n.Get("additionalProperties"); ap != nil && ap.Kind == spec.Object {
		return c.schemaAt(s, "additionalProperties"), true
	}
	return sref{}, false
}

// propertyNames lists the properties an object schema declares, in source
// order, those of allOf/anyOf/oneOf members after its own.
func (c *Contract) propertyNames(s sref) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(n *spec.Node, depth int)
	walk = func(n *spec.Node, depth int) {
		n = c.deref(n)
		if n == nil || depth > 8 {
			return
		}
		for _, f := range fields(n.Get("properties")) {
			if !seen[f.Key] {
				seen[f.Key] = true
				out = append(out, f.Key)
			}
		}
		for _, k := range [...]string{"allOf", "anyOf", "oneOf"} {
			for _, m := range items(n.Get(k)) {
				walk(m, depth+1)
			}
		}
	}
	walk(s.n, 0)
	return out
}

// openObject reports whether an object schema takes properties it does not
// declare (additionalProperties absent, true or a schema).
func (c *Contract) openObject(s sref) bool {
	ap := s.n.Get("additionalProperties")
	return ap == nil || ap.Kind == spec.Object || ap.IsTrue()
}

// isBinary reports whether a string schema holds raw bytes: format binary
// (OpenAPI 3.0, Swagger), Swagger's type file, or a contentMediaType without
// a contentEncoding (OpenAPI 3.1).
func (c *Contract) isBinary(s sref) bool {
	if s.n == nil {
		return false
	}
	if s.n.GetStr("format") == "binary" || s.n.GetStr("type") == "file" {
		return true
	}
	return s.n.Get("contentMediaType") != nil && s.n.Get("contentEncoding") == nil
}

// coerce reads a string from the wire as a value of the schema's types:
// an integer or number literal becomes a json.Number, true and false a
// bool, anything else a string when strings are admitted. ok is false when
// the text fits none of the types.
func coerce(text string, t types) (any, bool) {
	if t == 0 {
		return text, true
	}
	if t&(tInt|tNum) != 0 && isNumber(text) {
		return json.Number(text), true
	}
	if t&tBool != 0 && (text == "true" || text == "false") {
		return text == "true", true
	}
	if t&tStr != 0 {
		return text, true
	}
	if t&tNull != 0 && (text == "" || text == "null") {
		return nil, true
	}
	if t&(tArr|tObj) != 0 && t&^(tArr|tObj|tNull) == 0 {
		// A structured value where a primitive is read: JSON text, if any.
		var v any
		d := json.NewDecoder(strings.NewReader(text))
		d.UseNumber()
		if d.Decode(&v) == nil && !d.More() {
			if _, isArr := v.([]any); isArr && t&tArr != 0 {
				return v, true
			}
			if _, isObj := v.(map[string]any); isObj && t&tObj != 0 {
				return v, true
			}
		}
	}
	return nil, false
}

// isNumber reports whether s is a JSON number literal.
func isNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}
