package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

const schemaFile = "../docs/specgate.schema.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("specgate.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("specgate.schema.json")
	if err != nil {
		t.Fatalf("%s does not compile: %v", schemaFile, err)
	}
	return sch
}

// jsonValue reads a configuration file as the JSON value an editor's
// schema validation sees.
func jsonValue(t *testing.T, file string) any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root, err := spec.Parse(file, data, spec.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return schema.JSONValue(root)
}

// TestSchemaAgreesWithLoader validates every fixture against the published
// JSON Schema: the files the loader accepts pass it, those with problems of
// shape (unknown keys, wrong types, missing keys, bad versions) fail it.
// Problems that need more than the file's shape (a $ref's target, a cycle,
// a spec file or an environment variable that is missing, a spec id the
// service lacks) are the loader's alone: those fixtures pass the schema.
func TestSchemaAgreesWithLoader(t *testing.T) {
	sch := compileSchema(t)
	var files []string
	for _, pattern := range []string{"testdata/v3/*", "testdata/v2/*", "testdata/invalid/*", "testdata/semantic/*", "../examples/specgate.yaml"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 15 {
		t.Fatalf("%d fixtures", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimPrefix(file, "testdata/"), func(t *testing.T) {
			_, loadErr := Load(file, Options{Getenv: func(k string) string {
				return map[string]string{"SET": "value", "API_KEY": "key"}[k]
			}})
			schemaErr := sch.Validate(jsonValue(t, file))
			switch dir := filepath.Base(filepath.Dir(file)); dir {
			case "invalid":
				if schemaErr == nil || loadErr == nil {
					t.Errorf("schema error %v, loader error %v: want both", schemaErr, loadErr)
				}
			case "semantic":
				if schemaErr != nil || loadErr == nil {
					t.Errorf("schema error %v, loader error %v: want the loader's alone", schemaErr, loadErr)
				}
			default:
				if schemaErr != nil || loadErr != nil {
					t.Errorf("schema error %v, loader error %v: want neither", schemaErr, loadErr)
				}
			}
		})
	}
}

// TestSchemaCatchesEachMistake: one mistake at a time in a valid file, each
// of which the schema and the loader both reject.
func TestSchemaCatchesEachMistake(t *testing.T) {
	sch := compileSchema(t)
	base, err := os.ReadFile("testdata/v3/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, new string }{
		{"type: test", "type: tset"},
		{"baseUrl: http://localhost:8080/api/", "baseUrl: http://localhost:8080/api/\n        port: 8080"},
		{"port: ${PAYMENTS_PORT:9101}", "port: 9101x"},
		{"port: ${PAYMENTS_PORT:9101}", "port: 65536"},
		{"host: 127.0.0.1", "host: 127.0.0.1/x"},
		{"enable: positiveOnly", "enable: sometimes"},
		{"maxAttempts: 5", "maxAttempts: 0"},
		{"generative: true", "generative: maybe"},
		{"strictMode: false", "strictMode: ${STRICT:false}"},
		{"type: bearer", "type: jwt"},
		{"token: ${ORDERS_TOKEN:dev-token}", "tokn: x"},
		{"$ref: \"#/components/sources/local\"", "$ref: \"#/components/services/local\""},
		{"directory: ../specs", "directory: ../specs\n      git:\n        url: https://git.example.com/x.git"},
		{"formats: [ctrf, junit]", "formats: [ctrf, docx]"},
		{"version: 3", "version: 1"},
		{"              id: orders\n              securitySchemes", "              path: orders.yaml\n              id: orders\n              securitySchemes"},
	} {
		if !strings.Contains(string(base), tc.old) {
			t.Fatalf("full.yaml has no %q", tc.old)
		}
		data := strings.Replace(string(base), tc.old, tc.new, 1)
		file := filepath.Join("testdata", "v3", "mistake.yaml")
		_, loadErr := Parse(file, []byte(data), Options{Getenv: func(string) string { return "" }})
		root, err := spec.Parse(file, []byte(data), spec.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		schemaErr := sch.Validate(schema.JSONValue(root))
		if loadErr == nil || schemaErr == nil {
			t.Errorf("%q → %q: loader error %v, schema error %v; want both", tc.old, tc.new, loadErr, schemaErr)
		}
	}
}

// TestDocExamples validates the complete configurations that docs/config.md
// shows (its YAML blocks that start with version:) against the schema, so
// that the documentation shows files that editors accept.
func TestDocExamples(t *testing.T) {
	sch := compileSchema(t)
	data, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(data), "```yaml\n")[1:]
	n := 0
	for i, b := range blocks {
		text, _, _ := strings.Cut(b, "```")
		if !strings.HasPrefix(text, "version:") {
			continue
		}
		n++
		root, err := spec.Parse("config.md", []byte(text), spec.DefaultLimits())
		if err != nil {
			t.Errorf("block %d: %v", i+1, err)
			continue
		}
		if err := sch.Validate(schema.JSONValue(root)); err != nil {
			t.Errorf("block %d does not pass the schema: %v\n%s", i+1, err, text)
		}
	}
	if n < 2 {
		t.Errorf("%d complete configurations in docs/config.md, want the version 3 and 2 examples", n)
	}
}
