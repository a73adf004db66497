package contract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// The values of the OpenAPI specification's style examples ("Style
// Examples" of the Parameter Object, 3.1.1 and 3.2), and each
// style's serialization of them as the table gives it.
var (
	styleString = "blue"
	styleArray  = []any{"blue", "black", "brown"}
	styleObject = map[string]any{"R": json.Number("100"), "G": json.Number("200"), "B": json.Number("150")}
)

type styleRow struct {
	in, style          string
	explode            bool
	str, array, object string // "" where the table says n/a
}

var styleTable = []styleRow{
	{in: "path", style: "matrix", explode: false, str: ";color=blue", array: ";color=blue,black,brown", object: ";color=R,100,G,200,B,150"},
	{in: "path", style: "matrix", explode: true, str: ";color=blue", array: ";color=blue;color=black;color=brown", object: ";R=100;G=200;B=150"},
	{in: "path", style: "label", explode: false, str: ".blue", array: ".blue,black,brown", object: ".R,100,G,200,B,150"},
	{in: "path", style: "label", explode: true, str: ".blue", array: ".blue.black.brown", object: ".R=100.G=200.B=150"},
	{in: "path", style: "simple", explode: false, str: "blue", array: "blue,black,brown", object: "R,100,G,200,B,150"},
	{in: "path", style: "simple", explode: true, str: "blue", array: "blue,black,brown", object: "R=100,G=200,B=150"},
	{in: "query", style: "form", explode: false, str: "color=blue", array: "color=blue,black,brown", object: "color=R,100,G,200,B,150"},
	{in: "query", style: "form", explode: true, str: "color=blue", array: "color=blue&color=black&color=brown", object: "R=100&G=200&B=150"},
	{in: "query", style: "spaceDelimited", explode: false, array: "color=blue%20black%20brown", object: "color=R%20100%20G%20200%20B%20150"},
	{in: "query", style: "pipeDelimited", explode: false, array: "color=blue%7Cblack%7Cbrown", object: "color=R%7C100%7CG%7C200%7CB%7C150"},
	{in: "query", style: "deepObject", explode: true, object: "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"},
	// Headers and cookies, which the table leaves to the styles it lists.
	{in: "header", style: "simple", explode: false, str: "blue", array: "blue,black,brown", object: "R,100,G,200,B,150"},
	{in: "header", style: "simple", explode: true, str: "blue", array: "blue,black,brown", object: "R=100,G=200,B=150"},
	{in: "cookie", style: "form", explode: false, str: "color=blue", array: "color=blue,black,brown", object: "color=R,100,G,200,B,150"},
	{in: "cookie", style: "form", explode: true, str: "color=blue", array: "color=blue; color=black; color=brown", object: "R=100; G=200; B=150"},
}

var kindSchemas = map[string]string{
	"string": `{type: string}`,
	"array":  `{type: array, items: {type: string}}`,
	"object": `{type: object, properties: {R: {type: integer}, G: {type: integer}, B: {type: integer}}}`,
}

// styleDoc is an OpenAPI 3.1 document with one operation per row and kind
// of the style table, at /{in}-{style}-{explode}-{kind}.
func styleDoc(t testing.TB) *spec.Document {
	var b strings.Builder
	b.WriteString("openapi: 3.1.0\ninfo: {title: styles, version: '1'}\npaths:\n")
	for _, row := range styleTable {
		for _, kind := range []string{"string", "array", "object"} {
			name := "color"
			if row.in == "header" {
				name = "X-Color"
			}
			path := fmt.Sprintf("/%s-%s-%v-%s", row.in, row.style, row.explode, kind)
			if row.in == "path" {
				path += "/{color}"
			}
			fmt.Fprintf(&b, "  %s:\n    get:\n      parameters:\n        - {name: %s, in: %s, required: %v, style: %s, explode: %v, schema: %s}\n      responses: {'200': {description: ok}}\n",
				path, name, row.in, row.in == "path", row.style, row.explode, kindSchemas[kind])
		}
	}
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "styles.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func findOp(t testing.TB, doc *spec.Document, method, path string) *spec.Operation {
	t.Helper()
	for _, op := range doc.Views().Operations {
		if op.Method == method && op.Path == path {
			return op
		}
	}
	t.Fatalf("no operation %s %s", method, path)
	return nil
}

