package spec_test

import (
	"context"
	"slices"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestMediaTypeSourcesIndependent: a media type's source and its schema's
// source share one array, yet each reads as its own path, and appending
// to either leaves the other as it was.
func TestMediaTypeSourcesIndependent(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.yaml", []byte(`openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json: {schema: {type: string}}
            text/plain: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	op := doc.Views().Operations[0]
	if len(op.Parameters) != 0 || len(op.Servers) != 0 || op.RequestBody != nil {
		t.Errorf("an operation without parameters, servers or body: %v, %v, %v", op.Parameters, op.Servers, op.RequestBody)
	}
	content := op.Responses[0].Content
	if len(content) != 2 {
		t.Fatalf("content: %d media types, want 2", len(content))
	}
	base := spec.Path{"paths", "/a", "get", "responses", "200", "content"}
	json, plain := content[0], content[1]
	if want := append(slices.Clone(base), "application/json"); !slices.Equal(json.Source, want) {
		t.Errorf("source %v, want %v", json.Source, want)
	}
	if want := append(slices.Clone(base), "application/json", "schema"); !slices.Equal(json.SchemaSource, want) {
		t.Errorf("schema source %v, want %v", json.SchemaSource, want)
	}
	if want := append(slices.Clone(base), "text/plain"); !slices.Equal(plain.Source, want) || plain.SchemaSource != nil {
		t.Errorf("without a schema: source %v, schema source %v; want %v and none", plain.Source, plain.SchemaSource, want)
	}
	schemaSource := slices.Clone(json.SchemaSource)
	_ = append(json.Source, "example")
	if !slices.Equal(json.SchemaSource, schemaSource) {
		t.Errorf("appending to the source changed the schema's source: %v", json.SchemaSource)
	}
	source := slices.Clone(json.Source)
	_ = append(json.SchemaSource, "type")
	if !slices.Equal(json.Source, source) {
		t.Errorf("appending to the schema's source changed the source: %v", json.Source)
	}
}
