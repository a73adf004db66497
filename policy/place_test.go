package policy

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// TestSchemaPlacesSpellAsRego: specgate.schema_place names every schema
// (and Swagger 2.0 schema-like value) of the rule fixtures and the smaller
// corpus specs as correctness._where, the Rego it replaces, does; and
// declines only what the Rego alone can spell.
func TestSchemaPlacesSpellAsRego(t *testing.T) {
	alike, declined := eachSpecAsRego(t, `[[v.source, [p | p := specgate.schema_place(v.source, input.document, input.format)], data.specgate.lib.correctness._where(v.source)] |
		some v in array.concat(input.schemas, input.swaggerValues)
	]`, 2<<20)
	if alike < 1000 {
		t.Errorf("only %d places compared", alike)
	}
	t.Logf("%d places alike, %d declined", alike, declined)
}

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
