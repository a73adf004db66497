package dsl

import (
	"encoding/json"
	"slices"
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

// TestValidateErrorOrder: the validator visits properties in map order;
// the errors come out ordered by instance path (then message), the same on
// every run, so that messages that list the first few are stable.
func TestValidateErrorOrder(t *testing.T) {
	props := map[string]any{}
	value := map[string]any{}
	for _, k := range []string{"k", "c", "i", "a", "g", "e", "j", "b", "h", "d", "f"} {
		props[k] = map[string]any{"type": "integer"}
		value[k] = "x"
	}
	value["list"] = []any{"x", 1, "y"}
	props["list"] = map[string]any{"type": "array", "items": map[string]any{"type": "integer"}}
	value["extra"] = map[string]any{"q": 1, "p": 2, "r": 3, "o": 4}
	props["extra"] = map[string]any{"type": "object", "additionalProperties": false}
	text, err := json.Marshal(map[string]any{"type": "object", "required": []any{"zz"}, "properties": props})
	if err != nil {
		t.Fatal(err)
	}
	var first []string
	for run := range 20 {
		errs, err := ValidateValue(value, string(text), "", true)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range errs {
			got = append(got, FieldName(e.Path)+": "+e.Kind)
			if e.Kind == "additional_property_not_allowed" {
				got = append(got, e.Desc, e.Message)
			}
		}
		if run == 0 {
			first = got
			want := []string{"(Root): required", "a: invalid_type", "b: invalid_type", "c: invalid_type", "d: invalid_type", "e: invalid_type",
				"extra: additional_property_not_allowed", "Additional property o, p, q, r is not allowed", "additional properties 'o', 'p', 'q', 'r' not allowed",
				"f: invalid_type", "g: invalid_type", "h: invalid_type", "i: invalid_type", "j: invalid_type", "k: invalid_type", "list.0: invalid_type", "list.2: invalid_type"}
			if !slices.Equal(got, want) {
				t.Fatalf("errors in order\n got %q\nwant %q", got, want)
			}
		} else if !slices.Equal(got, first) {
			t.Fatalf("run %d gave another order:\n%q\n%q", run, got, first)
		}
	}
}
