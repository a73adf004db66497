package spec_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/specgate/specgate/spec"
)

// corpusDir holds real-world specifications (see its SOURCES.md).
var corpusDir = filepath.Join("..", "..", "shared", "corpus")

var corpusDocs sync.Map // corpus file name → *spec.Document

// loadCorpus loads a corpus specification once per test binary.
func loadCorpus(t testing.TB, name string) *spec.Document {
	t.Helper()
	if d, ok := corpusDocs.Load(name); ok {
		return d.(*spec.Document)
	}
	// The corpus is one tree: petstore-separate-v2/spec/swagger.yaml reads
	// ../common/Error.yaml, which a user allows with --ref-root.
	doc, err := spec.NewLoader(spec.Options{RefRoot: corpusDir}).Load(context.Background(), filepath.Join(corpusDir, name))
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	corpusDocs.Store(name, doc)
	return doc
}

func rng(l1, c1, l2, c2 int32) spec.Range {
	return spec.Range{Start: spec.Pos{Line: l1, Col: c1}, End: spec.Pos{Line: l2, Col: c2}}
}

// TestLocateCorpus checks Locate against positions found with grep -n in
// the corpus files. A path ending in a key whose value is a scalar spans
// the key and the value; one whose value is an object spans the key only;
// one ending in an index spans the item.
func TestLocateCorpus(t *testing.T) {
	const (
		pods       = "/api/v1/namespaces/{namespace}/pods/{name}"
		chat       = "/chat/completions"
		separate   = "petstore-separate-v2/spec/swagger.yaml"
		separateV2 = "petstore-separate-v2/"
	)
	tests := []struct {
		name  string
		file  string
		path  []any
		want  spec.Range
		wantF string // the file the path lands in, when not file
	}{
		{"github openapi", "github.json", []any{"openapi"}, rng(2, 3, 2, 21), ""},
		{"github operationId", "github.json", []any{"paths", "/", "get", "operationId"}, rng(233, 9, 233, 35), ""},
		{"github tag item", "github.json", []any{"paths", "/", "get", "tags", 0}, rng(231, 11, 231, 17), ""},
		{"github key of an object", "github.json", []any{"components", "schemas", "root"}, rng(120040, 7, 120040, 13), ""},
		{"github through a local $ref", "github.json",
			[]any{"paths", "/", "get", "responses", "200", "content", "application/json", "schema", "properties", "current_user_url", "format"},
			rng(120045, 13, 120045, 37), ""},

		{"kubernetes swagger", "kubernetes.json", []any{"swagger"}, rng(102284, 3, 102284, 19), ""},
		{"kubernetes operationId", "kubernetes.json", []any{"paths", pods, "get", "operationId"}, rng(27685, 9, 27685, 49), ""},
		{"kubernetes through a $ref", "kubernetes.json",
			[]any{"paths", pods, "get", "responses", "200", "schema", "properties", "spec"}, rng(9897, 9, 9897, 15), ""},
		{"kubernetes through two $refs", "kubernetes.json",
			[]any{"paths", pods, "get", "responses", "200", "schema", "properties", "spec", "properties", "containers"}, rng(10379, 9, 10379, 21), ""},
		{"kubernetes parameter $ref", "kubernetes.json", []any{"paths", pods, "delete", "parameters", 0, "in"}, rng(23528, 7, 23528, 19), ""},

		{"stripe openapi", "stripe.yaml", []any{"openapi"}, rng(40015, 1, 40015, 15), ""},
		{"stripe operationId", "stripe.yaml", []any{"paths", "/v1/account", "get", "operationId"}, rng(40020, 7, 40020, 30), ""},
		{"stripe parameter name", "stripe.yaml", []any{"paths", "/v1/account", "get", "parameters", 0, "name"}, rng(40025, 11, 40025, 23), ""},
		{"stripe through a $ref", "stripe.yaml",
			[]any{"paths", "/v1/account", "get", "responses", "200", "content", "application/json", "schema", "properties", "business_profile"},
			rng(26, 9, 26, 25), ""},
		{"stripe folded block scalar", "stripe.yaml", []any{"components", "schemas", "account", "description"}, rng(4, 7, 24, 61), ""},

		{"openai operationId", "openai.yaml", []any{"paths", chat, "post", "operationId"}, rng(2122, 7, 2122, 40), ""},
		{"openai literal block scalar", "openai.yaml", []any{"paths", chat, "post", "summary"}, rng(2125, 7, 2143, 50), ""},
		{"openai quoted key", "openai.yaml", []any{"paths", chat, "post", "responses", "200"}, rng(2151, 9, 2151, 14), ""},
		{"openai through a response $ref", "openai.yaml", []any{"paths", chat, "post", "responses", "429", "description"}, rng(86355, 7, 86355, 79), ""},
		{"openai multi-line plain scalar", "openai.yaml", []any{"info", "description"}, rng(4, 3, 5, 69), ""},

		{"petstore-expanded quoted value", "petstore-expanded.yaml", []any{"openapi"}, rng(1, 1, 1, 17), ""},
		{"petstore-expanded trailing spaces", "petstore-expanded.yaml", []any{"components", "schemas", "NewPet", "required", 0}, rng(141, 11, 141, 15), ""},
		{"petstore-expanded literal block scalar", "petstore-expanded.yaml", []any{"paths", "/pets", "get", "description"}, rng(19, 7, 23, 720), ""},
		{"petstore-expanded block mapping item", "petstore-expanded.yaml", []any{"paths", "/pets", "get", "parameters", 1}, rng(35, 11, 41, 26), ""},
		{"petstore-expanded through two $refs", "petstore-expanded.yaml",
			[]any{"paths", "/pets", "get", "responses", "200", "content", "application/json", "schema", "items", "allOf", 0, "properties", "name"},
			rng(143, 9, 143, 13), ""},

		{"petstore-separate $ref item", separate, []any{"paths", "/pets", "get", "parameters", 0}, rng(32, 11, 32, 45), ""},
		{"petstore-separate into parameters.yaml", separate, []any{"paths", "/pets", "get", "parameters", 0, "name"},
			rng(2, 3, 2, 13), separateV2 + "spec/parameters.yaml"},
		{"petstore-separate into Pet.yaml", separate, []any{"paths", "/pets", "get", "responses", "200", "schema", "items", "properties", "name", "type"},
			rng(10, 5, 10, 17), separateV2 + "spec/Pet.yaml"},
		{"petstore-separate into NewPet.yaml", separate,
			[]any{"paths", "/pets", "post", "parameters", 0, "schema", "allOf", 1, "properties", "description", "format"},
			rng(9, 9, 9, 22), separateV2 + "spec/NewPet.yaml"},
		{"petstore-separate default response into ../common/Error.yaml", separate,
			[]any{"paths", "/pets", "get", "responses", "default", "schema", "properties", "code"},
			rng(6, 3, 6, 7), separateV2 + "common/Error.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := loadCorpus(t, tt.file)
			wantFile := tt.wantF
			if wantFile == "" {
				wantFile = tt.file
			}
			loc := doc.Locate(tt.path, nil)
			if !loc.Exact {
				t.Fatalf("Locate(%v) is not exact: stopped at %s:%v (%s)", tt.path, loc.File.Name, loc.Range, loc.Pointer)
			}
			if got, want := loc.File.Name, filepath.Join(corpusDir, wantFile); got != want {
				t.Errorf("file = %s, want %s", got, want)
			}
			if loc.Range != tt.want {
				t.Errorf("range = %v, want %v", loc.Range, tt.want)
			}
		})
	}
}

