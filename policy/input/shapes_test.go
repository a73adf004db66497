package input_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

const shapesAPI = `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    A:
      type: object
      required: [id, name]
      properties:
        id: {type: string}
        name: {type: string}
        size: {type: integer, maximum: 10}
    B:
      type: object
      required: [id, name]
      properties:
        id: {type: string}
        name: {type: string}
        size: {type: integer, maximum: 10}
    C:
      type: object
      required: [name, id]
      properties:
        id: {type: string, format: uuid}
        name: {type: string}
        size: {type: integer, maximum: 10.0}
`

// docTerm follows keys from the input's document.
func docTerm(t *testing.T, in ast.Object, keys ...string) *ast.Term {
	t.Helper()
	term := in.Get(ast.StringTerm("document"))
	for _, k := range keys {
		if term = term.Value.(ast.Object).Get(ast.StringTerm(k)); term == nil {
			t.Fatalf("no %v in the input's document", keys)
		}
	}
	return term
}

// TestInputSharesShapes checks that containers written alike are one term
// of the input, and containers that differ in a key's order, a member or a
// number's literal are not.
func TestInputSharesShapes(t *testing.T) {
	in := input.Build(load(t, shapesAPI)).(ast.Object)
	at := func(path ...string) *ast.Term {
		return docTerm(t, in, append([]string{"components", "schemas"}, path...)...)
	}
	for _, tc := range []struct {
		a, b []string
		same bool
	}{
		{[]string{"A"}, []string{"B"}, true},
		{[]string{"A", "required"}, []string{"B", "required"}, true},
		{[]string{"A", "properties", "id"}, []string{"A", "properties", "name"}, true},
		{[]string{"A", "properties", "id"}, []string{"C", "properties", "name"}, true},
		{[]string{"A", "properties", "id"}, []string{"C", "properties", "id"}, false},
		{[]string{"A", "required"}, []string{"C", "required"}, false},
		{[]string{"A", "properties", "size"}, []string{"C", "properties", "size"}, false},
		{[]string{"A"}, []string{"C"}, false},
	} {
		a, b := at(tc.a...), at(tc.b...)
		if (a == b) != tc.same {
			t.Errorf("%v and %v: one term %v, want %v", tc.a, tc.b, a == b, tc.same)
		}
		if tc.same && a.Value.Compare(b.Value) != 0 {
			t.Errorf("%v and %v share a term but differ: %v, %v", tc.a, tc.b, a, b)
		}
	}
	// A shared term is still the value written at each place.
	if got := at("C", "properties", "size").String(); got != `{"maximum": 10.0, "type": "integer"}` {
		t.Errorf("C's size = %s", got)
	}
}

// TestSharedShapesLocateFindings checks that a finding on a shared term is
// reported at each place the term's value is written, by the document and
// by the views.
func TestSharedShapesLocateFindings(t *testing.T) {
	e, err := compile(t, 0,
		rule("walked", `violations contains {"path": path, "message": "a string"} if {
  walk(input.document, [path, value])
  value == {"type": "string"}
}`),
		rule("viewed", `violations contains {"path": s.source, "message": s.name} if {
  some s in input.schemas
  s.node == {"type": "string"}
}`),
	)
	if err != nil {
		t.Fatal(err)
	}
	doc := load(t, shapesAPI)
	vs, err := e.Eval(context.Background(), input.Build(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, v := range vs {
		pos := doc.Locate(v.Path, nil).Range.Start
		got[v.Rule] = append(got[v.Rule], fmt.Sprintf("%s %d:%d", spec.Pointer(v.Path), pos.Line, pos.Col))
	}
	want := []string{
		"/components/schemas/A/properties/id 10:9",
		"/components/schemas/A/properties/name 11:9",
		"/components/schemas/B/properties/id 17:9",
		"/components/schemas/B/properties/name 18:9",
		"/components/schemas/C/properties/name 25:9",
	}
	for _, rule := range []string{"walked", "viewed"} {
		slices.Sort(got[rule])
		if !slices.Equal(got[rule], want) {
			t.Errorf("%s findings:\n%v\nwant\n%v", rule, got[rule], want)
		}
	}
}
