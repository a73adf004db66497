package schema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// generate draws a value of a fixture's schema and checks it against the
// schema for the same direction.
func generate(t *testing.T, f *fixture, ptr string, dir schema.Direction, g *schema.Generator) any {
	t.Helper()
	sc := f.compile(t, ptr)
	v, err := sc.Generate(g, dir)
	if err != nil {
		t.Fatalf("generate %s (%s): %v", ptr, dir, err)
	}
	if ps := sc.Validate(v, dir); ps != nil {
		t.Fatalf("generated %s (%s) fails its schema: %s: %v", ptr, dir, text(v), ps)
	}
	return v
}

func text(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestGenerate checks generated values by what the schema asks of them,
// over several seeds and both directions.
func TestGenerate(t *testing.T) {
	matches := func(re string) func(any) bool {
		return func(v any) bool { s, ok := v.(string); return ok && regexp.MustCompile(re).MatchString(s) }
	}
	field := func(name string, check func(any) bool) func(any) bool {
		return func(v any) bool { m, ok := v.(map[string]any); return ok && check(m[name]) }
	}
	equals := func(want any) func(any) bool {
		return func(v any) bool { return reflect.DeepEqual(v, want) }
	}
	absent := func(name string) func(any) bool {
		return func(v any) bool { m, ok := v.(map[string]any); _, has := m[name]; return ok && !has }
	}
	cases := []struct {
		name   string
		file   string
		schema string
		dir    schema.Direction // both when 0
		check  func(any) bool   // beyond validity
	}{
		{"readOnly left out of requests", "oas30.yaml", "/components/schemas/Pet", schema.Request, absent("id")},
		{"writeOnly left out of responses", "oas30.yaml", "/components/schemas/Pet", schema.Response, absent("password")},
		{"readOnly in responses", "oas30.yaml", "/components/schemas/Pet", schema.Response, field("id", func(v any) bool { return v != nil })},
		{"nullable enum is not null", "oas30.yaml", "/components/schemas/Pet/properties/status", 0, matches(`^(available|sold)$`)},
		{"discriminator mapping", "oas30.yaml", "/components/schemas/Shape", 0, field("kind", matches(`^(round|square|Circle|Square)$`))},
		{"discriminator without mapping", "oas30.yaml", "/components/schemas/ImplicitShape", 0, field("kind", matches(`^(Circle|Square)$`))},
		{"look-ahead pattern", "oas30.yaml", "/components/schemas/Password", 0, matches(`^[A-Za-z0-9]{8,}$`)},
		{"back-reference pattern", "oas30.yaml", "/components/schemas/Doubled", 0, matches(`^(ab-ab|cd-cd)$`)},
		{"dot generates no line terminator", "oas30.yaml", "/components/schemas/Line", 0, matches(`^a[^\n\r\x{2028}\x{2029}]c$`)},
		{"recursion is cut", "oas30.yaml", "/components/schemas/Node", 0, absent("parent")},
		{"additionalProperties false", "oas30.yaml", "/components/schemas/Closed", 0, absent("b")},
		{"uuid", "oas30.yaml", "/components/schemas/Id", 0, matches(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)},
		{"unique multiples of five", "oas30.yaml", "/components/schemas/Counts", 0, nil},
		{"base64", "oas30.yaml", "/components/schemas/Bytes", 0, matches(`^[A-Za-z0-9+/]+=*$`)},
		{"multipleOf within narrow bounds", "generate.yaml", "/components/schemas/Price", 0, func(v any) bool {
			return v == json.Number("0.5") || v == json.Number("0.55") || v == json.Number("0.6")
		}},
		{"exclusive bounds", "generate.yaml", "/components/schemas/Eleven", 0, equals(json.Number("11"))},
		{"int32 and minimum", "generate.yaml", "/components/schemas/BigInt32", 0, nil},
		{"unique enum items", "generate.yaml", "/components/schemas/Colors", 0, func(v any) bool { l, _ := v.([]any); return len(l) == 2 }},
		{"minProperties from additionalProperties", "generate.yaml", "/components/schemas/Labels", 0, func(v any) bool { m, _ := v.(map[string]any); return len(m) == 3 }},
		{"every format", "generate.yaml", "/components/schemas/Formats", 0, field("dateTime", matches(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))},
		{"names suggest formats", "generate.yaml", "/components/schemas/Hints", 0, field("contact_email", matches(`^[a-z]+\d+@example\.com$`))},
		{"example first", "generate.yaml", "/components/schemas/Example", schema.Response, equals(map[string]any{"id": json.Number("3"), "name": "seven"})},
		{"example without readOnly in requests", "generate.yaml", "/components/schemas/Example", schema.Request, equals(map[string]any{"name": "seven"})},
		{"invalid example skipped for the default", "generate.yaml", "/components/schemas/BadExample", 0, equals("abc")},
		{"pattern and lengths", "generate.yaml", "/components/schemas/LongPattern", 0, matches(`^[a-z]{20,25}$`)},
		{"anchored pattern", "generate.yaml", "/components/schemas/Code", 0, matches(`^[A-Z]{2}-\d{4}(-[a-f0-9]{2})?$`)},
		{"subtype by mapping", "generate.yaml", "/components/schemas/Dog", 0, field("petType", equals("dog"))},
		{"subtype by name", "generate.yaml", "/components/schemas/Cat", 0, field("petType", equals("Cat"))},
		{"oneOf of required lists", "generate.yaml", "/components/schemas/OneRequired", 0, func(v any) bool { m, _ := v.(map[string]any); return len(m) == 1 }},
		{"oneOf of overlapping objects", "generate.yaml", "/components/schemas/Choice", 0, nil},
		{"not", "generate.yaml", "/components/schemas/NotString", 0, func(v any) bool { _, s := v.(string); return !s }},
		{"type array", "oas31.yaml", "/components/schemas/MaybeName", 0, matches(`.`)},
		{"const", "oas31.yaml", "/components/schemas/Version", 0, equals("v2")},
		{"prefixItems", "oas31.yaml", "/components/schemas/Point", 0, func(v any) bool { l, _ := v.([]any); return len(l) == 2 }},
		{"contains", "oas31.yaml", "/components/schemas/HasAdmin", 0, nil},
		{"if then else", "oas31.yaml", "/components/schemas/Address", 0, nil},
		{"dependentRequired", "oas31.yaml", "/components/schemas/Card", 0, nil},
		{"unevaluatedProperties", "oas31.yaml", "/components/schemas/Strict", 0, nil},
		{"boolean schema", "oas31.yaml", "/components/schemas/Anything", 0, nil},
		{"$dynamicRef", "oas31.yaml", "/components/schemas/Tree", 0, nil},
		{"examples (3.1)", "oas31.yaml", "/components/schemas/Pet", schema.Response, equals(map[string]any{"id": json.Number("7"), "name": "rex"})},
		{"query parameter", "swagger.yaml", "/paths/~1pets/get/parameters/0", 0, func(v any) bool { n, ok := v.(json.Number); return ok && n != "100" }},
		{"array query parameter", "swagger.yaml", "/paths/~1pets/get/parameters/1", 0, nil},
		{"Swagger subtype", "swagger.yaml", "/definitions/Dog", 0, field("petType", equals("Dog"))},
		{"cross-file", "multi/api.yaml", "/components/schemas/Local", 0, field("order", field("lines", func(v any) bool { l, _ := v.([]any); return len(l) >= 1 }))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := load(t, c.file)
			dirs := []schema.Direction{c.dir}
			if c.dir == 0 {
				dirs = []schema.Direction{schema.Request, schema.Response}
			}
			for _, dir := range dirs {
				for seed := range uint64(12) {
					v := generate(t, f, c.schema, dir, schema.NewGenerator(seed))
					if c.check != nil && !c.check(v) {
						t.Errorf("seed %d, %s: unexpected value %s", seed, dir, text(v))
					}
				}
			}
		})
	}
}