// nodeAt follows path through the node tree of one file, without
// following $refs.
func nodeAt(n *spec.Node, path []any) *spec.Node {
	for _, seg := range path {
		switch s := seg.(type) {
		case string:
			n = n.Get(s)
		case int:
			if n == nil || n.Kind != spec.Array || s >= len(n.Items) {
				return nil
			}
			n = n.Items[s]
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// TestPositionsInline checks ranges in small inputs built for one feature
// each. With node set, the range checked is the value's own; otherwise it is
// what Locate returns.
func TestPositionsInline(t *testing.T) {
	const jsonUnicode = `{
  "openapi": "3.0.0",
  "info": {"title": "Ünïcödé — 日本語", "version": "1"},
  "x-emoji": {"a": "😀\u00e9😀", "b": true},
  "paths": {}
}
`
	const minified = `{"openapi":"3.0.0","info":{"title":"x","version":"1"},"paths":{}}`
	const yamlQuoted = `openapi: "3.1.0"
info:
  "title": 'It''s a "spec"'
  'version': "1.0 \"beta\""
  x-unicode: "日本語"
x-i18n: {"ключ": "значение", b: 1}
x-two-lines: "first
  second"
x-escaped-break: "first \
  second"
paths: {}
`
	const yamlBlocks = `openapi: 3.1.0
info:
  title: Blocks
  description: |
    First line.

    Third line, after a blank one.
  version: "1"
  summary: >
    Folded
    over two lines.
  termsOfService: this plain scalar
    goes on here
paths: {}
`
	const yamlFlow = `openapi: 3.1.0
info: {title: Flow, version: "1"}
paths: {/pets: {get: {responses: {"200": {description: ok}}}}}
tags: [{name: a}, {name: b}]
x-spaced: { a: 1, b: [ 1, 2 ] }
x-empty: {}
`
	tests := []struct {
		name string
		src  string
		ext  string
		path []any
		node bool
		want spec.Range
	}{
		{"JSON root", jsonUnicode, ".json", nil, true, rng(1, 1, 6, 2)},
		{"JSON key after non-ASCII text", jsonUnicode, ".json", []any{"info", "version"}, false, rng(3, 38, 3, 52)},
		{"JSON non-ASCII string", jsonUnicode, ".json", []any{"info", "title"}, true, rng(3, 21, 3, 36)},
		{"JSON escapes and emoji", jsonUnicode, ".json", []any{"x-emoji", "a"}, true, rng(4, 20, 4, 30)},
		{"JSON key after escapes and emoji", jsonUnicode, ".json", []any{"x-emoji", "b"}, false, rng(4, 32, 4, 41)},
		{"JSON object", jsonUnicode, ".json", []any{"x-emoji"}, true, rng(4, 14, 4, 42)},
		{"minified JSON root", minified, ".json", nil, true, rng(1, 1, 1, 66)},
		{"minified JSON key", minified, ".json", []any{"info", "version"}, false, rng(1, 40, 1, 53)},

		{"YAML double-quoted value", yamlQuoted, ".yaml", []any{"openapi"}, false, rng(1, 1, 1, 17)},
		{"YAML quoted key, single-quoted value", yamlQuoted, ".yaml", []any{"info", "title"}, false, rng(3, 3, 3, 28)},
		{"YAML single-quoted key, escaped quotes", yamlQuoted, ".yaml", []any{"info", "version"}, false, rng(4, 3, 4, 28)},
		{"YAML non-ASCII quoted value", yamlQuoted, ".yaml", []any{"info", "x-unicode"}, true, rng(5, 14, 5, 19)},
		{"YAML key after non-ASCII in a flow mapping", yamlQuoted, ".yaml", []any{"x-i18n", "b"}, false, rng(6, 30, 6, 34)},
		{"YAML double-quoted over two lines", yamlQuoted, ".yaml", []any{"x-two-lines"}, true, rng(7, 14, 8, 10)},
		{"YAML double-quoted escaped line break", yamlQuoted, ".yaml", []any{"x-escaped-break"}, true, rng(9, 18, 10, 10)},

		{"YAML literal block scalar", yamlBlocks, ".yaml", []any{"info", "description"}, false, rng(4, 3, 7, 35)},
		{"YAML folded block scalar", yamlBlocks, ".yaml", []any{"info", "summary"}, false, rng(9, 3, 11, 20)},
		{"YAML multi-line plain scalar", yamlBlocks, ".yaml", []any{"info", "termsOfService"}, false, rng(12, 3, 13, 17)},

		{"YAML flow mapping", yamlFlow, ".yaml", []any{"info"}, true, rng(2, 7, 2, 34)},
		{"YAML key in a flow mapping", yamlFlow, ".yaml", []any{"info", "version"}, false, rng(2, 21, 2, 33)},
		{"YAML path ending in a key of a flow mapping", yamlFlow, ".yaml", []any{"info"}, false, rng(2, 1, 2, 5)},
		{"YAML nested flow mappings", yamlFlow, ".yaml", []any{"paths", "/pets", "get", "responses", "200"}, true, rng(3, 42, 3, 59)},
		{"YAML flow sequence item", yamlFlow, ".yaml", []any{"tags", 1}, false, rng(4, 19, 4, 28)},
		{"YAML flow sequence", yamlFlow, ".yaml", []any{"tags"}, true, rng(4, 7, 4, 29)},
		{"YAML empty flow mapping", yamlFlow, ".yaml", []any{"x-empty"}, true, rng(6, 10, 6, 12)},
		{"YAML flow mapping with inner spaces", yamlFlow, ".yaml", []any{"x-spaced"}, true, rng(5, 11, 5, 32)},
		{"YAML flow sequence with inner spaces", yamlFlow, ".yaml", []any{"x-spaced", "b"}, true, rng(5, 22, 5, 30)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "inline"+tt.ext, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got spec.Range
			if tt.node {
				n := nodeAt(doc.Root.Root, tt.path)
				if n == nil {
					t.Fatalf("no node at %v", tt.path)
				}
				got = n.Range
			} else {
				loc := doc.Locate(tt.path, nil)
				if !loc.Exact {
					t.Fatalf("Locate(%v) is not exact", tt.path)
				}
				got = loc.Range
			}
			if got != tt.want {
				t.Errorf("range of %v = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

// TestYAMLContainerEndWithAliases: a mapping or sequence whose last value is
// an alias, or which merges another mapping with <<, must still end after
// it starts, at its own last value.
func TestYAMLContainerEndWithAliases(t *testing.T) {
	const src = `openapi: 3.1.0
x-base: &base
  p: 1
x-derived:
  <<: *base
  q: 2
x-alias-last:
  r: *base
x-seq-alias-last:
  - 1
  - *base
`
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "aliases.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		want spec.Range
	}{
		{"x-derived", rng(5, 3, 6, 7)},
		{"x-alias-last", rng(8, 3, 8, 11)},
		{"x-seq-alias-last", rng(10, 3, 11, 10)},
	}
	for _, tt := range tests {
		if got := doc.Root.Root.Get(tt.key).Range; got != tt.want {
			t.Errorf("%s: range %v, want %v", tt.key, got, tt.want)
		}
	}
	if got := doc.Root.Root.Get("x-derived").Get("p"); got == nil || got.Value != "1" {
		t.Errorf("x-derived does not merge p from x-base: %v", got)
	}
}

// TestLocatePointerThroughRef: once a path has passed a $ref, Pointer must
// be the pointer within the file the location is in (the target's), not the
// pointer of the $ref object in the file it is written in.
func TestLocatePointerThroughRef(t *testing.T) {
	tests := []struct {
		file string
		path []any
		want string
	}{
		{"petstore-separate-v2/spec/swagger.yaml", []any{"paths", "/pets", "get", "parameters", 0, "name"}, "/tagsParam/name"},
		{"petstore-separate-v2/spec/swagger.yaml", []any{"paths", "/pets", "get", "responses", "200", "schema", "items", "properties", "name"},
			"/properties/name"},
		{"github.json", []any{"paths", "/", "get", "responses", "200", "content", "application/json", "schema", "properties", "current_user_url"},
			"/components/schemas/root/properties/current_user_url"},
		{"github.json", []any{"paths", "/", "get", "tags", 0}, "/paths/~1/get/tags/0"},
	}
	for _, tt := range tests {
		loc := loadCorpus(t, tt.file).Locate(tt.path, nil)
		if loc.Pointer != tt.want {
			t.Errorf("%s %v: Pointer = %q, want %q (in %s)", tt.file, tt.path, loc.Pointer, tt.want, loc.File.Name)
		}
	}
}

// TestLocateNonIntegerSegment: a path segment that is neither a string nor
// an int (a float64 from decoded JSON, a bool) cannot index an array; it
// must not silently select item 0.
func TestLocateNonIntegerSegment(t *testing.T) {
	doc := loadCorpus(t, "petstore-expanded.yaml")
	for _, seg := range []any{float64(1), true, 1.5} {
		loc := doc.Locate([]any{"paths", "/pets", "get", "parameters", seg}, nil)
		if loc.Exact {
			t.Errorf("segment %T(%v): Exact location %v at %q", seg, seg, loc.Range, loc.Pointer)
		}
	}
	loc := doc.Locate([]any{"paths", "/pets", "get", "parameters", "1"}, nil)
	if !loc.Exact || loc.Range.Start != (spec.Pos{Line: 35, Col: 11}) {
		t.Errorf(`segment "1": %v exact=%v, want item 1 at 35:11`, loc.Range, loc.Exact)
	}
}

// A large object's keys are found through an index: a key lands where it
// is written, and a missing one on the object's own key.
func TestLocateInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "x-big": {`)
	for i := range 40 {
		fmt.Fprintf(&b, "\n\"k%d\": %d,", i, i)
	}
	b.WriteString("\n\"k40\": 40\n}}\n")
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  []any
		line  int32
		exact bool
	}{
		{[]any{"x-big", "k5"}, 7, true},
		{[]any{"x-big", "k39"}, 41, true},
		{[]any{"x-big", "k40"}, 42, true},
		{[]any{"x-big", "k41"}, 1, false},
	} {
		loc := doc.Locate(tc.path, nil)
		if loc.Range.Start.Line != tc.line || loc.Exact != tc.exact {
			t.Errorf("%v: line %d (exact %v), want line %d (exact %v)", tc.path, loc.Range.Start.Line, loc.Exact, tc.line, tc.exact)
		}
	}
}

// TestPointerEscapes: a segment with "~" or "/" is escaped (RFC 6901),
// each occurrence; others are written as they are.
func TestPointerEscapes(t *testing.T) {
	got := spec.Pointer([]any{"paths", "/v1/{id}", "get", "x~y/z~", 0, ""})
	if want := "/paths/~1v1~1{id}/get/x~0y~1z~0/0/"; got != want {
		t.Errorf("Pointer = %q, want %q", got, want)
	}
	if got := spec.Pointer(nil); got != "" {
		t.Errorf("Pointer(nil) = %q, want the empty pointer", got)
	}
}

// A path ending in a $ref points to the reference as written, its value,
// where an unresolvable one's Error is placed; another scalar member is
// pointed to from its key.
func TestLocateRefValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "api.yaml")
	src := "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\": {$ref: \"#/components/responses/Nope\"}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	resp := []any{"paths", "/a", "get", "responses", "200"}
	for _, tc := range []struct {
		path       []any
		start, end spec.Pos
	}{
		{append(resp, "$ref"), spec.Pos{Line: 7, Col: 23}, spec.Pos{Line: 7, Col: 52}},
		{[]any{"openapi"}, spec.Pos{Line: 1, Col: 1}, spec.Pos{Line: 1, Col: 15}},
	} {
		if loc := doc.Locate(tc.path, nil); loc.Range.Start != tc.start || loc.Range.End != tc.end {
			t.Errorf("%v: %v, want %v to %v", tc.path, loc.Range, tc.start, tc.end)
		}
	}
	n := doc.Root.Root.Get("paths").Get("/a").Get("get").Get("responses").Get("200")
	if r := doc.RefOf(n); r == nil || r.Err == nil || r.Err.Pos != (spec.Pos{Line: 7, Col: 23}) {
		t.Errorf("ref %+v, want its error at 7:23", r)
	}
}
