package builtins

import (
	"context"
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
		// A number where a name belongs: left to the Rego.
		{`["components", "schemas", 7]`, "openapi", ``},
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