func TestGenerateDeterministic(t *testing.T) {
	f := load(t, "oas30.yaml")
	sc := f.compile(t, "/components/schemas/Pet")
	draw := func(seed uint64) string {
		g := schema.NewGenerator(seed)
		var out []string
		for range 3 {
			v, err := sc.Generate(g, schema.Response)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, text(v))
		}
		return strings.Join(out, "\n")
	}
	a, b := draw(42), draw(42)
	if a != b {
		t.Errorf("same seed, different values:\n%s\n%s", a, b)
	}
	if a == draw(43) {
		t.Errorf("seeds 42 and 43 gave the same values:\n%s", a)
	}
	if first := strings.Split(a, "\n"); first[0] == first[1] && first[1] == first[2] {
		t.Errorf("three calls gave the same value: %s", first[0])
	}
}

func TestGeneratePreferGenerated(t *testing.T) {
	f := load(t, "generate.yaml")
	sc := f.compile(t, "/components/schemas/Example")
	for seed := range uint64(5) {
		g := schema.NewGeneratorWith(seed, schema.GeneratorOptions{PreferGenerated: true})
		v, err := sc.Generate(g, schema.Response)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(v, map[string]any{"id": json.Number("3"), "name": "seven"}) {
			t.Errorf("seed %d: the example, not a generated value", seed)
		}
		if ps := sc.Validate(v, schema.Response); ps != nil {
			t.Errorf("seed %d: %v", seed, ps)
		}
	}
}

// TestGenerateExampleIsCopied: changing a generated value leaves the
// schema's example as it was.
func TestGenerateExampleIsCopied(t *testing.T) {
	sc := load(t, "generate.yaml").compile(t, "/components/schemas/Example")
	v, _ := sc.Generate(schema.NewGenerator(1), schema.Response)
	v.(map[string]any)["name"] = "changed"
	w, _ := sc.Generate(schema.NewGenerator(1), schema.Response)
	if w.(map[string]any)["name"] != "seven" {
		t.Errorf("the example changed: %s", text(w))
	}
}

func TestGenerateUnsatisfiable(t *testing.T) {
	cases := []struct {
		file, schema string
		want         string
	}{
		{"generate.yaml", "/components/schemas/Impossible", "testdata/generate.yaml:6:5: cannot generate a value valid against the schema (its keywords contradict each other)"},
		{"generate.yaml", "/components/schemas/TooManyColors", "testdata/generate.yaml:35:5: cannot generate a value valid against the schema (its keywords contradict each other)"},
		{"oas31.yaml", "/components/schemas/Nothing", "testdata/oas31.yaml:56:5: cannot generate a value valid against the schema (its keywords contradict each other)"},
	}
	for _, c := range cases {
		sc := load(t, c.file).compile(t, c.schema)
		v, err := sc.Generate(schema.NewGenerator(1), schema.Response)
		var se *spec.Error
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%s: value %s, error %v; want %s", c.schema, text(v), err, c.want)
		}
	}
}
