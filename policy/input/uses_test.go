package input_test

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
)

// field is the input's value at a dotted path of keys.
func field(t *testing.T, in ast.Value, path string) *ast.Term {
	t.Helper()
	term := ast.NewTerm(in)
	for _, k := range strings.Split(path, ".") {
		obj, ok := term.Value.(ast.Object)
		if !ok {
			t.Fatalf("input.%s: %s is not an object", path, k)
		}
		if term = obj.Get(ast.StringTerm(k)); term == nil {
			t.Fatalf("input.%s: no key %s", path, k)
		}
	}
	return term
}

// TestInputPathSegments: each path item's segments stop at a query or a
// fragment and skip empty ones, its shape writes every template "{}",
// and input.pathSegments lists the items of each segment once, in order.
func TestInputPathSegments(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /users/{id}: {}
  /users//{name}/: {}
  /search?q={q}#top: {}
  /files/{id}.{format}: {}
  /: {}
`)
	in := input.Build(doc)
	var got []string
	field(t, in, "pathItems").Value.(*ast.Array).Foreach(func(item *ast.Term) {
		o := item.Value.(ast.Object)
		got = append(got, o.Get(ast.StringTerm("segments")).String()+" "+o.Get(ast.StringTerm("shape")).String())
	})
	want := []string{
		`["users", "{id}"] ["users", "{}"]`,
		`["users", "{name}"] ["users", "{}"]`,
		`["search"] ["search"]`,
		`["files", "{id}.{format}"] ["files", "{}.{}"]`,
		`[] []`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("segments and shapes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantUsers := ast.MustParseTerm(`{"users": [0, 1], "{id}": [0], "{name}": [1], "search": [2], "files": [3], "{id}.{format}": [3]}`)
	if got := field(t, in, "pathSegments"); got.Value.Compare(wantUsers.Value) != 0 {
		t.Errorf("pathSegments = %v, want %v", got, wantUsers)
	}
}

// TestInputParameterKeys: the key of each entry of each parameter list
// is [in, name], a header's name lower-cased, read through a local $ref;
// null for an entry that cannot be read and for an owner with no list.
func TestInputParameterKeys(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    parameters:
      - {name: X-Id, in: header}
      - {$ref: '#/components/parameters/Limit'}
    get:
      parameters:
        - {$ref: '#/components/parameters/Nope'}
        - {$ref: '#/components/parameters/Limit'}
        - {name: 7, in: query}
    post: {}
webhooks:
  ping:
    post:
      parameters: [{name: Trace, in: header}]
components:
  parameters:
    Limit: {name: limit, in: query}
`)
	got := field(t, input.Build(doc), "index.parameterKeys")
	want := ast.MustParseTerm(`{
		"pathItems": [[["header", "x-id"], ["query", "limit"]]],
		"operations": [[null, ["query", "limit"], null], null, [["header", "trace"]]]
	}`)
	if got.Value.Compare(want.Value) != 0 {
		t.Errorf("parameterKeys = %v\nwant %v", got, want)
	}
}
