package policy

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/spec"
)

// TestSchemaPlacesSpellAsRego: specgate.schema_place names every schema
// (and Swagger 2.0 schema-like value) of the rule fixtures and the smaller
// corpus specs as correctness._where, the Rego it replaces, does; and
// declines only what the Rego alone can spell.
func TestSchemaPlacesSpellAsRego(t *testing.T) {
	reg, err := LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	compiler, err := compileSources(reg.Libs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	query, err := rego.New(rego.Compiler(compiler), rego.Query(`items := [[v.source, place, data.specgate.lib.correctness._where(v.source)] |
		some v in array.concat(input.schemas, input.swaggerValues)
		place := {p | p := specgate.schema_place(v.source, input.document, input.format)}
	]`)).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../rules/*/testdata/*.*")
	corpus, _ := filepath.Glob("../../shared/corpus/*.*")
	for _, f := range corpus {
		if info, err := os.Stat(f); err == nil && info.Size() < 2<<20 {
			files = append(files, f)
		}
	}
	loader := spec.NewLoader(spec.Options{})
	alike, declined := 0, 0
	for _, f := range files {
		doc, err := loader.Load(ctx, f)
		if err != nil || doc.Format == spec.AsyncAPI {
			continue
		}
		rs, err := query.Eval(ctx, rego.EvalParsedInput(Input(doc)))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v %v", f, rs, err)
		}
		items, err := ast.InterfaceToValue(rs[0].Bindings["items"])
		if err != nil {
			t.Fatal(err)
		}
		items.(*ast.Array).Foreach(func(item *ast.Term) {
			it := item.Value.(*ast.Array)
			source, place, want := it.Elem(0), it.Elem(1).Value.(*ast.Array), it.Elem(2) // a set, read back as a list
			switch {
			case place.Len() == 0:
				declined++
				t.Logf("%s: %v declined (Rego: %v)", f, source, want)
			case place.Len() != 1 || place.Elem(0).Value.Compare(want.Value) != 0:
				t.Errorf("%s: %v is %v, Rego says %v", f, source, place, want)
			default:
				alike++
			}
		})
	}
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
