package compat

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/specgate/specgate/spec"
)

// oddShapes are documents whose parts have the wrong JSON kinds: the
// check must compare them with a regular document both ways without a
// panic.
var oddShapes = []string{
	"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths: []\n",
	"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a: 5\n",
	"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters: {x: 1}\n      requestBody: []\n      responses: [1, 2]\n      security: {a: b}\n",
	"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    post:\n      requestBody:\n        required: yes\n        content:\n          application/json:\n            schema: string\n      responses:\n        \"200\":\n          content:\n            application/json:\n              schema:\n                type: 5\n                enum: {a: 1}\n                required: name\n                properties: [1]\n                items: [1]\n                oneOf: {}\n                allOf: [5, {$ref: '#/nowhere'}]\n                minimum: big\n                maxLength: []\n                format: 7\n                pattern: {}\n",
	"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\":\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/A'}\ncomponents:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n",
	"swagger: \"2.0\"\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters:\n        - {in: body, name: b}\n        - {in: formData}\n        - 7\n      responses:\n        default: {schema: {allOf: {}}}\n",
	// JSON Schema 2020-12 keywords with values of the wrong kind, an invalid
	// pattern, a zero and a negative factor, boolean and null alternatives,
	// schemas that reach themselves through allOf, oneOf and $ref siblings.
	"openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    post:\n      parameters:\n        - {name: q, in: query, style: 5, explode: x, schema: {type: [array, 5], items: [1]}}\n        - {name: h, in: header, content: []}\n      requestBody:\n        content:\n          application/json:\n            schema:\n              type: [object, array, string, number]\n              prefixItems: 5\n              items: [1, true]\n              additionalItems: 3\n              contains: []\n              minContains: x\n              dependentRequired: {a: 5, b: [1, c]}\n              dependentSchemas: [1]\n              dependencies: {a: [b], c: 5}\n              if: 3\n              then: x\n              not: \"x\"\n              patternProperties: {\"(\": {}, \"^a\": false}\n              propertyNames: false\n              unevaluatedProperties: [1]\n              unevaluatedItems: {}\n              multipleOf: 0\n              uniqueItems: yes\n              contentSchema: 7\n              contentEncoding: {}\n              x-extensible-enum: {}\n              exclusiveMinimum: true\n              oneOf: [null, 5, {type: \"null\"}]\n              anyOf: [true, false, {$ref: '#/components/schemas/Self'}]\n              allOf: [false, {$ref: '#/components/schemas/Self'}]\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Self', maxLength: 3, multipleOf: -1}\ncomponents:\n  schemas:\n    Self:\n      allOf: [{$ref: '#/components/schemas/Self'}]\n      oneOf: [{$ref: '#/components/schemas/Self'}, {$ref: '#/components/schemas/Other'}]\n      properties: {a: {$ref: '#/components/schemas/Self'}}\n    Other: {not: {$ref: '#/components/schemas/Other'}, items: {$ref: '#/components/schemas/Self'}}\n",
	"asyncapi: 3.0.0\ninfo: {title: t, version: \"1\"}\nchannels: [1]\noperations:\n  a: {action: 5, channel: 7, messages: {x: 1}}\n  b: {action: send, channel: {$ref: '#/channels/none'}, messages: [5]}\n",
	"asyncapi: 2.6.0\ninfo: {title: t, version: \"1\"}\nchannels:\n  a:\n    publish: {message: {oneOf: {}}}\n    subscribe: {message: [1]}\n",
}

func TestOddShapesDoNotPanic(t *testing.T) {
	regular := map[spec.Format]string{}
	for _, f := range []string{"testdata/cases/swagger2.txtar", "testdata/cases/asyncapi2.txtar", "testdata/cases/callbacks.txtar"} {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "base.yaml" {
				doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "x.yaml", file.Data)
				if err != nil {
					t.Fatal(err)
				}
				regular[doc.Format] = string(file.Data)
			}
		}
	}
	for i, odd := range oddShapes {
		for _, other := range regular {
			for _, pair := range [][2]string{{odd, other}, {other, odd}, {odd, odd}} {
				dir := writeFiles(t, map[string]string{"base.yaml": pair[0], "rev.yaml": pair[1]})
				res := CheckFiles(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})},
					filepath.Join(dir, "base.yaml"), filepath.Join(dir, "rev.yaml"))
				if res.Verdict == "" || res.Message == "" {
					t.Errorf("odd shape %d: no verdict or message: %+v", i, res)
				}
			}
		}
	}
}

// FuzzCompare mutates the revision of fixture pairs: loading and comparing
// must never panic.
func FuzzCompare(f *testing.F) {
	files, _ := filepath.Glob("testdata/rules/*.txtar")
	bases := map[string][]byte{}
	for _, name := range files {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var base, rev []byte
		for _, file := range ar.Files {
			switch file.Name {
			case "base.yaml":
				base = file.Data
			case "rev.yaml":
				rev = file.Data
			}
		}
		bases[name] = base
		f.Add(len(bases)-1, rev)
	}
	list := make([][]byte, 0, len(files))
	for _, name := range files {
		list = append(list, bases[name])
	}
	loader := spec.NewLoader(spec.Options{})
	f.Fuzz(func(t *testing.T, which int, rev []byte) {
		if which < 0 {
			which = -which
		}
		base, err := loader.LoadBytes(context.Background(), "base.yaml", list[which%len(list)])
		if err != nil {
			t.Skip()
		}
		doc, err := loader.LoadBytes(context.Background(), "rev.yaml", rev)
		if err != nil || Comparable(base, doc) != "" {
			t.Skip()
		}
		for _, c := range Compare(base, doc) {
			if c.RuleID == "" || c.Location.File == "" {
				t.Errorf("change without rule or file: %+v", c)
			}
		}
	})
}
