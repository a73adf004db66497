package input_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

// TestInputSchemaIndexes checks that requestSchemas and responseSchemas
// hold the very entries of schemas that each side reaches.
func TestInputSchemaIndexes(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/In'}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Out'}
components:
  schemas:
    In: {type: object, properties: {shared: {$ref: '#/components/schemas/Shared'}}}
    Out: {type: object, properties: {shared: {$ref: '#/components/schemas/Shared'}}}
    Shared: {type: string}
    Unused: {type: string}
`)
	in := input.Build(doc).(ast.Object)
	names := func(key string) []string {
		var out []string
		arr := in.Get(ast.StringTerm(key)).Value.(*ast.Array)
		for i := range arr.Len() {
			s := arr.Elem(i).Value.(ast.Object)
			out = append(out, s.Get(ast.StringTerm("name")).Value.(ast.String).String())
		}
		return out
	}
	if got := names("requestSchemas"); len(got) != 2 || got[0] != `"In"` || got[1] != `"Shared"` {
		t.Errorf("requestSchemas = %v, want In, Shared", got)
	}
	if got := names("responseSchemas"); len(got) != 2 || got[0] != `"Out"` || got[1] != `"Shared"` {
		t.Errorf("responseSchemas = %v, want Out, Shared", got)
	}
	all := in.Get(ast.StringTerm("schemas")).Value.(*ast.Array)
	req := in.Get(ast.StringTerm("requestSchemas")).Value.(*ast.Array)
	if all.Elem(0) != req.Elem(0) {
		t.Error("requestSchemas holds a copy of the schema entry, not the same term")
	}
}

// TestInputReceived checks input.received and its indexes by type and by
// key: request schemas but readOnly ones, and each Swagger non-body
// parameter once, however many operations take it.
func TestInputReceived(t *testing.T) {
	doc := load(t, `swagger: "2.0"
info: {title: T, version: "1"}
parameters:
  limit: {name: limit, in: query, type: integer}
paths:
  /a:
    parameters:
      - {name: q, in: query, type: string}
    get:
      parameters: [{$ref: '#/parameters/limit'}]
      responses: {"200": {description: ok, schema: {$ref: '#/definitions/Out'}}}
    post:
      consumes: [multipart/form-data]
      parameters:
        - {$ref: '#/parameters/limit'}
        - {name: file, in: formData, type: file}
        - {name: flag, in: formData, type: boolean}
      responses: {"200": {description: ok}}
  /b:
    put:
      parameters:
        - {name: body, in: body, schema: {$ref: '#/definitions/In'}}
      responses: {"200": {description: ok}}
definitions:
  In:
    type: object
    properties:
      id: {type: string, readOnly: true}
      name: {type: [string, "null"]}
      kept: {type: string, readOnly: false}
  Out: {type: string}
