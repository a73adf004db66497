package contract

import (
	"encoding/json"
	"strings"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/spec"
)

// Types is a set of JSON types a schema admits, read from its type keyword
// (and nullable, and those of its allOf/anyOf/oneOf members). Reading text
// off the wire by it does not decide validity: the compiled schema does.
// The empty set admits anything.
type Types uint8

// The JSON types of a Types set (Swagger's file is a string).
const (
	TypeNull Types = 1 << iota
	TypeBoolean
	TypeInteger
	TypeNumber
	TypeString
	TypeArray
	TypeObject
)

var typeNames = []struct {
	t    Types
	name string
}{{TypeInteger, "integer"}, {TypeNumber, "number"}, {TypeBoolean, "boolean"}, {TypeString, "string"}, {TypeArray, "array"}, {TypeObject, "object"}, {TypeNull, "null"}}

// String names the types as messages do: "integer", "string or null",
// "any value".
func (t Types) String() string {
	var names []string
	for _, tn := range typeNames {
		if t&tn.t != 0 && !(tn.t == TypeInteger && t&TypeNumber != 0) {
			names = append(names, tn.name)
		}
	}
	if len(names) == 0 {
		return "any value"
	}
	return english.List(names, "or")
}

func typeNamed(s string) Types {
	switch s {
	case "null":
		return TypeNull
	case "boolean":
		return TypeBoolean
	case "integer":
		return TypeInteger
	case "number":
		return TypeNumber
	case "string", "file":
		return TypeString
	case "array":
		return TypeArray
	case "object":
		return TypeObject
	}
	return 0
}

// TypesOf reads the types a schema of doc admits ($refs followed): those
// its type keyword names, else those of its allOf/anyOf/oneOf members, else
// those its keywords imply (properties an object, items an array) or its
// enum and const values have; nullable adds null.
func TypesOf(doc *spec.Document, schema *spec.Node) Types { return typesOf(doc, schema, 0) }

// typesOf reads the types a schema admits.
func (c *Contract) typesOf(s sref) Types { return typesOf(c.doc, s.n, 0) }

func typesOf(doc *spec.Document, n *spec.Node, depth int) Types {
	n = doc.Deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return 0
	}
	var t Types
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
				t |= typesOf(doc, m, depth+1)
			}
		}
	}
	if t == 0 {
		switch {
		case n.Get("properties") != nil || n.Get("additionalProperties") != nil || n.Get("required") != nil:
			t = TypeObject
		case n.Get("items") != nil || n.Get("prefixItems") != nil:
			t = TypeArray
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
		t |= TypeNull
	}
	return t
}

func kindType(k spec.Kind) Types {
	switch k {
	case spec.Null:
		return TypeNull
	case spec.Bool:
		return TypeBoolean
	case spec.Number:
		return TypeNumber
	case spec.String:
		return TypeString
	case spec.Array:
		return TypeArray
	case spec.Object:
		return TypeObject
	}
	return 0
}

// CoerceText reads text (from a URL, a header, a form field) as a value of
// types t, trying them in this order: an integer or number literal becomes
// a json.Number, true and false a bool, anything else a string when strings
// are admitted, "" or null nil where null is, and JSON text an array or
// object where only those are. ok is false when the text fits none of the
// types; the empty set takes the text as it is.
func CoerceText(text string, t Types) (any, bool) {
	if t == 0 {
		return text, true
	}
	if t&(TypeInteger|TypeNumber) != 0 && isNumber(text) {
		return json.Number(text), true
	}
	if t&TypeBoolean != 0 && (text == "true" || text == "false") {
		return text == "true", true
	}
	if t&TypeString != 0 {
		return text, true
	}
	if t&TypeNull != 0 && (text == "" || text == "null") {
		return nil, true
	}
	if t&(TypeArray|TypeObject) != 0 && t&^(TypeArray|TypeObject|TypeNull) == 0 {
		// A structured value where a primitive is read: JSON text, if any.
		var v any
		d := json.NewDecoder(strings.NewReader(text))
		d.UseNumber()
		if d.Decode(&v) == nil && !d.More() {
			if _, isArr := v.([]any); isArr && t&TypeArray != 0 {
				return v, true
			}
			if _, isObj := v.(map[string]any); isObj && t&TypeObject != 0 {
				return v, true
			}
		}
	}
	return nil, false
}

// isNumber reports whether s is a JSON number literal.
func isNumber(s string) bool {
	i := 0
	// digits skips the decimal digits at i and says whether there was one.
	digits := func() bool {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}
