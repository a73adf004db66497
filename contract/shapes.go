package contract

import "github.com/specgate/specgate/spec"

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
	case t&TypeArray != 0 && t&^(TypeArray|TypeNull) == 0:
		return array
	case t&TypeObject != 0 && t&^(TypeObject|TypeNull) == 0:
		return object
	case t&TypeArray != 0 && t&TypeObject == 0 && t&TypeString == 0:
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
		for _, f := range n.Get("properties").ObjectFields() {
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
