package builtins

import (
	"strconv"
	"testing"
)

// TestSchemaLabel: specgate.schema_label names a schema by its component
// name, the property, parameter or body it is written in, or the keyword
// it is under; parameters are found by where their schema is written.
func TestSchemaLabel(t *testing.T) {
	params := `{["paths", "/a", "get", "parameters", 0, "schema"]: {"in": "query", "name": "tags"}, ["paths", "/a", "post", "parameters", 1]: {"in": "formData", "name": "file"}}`
	for _, tc := range []struct{ name, source, format, want string }{
		{"Pet", `["components", "schemas", "Pet"]`, "openapi", `schema "Pet"`},
		{"", `["components", "schemas", "Pet", "properties", "name"]`, "openapi", `property "name" in schema "Pet"`},
		{"", `["x", "properties", "name"]`, "openapi", `property "name"`},
		{"", `["paths", "/a", "get", "parameters", 0, "schema"]`, "openapi", `query parameter "tags"`},
		{"", `["paths", "/a", "get", "parameters", 0, "schema", "items"]`, "openapi", `items of query parameter "tags"`},
		{"", `["paths", "/a", "get", "parameters", 0, "schema", "oneOf", 1, "items"]`, "openapi", `array items in query parameter "tags"`},
		{"", `["components", "schemas", "Map", "additionalProperties"]`, "openapi", `additional properties in schema "Map"`},
		{"", `["paths", "/a", "post", "requestBody", "content", "application/json", "schema", "oneOf", 1]`, "openapi", "a schema in the request body of POST /a"},
		{"", `["paths", "/a", "post", "parameters", 0, "schema"]`, "swagger", "the request body of POST /a"},
		{"", `["paths", "/a", "post", "parameters", 1]`, "swagger", `formData parameter "file"`},
		{"", `["paths", "/a", "get", "responses", "200", "content", "application/json", "schema"]`, "openapi", "response 200 of GET /a"},
		{"", `["components", "requestBodies", "NewPet", "content", "application/json", "schema"]`, "openapi", `the request body "NewPet"`},
		{"", `["responses", "NotFound", "schema"]`, "swagger", `response "NotFound"`},
		{"", `["x-other", "schema"]`, "openapi", "a schema"},
		// A number where a key is written is spelled by its digits.
		{"", `["components", "schemas", "Pet", "properties", 7]`, "openapi", `property "7" in schema "Pet"`},
		{"", `["paths", "/a", "get", "responses", 200, "content", "application/json", "schema"]`, "openapi", "response 200 of GET /a"},
	} {
		q := `x := specgate.schema_label("` + tc.name + `", ` + tc.source + `, ` + params + `, "` + tc.format + `")`
		if got, want := evalX(t, q), strconv.Quote(tc.want); got != want {
			t.Errorf("schema_label(%q, %s, %s) = %s, want %s", tc.name, tc.source, tc.format, got, want)
		}
	}
}
