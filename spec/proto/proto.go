// Package proto reads Protocol Buffers files (proto2, proto3 and the
// editions protocompile supports) into specgate documents: a spec.Document
// whose files are node trees with the position of every element (so that
// lint diagnostics and compatibility changes land on the line and column
// where the element is written), and a typed model of the schema
// (Schema: files, messages, fields, enums, services, RPCs) for validation,
// lint input and the compatibility check. Imports are resolved across
// files and import roots; syntax errors fail the load with their position,
// semantic ones (unresolved types, duplicate or reserved field numbers, an
// import cycle) are the document's Problems.
//
// Importing the package registers its reader with the spec loader.
package proto

import (
	"bytes"
	"context"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

func init() {
	spec.RegisterReader(&spec.Reader{
		Format:     spec.Proto,
		Name:       "Protocol Buffers",
		Extensions: []string{".proto"},
		Sniff:      sniff,
		Tags: func(d *spec.Document) []string {
			if s := Of(d); s != nil {
				return []string{"proto", s.Entry.Syntax}
			}
			return []string{"proto"}
		},
		Read: func(ctx context.Context, src *spec.Source) (*spec.Document, error) { return read(ctx, src) },
	})
}

// syntaxLine matches the first statement of a .proto file read from
// standard input or a URL.
var syntaxLine = lazyregexp.New(`^(?:\s|//[^\n]*\n|/\*(?s:.*?)\*/)*(?:syntax|edition)\s*=\s*["'](?:proto[23]|\d{4})["']\s*;`)

func sniff(data []byte) bool {
	if len(data) == 0 || data[0] == '{' || bytes.HasPrefix(bytes.TrimSpace(data), []byte("<")) {
		return false
	}
	return syntaxLine().Match(data)
}

// Of returns the model of a Protocol Buffers document, or nil for a
// document of another format.
func Of(d *spec.Document) *Schema {
	if d == nil {
		return nil
	}
	s, _ := d.Model.(*Schema)
	return s
}

// Schema is a Protocol Buffers document: its entry file and the files it
// imports (those read from source; the well-known types are known by name
// only), with every element in a flat list as well as nested.
type Schema struct {
	Entry *File
	// Files are the entry file and the files it imports, directly or not,
	// that were read from source, entry first.
	Files []*File
	// Problems are the semantic errors found when linking the files
	// (unresolved types, duplicate and reserved numbers, import cycles,
	// unresolved imports), each at its position.
	Problems []Problem

	messages map[string]*Message
	enums    map[string]*Enum
}

// Problem is one semantic error of a document.
type Problem struct {
	File    string // display name of the file it is in
	Range   spec.Range
	Message string
}

// Message returns the message of a full name ("foo.v1.Bar"), or nil.
func (s *Schema) Message(fullName string) *Message {
	return s.messages[strings.TrimPrefix(fullName, ".")]
}

// Enum returns the enum of a full name, or nil.
func (s *Schema) Enum(fullName string) *Enum { return s.enums[strings.TrimPrefix(fullName, ".")] }

// File is one .proto file.
type File struct {
	Name    string // as shown to users (spec.File.Name)
	Path    string // the import path other files name it by
	Syntax  string // "proto2", "proto3" or "editions"
	Edition string // "2023", … for editions
	Package string
	Imports []Import
	// Options are the file options as written (go_package, java_package,
	// …), by name; values are their literal text.
	Options map[string]string

	Messages   []*Message // top level
	Enums      []*Enum    // top level
	Services   []*Service
	Extensions []*Field

	// AllMessages and AllEnums list every message and enum, nested ones
	// included (map entries excepted), in source order.
	AllMessages []*Message
	AllEnums    []*Enum

	// Source is the path of the file's package statement in its tree.
	Source spec.Path
}

// Import is one import statement.
type Import struct {
	Path   string
	Public bool
	Weak   bool
	Source spec.Path
}

// Range is an inclusive range of numbers (reserved and extension ranges).
type Range struct{ Start, End int32 }

// Contains reports whether n is in the range.
func (r Range) Contains(n int32) bool { return n >= r.Start && n <= r.End }

// Message is a message (a group's message too).
type Message struct {
	Name     string
	FullName string
	File     *File
	Parent   *Message // nil at the top level

	Fields   []*Field
	Oneofs   []*Oneof
	Messages []*Message
	Enums    []*Enum

	ReservedRanges  []Range
	ReservedNames   []string
	ExtensionRanges []Range
	Options         map[string]string
	Comment         string // leading comment

	Source spec.Path
}

// Reserved reports whether a field number is reserved.
func (m *Message) Reserved(n int32) bool {
	for _, r := range m.ReservedRanges {
		if r.Contains(n) {
			return true
		}
	}
	return false
}

// ReservedName reports whether a field name is reserved.
func (m *Message) ReservedName(name string) bool {
	for _, n := range m.ReservedNames {
		if n == name {
			return true
		}
	}
	return false
}

// Field returns the field of a number, or nil.
func (m *Message) Field(number int32) *Field {
	for _, f := range m.Fields {
		if f.Number == number {
			return f
		}
	}
	return nil
}

// Oneof is a oneof of a message (not the synthetic oneof of a proto3
// optional field).
type Oneof struct {
	Name   string
	Fields []*Field
	Source spec.Path
}

// Field is a field of a message, or an extension.
type Field struct {
	Name     string
	FullName string
	JSONName string // the json_name option when written, else protoc's default
	Number   int32
	// Label is "optional", "required" or "repeated" as written; "" for a
	// proto3 or editions field without one.
	Label string
	// Type is the scalar type ("int32", "string", "bytes", …), "message",
	// "enum" or "group"; "" when the type name did not resolve.
	Type string
	// TypeName is the full name of a message or enum type, or the name as
	// written when it did not resolve.
	TypeName string
	// Map is set for a map field: its key and value types.
	Map            *MapType
	Oneof          string // the oneof the field is in ("" for none)
	Proto3Optional bool
	Default        string // the default value as written ("" for none)
	HasDefault     bool
	JSONNameSet    bool
	Options        map[string]string
	Extendee       string // for an extension: the extended message's full name
	Comment        string

	Message *Message // the message it is in (nil for a file-level extension)
	Source  spec.Path
}

// MapType is the key and value of a map field.
type MapType struct {
	Key, Value string // scalar types, "message" or "enum"
	ValueName  string // the full name of a message or enum value
}

// Cardinality is how a field occurs on the wire and in code: "repeated",
// "map", "required", "optional" (presence tracked: proto2 optional, proto3
// optional, message fields, oneof members, editions explicit presence) or
// "implicit" (proto3 singular scalar).
func (f *Field) Cardinality(syntax string) string {
	switch {
	case f.Map != nil:
		return "map"
	case f.Label == "repeated":
		return "repeated"
	case f.Label == "required" || f.Options["features.field_presence"] == "LEGACY_REQUIRED":
		return "required"
	case f.Label == "optional", f.Proto3Optional, f.Oneof != "", f.Type == "message", f.Type == "group":
		return "optional"
	case syntax == "proto3", f.Options["features.field_presence"] == "IMPLICIT":
		return "implicit"
	}
	return "optional"
}

// TypeString names the field's type as written in .proto ("string",
// "foo.v1.Bar", "map<string, int32>").
func (f *Field) TypeString() string {
	if f.Map != nil {
		v := f.Map.Value
		if f.Map.ValueName != "" {
			v = f.Map.ValueName
		}
		return "map<" + f.Map.Key + ", " + v + ">"
	}
	if f.TypeName != "" {
		return f.TypeName
	}
	return f.Type
}

// Enum is an enum type.
type Enum struct {
	Name           string
	FullName       string
	File           *File
	Parent         *Message
	Values         []*EnumValue
	ReservedRanges []Range
	ReservedNames  []string
	Options        map[string]string
	// Closed is set for proto2 enums and editions enums with
	// enum_type = CLOSED: unknown values are not kept in the field.
	Closed  bool
	Comment string
	Source  spec.Path
}

// Value returns the first value of a number, or nil.
func (e *Enum) Value(number int32) *EnumValue {
	for _, v := range e.Values {
		if v.Number == number {
			return v
		}
	}
	return nil
}

// Reserved reports whether a number is reserved.
func (e *Enum) Reserved(n int32) bool {
	for _, r := range e.ReservedRanges {
		if r.Contains(n) {
			return true
		}
	}
	return false
}

// EnumValue is one value of an enum.
type EnumValue struct {
	Name    string
	Number  int32
	Comment string
	Source  spec.Path
}

// Service is a gRPC service.
type Service struct {
	Name     string
	FullName string
	File     *File
	Methods  []*Method
	Comment  string
	Options  map[string]string
	Source   spec.Path
}

// Method is an RPC of a service.
type Method struct {
	Name            string
	Input, Output   string // full names of the request and response messages
	ClientStreaming bool
	ServerStreaming bool
	// IdempotencyLevel is the idempotency_level option as written, "" when
	// not set.
	IdempotencyLevel string
	Comment          string
	Options          map[string]string
	Source           spec.Path
}
