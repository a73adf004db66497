package policy_test

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy"
)

// TestInputSchemaIndexes checks that requestSchemas and responseSchemas
// hold the very entries of schemas that each side reaches.
func TestInputSchemaIndexes(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/In'}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Out'}
components:
  schemas:
    In: {type: object, properties: {shared: {$ref: '#/components/schemas/Shared'}}}
    Out: {type: object, properties: {shared: {$ref: '#/components/schemas/Shared'}}}
    Shared: {type: string}
    Unused: {type: string}
`)
	in := policy.Input(doc).(ast.Object)
	names := func(key string) []string {
		var out []string
		arr := in.Get(ast.StringTerm(key)).Value.(*ast.Array)
		for i := range arr.Len() {
			s := arr.Elem(i).Value.(ast.Object)
			out = append(out, s.Get(ast.StringTerm("name")).Value.(ast.String).String())
		}
		return out
	}
	if got := names("requestSchemas"); len(got) != 2 || got[0] != `"In"` || got[1] != `"Shared"` {
		t.Errorf("requestSchemas = %v, want In, Shared", got)
	}
	if got := names("responseSchemas"); len(got) != 2 || got[0] != `"Out"` || got[1] != `"Shared"` {
		t.Errorf("responseSchemas = %v, want Out, Shared", got)
	}
	all := in.Get(ast.StringTerm("schemas")).Value.(*ast.Array)
	req := in.Get(ast.StringTerm("requestSchemas")).Value.(*ast.Array)
	if all.Elem(0) != req.Elem(0) {
		t.Error("requestSchemas holds a copy of the schema entry, not the same term")
	}
}