// TestStyleExamples writes each value of the specification's style table
// by its style and requires the table's text, then reads the table's text
// and requires the value: serializing and deserializing agree with the
// specification and undo each other.
func TestStyleExamples(t *testing.T) {
	doc := styleDoc(t)
	c := newContract(t, doc, contract.Options{})
	for _, row := range styleTable {
		for kind, value := range map[string]any{"string": styleString, "array": styleArray, "object": styleObject} {
			want := map[string]string{"string": row.str, "array": row.array, "object": row.object}[kind]
			if want == "" {
				continue // n/a in the table
			}
			path := fmt.Sprintf("/%s-%s-%v-%s", row.in, row.style, row.explode, kind)
			t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
				if row.in == "path" {
					path += "/{color}"
				}
				op := findOp(t, doc, "get", path)
				name := "color"
				if row.in == "header" {
					name = "X-Color"
				}
				v := valuesIn(row.in, name, value)
				built, err := c.BuildRequest(op, v)
				if err != nil {
					t.Fatal(err)
				}
				var got string
				switch row.in {
				case "path":
					got = built.Path[strings.LastIndexByte(built.Path, '/')+1:]
				case "query":
					got = built.RawQuery
				case "header":
					got = built.Header.Get(name)
				case "cookie":
					got = built.Header.Get("Cookie")
				}
				if got != want {
					t.Errorf("serialized %q, want %q", got, want)
				}
				// Read the table's own text back.
				req := &contract.Request{Method: "GET", Path: strings.TrimSuffix(path, "/{color}"), Header: http.Header{}}
				switch row.in {
				case "path":
					req.Path += "/" + want
				case "query":
					req.RawQuery = want
				case "header":
					req.Header.Set(name, want)
				case "cookie":
					req.Header.Set("Cookie", want)
				}
				res := c.CheckRequest(req)
				if !res.OK() {
					t.Fatalf("reading %q: %v", want, res.Problems)
				}
				read := map[string]map[string]any{"path": res.Params.Path, "query": res.Params.Query, "header": res.Params.Header, "cookie": res.Params.Cookie}[row.in][name]
				if !reflect.DeepEqual(read, value) {
					t.Errorf("read %q as %#v, want %#v", want, read, value)
				}
			})
		}
	}
}

// TestStyleEmptyValues writes the table's "undefined" column: a null
// value of the styles that have a text for it.
func TestStyleEmptyValues(t *testing.T) {
	doc := styleDoc(t)
	c := newContract(t, doc, contract.Options{})
	for _, tc := range []struct{ path, want string }{
		{"/path-matrix-false-string/{color}", ";color"},
		{"/path-matrix-true-string/{color}", ";color"},
		{"/path-label-false-string/{color}", "."},
		{"/path-label-true-string/{color}", "."},
	} {
		built, err := c.BuildRequest(findOp(t, doc, "get", tc.path), contract.Values{Path: map[string]any{"color": nil}})
		if err != nil {
			t.Fatal(err)
		}
		if got := built.Path[strings.LastIndexByte(built.Path, '/')+1:]; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{"/query-form-false-string", "color="},
		{"/query-form-true-string", "color="},
	} {
		built, err := c.BuildRequest(findOp(t, doc, "get", tc.path), contract.Values{Query: map[string]any{"color": nil}})
		if err != nil {
			t.Fatal(err)
		}
		if built.RawQuery != tc.want {
			t.Errorf("%s: %q, want %q", tc.path, built.RawQuery, tc.want)
		}
	}
}

// TestStyleRoundTripsAwkwardText sends text holding each style's
// delimiters and reserved characters, and reads back what was sent.
func TestStyleRoundTripsAwkwardText(t *testing.T) {
	doc := styleDoc(t)
	c := newContract(t, doc, contract.Options{})
	awkward := []any{"a,b", "c d", "e|f", "g=h;i", "ü/é", "100%", "x+y", "[k]&"}
	for _, row := range styleTable {
		if row.array == "" || row.in == "header" || row.in == "cookie" && row.explode {
			continue
		}
		path := fmt.Sprintf("/%s-%s-%v-array", row.in, row.style, row.explode)
		if row.in == "path" {
			path += "/{color}"
		}
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			op := findOp(t, doc, "get", path)
			v := contract.Values{}
			if row.in == "path" {
				// Label and matrix exploded arrays cannot carry their own
				// delimiter; the others escape it.
				items := awkward
				if row.style != "simple" {
					items = []any{"a,b", "c d", "ü/é", "100%"}
				}
				v.Path = map[string]any{"color": items}
			} else if row.in == "query" {
				// spaceDelimited and pipeDelimited send their delimiter
				// encoded (%20, %7C) as they send it in data: an item
				// cannot hold it.
				items := awkward
				switch row.style {
				case "spaceDelimited":
					items = without(awkward, "c d")
				case "pipeDelimited":
					items = without(awkward, "e|f")
				}
				v.Query = map[string]any{"color": items}
			} else {
				v.Cookie = map[string]any{"color": awkward}
			}
			built, err := c.BuildRequest(op, v)
			if err != nil {
				t.Fatal(err)
			}
			res := c.CheckRequest(built.Request(""))
			if !res.OK() {
				t.Fatalf("%s ? %s: %v", built.Path, built.RawQuery, res.Problems)
			}
			got := map[string]map[string]any{"path": res.Params.Path, "query": res.Params.Query, "cookie": res.Params.Cookie}[row.in]["color"]
			want := map[string]map[string]any{"path": v.Path, "query": v.Query, "cookie": v.Cookie}[row.in]["color"]
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sent %s ? %s (Cookie %q), read %#v, want %#v", built.Path, built.RawQuery, built.Header.Get("Cookie"), got, want)
			}
		})
	}
}

func without(list []any, drop any) []any {
	var out []any
	for _, v := range list {
		if v != drop {
			out = append(out, v)
		}
	}
	return out
}

// valuesIn are the values of one parameter, name, in the place in names.
func valuesIn(in, name string, value any) contract.Values {
	var v contract.Values
	v.Set(in, name, value)
	return v
}
