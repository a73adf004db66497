package dsl

import (
	"strconv"
	"strings"
	"testing"
)

// TestSchemaSet: $refs to shared schemas resolve by name (JSON pointer
// escapes included), into them, and between them; a $ref to a schema
// that is not shared does not compile.
func TestSchemaSet(t *testing.T) {
	shared := map[string]any{
		"Pet": map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
			"name": map[string]any{"type": "string"},
			"tag":  map[string]any{"$ref": "#/components/schemas/a~1b"},
		}},
		"a/b": map[string]any{"type": "integer"},
	}
	set := NewSchemaSet(shared, "#/components/schemas/")
	tests := []struct {
		schema any
		value  any
		want   string // "" when valid
	}{
		{map[string]any{"$ref": "#/components/schemas/Pet"}, map[string]any{"name": "Rex"}, ""},
		{map[string]any{"$ref": "#/components/schemas/Pet"}, map[string]any{}, "name"},
		{map[string]any{"$ref": "#/components/schemas/Pet"}, map[string]any{"name": "Rex", "tag": "x"}, "integer"},
		{map[string]any{"$ref": "#/components/schemas/Pet/properties/name"}, 3, "string"},
		{map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/a~1b"}}, []any{1, "2"}, "integer"},
		// A property named like a data keyword is still a schema.
		{map[string]any{"properties": map[string]any{"default": map[string]any{"$ref": "#/components/schemas/a~1b"}}}, map[string]any{"default": "x"}, "integer"},
	}
	for _, tt := range tests {
		s, err := set.Compile(tt.schema)
		if err != nil {
			t.Fatalf("%v: %v", tt.schema, err)
		}
		errs, err := Validate(s, tt.value, true)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.want == "" && len(errs) > 0:
			t.Errorf("%v against %v: unexpected %v", tt.value, tt.schema, errs)
		case tt.want != "" && (len(errs) == 0 || !strings.Contains(errs[0].Message, tt.want)):
			t.Errorf("%v against %v: got %v, want an error about %s", tt.value, tt.schema, errs, tt.want)
		}
	}
	// A "$ref" inside an enum is a value to match, left as written.
	s, err := set.Compile(map[string]any{"enum": []any{map[string]any{"$ref": "#/components/schemas/Pet"}}})
	if err != nil {
		t.Fatal(err)
	}
	if errs, _ := Validate(s, map[string]any{"$ref": "#/components/schemas/Pet"}, true); len(errs) != 0 {
		t.Errorf("the enum's $ref value was rewritten: %v", errs)
	}
	if _, err := set.Compile(map[string]any{"$ref": "#/components/schemas/Missing"}); err == nil {
		t.Error("a $ref to a schema that is not shared compiled")
	}
	if _, err := set.Compile(map[string]any{"$ref": "#/paths/x"}); err == nil {
		t.Error("a $ref outside the shared schemas compiled")
	}
}

// TestSchemaCacheIsBounded: schemas taken from documents pass through the
// process-wide cache, which must not grow without bound in a lint server.
func TestSchemaCacheIsBounded(t *testing.T) {
	for i := range maxCachedSchemas + 10 {
		if _, err := CheckSchema(`{"maxLength": `+strconv.Itoa(i)+`}`, "draft7"); err != nil {
			t.Fatal(err)
		}
	}
	schemaCache.Lock()
	n := len(schemaCache.m)
	schemaCache.Unlock()
	if n > maxCachedSchemas {
		t.Fatalf("the cache holds %d schemas, more than %d", n, maxCachedSchemas)
	}
}