`)
	in := input.Build(doc).(ast.Object)
	want := []string{
		`["definitions", "In"]`,
		`["definitions", "In", "properties", "name"]`,
		`["definitions", "In", "properties", "kept"]`,
		`["paths", "/a", "parameters", 0]`,
		`["parameters", "limit"]`,
		`["paths", "/a", "post", "parameters", 1]`,
		`["paths", "/a", "post", "parameters", 2]`,
	}
	if got := sourcesOf(in.Get(ast.StringTerm("received"))); !slices.Equal(got, want) {
		t.Errorf("received sources:\n got %q\nwant %q", got, want)
	}
	byType := in.Get(ast.StringTerm("receivedOfType")).Value.(ast.Object)
	for typ, want := range map[string][]string{
		"object":  {want[0]},
		"string":  {want[1], want[2], want[3]},
		"null":    {want[1]},
		"integer": {want[4]},
		"file":    {want[5]},
		"boolean": {want[6]},
		"number":  nil,
	} {
		if got := sourcesOf(byType.Get(ast.StringTerm(typ))); !slices.Equal(got, want) {
			t.Errorf("receivedOfType.%s:\n got %q\nwant %q", typ, got, want)
		}
	}
	byKey := in.Get(ast.StringTerm("receivedWith")).Value.(ast.Object)
	for key, want := range map[string][]string{
		"properties": {want[0]},
		"readOnly":   {want[2]},
		"in":         want[3:],
		"type":       want,
		"maxLength":  nil,
	} {
		if got := sourcesOf(byKey.Get(ast.StringTerm(key))); !slices.Equal(got, want) {
			t.Errorf("receivedWith.%s:\n got %q\nwant %q", key, got, want)
		}
	}
}

// sourcesOf lists the sources of an array of input entries ({source, ...}),
// as Rego text; nil for a missing array.
func sourcesOf(list *ast.Term) []string {
	if list == nil {
		return nil
	}
	var out []string
	arr := list.Value.(*ast.Array)
	for i := range arr.Len() {
		out = append(out, arr.Elem(i).Value.(ast.Object).Get(ast.StringTerm("source")).String())
	}
	return out
}

// TestInputSwaggerValues checks input.swaggerValues and its indexes: the
// Swagger 2.0 objects that carry schema keywords themselves (non-body
// parameters, response headers of operations, where the views place them,
// and of reusable responses), each place once, and nothing for OpenAPI 3.
func TestInputSwaggerValues(t *testing.T) {
	doc := load(t, `swagger: "2.0"
info: {title: T, version: "1"}
parameters:
  limit: {name: limit, in: query, type: integer, maximum: 10}
responses:
  Limited:
    description: too many
    headers:
      Retry-After: {type: integer}
paths:
  /a:
    get:
      parameters: [{$ref: '#/parameters/limit'}, {name: tag, in: query, type: string, enum: [x]}]
      responses:
        "200": {description: ok, headers: {X-Total: {type: integer}}}
        "429": {$ref: '#/responses/Limited'}
    post:
      parameters: [{$ref: '#/parameters/limit'}, {name: body, in: body, schema: {type: object}}]
      responses:
        "429": {$ref: '#/responses/Limited'}
`)
	in := input.Build(doc).(ast.Object)
	want := []string{
		`["parameters", "limit"]`,
		`["paths", "/a", "get", "parameters", 1]`,
		`["paths", "/a", "get", "responses", "200", "headers", "X-Total"]`,
		`["paths", "/a", "get", "responses", "429", "headers", "Retry-After"]`,
		`["paths", "/a", "post", "responses", "429", "headers", "Retry-After"]`,
		`["responses", "Limited", "headers", "Retry-After"]`,
	}
	if got := sourcesOf(in.Get(ast.StringTerm("swaggerValues"))); !slices.Equal(got, want) {
		t.Errorf("swaggerValues:\n got %q\nwant %q", got, want)
	}
	with := in.Get(ast.StringTerm("swaggerValuesWith")).Value.(ast.Object)
	if got := sourcesOf(with.Get(ast.StringTerm("enum"))); !slices.Equal(got, want[1:2]) {
		t.Errorf("swaggerValuesWith.enum = %q", got)
	}
	if got := sourcesOf(with.Get(ast.StringTerm("maximum"))); !slices.Equal(got, want[:1]) {
		t.Errorf("swaggerValuesWith.maximum = %q", got)
	}
	byType := in.Get(ast.StringTerm("swaggerValuesOfType")).Value.(ast.Object)
	if got := sourcesOf(byType.Get(ast.StringTerm("integer"))); !slices.Equal(got, []string{want[0], want[2], want[3], want[4], want[5]}) {
		t.Errorf("swaggerValuesOfType.integer = %q", got)
	}

	oas := input.Build(load(t, "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  parameters:\n    p: {name: p, in: query, schema: {type: string}}\n")).(ast.Object)
	if n := oas.Get(ast.StringTerm("swaggerValues")).Value.(*ast.Array).Len(); n != 0 {
		t.Errorf("an OpenAPI 3 document has %d swaggerValues", n)
	}
}

// TestInputQueryParameters checks input.queryParameters: the query
// parameters of operations under paths, each once however many operations
// take it, in the order the operations first list them; not headers, not
// unused components, not webhooks'.
func TestInputQueryParameters(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
components:
  parameters:
    limit: {name: limit, in: query, schema: {type: integer}}
    unused: {name: unused, in: query, schema: {type: integer}}
paths:
  /a:
    parameters:
      - {name: q, in: query, schema: {type: string}}
    get:
      parameters:
        - {$ref: '#/components/parameters/limit'}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses: {"200": {description: ok}}
    post:
      parameters:
        - {$ref: '#/components/parameters/limit'}
        - {name: dry, in: query, schema: {type: boolean}}
      responses: {"200": {description: ok}}
  /b:
    get:
      parameters: [{$ref: '#/components/parameters/limit'}]
      responses: {"200": {description: ok}}
webhooks:
  hook:
    post:
      parameters: [{name: w, in: query, schema: {type: string}}]
      responses: {"200": {description: ok}}
`)
	in := input.Build(doc).(ast.Object)
	want := []string{
		`["paths", "/a", "parameters", 0]`,
		`["components", "parameters", "limit"]`,
		`["paths", "/a", "post", "parameters", 1]`,
	}
	got := sourcesOf(in.Get(ast.StringTerm("queryParameters")))
	if !slices.Equal(got, want) {
		t.Errorf("queryParameters sources:\n got %q\nwant %q", got, want)
	}
}

