package examples

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/spec"
)

func load(t *testing.T, path string) *spec.Document {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// summary writes an inline example on one line: name, pairing, request,
// response and where its first value is written.
func summary(ex *Example) string {
	var b strings.Builder
	b.WriteString(ex.Name + " | " + ex.Pairing.String() + " | ")
	if r := ex.Request; r != nil {
		b.WriteString(r.Method + " " + contract.InlineText(lit(r.Path)))
		if len(r.PathParams) > 0 {
			b.WriteString(" path{" + params(r.PathParams) + "}")
		}
		if len(r.Query) > 0 {
			b.WriteString(" query{" + params(r.Query) + "}")
		}
		if len(r.Headers) > 0 {
			b.WriteString(" headers{" + params(r.Headers) + "}")
		}
		if len(r.FormFields) > 0 {
			b.WriteString(" form{" + params(r.FormFields) + "}")
		}
		if r.Body != nil {
			b.WriteString(" body " + contract.InlineText(lit(r.Body)))
		}
		if r.ContentType != "" {
			b.WriteString(" (" + r.ContentType + ")")
		}
	}
	b.WriteString(" | ")
	if r := ex.Response; r != nil {
		b.WriteString(r.SpecStatus)
		if len(r.Headers) > 0 {
			b.WriteString(" headers{" + params(r.Headers) + "}")
		}
		if r.Body != nil {
			b.WriteString(" body " + contract.InlineText(lit(r.Body)))
		}
		if r.ContentType != "" {
			b.WriteString(" (" + r.ContentType + ")")
		}
	}
	b.WriteString(" | " + spec.Pointer(ex.Source))
	return b.String()
}

func TestInline(t *testing.T) {
	dir := filepath.Join("testdata", "inline")
	tests := []struct {
		file   string
		want   []string
		errors []string
	}{
		{"oas31.yaml", []string{
			`listPets | unnamed | GET /pets query{limit=20} headers{X-Trace=t-1} | 200 headers{X-Total=2} body [{"id":1,"name":"Rex"}] (application/json) | /paths/~1pets/get/responses/200/content/application~1json/example`,
			`listPets 500 | response-only | GET /pets query{limit=20} headers{X-Trace=t-1} | 500 body {"message":"boom"} (application/json) | /paths/~1pets/get/responses/500/content/application~1json/example`,
			`rex | paired | POST /pets body {"name":"Rex"} (application/json) | 201 body {"id":1,"name":"Rex"} (application/json) | /paths/~1pets/post/requestBody/content/application~1json/examples/rex/value`,
			`max | paired | POST /pets body {"name":"Max"} (application/json) | 201 body {"id":2,"name":"Max"} (application/json) | /paths/~1pets/post/requestBody/content/application~1json/examples/max/value`,
			`max | paired | POST /pets body {"name":"Max"} (application/json) | 400 body {"message":"duplicate"} (application/json) | /paths/~1pets/post/requestBody/content/application~1json/examples/max/value`,
			`lonely | request-only | POST /pets body {"name":"Lonely"} (application/json) |  | /paths/~1pets/post/requestBody/content/application~1json/examples/lonely/value`,
			`form | request-only | POST /pets form{name=Formy age=3} (application/x-www-form-urlencoded) |  | /paths/~1pets/post/requestBody/content/application~1x-www-form-urlencoded/examples/form/value`,
			`orphan | response-only | POST /pets body {"id":0,"name":"Schema"} (application/json) | 201 body {"id":9,"name":"Orphan"} (application/json) | /paths/~1pets/post/requestBody/content/application~1json/schema/example`,
			`rex | paired | GET /pets/1 path{petId=1} | 200 body {"id":1,"name":"Rex"} (application/json) | /paths/~1pets~1{petId}/get/responses/200/content/application~1json/examples/rex/value`,
			`ext | response-only | GET /pets/{petId} | 200 body {"id":5,"name":"External"} (application/json) | /paths/~1pets~1{petId}/get/responses/200/content/application~1json/examples/ext/externalValue`,
		}, []string{
			`testdata/inline/oas31.yaml:86:23: externalValue "../secret.json" is not read: it leaves the specification's folder testdata/inline`,
			`testdata/inline/oas31.yaml:87:23: externalValue "https://example.com/pet.json" is not read: only files beside the specification are, not URLs`,
		}},
		{"swagger.yaml", []string{
			`listPets | unnamed | GET /pets query{limit=5} | 200 body [{"id":1,"name":"Rex"}] (application/json) | /paths/~1pets/get/responses/200/examples/application~1json`,
			`listPets 404 | response-only | GET /pets query{limit=5} | 404 body {"message":"none"} (application/json) | /paths/~1pets/get/responses/404/examples/application~1json`,
			`createPet | unnamed | POST /pets body {"id":7,"name":"Defined"} (application/json) | 201 body {"id":7,"name":"Defined"} (application/json) | /paths/~1pets/post/parameters/0/schema/example`,
			`POST /upload | unnamed | POST /upload form{caption=beach} (multipart/form-data) | 204 | /paths/~1upload/post/parameters/1/x-example`,
		}, nil},
		{"oas30.json", []string{
			`fast | paired | GET /search query{filter={"color":"red"}} headers{X-Mode=fast Cookie=session=abc} | 2XX headers{X-Rate=10} | /paths/~1search/get/parameters/0/content/application~1json/example`,
			`GET /search | unnamed | GET /search query{filter={"color":"red"}} headers{Cookie=session=abc} | 2XX body {"hits":1} (application/json) | /paths/~1search/get/responses/2XX/content/application~1json/example`,
			`GET /search default | response-only | GET /search query{filter={"color":"red"}} headers{Cookie=session=abc} | default body {"error":"x"} (application/json) | /paths/~1search/get/responses/default/content/application~1json/example`,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			set := Inline(load(t, filepath.Join(dir, tt.file)), Options{})
			var got []string
			for _, ex := range set.Examples {
				got = append(got, summary(ex))
				if !ex.Inline || ex.Operation == nil || ex.File == "" || ex.Loc.Range.Start.Line == 0 {
					t.Errorf("%s: inline %v, operation %v, at %v", ex.Name, ex.Inline, ex.Operation, ex.Loc)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			var errs []string
			for _, e := range set.Errors {
				errs = append(errs, e.Error())
			}
			if !reflect.DeepEqual(errs, tt.errors) {
				t.Errorf("errors:\n  %s\nwant:\n  %s", strings.Join(errs, "\n  "), strings.Join(tt.errors, "\n  "))
			}
		})
	}
}

// Inline values are located where they are written, through $refs.
func TestInlineLocations(t *testing.T) {
	set := Inline(load(t, filepath.Join("testdata", "inline", "oas31.yaml")), Options{})
	rex := set.Examples[2]
	if rex.Name != "rex" {
		t.Fatalf("third example is %s", rex.Name)
	}
	// The request body is written in components.examples.RexRequest.
	if at := rex.Request.Body.Where(); at.Range.Start.Line != 98 || at.Range.Start.Col != 14 {
		t.Errorf("rex request body at %v, want line 98 column 14", at)
	}
	if at := rex.Loc; at.Range.Start.Line != 98 || at.Range.Start.Col != 7 {
		t.Errorf("rex at %v", at)
	}
	if len(rex.Sources) != 2 || spec.Pointer(rex.Sources[1]) != "/paths/~1pets/post/responses/201/content/application~1json/examples/rex/value" {
		t.Errorf("sources %v", rex.Sources)
	}
	ext := set.Examples[9]
	if at := ext.Response.Body.Where(); !strings.HasSuffix(at.File, filepath.Join("inline_examples", "pet.json")) || at.Range.Start.Line != 1 {
		t.Errorf("external value at %v", at)
	}
	// Inline values are data: a notation-looking string stays a string.
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "n.yaml", []byte(`openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              example: {id: "$(id)", kind: "(string)"}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := Inline(doc, Options{}).Examples
	if len(got) != 1 {
		t.Fatalf("%d examples", len(got))
	}
	if body := lit(got[0].Response.Body); !reflect.DeepEqual(body, map[string]any{"id": "$(id)", "kind": "(string)"}) || HasNotations(got[0].Response.Body) {
		t.Errorf("body %v", body)
	}
}

// On the corpus: how many examples each specification has, and a few of
// them by name and source path.
func TestInlineCorpus(t *testing.T) {
	corpus := corpustest.Require(t)
	tests := []struct {
		file    string
		count   int
		pairing map[Pairing]int
		spot    map[string]string // name → source pointer of its first example
	}{
		{"petstore-expanded.yaml", 0, nil, nil},
		// stripe.yaml speaks of examples in its prose only.
		{"stripe.yaml", 0, nil, nil},
		{"uspto.yaml", 2, map[Pairing]int{Unnamed: 2}, map[string]string{
			"list-data-sets":         "/paths/~1/get/responses/200/content/application~1json/example",
			"list-searchable-fields": "/paths/~1{dataset}~1{version}~1fields/get/parameters/0/example",
		}},
		{"openai.yaml", 16, map[Pairing]int{RequestOnly: 3, Unnamed: 13}, map[string]string{
			"multipart_edit": "/paths/~1images~1edits/post/requestBody/content/multipart~1form-data/examples/multipart_edit/value",
			"json_with_url":  "/paths/~1images~1edits/post/requestBody/content/application~1json/examples/json_with_url/value",
			"createResponse": "/paths/~1responses/post/responses/200/content/application~1json/schema/example",
		}},
		{"twilio-api-v2010.json", 287, map[Pairing]int{Paired: 171, ResponseOnly: 116}, map[string]string{
			"readEmpty": "/paths/~12010-04-01~1Accounts.json/get/responses/200/content/application~1json/examples/readEmpty/value",
			"create":    "/paths/~12010-04-01~1Accounts.json/post/requestBody/content/application~1x-www-form-urlencoded/examples/create/value",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			set := Inline(load(t, filepath.Join(corpus, tt.file)), Options{})
			if len(set.Examples) != tt.count || len(set.Errors) != 0 {
				t.Errorf("%d examples (want %d), errors %v", len(set.Examples), tt.count, set.Errors)
			}
			counts := map[Pairing]int{}
			first := map[string]*Example{}
			for _, ex := range set.Examples {
				counts[ex.Pairing]++
				if first[ex.Name] == nil {
					first[ex.Name] = ex
				}
			}
			if tt.pairing != nil && !reflect.DeepEqual(counts, tt.pairing) {
				t.Errorf("pairings %v, want %v", counts, tt.pairing)
			}
			for name, src := range tt.spot {
				ex := first[name]
				if ex == nil {
					t.Errorf("no example %q", name)
					continue
				}
				if got := spec.Pointer(ex.Source); got != src {
					t.Errorf("%s at %s, want %s", name, got, src)
				}
			}
		})
	}
	// The multipart example's object became parts.
	set := Inline(load(t, filepath.Join(corpus, "openai.yaml")), Options{})
	for _, ex := range set.Examples {
		if ex.Name == "multipart_edit" {
			var names []string
			for _, p := range ex.Request.Multipart {
				names = append(names, p.Name)
			}
			if want := []string{"model", "prompt", "image", "size", "quality"}; !reflect.DeepEqual(names, want) || ex.Request.ContentType != "multipart/form-data" {
				t.Errorf("multipart_edit parts %v (%s)", names, ex.Request.ContentType)
			}
		}
	}
}

// AsyncAPI documents have no HTTP examples.
func TestInlineAsyncAPI(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "a.yaml", []byte("asyncapi: 3.0.0\ninfo: {title: t, version: '1'}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if set := Inline(doc, Options{}); len(set.Examples) != 0 || len(set.Errors) != 0 {
		t.Errorf("%+v", set)
	}
}
