package input_test

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
)

// TestReceivedLabelsNameARequest: an item of input.received is named by a
// request that uses it, even when it is written in a response that a
// request body (or a parameter, or a callback) $refs into, as published
// APIs bundled without components do; a schema written for requests, or
// reused by name, keeps the label of where it is written.
func TestReceivedLabelsNameARequest(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      map[string]string // source → label
	}{{
		name: "a request body reaches a response's schema",
		doc: `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /lbs:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  lb:
                    type: object
                    properties:
                      ids: {type: array, items: {type: integer}}
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/paths/~1lbs/get/responses/200/content/application~1json/schema/properties/lb'}
      responses: {"201": {description: created}}
`,
		want: map[string]string{
			`["paths", "/lbs", "get", "responses", "200", "content", "application/json", "schema", "properties", "lb"]`:                               `the request body of POST /lbs`,
			`["paths", "/lbs", "get", "responses", "200", "content", "application/json", "schema", "properties", "lb", "properties", "ids"]`:          `property "ids" in the request body of POST /lbs`,
			`["paths", "/lbs", "get", "responses", "200", "content", "application/json", "schema", "properties", "lb", "properties", "ids", "items"]`: `array items in the request body of POST /lbs`,
		},
	}, {
		name: "the first request in order names it; a parameter too",
		doc: `openapi: 3.0.3
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
                  tags: {type: array, items: {type: string}}
  /b:
    get:
      parameters:
        - name: tag
          in: query
          schema: {$ref: '#/paths/~1a/get/responses/200/content/application~1json/schema/properties/tags'}
      responses: {"200": {description: ok}}
    put:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/paths/~1a/get/responses/200/content/application~1json/schema'}
      responses: {"200": {description: ok}}
`,
		want: map[string]string{
			`["paths", "/a", "get", "responses", "200", "content", "application/json", "schema"]`:                                `the request body of PUT /b`,
			`["paths", "/a", "get", "responses", "200", "content", "application/json", "schema", "properties", "tags"]`:          `query parameter "tag"`,
			`["paths", "/a", "get", "responses", "200", "content", "application/json", "schema", "properties", "tags", "items"]`: `items of query parameter "tag"`,
		},
	}, {
		name: "written for requests or by name, the label is where it is written",
		doc: `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                pet: {$ref: '#/components/schemas/Pet'}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
  /b:
    put:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/paths/~1a/post/requestBody/content/application~1json/schema'}
      responses: {"200": {description: ok}}
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {type: string}
`,
		want: map[string]string{
			`["paths", "/a", "post", "requestBody", "content", "application/json", "schema"]`: `the request body of POST /a`,
			`["components", "schemas", "Pet"]`:                                                `schema "Pet"`,
			`["components", "schemas", "Pet", "properties", "name"]`:                          `property "name" in schema "Pet"`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			in := input.Build(load(t, tc.doc)).(ast.Object)
			got := map[string]string{}
			items := in.Get(ast.StringTerm("received")).Value.(*ast.Array)
			for i := range items.Len() {
				item := items.Elem(i).Value.(ast.Object)
				label, _ := ast.JSONWithOpt(item.Get(ast.StringTerm("label")).Value, ast.JSONOpt{})
				got[item.Get(ast.StringTerm("source")).String()] = label.(string)
			}
			for source, want := range tc.want {
				if got[source] != want {
					t.Errorf("label of %s = %q, want %q", source, got[source], want)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("received %d items, want %d: %q", len(got), len(tc.want), got)
			}
		})
	}
}