// TestInputPropertySchemas checks input.propertySchemas: the items of
// schemas written as a property, by the property's name, in order; not a
// property that is a $ref (its schema is written where the reference
// points), not a schema under a component named "properties".
func TestInputPropertySchemas(t *testing.T) {
	doc := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    properties:
      type: object
      properties:
        password: {type: string}
    User:
      type: object
      properties:
        password: {type: string, writeOnly: true}
        name: {type: string}
        properties:
          type: object
          properties:
            name: {type: string}
        owner: {$ref: '#/components/schemas/properties'}
`)
	in := input.Build(doc).(ast.Object)
	index := in.Get(ast.StringTerm("index")).Value.(ast.Object).Get(ast.StringTerm("propertySchemas"))
	if index == nil {
		t.Fatal("input has no propertySchemas")
	}
	props := index.Value.(ast.Object)
	want := map[string][]string{
		"password": {
			`["components", "schemas", "properties", "properties", "password"]`,
			`["components", "schemas", "User", "properties", "password"]`,
		},
		"name": {
			`["components", "schemas", "User", "properties", "name"]`,
			`["components", "schemas", "User", "properties", "properties", "properties", "name"]`,
		},
		"properties": {`["components", "schemas", "User", "properties", "properties"]`},
	}
	if props.Len() != len(want) {
		t.Errorf("propertySchemas has keys %v, want %d", props.Keys(), len(want))
	}
	for name, sources := range want {
		if got := sourcesOf(props.Get(ast.StringTerm(name))); !slices.Equal(got, sources) {
			t.Errorf("propertySchemas[%q]:\n got %q\nwant %q", name, got, sources)
		}
	}
}

// TestInputHasExamples: input.hasExamples tells whether an object of any
// of the document's files has an `example` or `examples` key.
func TestInputHasExamples(t *testing.T) {
	const entry = `openapi: 3.0.3
info: {title: T, version: "1", description: "an example in prose is none"}
paths:
  /a:
    get:
      parameters: [{name: q, in: query, schema: {type: string}}]
      responses:
        "200": {$ref: 'other.yaml#/components/responses/Ok'}
`
	for _, c := range []struct {
		name, other string
		want        bool
	}{
		{"none", "components: {responses: {Ok: {description: ok}}}\n", false},
		{"in another file", "components: {responses: {Ok: {description: ok, content: {application/json: {example: {id: 1}}}}}}\n", true},
		{"named examples", "components: {responses: {Ok: {description: ok, content: {application/json: {examples: {}}}}}}\n", true},
		{"a null example", "components: {responses: {Ok: {description: ok, headers: {X: {schema: {type: string}, example: null}}}}}\n", true},
	} {
		doc, _ := loadFiles(t, map[string]string{"api.yaml": entry, "other.yaml": c.other})
		got := field(t, input.Build(doc), "index.hasExamples")
		if got == nil || got.Value.Compare(ast.Boolean(c.want)) != 0 {
			t.Errorf("%s: hasExamples = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestInputReferencedComponents(t *testing.T) {
	const entry = `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  owner: {$ref: '#/components/schemas/Owner'}
                  tag: {$ref: '#/components/schemas/Tag/properties/name'}
                  other: {$ref: 'other.yaml#/components/schemas/Back'}
components:
  schemas:
    Owner: {type: object}
    Tag: {type: object, properties: {name: {type: string}}}
    Self: {type: object, properties: {child: {$ref: '#/components/schemas/Self'}}}
    Back: {type: string}
    a/b: {type: string}
    Unused: {type: string}
  parameters:
    Slashed: {$ref: '#/components/schemas/a~1b'}
`
	// other.yaml's Back lies where the entry file's does: its $ref to the
	// entry file's Back is from outside Back all the same.
	const other = `components: {schemas: {Back: {$ref: 'api.yaml#/components/schemas/Back'}}}
`
	doc, _ := loadFiles(t, map[string]string{"api.yaml": entry, "other.yaml": other})
	got := field(t, input.Build(doc), "index.referencedComponents")
	want := ast.MustParseTerm(`{"#/components/schemas": {"Back": true, "Owner": true, "Tag": true, "a/b": true}}`)
	if got == nil || got.Value.Compare(want.Value) != 0 {
		t.Errorf("referencedComponents = %v, want %v", got, want)
	}
}

// TestInputBodyUsesOfSharedReferences: a shared response or request body
// is judged once, with the first operation that uses its reference in
// that place, even where an earlier operation uses the same reference in
// the other (no valid document does; the loader reads it all the same).
// Its name quotes the first user of the reference.
func TestInputBodyUsesOfSharedReferences(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("..", "testdata", "spell", "shared-refs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	input := input.Build(doc)
	uses := func(key, part string) []string {
		var out []string
		field(t, input, key).Value.(*ast.Array).Foreach(func(u *ast.Term) {
			o := u.Value.(ast.Object)
			src := o.Get(ast.StringTerm(part)).Value.(ast.Object).Get(ast.StringTerm("source"))
			out = append(out, fmt.Sprintf("%v %v at %v", src, o.Get(ast.StringTerm("name")), o.Get(ast.StringTerm("at"))))
		})
		return out
	}
	const name = `"response #/components/responses/Thing (used by POST /a and 2 other operations)"`
	want := []string{
		`["paths", "/a", "post", "responses", "204"] "POST /a response 204" at ["paths", "/a", "post", "responses", "204"]`,
		`["paths", "/b", "get", "responses", "200"] ` + name + ` at ["components", "responses", "Thing"]`,
		`["paths", "/b", "get", "responses", "201"] ` + name + ` at ["components", "responses", "Thing"]`,
	}
	if got := uses("responseUses", "response"); !slices.Equal(got, want) {
		t.Errorf("responseUses:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantBodies := []string{
		`["paths", "/a", "post", "requestBody"] "request body #/components/responses/Thing (used by POST /a and 2 other operations)" at ["components", "responses", "Thing"]`,
	}
	if got := uses("index.requestBodyUses", "requestBody"); !slices.Equal(got, wantBodies) {
		t.Errorf("requestBodyUses:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantBodies, "\n"))
	}
}
