package spec_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// Seeds: a small valid document of every format and version the loader
// reads, in the features that matter to positions and $refs, plus a few
// malformed inputs. The files under testdata/bad and testdata/refs are
// added too, and go test runs the regression inputs under
// testdata/fuzz/<FuzzName>.
var yamlSeeds = []string{
	`swagger: "2.0"
info: {title: Pets, version: "1"}
paths:
  /pets/{id}:
    get:
      parameters:
        - $ref: '#/parameters/id'
      responses:
        "200":
          description: ok
          schema: {$ref: '#/definitions/Pet'}
        default:
          $ref: '#/responses/Error'
parameters:
  id: {name: id, in: path, required: true, type: string}
responses:
  Error: {description: error}
definitions:
  Pet:
    type: object
    properties:
      parent: {$ref: '#/definitions/Pet'}
`,
	`openapi: 3.0.3
info:
  title: "Quoted \"title\""
  version: '1.0'
  description: |
    Literal
    block
  summary: >-
    Folded
    block
x-defaults: &defaults
  type: string
  maxLength: 10
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                <<: *defaults
                minLength: 1
              examples:
                default: {$ref: '#/components/examples/A'}
components:
  examples:
    A: {value: {$ref: not a reference}}
`,
	`openapi: 3.1.0
info: {title: Hooks, version: "1"}
webhooks:
  newPet:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {type: [string, "null"]}
        children: {type: array, items: {$ref: '#/components/schemas/Pet'}}
`,
	"openapi: 3.2.0\ninfo: {title: Ünïcödé — 日本語, version: \"1\"}\npaths: {}\n",
	`asyncapi: 2.6.0
info: {title: Lights, version: "1"}
channels:
  light/measured:
    publish:
      message: {$ref: '#/components/messages/Measured'}
components:
  messages:
    Measured:
      payload: {type: object}
`,
	`asyncapi: 3.0.0
info: {title: Chat, version: "1"}
channels:
  room:
    address: rooms/{id}
    messages:
      said: {$ref: '#/components/messages/Said'}
operations:
  say:
    action: send
    channel: {$ref: '#/channels/room'}
components:
  messages:
    Said: {payload: {type: string}}
`,
	`arazzo: 1.0.1
info: {title: Flow, version: "1"}
sourceDescriptions:
  - {name: pets, url: ./pets.yaml, type: openapi}
workflows:
  - workflowId: buy
    steps:
      - {stepId: find, operationId: findPets}
`,
	"openapi: 3.0.0\na: {$ref: '#/b'}\nb: {$ref: '#/a'}\nc: {$ref: 'other.yaml#/x'}\nd: {$ref: 'https://example.com/x.yaml'}\n",
	"openapi: 3.0.0\n---\nopenapi: 3.0.0\n",
	"openapi: 3.0.0\ninfo:\n  title: x\n  - item\n",
	"openapi: 3.0.0\nx: [[[[[[[[[[1]]]]]]]]]]\ny: &a [*a]\n",
	"openapi: 3.0.0\nx: *nope\n",
	"\xef\xbb\xbfopenapi: 3.0.0\r\ninfo:\r\n  title: crlf\r\n",
	"- 1\n- 2\n",
	"",
}

var jsonSeeds = []string{
	`{"swagger":"2.0","info":{"title":"Pets","version":"1"},"paths":{"/pets":{"get":{"responses":{"200":{"description":"ok","schema":{"$ref":"#/definitions/Pet"}}}}}},"definitions":{"Pet":{"type":"object","properties":{"self":{"$ref":"#/definitions/Pet"}}}}}`,
	`{
  "openapi": "3.0.0",
  "info": {"title": "Ünïcödé \u00e9 \ud83d\ude00 😀", "version": "1"},
  "paths": {
    "/a": {"get": {"parameters": [{"$ref": "#/components/parameters/q"}], "responses": {"default": {"description": "x"}}}}
  },
  "components": {"parameters": {"q": {"name": "q", "in": "query", "schema": {"type": "integer", "default": 1e3, "minimum": -0.5}}}}
}
`,
	`{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "webhooks": {}, "x": [true, false, null, 0, -1.5e-3, "", {}, []]}`,
	`{"asyncapi": "3.0.0", "info": {"title": "t", "version": "1"}, "channels": {"c": {"$ref": "#/channels/c"}}}`,
	`{"arazzo": "1.0.0", "info": {"title": "t", "version": "1"}, "workflows": []}`,
	`{"openapi": "3.0.0", "a": {"$ref": "#/b/c"}, "b": {"$ref": "#/a"}}`,
	`{"openapi": "3.0.0", "info": {"title": "x", "title": "y"}}`,
	`{"openapi": "3.0.0", "info": {"title": "x"`,
	`{"openapi": "3.0.0", "x": "\ud800", "y": "\u12"}`,
	`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`,
	`{"openapi": 3.0}`,
	"\n\n  {\"openapi\": \"3.0.0\"} trailing",
}

// addFixtureSeeds adds the files under testdata/bad and testdata/refs whose
// names end in one of exts.
func addFixtureSeeds(f *testing.F, exts ...string) {
	for _, dir := range []string{"bad", "refs"} {
		entries, err := os.ReadDir(filepath.Join("testdata", dir))
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			for _, ext := range exts {
				if strings.HasSuffix(e.Name(), ext) {
					data, err := os.ReadFile(filepath.Join("testdata", dir, e.Name()))
					if err != nil {
						f.Fatal(err)
					}
					f.Add(data)
				}
			}
		}
	}
}

