package schema_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// fixture is a loaded document of testdata with its set of schemas.
type fixture struct {
	doc *spec.Document
	set *schema.Set
}

var (
	fixturesMu sync.Mutex
	fixtures   = map[string]*fixture{}
)

// load returns the fixture of a file under testdata, loaded once.
func load(t testing.TB, name string) *fixture {
	t.Helper()
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f := fixtures[name]; f != nil {
		return f
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{doc: doc, set: schema.NewSet(doc)}
	fixtures[name] = f
	return f
}

// node returns the node at a JSON pointer of the entry file, following
// no $ref.
func (f *fixture) node(t testing.TB, ptr string) *spec.Node {
	t.Helper()
	n := f.doc.Root.Root
	for _, seg := range spec.PointerPath(ptr) {
		key := seg.(string)
		next := n.Get(key)
		if n.Kind == spec.Array {
			var i int
			fmt.Sscan(key, &i)
			next = n.Items[i]
		}
		if next == nil {
			t.Fatalf("%s: no %q", ptr, key)
		}
		n = next
	}
	return n
}

// compile compiles the schema at a JSON pointer of the entry file.
func (f *fixture) compile(t testing.TB, ptr string) *schema.Schema {
	t.Helper()
	sc, err := f.set.Compile(f.node(t, ptr), spec.PointerPath(ptr))
	if err != nil {
		t.Fatalf("compile %s: %v", ptr, err)
	}
	return sc
}

func decode(t testing.TB, text string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

// render writes a problem as "$.path [keyword] message @ file:line:col".
func render(p schema.Problem) string {
	at := "?"
	if p.Schema.File != nil {
		name, _ := filepath.Rel("testdata", p.Schema.File.Name)
		at = fmt.Sprintf("%s:%d:%d", filepath.ToSlash(name), p.Schema.Range.Start.Line, p.Schema.Range.Start.Col)
	}
	return fmt.Sprintf("%s [%s] %s @ %s", schema.JSONPath(p.Path), p.Keyword, p.Message, at)
}

type validateCase struct {
	name   string
	file   string
	schema string // JSON pointer in the entry file
	value  string // JSON
	dir    schema.Direction
	want   []string // render of each problem, in order
}

// both runs a case in both directions.
const both schema.Direction = 0

var validateCases = []validateCase{
	// OpenAPI 3.0
	{name: "valid pet", file: "oas30.yaml", schema: "/components/schemas/Pet",
		value: `{"id": 1, "name": "rex", "password": "x", "tag": null, "status": null, "owner": null, "weight": 0.5, "born": "2020-02-29"}`, dir: both},
	{name: "readOnly not required in requests", file: "oas30.yaml", schema: "/components/schemas/Pet",
		value: `{"name": "rex", "password": "x"}`, dir: schema.Request},
	{name: "readOnly required in responses", file: "oas30.yaml", schema: "/components/schemas/Pet",
		value: `{"name": "rex"}`, dir: schema.Response, want: []string{
			`$ [required] missing required property "id" @ oas30.yaml:8:18`,
		}},
	{name: "writeOnly required in requests", file: "oas30.yaml", schema: "/components/schemas/Pet",
		value: `{"name": "rex", "id": 4}`, dir: schema.Request, want: []string{
			`$ [required] missing required property "password" @ oas30.yaml:8:28`,
		}},
	{name: "every problem, sorted by path", file: "oas30.yaml", schema: "/components/schemas/Pet",
		value: `{"id": 1, "name": "a", "password": "x", "owner": {"email": "nope"}, "weight": 100.5, "born": "2020-13-01", "status": "lost"}`, dir: both, want: []string{
			`$.born [format] string "2020-13-01" is not a valid date: parsing time "2020-13-01": month out of range @ oas30.yaml:39:11`,
			`$.name [minLength] expected at least 2 characters, found 1 @ oas30.yaml:17:11`,
			`$.owner.email [format] string "nope" is not a valid email: missing @ @ oas30.yaml:46:11`,
			`$.status [enum] expected one of "available", "sold", null, found string "lost" @ oas30.yaml:27:11`,
			`$.weight [maximum] expected a number <= 100, found number 100.5 @ oas30.yaml:36:11`,
		}},
	{name: "boolean exclusiveMinimum", file: "oas30.yaml", schema: "/components/schemas/Pet/properties/weight",
		value: `0`, dir: both, want: []string{
			`$ [exclusiveMinimum] expected a number > 0, found number 0 @ oas30.yaml:35:11`,
		}},
	{name: "nullable type", file: "oas30.yaml", schema: "/components/schemas/NullableString", value: `null`, dir: both},
	{name: "nullable type rejects other types", file: "oas30.yaml", schema: "/components/schemas/NullableString",
		value: `3`, dir: both, want: []string{
			`$ [type] expected string or null, found number 3 @ oas30.yaml:52:7`,
		}},
	{name: "nullable beside an enum without null", file: "oas30.yaml", schema: "/components/schemas/Pet/properties/status", value: `null`, dir: both},
	{name: "nullable allOf", file: "oas30.yaml", schema: "/components/schemas/Pet/properties/owner", value: `null`, dir: both},
	{name: "nullable allOf checks other values", file: "oas30.yaml", schema: "/components/schemas/Pet/properties/owner",
		value: `{}`, dir: both, want: []string{
			`$ [required] missing required property "email" @ oas30.yaml:42:18`,
		}},
	{name: "not nullable", file: "oas30.yaml", schema: "/components/schemas/Owner",
		value: `null`, dir: both, want: []string{
			`$ [type] expected object, found null @ oas30.yaml:41:7`,
		}},
	{name: "$ref siblings ignored", file: "oas30.yaml", schema: "/components/schemas/RefSiblings", value: `{"email": "a@example.com"}`, dir: both},
	{name: "discriminator mapping selects the branch", file: "oas30.yaml", schema: "/components/schemas/Shape",
		value: `{"kind": "round", "radius": -1, "side": "x"}`, dir: both, want: []string{
			`$.radius [minimum] expected a number >= 0, found number -1 @ oas30.yaml:74:32`,
		}},
	{name: "discriminator mapping by name", file: "oas30.yaml", schema: "/components/schemas/Shape", value: `{"kind": "square", "side": 2}`, dir: both},
	{name: "discriminator value outside the mapping", file: "oas30.yaml", schema: "/components/schemas/Shape",
		value: `{"kind": "triangle"}`, dir: both, want: []string{
			`$ [discriminator] discriminator property "kind" is "triangle", which is not one of the discriminator mapping values "round", "square", "Circle", "Square" @ oas30.yaml:60:9`,
		}},
	{name: "discriminator property missing", file: "oas30.yaml", schema: "/components/schemas/Shape",
		value: `{"radius": 1}`, dir: both, want: []string{
			`$ [discriminator] missing discriminator property "kind" @ oas30.yaml:59:9`,
		}},
	{name: "discriminator on a value that is no object", file: "oas30.yaml", schema: "/components/schemas/Shape",
		value: `5`, dir: both, want: []string{
			`$ [oneOf] expected object, found number 5 @ oas30.yaml:55:7`,
		}},
	{name: "discriminator without mapping", file: "oas30.yaml", schema: "/components/schemas/ImplicitShape",
		value: `{"kind": "Square", "side": 0}`, dir: both, want: []string{
			`$.side [minimum] expected a number >= 1, found number 0 @ oas30.yaml:80:31`,
		}},
	{name: "oneOf reports the closest branch", file: "oas30.yaml", schema: "/components/schemas/Multi",
		value: `true`, dir: both, want: []string{
			`$ [oneOf] expected string or integer, found boolean true @ oas30.yaml:125:7`,
		}},
	{name: "look-ahead pattern", file: "oas30.yaml", schema: "/components/schemas/Password",
		value: `"abcdefgh"`, dir: both, want: []string{
			`$ [pattern] string "abcdefgh" does not match pattern "^(?=.*[0-9])(?=.*[A-Z])[A-Za-z0-9]{8,}$" @ oas30.yaml:83:7`,
		}},
	{name: "look-ahead pattern matches", file: "oas30.yaml", schema: "/components/schemas/Password", value: `"abcdefG1"`, dir: both},
	{name: "back-reference pattern matches", file: "oas30.yaml", schema: "/components/schemas/Doubled", value: `"cd-cd"`, dir: both},
	{name: "back-reference pattern", file: "oas30.yaml", schema: "/components/schemas/Doubled",
		value: `"ab-cd"`, dir: both, want: []string{
			`$ [pattern] string "ab-cd" does not match pattern "^(ab|cd)-\1$" @ oas30.yaml:86:7`,
		}},
	{name: "dot matches no line feed", file: "oas30.yaml", schema: "/components/schemas/Line",
		value: `"a\nc"`, dir: both, want: []string{
			`$ [pattern] string "a\nc" does not match pattern "^a.c$" @ oas30.yaml:89:7`,
		}},
	{name: "dot matches no carriage return", file: "oas30.yaml", schema: "/components/schemas/Line",
		value: `"a\rc"`, dir: both, want: []string{
			`$ [pattern] string "a\rc" does not match pattern "^a.c$" @ oas30.yaml:89:7`,
		}},
	{name: "dot matches no line separator", file: "oas30.yaml", schema: "/components/schemas/Line",
		value: `"a\u2028c"`, dir: both, want: []string{
			`$ [pattern] string "a\u2028c" does not match pattern "^a.c$" @ oas30.yaml:89:7`,
		}},
	{name: "dollar is the end of the text", file: "oas30.yaml", schema: "/components/schemas/Line",
		value: `"abc\n"`, dir: both, want: []string{
			`$ [pattern] string "abc\n" does not match pattern "^a.c$" @ oas30.yaml:89:7`,
		}},
	{name: "unanchored pattern searches", file: "oas30.yaml", schema: "/components/schemas/Contains", value: `"order x123y"`, dir: both},
	{name: "recursive schema", file: "oas30.yaml", schema: "/components/schemas/Node",
		value: `{"value": 1, "children": [{"value": "x"}], "parent": {"value": 2, "parent": {}}}`, dir: both, want: []string{
			`$.children[0].value [type] expected integer, found string "x" @ oas30.yaml:97:17`,
			`$.parent.parent [required] missing required property "value" @ oas30.yaml:95:18`,
		}},
	{name: "additionalProperties false", file: "oas30.yaml", schema: "/components/schemas/Closed",
		value: `{"a": "x", "b": 1}`, dir: both, want: []string{
			`$.b [additionalProperties] property "b" is not allowed @ oas30.yaml:106:7`,
		}},
	{name: "array keywords and int32", file: "oas30.yaml", schema: "/components/schemas/Counts",
		value: `[5, 5, 7, 2147483650]`, dir: both, want: []string{
			`$ [maxItems] expected at most 3 items, found 4 @ oas30.yaml:115:7`,
			`$ [uniqueItems] items 0 and 1 are equal; expected unique items @ oas30.yaml:116:7`,
			`$[2] [multipleOf] expected a multiple of 5, found number 7 @ oas30.yaml:120:9`,
			`$[3] [format] number 2147483650 is not a valid int32: out of range [-2147483648, 2147483647] @ oas30.yaml:119:9`,
		}},
	{name: "uuid", file: "oas30.yaml", schema: "/components/schemas/Id",
		value: `"not-a-uuid"`, dir: both, want: []string{
			`$ [format] string "not-a-uuid" is not a valid uuid: must have 5 elements @ oas30.yaml:111:7`,
		}},
	{name: "byte", file: "oas30.yaml", schema: "/components/schemas/Bytes", value: `"aGVsbG8="`, dir: both},
	{name: "byte rejects other text", file: "oas30.yaml", schema: "/components/schemas/Bytes",
		value: `"%%%"`, dir: both, want: []string{
			`$ [format] string "%%%" is not a valid byte: not base64-encoded data @ oas30.yaml:123:7`,
		}},

	// OpenAPI 3.1
	{name: "type array with null", file: "oas31.yaml", schema: "/components/schemas/MaybeName", value: `null`, dir: both},
	{name: "type array", file: "oas31.yaml", schema: "/components/schemas/MaybeName",
		value: `5`, dir: both, want: []string{
			`$ [type] expected string or null, found number 5 @ oas31.yaml:7:7`,
		}},
	{name: "const", file: "oas31.yaml", schema: "/components/schemas/Version",
		value: `"v1"`, dir: both, want: []string{
			`$ [const] expected "v2", found string "v1" @ oas31.yaml:10:7`,
		}},
	{name: "prefixItems and items false", file: "oas31.yaml", schema: "/components/schemas/Point",
		value: `[1, "x", 3]`, dir: both, want: []string{
			`$[1] [type] expected number, found string "x" @ oas31.yaml:15:11`,
			`$[2] [items] item 2 is not allowed @ oas31.yaml:16:7`,
		}},
	{name: "contains", file: "oas31.yaml", schema: "/components/schemas/HasAdmin",
		value: `[{"admin": false}]`, dir: both, want: []string{
			`$ [minContains] expected at least 1 item valid against the contains schema, found 0 @ oas31.yaml:24:7`,
		}},
	{name: "if then", file: "oas31.yaml", schema: "/components/schemas/Address",
		value: `{"country": "NL", "postcode": "12345"}`, dir: both, want: []string{
			`$.postcode [pattern] string "12345" does not match pattern "^[0-9]{4}[A-Z]{2}$" @ oas31.yaml:36:22`,
		}},
	{name: "if else", file: "oas31.yaml", schema: "/components/schemas/Address",
		value: `{"country": "US", "postcode": "1234AB"}`, dir: both, want: []string{
			`$.postcode [pattern] string "1234AB" does not match pattern "^[0-9]{5}$" @ oas31.yaml:39:22`,
		}},
	{name: "dependentRequired", file: "oas31.yaml", schema: "/components/schemas/Card",
		value: `{"number": "4111"}`, dir: both, want: []string{
			`$ [dependentRequired] property "number" requires property "cvc" @ oas31.yaml:46:9`,
		}},
	{name: "unevaluatedProperties", file: "oas31.yaml", schema: "/components/schemas/Strict",
		value: `{"a": "x", "b": 1, "c": 2}`, dir: both, want: []string{
			`$.c [unevaluatedProperties] property "c" is not allowed @ oas31.yaml:54:7`,
		}},
	{name: "boolean schema true", file: "oas31.yaml", schema: "/components/schemas/Anything", value: `{"x": [1]}`, dir: both},
	{name: "boolean schema false", file: "oas31.yaml", schema: "/components/schemas/Nothing",
		value: `1`, dir: both, want: []string{
			`$ [false] no value is allowed here @ oas31.yaml:56:5`,
		}},
	{name: "$dynamicRef", file: "oas31.yaml", schema: "/components/schemas/Tree",
		value: `{"data": 1, "children": [{"children": [5]}]}`, dir: both, want: []string{
			`$.children[0].children[0] [type] expected object, found number 5 @ oas31.yaml:60:7`,
		}},
	{name: "$ref siblings apply", file: "oas31.yaml", schema: "/components/schemas/RefWithSiblings",
		value: `"abcd"`, dir: both, want: []string{
			`$ [maxLength] expected at most 3 characters, found 4 @ oas31.yaml:69:7`,
		}},
	{name: "nullable still read in 3.1", file: "oas31.yaml", schema: "/components/schemas/Legacy", value: `null`, dir: both},
	{name: "$schema draft 7", file: "oas31.yaml", schema: "/components/schemas/Draft7",
		value: `["a", 1]`, dir: both, want: []string{
			`$ [additionalItems] 1 item more than the schema allows @ oas31.yaml:78:7`,
		}},
	{name: "3.1 readOnly in responses", file: "oas31.yaml", schema: "/components/schemas/Pet",
		value: `{"name": "x"}`, dir: schema.Response, want: []string{
			`$ [required] missing required property "id" @ oas31.yaml:81:18`,
		}},
	{name: "3.1 readOnly in requests", file: "oas31.yaml", schema: "/components/schemas/Pet", value: `{"name": "x", "id": 3}`, dir: schema.Request},

	{name: "$anchor", file: "oas31.yaml", schema: "/components/schemas/Anchored",
		value: `{"nick": "abcde"}`, dir: both, want: []string{
			`$.nick [maxLength] expected at most 4 characters, found 5 @ oas31.yaml:97:11`,
		}},
	{name: "jsonSchemaDialect draft 7", file: "dialect.yaml", schema: "/components/schemas/Pair",
		value: `["a", "b"]`, dir: both, want: []string{
			`$ [additionalItems] 1 item more than the schema allows @ dialect.yaml:11:7`,
		}},
	{name: "draft 7 ignores $ref siblings", file: "dialect.yaml", schema: "/components/schemas/RefOnly", value: `"ab"`, dir: both},

	// Swagger 2.0
	{name: "query parameter", file: "swagger.yaml", schema: "/paths/~1pets/get/parameters/0",
		value: `100`, dir: both, want: []string{
			`$ [exclusiveMaximum] expected a number < 100, found number 100 @ swagger.yaml:14:11`,
		}},
	{name: "query parameter type", file: "swagger.yaml", schema: "/paths/~1pets/get/parameters/0",
		value: `"5"`, dir: both, want: []string{
			`$ [type] expected integer, found string "5" @ swagger.yaml:10:11`,
		}},
	{name: "array query parameter", file: "swagger.yaml", schema: "/paths/~1pets/get/parameters/1",
		value: `["a", "c"]`, dir: both, want: []string{
			`$[1] [enum] expected one of "a", "b", found string "c" @ swagger.yaml:21:13`,
		}},
	{name: "referenced header parameter", file: "swagger.yaml", schema: "/paths/~1pets/get/parameters/2",
		value: `"ABC"`, dir: both, want: []string{
			`$ [pattern] string "ABC" does not match pattern "^[a-f0-9]{8}$" @ swagger.yaml:49:5`,
		}},
	{name: "response header", file: "swagger.yaml", schema: "/paths/~1pets/get/responses/200/headers/X-Rate",
		value: `-1`, dir: both, want: []string{
			`$ [minimum] expected a number >= 0, found number -1 @ swagger.yaml:29:15`,
		}},
	{name: "type file", file: "swagger.yaml", schema: "/paths/~1upload/post/parameters/0", value: `"bytes"`, dir: both},
	{name: "x-nullable", file: "swagger.yaml", schema: "/definitions/Pet", value: `{"petType": "Dog", "name": null, "nick": null}`, dir: both},
	{name: "x-nullable enum", file: "swagger.yaml", schema: "/definitions/Pet",
		value: `{"petType": "Dog", "name": "x", "nick": "c"}`, dir: both, want: []string{
			`$.nick [enum] expected one of "a", "b", null, found string "c" @ swagger.yaml:61:9`,
		}},
	{name: "allOf inheritance", file: "swagger.yaml", schema: "/definitions/Dog",
		value: `{"petType": "Dog", "name": "x"}`, dir: both, want: []string{
			`$ [required] missing required property "bark" @ swagger.yaml:67:20`,
		}},
	{name: "swagger readOnly", file: "swagger.yaml", schema: "/definitions/Pet", value: `{"petType": "Cat", "name": "x", "id": 1}`, dir: both},

	// Cross-file references.
	{name: "cross-file $ref", file: "multi/api.yaml", schema: "/paths/~1orders/post/requestBody/content/application~1json/schema",
		value: `{"lines": [{"sku": "AB-1", "quantity": 0}]}`, dir: schema.Request, want: []string{
			`$.lines[0].quantity [minimum] expected a number >= 1, found number 0 @ multi/schemas/order.yaml:21:7`,
			`$.lines[0].sku [pattern] string "AB-1" does not match pattern "^[A-Z]{3}-[0-9]{4}$" @ multi/schemas/common.yaml:3:3`,
		}},
	{name: "cross-file readOnly", file: "multi/api.yaml", schema: "/paths/~1orders/post/responses/201/content/application~1json/schema",
		value: `{"lines": [{"sku": "ABC-1234", "quantity": 1}]}`, dir: schema.Response, want: []string{
			`$ [required] missing required property "id" @ multi/schemas/order.yaml:3:14`,
		}},
}

func TestValidate(t *testing.T) {
	for _, c := range validateCases {
		dirs := []schema.Direction{c.dir}
		if c.dir == both {
			dirs = []schema.Direction{schema.Request, schema.Response}
		}
		for _, dir := range dirs {
			t.Run(c.name+"/"+dir.String(), func(t *testing.T) {
				sc := load(t, c.file).compile(t, c.schema)
				var got []string
				for _, p := range sc.Validate(decode(t, c.value), dir) {
					got = append(got, render(p))
				}
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("%s\ngot:\n\t%s\nwant:\n\t%s", c.value, strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
				}
			})
		}
	}
}
