// Package schema compiles the schemas of a loaded specification into
// validators and generators of values. It is the one place that maps the
// schema dialects of Swagger 2.0, OpenAPI 3.0 and OpenAPI 3.1/3.2 (JSON
// Schema 2020-12) onto one validator (santhosh-tekuri/jsonschema/v6): the
// mock server, the contract tests and the example commands all validate and
// generate values through it.
//
// Values are JSON values as encoding/json decodes them with UseNumber: nil,
// bool, json.Number, string, []any and map[string]any. Generated values have
// the same types.
package schema

import (
	"github.com/specgate/specgate/spec"
)

// Direction tells which side of an exchange a value travels: OpenAPI's
// readOnly properties are sent only by servers, writeOnly ones only by
// clients.
type Direction uint8

const (
	// Request values are sent by a client: readOnly properties are not
	// required and not generated.
	Request Direction = iota + 1
	// Response values are sent by a server: writeOnly properties are not
	// required and not generated.
	Response
)

// Set compiles the schemas of one document on demand and keeps each
// compiled schema for the life of the set. It is safe for concurrent use.
type Set struct {
	doc *spec.Document
}

// NewSet returns the set of schemas of doc. Nothing is compiled until a
// schema is asked for.
func NewSet(doc *spec.Document) *Set {
	return &Set{doc: doc}
}

// Compile returns the schema written at node, whose path from the entry
// file's root is src (as spec.Views gives them: MediaType.Schema and
// SchemaSource, Parameter.Schema and SchemaSource, …). node may be a $ref
// object. Compiling the same node twice returns the same *Schema.
func (s *Set) Compile(node *spec.Node, src spec.Path) (*Schema, error) {
	panic("schema: not implemented")
}

// Schema is one compiled schema.
type Schema struct{}

// Validate checks v against the schema for values travelling in dir and
// returns every problem found; nil when v is valid.
func (sc *Schema) Validate(v any, dir Direction) []Problem {
	panic("schema: not implemented")
}

// Generate returns a value valid against the schema for dir, drawn from g.
// The schema's own example, examples or default come first where they are
// valid (unless g prefers generated values).
func (sc *Schema) Generate(g *Generator, dir Direction) (any, error) {
	panic("schema: not implemented")
}

// Problem is one failure of a value against a schema.
type Problem struct {
	// Path locates the failing value within the validated value: object
	// keys as strings, array indices as ints; empty for the value itself.
	Path []any
	// Keyword is the failing keyword: "type", "required", "pattern", …
	Keyword string
	// Message says what is wrong in plain words, without the path.
	Message string
	// Schema is where the failing keyword is written in the specification.
	Schema spec.Location
}

// Generator draws generated values. It is deterministic: the same seed and
// the same sequence of calls give the same values. It is not safe for
// concurrent use; make one per goroutine (or per request) from a seed.
type Generator struct{}

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	return &Generator{}
}
