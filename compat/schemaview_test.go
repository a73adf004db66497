package compat

import (
	"context"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// schemaPair loads a document whose components hold schemas A and B (and
// whatever they $ref), and returns their views.
func schemaPair(t *testing.T, version, schemas string) (*viewSet, *SchemaView, *SchemaView) {
	t.Helper()
	src := "openapi: " + version + "\ninfo: {title: t, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n" + indent(schemas, "    ")
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	comps := doc.Root.Root.Get("components").Get("schemas")
	vs := newViewSet()
	return vs, vs.view(doc, comps.Get("A")), vs.view(doc, comps.Get("B"))
}

func indent(s, by string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = by + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestFingerprints pins what counts as the same schema: equal meaning in
// another spelling is equal, any constraint that differs is not.
func TestFingerprints(t *testing.T) {
	tests := []struct {
		name, version, schemas string
		equal                  bool
	}{
		{"$ref and inline", "3.1.0", "A: {$ref: '#/components/schemas/C'}\nB: {type: string, enum: [a, b]}\nC: {type: string, enum: [a, b], title: C}\n", true},
		{"anyOf reordered", "3.1.0", "A: {anyOf: [{type: string}, {type: integer}]}\nB: {anyOf: [{type: integer}, {type: string}]}\n", true},
		{"anyOf and oneOf", "3.1.0", "A: {anyOf: [{type: string}, {type: integer}]}\nB: {oneOf: [{type: string}, {type: integer}]}\n", false},
		{"nullable as type list", "3.1.0", "A: {type: [string, 'null']}\nB: {anyOf: [{type: string}, {type: 'null'}]}\n", true},
		{"allOf of one $ref", "3.1.0", "A: {allOf: [{$ref: '#/components/schemas/C'}]}\nB: {$ref: '#/components/schemas/C'}\nC: {type: object, properties: {a: {type: string}}}\n", true},
		{"properties split across allOf", "3.1.0", "A: {type: object, required: [a], properties: {a: {type: string}, b: {type: integer}}}\nB: {allOf: [{type: object, properties: {b: {type: integer}}}, {required: [a], properties: {a: {type: string}}}]}\n", true},
		{"true and {}", "3.1.0", "A: {type: object, additionalProperties: true}\nB: {type: object, additionalProperties: {}}\n", true},
		{"enum order", "3.1.0", "A: {enum: [a, b, c]}\nB: {enum: [c, a, b]}\n", true},
		{"type implied by enum", "3.1.0", "A: {enum: [a, b]}\nB: {type: string, enum: [a, b]}\n", true},
		{"annotations only", "3.1.0", "A: {type: string, description: x, example: y, x-internal: true}\nB: {type: string, title: z, deprecated: true}\n", true},
		{"3.1 $ref siblings apply", "3.1.0", "A: {$ref: '#/components/schemas/C', maxLength: 3}\nB: {$ref: '#/components/schemas/C'}\nC: {type: string}\n", false},
		{"3.0 $ref siblings are ignored", "3.0.3", "A: {$ref: '#/components/schemas/C', maxLength: 3}\nB: {$ref: '#/components/schemas/C'}\nC: {type: string}\n", true},
		{"a limit differs", "3.1.0", "A: {type: string, maxLength: 3}\nB: {type: string, maxLength: 4}\n", false},
		{"a nested property differs", "3.1.0", "A: {type: object, properties: {a: {type: array, items: {type: string}}}}\nB: {type: object, properties: {a: {type: array, items: {type: integer}}}}\n", false},
		{"required differs", "3.1.0", "A: {type: object, required: [a], properties: {a: {}}}\nB: {type: object, properties: {a: {}}}\n", false},
		{"false and not {}", "3.1.0", "A: false\nB: {not: {}}\n", true},
		{"items false", "3.1.0", "A: {type: array, items: false}\nB: {type: array}\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, a, b := schemaPair(t, tt.version, tt.schemas)
			if got := vs.equal(a, b); got != tt.equal {
				t.Errorf("equal = %v, want %v", got, tt.equal)
			}
		})
	}
}

// A schema that reaches itself has no fingerprint: it is compared keyword
// by keyword, never taken as equal on trust.
func TestRecursiveSchemaHasNoFingerprint(t *testing.T) {
	vs, a, b := schemaPair(t, "3.1.0", "A: {type: object, properties: {next: {$ref: '#/components/schemas/A'}}}\nB: {type: object, properties: {next: {$ref: '#/components/schemas/A'}}}\n")
	if vs.fingerprint(a).known || vs.equal(a, b) {
		t.Error("a recursive schema has a fingerprint")
	}
}

// TestViews pins what a view reads: types through allOf, null however it
// is written, and where it is written.
func TestViews(t *testing.T) {
	tests := []struct {
		name, version, schema string
		types                 string
		nullable              bool
		nullAt                string
		alternatives          int
	}{
		{"type list", "3.1.0", "{type: [string, 'null']}", "string", true, "/type", 0},
		{"3.0 nullable", "3.0.3", "{type: string, nullable: true}", "string", true, "/nullable", 0},
		{"nullable beside allOf", "3.0.3", "{nullable: true, allOf: [{type: object}]}", "object", true, "/nullable", 0},
		{"null alternative", "3.1.0", "{oneOf: [{type: 'null'}, {type: integer}]}", "integer", true, "/oneOf/0", 0},
		{"alternatives and null", "3.1.0", "{anyOf: [{type: string}, {type: integer}, {type: 'null'}]}", "", true, "/anyOf/2", 2},
		{"number and integer meet", "3.1.0", "{type: number, allOf: [{type: integer}]}", "integer", false, "", 0},
		{"implied object", "3.1.0", "{properties: {a: {}}}", "object", false, "", 0},
		{"no type", "3.1.0", "{minLength: 1}", "", false, "", 0},
		{"types of enum values", "3.1.0", "{enum: [a, 1, 2.5, null]}", "string|integer|number", true, "/enum", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, v, _ := schemaPair(t, tt.version, "A: "+tt.schema+"\nB: {}\n")
			alts := 0
			if v.alts != nil {
				alts = len(v.alts.items)
			}
			if got := strings.Join(v.Types, "|"); got != tt.types || v.Nullable != tt.nullable || spec.Pointer(v.NullAt()) != tt.nullAt || alts != tt.alternatives {
				t.Errorf("types %q nullable %v at %q, %d alternatives; want %q %v at %q, %d", got, v.Nullable, spec.Pointer(v.NullAt()), alts,
					tt.types, tt.nullable, tt.nullAt, tt.alternatives)
			}
		})
	}
}

