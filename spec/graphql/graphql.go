// Package graphql reads GraphQL schemas, as SDL (.graphql, .graphqls,
// .gql) or as the JSON of an introspection query, into specgate
// documents: a spec.Document whose tree holds every type, field, argument,
// enum value and directive at the position where it is written (the
// introspection JSON's own tree for JSON), and a typed model (Schema) for
// validation, lint input and the compatibility check. Syntax errors fail
// the load with their position; semantic ones (a missing or empty query
// root, unknown types, invalid directives, cycles of interfaces) are the
// document's Problems.
//
// Importing the package registers its reader with the spec loader.
package graphql

import (
	"bytes"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

func init() {
	spec.RegisterReader(&spec.Reader{
		Format:     spec.GraphQL,
		Name:       "GraphQL",
		Extensions: []string{".graphql", ".graphqls", ".gql"},
		Sniff:      sniff,
		Tags: func(d *spec.Document) []string {
			if s := Of(d); s != nil && s.Introspection {
				return []string{"graphql", "graphql-introspection"}
			}
			return []string{"graphql", "graphql-sdl"}
		},
		Read: read,
	})
}

var (
	introspectionKey = lazyregexp.New(`^\{\s*(?:"data"\s*:\s*\{\s*)?"__schema"\s*:`)
	sdlStart         = lazyregexp.New(`^(?:\s|#[^\n]*\n|"""(?s:.*?)"""|"[^"\n]*")*(?:type|schema|interface|input|enum|union|scalar|directive|extend)\s+[_A-Za-z@{]`)
)

// sniff recognizes introspection JSON ({"__schema": …} or {"data":
// {"__schema": …}}) and SDL read from standard input or a URL.
func sniff(data []byte) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return false
	}
	if trimmed[0] == '{' {
		return introspectionKey().Match(trimmed)
	}
	return sdlStart().Match(trimmed)
}

// Of returns the model of a GraphQL document, or nil for a document of
// another format.
func Of(d *spec.Document) *Schema {
	if d == nil {
		return nil
	}
	s, _ := d.Model.(*Schema)
	return s
}

// Schema is a GraphQL schema: its types (built-in scalars and
// introspection types are left out unless the document redefines them),
// its directives and its root operation types.
type Schema struct {
	// Introspection is set when the document is introspection JSON.
	Introspection bool
	Types         []*Type // in source order
	Directives    []*Directive
	// Query, Mutation and Subscription name the root operation types ("" when
	// the schema has none); RootsSource is where the schema definition is
	// written (nil when the roots are the default names).
	Query, Mutation, Subscription string
	RootsSource                   spec.Path
	Problems                      []Problem

	byName map[string]*Type
	// named is where SDL names a field, argument, enum value or directive
	// definition. A path names an element by its name, so an element
	// defined twice shares its path with the first definition; a problem
	// about the second must stand where the second is written.
	named map[any]spec.Range
}

// Problem is one semantic error of a document.
type Problem struct {
	Range   spec.Range
	Message string
	Source  spec.Path // the element the problem is about, when known
}

// Type returns the type of a name, or nil.
func (s *Schema) Type(name string) *Type { return s.byName[name] }

// Kinds of types, as introspection names them.
const (
	Scalar      = "SCALAR"
	Object      = "OBJECT"
	Interface   = "INTERFACE"
	Union       = "UNION"
	Enum        = "ENUM"
	InputObject = "INPUT_OBJECT"
)

// Type is a named type.
type Type struct {
	Name        string
	Kind        string
	Description string
	// Fields are the fields of an object or interface, and the input fields
	// of an input object.
	Fields     []*Field
	Interfaces []string // implemented interfaces
	Members    []string // union members
	Values     []*EnumValue
	Directives []*DirectiveUse
	BuiltIn    bool // a scalar or introspection type of the specification
	Source     spec.Path
}

// Field returns the field of a name, or nil.
func (t *Type) Field(name string) *Field {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Value returns the enum value of a name, or nil.
func (t *Type) Value(name string) *EnumValue {
	for _, v := range t.Values {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Field is a field of an object or interface, or an input field (then
// without Args, possibly with a default).
type Field struct {
	Name        string
	Description string
	Type        *TypeRef
	Args        []*Argument
	Default     string // GraphQL literal; "" with HasDefault false when none
	HasDefault  bool
	Deprecated  bool
	// DeprecationReason is the reason as written, "" when @deprecated has
	// none (the specification's default reason then applies).
	DeprecationReason string
	Directives        []*DirectiveUse
	Source            spec.Path
}

// Arg returns the argument of a name, or nil.
func (f *Field) Arg(name string) *Argument {
	for _, a := range f.Args {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Argument is an argument of a field or directive.
type Argument struct {
	Name              string
	Description       string
	Type              *TypeRef
	Default           string
	HasDefault        bool
	Deprecated        bool
	DeprecationReason string
	Directives        []*DirectiveUse
	Source            spec.Path
}

// EnumValue is a value of an enum.
type EnumValue struct {
	Name              string
	Description       string
	Deprecated        bool
	DeprecationReason string
	Directives        []*DirectiveUse
	Source            spec.Path
}

// Directive is a directive definition.
type Directive struct {
	Name        string
	Description string
	Args        []*Argument
	Locations   []string
	Repeatable  bool
	Source      spec.Path
}

// DirectiveUse is a directive applied to an element.
type DirectiveUse struct {
	Name string
	Args map[string]string // GraphQL literals by argument name
	// Range is where the directive is written (its name).
	Range spec.Range
}

// TypeRef is a reference to a type: a named type, a list, either non-null.
type TypeRef struct {
	Name    string   // the named type ("" for a list)
	Elem    *TypeRef // the item type of a list
	NonNull bool
}

// String writes the reference as GraphQL does: "[String!]!".
func (t *TypeRef) String() string {
	if t == nil {
		return ""
	}
	s := t.Name
	if t.Elem != nil {
		s = "[" + t.Elem.String() + "]"
	}
	if t.NonNull {
		s += "!"
	}
	return s
}

// Named is the named type at the bottom of the reference.
func (t *TypeRef) Named() string {
	for t != nil && t.Elem != nil {
		t = t.Elem
	}
	if t == nil {
		return ""
	}
	return t.Name
}

// IsList reports whether the reference is a list, non-null or not.
func (t *TypeRef) IsList() bool { return t != nil && t.Elem != nil }

// builtInScalars are the scalars every schema has.
var builtInScalars = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

// builtInDirectives are the directives every schema has, with their
// locations.
var builtInDirectives = map[string][]string{
	"skip":        {"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
	"include":     {"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
	"deprecated":  {"FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE"},
	"specifiedBy": {"SCALAR"},
	"oneOf":       {"INPUT_OBJECT"},
}

// isBuiltIn reports whether a type name is the specification's own.
func isBuiltIn(name string) bool { return builtInScalars[name] || strings.HasPrefix(name, "__") }

// DefaultDeprecationReason is the reason @deprecated gives without one.
const DefaultDeprecationReason = "No longer supported"
