package input_test

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
)

// A string the document repeats is one term wherever the input holds it
// (the document and the views), whatever its length, and the empty lists
// and objects are OPA's one of each; each item keeps its own source.
func TestInputSharesRepeatedValues(t *testing.T) {
	const desc = "Lists the items of the account, a page at a time, newest first; long enough not to be a short scalar"
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    get:
      description: "`+desc+`"
      responses:
        "200": {description: ok, content: {}}
  /b:
    get:
      description: "`+desc+`"
      responses:
        "200": {description: ok, content: {}}
`)
	in := input.Build(doc).(ast.Object)
	get := func(t *ast.Term, keys ...string) *ast.Term {
		for _, k := range keys {
			t = t.Value.(ast.Object).Get(ast.StringTerm(k))
		}
		return t
	}
	ops := in.Get(ast.StringTerm("operations")).Value.(*ast.Array)
	a, b := ops.Elem(0), ops.Elem(1)
	document := in.Get(ast.StringTerm("document"))
	written := get(document, "paths", "/a", "get", "description")
	if d1, d2 := get(a, "description"), get(b, "description"); d1 != d2 || d1 != written || d1.Value.Compare(ast.String(desc)) != 0 {
		t.Errorf("the description is %v, %v and %v in the views and the document, want one term of %q", d1, d2, written, desc)
	}
	for _, op := range []*ast.Term{a, b} {
		if ps := get(op, "parameters"); ps != ast.InternedEmptyArray {
			t.Errorf("parameters of %v: %v, want OPA's empty array", get(op, "path"), ps)
		}
	}
	if c := get(document, "paths", "/b", "get", "responses", "200", "content"); c != ast.InternedEmptyObject {
		t.Errorf("the empty content object is %v, want OPA's empty object", c)
	}
	for op, want := range map[*ast.Term]string{a: `["paths", "/a", "get"]`, b: `["paths", "/b", "get"]`} {
		if got := get(op, "source").String(); got != want {
			t.Errorf("source %s, want %s", got, want)
		}
	}
}