// TestWire pins how the styles write values: equal texts are equal
// requests, so a change between two of them is seen or not.
func TestWire(t *testing.T) {
	same := [][2][3]string{
		{{"form", "true", "primitive"}, {"form", "false", "primitive"}},
		{{"simple", "false", "array"}, {"simple", "true", "array"}},
	}
	differ := [][2][3]string{
		{{"form", "true", "array"}, {"form", "false", "array"}},
		{{"form", "true", "object"}, {"deepObject", "true", "object"}},
		{{"simple", "false", "primitive"}, {"label", "false", "primitive"}},
		{{"matrix", "true", "array"}, {"matrix", "false", "array"}},
		{{"spaceDelimited", "false", "array"}, {"pipeDelimited", "false", "array"}},
	}
	w := func(x [3]string) string { return wire(x[0], x[1] == "true", x[2], "p") }
	for _, p := range same {
		if w(p[0]) != w(p[1]) {
			t.Errorf("%v and %v write differently: %s, %s", p[0], p[1], w(p[0]), w(p[1]))
		}
	}
	for _, p := range differ {
		if w(p[0]) == w(p[1]) {
			t.Errorf("%v and %v write alike: %s", p[0], p[1], w(p[0]))
		}
	}
	for style, want := range map[string]string{"form": ",", "spaceDelimited": " ", "pipeDelimited": "|", "simple": ","} {
		if got := arrayDelimiter(style, false); got != want {
			t.Errorf("delimiter of %s = %q, want %q", style, got, want)
		}
	}
	if got := arrayDelimiter("form", true); got != "" {
		t.Errorf("form with explode has delimiter %q", got)
	}
}
