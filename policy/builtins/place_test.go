package builtins

import (
	"context"
	"strconv"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestSchemaPlace(t *testing.T) {
	doc := `{"paths": {"/pets": {"parameters": [{"name": "id", "in": "path"}]}}}`
	for _, tc := range []struct{ path, format, want string }{
		{`["definitions", "Pet", "properties", "tags", "items"]`, "swagger", `items of property "tags" of schema "Pet"`},
		{`["paths", "/pets", "get", "responses", "200", "content", "application/json", "schema", "allOf", 1]`, "openapi", `allOf member 1 of the response 200 of GET /pets (application/json)`},
		{`["paths", "/pets", "parameters", 0, "schema"]`, "openapi", `schema of parameter "id" of path /pets`},
		{`["x-things", "a/b", 0]`, "openapi", `the schema at /x-things/a~1b/0`},
		// A number where a name belongs: formatted as OPA's sprintf does.
		{`["components", "schemas", 7]`, "openapi", `schema '\a'`},
	} {
		rs, err := rego.New(rego.Query(`x := specgate.schema_place(` + tc.path + `, ` + doc + `, "` + tc.format + `")`)).Eval(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(rs) == 1 {
			got = rs[0].Bindings["x"].(string)
		}
		if got != tc.want {
			t.Errorf("schema_place(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestSchemaPlaceOfOddPaths: segments and parameter names that are not
// strings are spelled as correctness.where spelled them when it was
// written in Rego (OPA's sprintf of the value: %q of an integer is a
// character literal, of an object its Rego text), and anchors that
// Swagger 2.0 alone has are found in its documents only.
func TestSchemaPlaceOfOddPaths(t *testing.T) {
	doc := `{"paths": {"/pets": {"parameters": [{"name": "id", "in": "path"}, {"name": 7}], "get": {"parameters": [{"name": {"a": 1}}]}}}}`
	for _, tc := range []struct{ path, format, want string }{
		{`["components", "schemas", 7, "properties", 3]`, "openapi", `property '\x03' of schema '\a'`},
		{`["definitions", 1.5, "items"]`, "openapi", `items of schema %!q(float64=1.5)`},
		{`["paths", "/pets", "parameters", 1, "schema"]`, "openapi", `schema of parameter '\a' of path /pets`},
		{`["paths", "/pets", "get", "parameters", 0, "schema"]`, "openapi", `parameter "{\"a\": 1}" of GET /pets`},
		{`["paths", "/pets", "get", "parameters", 0, "schema"]`, "swagger", `the body of GET /pets`},
		{`["paths", "/pets", "get", "responses", 200, "content", "application/json", "schema"]`, "openapi", `the response %!s(int64=200) of GET /pets (application/json)`},
		{`["paths", 12, "get", "responses", "200", "schema", "allOf", 2.5]`, "openapi", `allOf member 2.5 of the response 200 of GET %!s(int64=12)`},
		{`["x-things", 3, {"k": 1}]`, "openapi", `the schema at /x-things/3/{"k": 1}`},
		{`["components", "schemas", "Pet", "properties", "a", "allOf", 1, "items"]`, "openapi", `items of allOf member 1 of property "a" of schema "Pet"`},
		{`["paths", "/a", "get", "callbacks", "cb", "{$url}", "post", "requestBody", "content", "text/plain", "schema"]`, "openapi", `the request body of POST {$url} (callback cb) (text/plain)`},
		{`["parameters", 5]`, "openapi", `the schema at /parameters/5`},
		{`["parameters", 5]`, "swagger", `parameter '\x05'`},
		{`["responses", 404, "headers", 9]`, "openapi", `the schema at /responses/404/headers/9`},
		{`["responses", 404, "headers", 9]`, "swagger", `header '\t' of response 'Ɣ'`},
		{`["components", "schemas", "P", "properties", 1e3]`, "openapi", `property %!q(float64=1000) of schema "P"`},
		{`["paths", "/a", "parameters", 99999999999999999999, "schema"]`, "openapi", `schema of parameter "" of path /a`},
	} {
		q := `x := specgate.schema_place(` + tc.path + `, ` + doc + `, "` + tc.format + `")`
		if got, want := evalX(t, q), strconv.Quote(tc.want); got != want {
			t.Errorf("schema_place(%s, %s) = %s, want %s", tc.path, tc.format, got, want)
		}
	}
}
