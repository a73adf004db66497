// Package spec loads API specifications (OpenAPI 2.0/3.x, AsyncAPI 2.x/3.x,
// Arazzo) from YAML or JSON into one node tree with 1-based source positions,
// resolves their $refs across files, detects their format and version, and
// builds the normalized views (operations, parameters, schemas, …) and the OPA
// input value that every other part of specgate reads. Formats that are not
// YAML or JSON objects (Protocol Buffers, GraphQL, WSDL) are read by the
// packages beside this one, which register with RegisterReader; the loader
// hands them the entry files they claim (formats.go).
//
// Nothing else in specgate parses a specification.
package spec

import (
	"strconv"
)

// Kind is the JSON kind of a node. YAML-only kinds (timestamps, binary, …)
// are mapped onto these with their JSON meaning.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

var kindNames = [...]string{"null", "boolean", "number", "string", "object", "array"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is a 1-based line and column. Columns count characters (Unicode code
// points), as YAML parsers and most editors do.
type Pos struct {
	Line, Col int32
}

// Range is a source range; End is exclusive in columns (it points just past
// the last character) and both ends are 1-based.
type Range struct {
	Start, End Pos
}

// Node is one value of a specification. Objects keep their keys in source
// order. Nodes are immutable once loaded; a YAML alias shares the anchored
// node, so the tree may be a DAG (never a cycle).
type Node struct {
	Kind Kind
	// ref is one more than the index in Document.Refs of the $ref this
	// object holds, set when the document's $refs are scanned: RefOf
	// answers without a lookup in a map of every reference. It sits in
	// what would be padding, so a node is no larger for it.
	ref uint32
	// Value holds the scalar: the decoded text of a string, the literal of a
	// number (kept verbatim, so no precision is lost), "true"/"false", or
	// "null".
	Value  string
	Fields []Field // Object
	Items  []*Node // Array
	Range  Range
}

// Field is one key of an object with the key's own range.
type Field struct {
	Key      string
	KeyRange Range
	Value    *Node
}

// Get returns the value of key in an object, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := range n.Fields {
		if n.Fields[i].Key == key {
			return n.Fields[i].Value
		}
	}
	return nil
}

// Field returns the field for key in an object, or nil.
func (n *Node) Field(key string) *Field {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := range n.Fields {
		if n.Fields[i].Key == key {
			return &n.Fields[i]
		}
	}
	return nil
}

// Str returns the value of a string node, or "" for anything else.
func (n *Node) Str() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Value
}

// GetStr returns the string value of key in an object, or "".
func (n *Node) GetStr(key string) string { return n.Get(key).Str() }

// IsTrue reports whether n is the boolean true.
func (n *Node) IsTrue() bool { return n != nil && n.Kind == Bool && n.Value == "true" }

// Ref returns the $ref string of an object that is a reference, or "".
func (n *Node) Ref() string {
	if n == nil || n.Kind != Object {
		return ""
	}
	return n.GetStr("$ref")
}

// Interface converts n into plain Go values (map[string]any, []any, string,
// json.Number-like string numbers as float64, bool, nil). It is meant for
// tests and small values; the OPA input is built without it.
func (n *Node) Interface() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Null:
		return nil
	case Bool:
		return n.Value == "true"
	case Number:
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
		return n.Value
	case String:
		return n.Value
	case Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Key] = f.Value.Interface()
		}
		return m
	case Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = it.Interface()
		}
		return s
	}
	return nil
}