func FuzzLoadYAML(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	addFixtureSeeds(f, ".yaml", ".yml")
	f.Fuzz(func(t *testing.T, data []byte) { checkLoad(t, "fuzz/input.yaml", data) })
}

func FuzzLoadJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	addFixtureSeeds(f, ".json")
	f.Fuzz(func(t *testing.T, data []byte) { checkLoad(t, "fuzz/input.json", data) })
}

// fuzzLimits keep one fuzz input cheap: a referenced file is read up to
// 1 MiB.
var fuzzLimits = spec.Limits{MaxFileSize: 1 << 20}

// checkLoad asserts the properties every input must have: loading never
// panics and returns within loadDeadline; a failure is a *spec.Error naming
// the file, positioned at 1-based coordinates when it has a position; a
// success has 1-based, non-inverted ranges on every node reachable from the
// root of every file, and Locate copes with any path.
func checkLoad(t *testing.T, name string, data []byte) {
	doc, err := loadSafely(t, func() (*spec.Document, error) {
		return spec.NewLoader(spec.Options{Limits: fuzzLimits}).LoadBytes(context.Background(), name, data)
	})
	if err != nil {
		checkFuzzErr(t, err)
		if doc != nil {
			t.Fatalf("both a document and an error (%v)", err)
		}
		return
	}
	for _, f := range doc.Files() {
		checkPositions(t, f)
	}
	for _, r := range doc.Refs {
		if r.Err != nil {
			checkFuzzErr(t, r.Err)
		}
	}
	visit := func(n *spec.Node) {
		if n == nil {
			t.Fatal("Locate visited a nil node")
		}
	}
	for i, path := range samplePaths(doc) {
		var fn func(*spec.Node)
		if i%2 == 0 {
			fn = visit
		}
		loc := doc.Locate(path, fn)
		if loc.File == nil {
			t.Fatalf("Locate(%v): no file", path)
		}
		if loc.Exact && (loc.Range.Start.Line < 1 || loc.Range.Start.Col < 1) {
			t.Fatalf("Locate(%v) = %s:%v: not 1-based", path, loc.File.Name, loc.Range)
		}
	}
}

func checkFuzzErr(t *testing.T, err error) {
	t.Helper()
	var se *spec.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %T (%v) is not a *spec.Error", err, err)
	}
	if se.File == "" || se.Msg == "" {
		t.Fatalf("error without a file or a message: %#v", se)
	}
	if se.Pos.Line < 0 || (se.Pos.Line > 0 && se.Pos.Col < 1) || (se.Pos.Line == 0 && se.Pos.Col != 0) {
		t.Fatalf("error position %d:%d is not 1-based: %v", se.Pos.Line, se.Pos.Col, err)
	}
}

// checkPositions walks every node of f once (YAML aliases share nodes).
func checkPositions(t *testing.T, f *spec.File) {
	seen := map[*spec.Node]bool{}
	var walk func(n *spec.Node, ptr string)
	walk = func(n *spec.Node, ptr string) {
		if n == nil {
			t.Fatalf("%s#%s: nil node", f.Name, ptr)
		}
		if seen[n] {
			return
		}
		seen[n] = true
		if s := n.Range.Start; s.Line < 1 || s.Col < 1 {
			t.Fatalf("%s#%s: %s node starts at %d:%d", f.Name, ptr, n.Kind, s.Line, s.Col)
		}
		if s, e := n.Range.Start, n.Range.End; e.Line < s.Line || (e.Line == s.Line && e.Col < s.Col) {
			t.Fatalf("%s#%s: %s node ends at %d:%d, before its start %d:%d", f.Name, ptr, n.Kind, e.Line, e.Col, s.Line, s.Col)
		}
		for _, fl := range n.Fields {
			if s := fl.KeyRange.Start; s.Line < 1 || s.Col < 1 {
				t.Fatalf("%s#%s: key %q starts at %d:%d", f.Name, ptr, fl.Key, s.Line, s.Col)
			}
			walk(fl.Value, ptr+"/"+fl.Key)
		}
		for _, it := range n.Items {
			walk(it, ptr+"/[]")
		}
	}
	walk(f.Root, "")
}

// samplePaths derives paths from the document itself: paths to its first
// values, each extended with segments that do not exist, and paths that go
// through each $ref into its target.
func samplePaths(doc *spec.Document) [][]any {
	const maxPaths = 64
	var out [][]any
	var walk func(n *spec.Node, path []any, depth int)
	walk = func(n *spec.Node, path []any, depth int) {
		if len(out) >= maxPaths || depth > 8 {
			return
		}
		out = append(out, path,
			extendPath(path, "no-such-key"), extendPath(path, -1), extendPath(path, len(n.Items)), extendPath(path, "0"), extendPath(path, "$ref"))
		for _, fl := range n.Fields {
			walk(fl.Value, extendPath(path, fl.Key), depth+1)
		}
		for i, it := range n.Items {
			walk(it, extendPath(path, i), depth+1)
		}
	}
	walk(doc.Root.Root, nil, 0)
	for _, r := range doc.Refs {
		if len(out) >= 4*maxPaths {
			break
		}
		if r.File != doc.Root || r.Target == nil {
			continue
		}
		var path []any
		for _, seg := range strings.Split(r.Pointer(), "/")[1:] {
			path = append(path, strings.NewReplacer("~1", "/", "~0", "~").Replace(seg))
		}
		for _, fl := range r.Target.Fields {
			out = append(out, extendPath(path, fl.Key))
		}
		for i := range r.Target.Items {
			out = append(out, extendPath(path, i))
		}
	}
	return out
}

func extendPath(path []any, seg any) []any {
	return append(append(make([]any, 0, len(path)+1), path...), seg)
}
