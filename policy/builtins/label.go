package builtins

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// A Place is a schema's place as SchemaLabel reads it: the segments of its
// source path, and the parameters written along it. The input names every
// item of input.received from its views; specgate.schema_label names any
// schema from Rego values.
type Place interface {
	Len() int
	// Str is segment i when it is a string; false out of range.
	Str(i int) (string, bool)
	// Text is segment i as a key is written (a number by its digits); ""
	// out of range.
	Text(i int) string
	// Param labels the parameter whose schema (or, in Swagger 2.0, the
	// parameter itself) is written at the first upTo segments.
	Param(upTo int) (string, bool)
}

func labelIs(p Place, i int, want string) bool {
	s, ok := p.Str(i)
	return ok && s == want
}

// SchemaLabel names a schema with a component name (or "") at a place for
// messages: `schema "Pet"`, `property "id" in schema "Pet"`, `query
// parameter "limit"`, `items of query parameter "tags"`, `array items in
// the request body of POST /pets`, `a schema`. The rules about what an API
// receives name thousands of schemas on a large API: input.received
// carries each one's label, and security.schema_label names any other.
func SchemaLabel(name string, p Place, swagger bool) string {
	if name != "" {
		return fmt.Sprintf("schema %q", name)
	}
	n := p.Len()
	root, hasRoot := labelRoot(p, swagger)
	if labelIs(p, n-2, "properties") {
		last := p.Text(n - 1)
		if hasRoot {
			return fmt.Sprintf("property %q in %s", last, root)
		}
		return fmt.Sprintf("property %q", last)
	}
	if param, ok := p.Param(n); ok {
		return param
	}
	if labelIs(p, n-1, "items") {
		if param, ok := p.Param(n - 1); ok {
			return "items of " + param
		}
	}
	if labelIs(p, n-1, "schema") && hasRoot {
		return root
	}
	if hasRoot {
		return tailLabel(p) + " in " + root
	}
	return tailLabel(p)
}

// tailLabel names a schema by the keyword it is under.
func tailLabel(p Place) string {
	switch {
	case labelIs(p, p.Len()-1, "items"):
		return "array items"
	case labelIs(p, p.Len()-1, "additionalProperties"):
		return "additional properties"
	}
	return "a schema"
}

// labelRoot names the top-level object a schema is written in: a named
// schema, a request body, a response or a parameter; false for none.
func labelRoot(p Place, swagger bool) (string, bool) {
	n := p.Len()
	switch {
	case labelIs(p, 1, "schemas") && labelIs(p, 0, "components") && n > 2:
		return fmt.Sprintf("schema %q", p.Text(2)), true
	case labelIs(p, 0, "definitions") && n > 1:
		return fmt.Sprintf("schema %q", p.Text(1)), true
	case labelIs(p, 3, "requestBody") && labelIs(p, 0, "paths"),
		labelIs(p, 5, "schema") && labelIs(p, 3, "parameters") && labelIs(p, 0, "paths") && swagger:
		return fmt.Sprintf("the request body of %s %s", strings.ToUpper(p.Text(2)), p.Text(1)), true
	case labelIs(p, 3, "responses") && labelIs(p, 0, "paths") && n > 4:
		return fmt.Sprintf("response %s of %s %s", p.Text(4), strings.ToUpper(p.Text(2)), p.Text(1)), true
	}
	for _, c := range []struct{ at, upTo int }{{3, 6}, {2, 5}, {1, 4}} {
		if labelIs(p, c.at, "parameters") {
			if param, ok := p.Param(min(c.upTo, n)); ok {
				return param, true
			}
		}
	}
	switch {
	case labelIs(p, 1, "requestBodies") && labelIs(p, 0, "components") && n > 2:
		return fmt.Sprintf("the request body %q", p.Text(2)), true
	case labelIs(p, 1, "responses") && labelIs(p, 0, "components") && n > 2:
		return fmt.Sprintf("response %q", p.Text(2)), true
	case labelIs(p, 0, "responses") && n > 1:
		return fmt.Sprintf("response %q", p.Text(1)), true
	}
	return "", false
}

// ParamLabel names a parameter by its location and name.
func ParamLabel(in, name string) string { return fmt.Sprintf("%s parameter %q", in, name) }

// specgate.schema_label(name, source, params, format) -> string
//
// is SchemaLabel of the schema named name ("" for none) at source, where
// params maps where each parameter's schema is written (a path) to the
// parameter ({in, name}), as data.specgate.lib.security's
// _params_by_value does.
func init() {
	rego.RegisterBuiltin4(&rego.Function{
		Name: "specgate.schema_label",
		Decl: types.NewFunction(types.Args(types.S, types.NewArray(nil, types.A), types.NewObject(nil, types.NewDynamicProperty(types.A, types.A)), types.S), types.S),
	}, schemaLabelBuiltin)
}

func schemaLabelBuiltin(_ rego.BuiltinContext, name, source, params, format *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.schema_label", &err)
	n, ok1 := name.Value.(ast.String)
	arr, ok2 := source.Value.(*ast.Array)
	ps, ok3 := params.Value.(ast.Object)
	f, ok4 := format.Value.(ast.String)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, fmt.Errorf("specgate.schema_label: operands must be a name (string), a path (array), parameters (object) and a format (string)")
	}
	return ast.StringTerm(SchemaLabel(string(n), valuePlace{arr, ps}, f == "swagger")), nil
}

// valuePlace is a Place of Rego values.
type valuePlace struct {
	path   *ast.Array
	params ast.Object
}

func (p valuePlace) Len() int { return p.path.Len() }

func (p valuePlace) Str(i int) (string, bool) {
	if i < 0 || i >= p.path.Len() {
		return "", false
	}
	s, ok := p.path.Elem(i).Value.(ast.String)
	return string(s), ok
}

func (p valuePlace) Text(i int) string {
	if i < 0 || i >= p.path.Len() {
		return ""
	}
	if s, ok := p.path.Elem(i).Value.(ast.String); ok {
		return string(s)
	}
	return p.path.Elem(i).Value.String()
}

func (p valuePlace) Param(upTo int) (string, bool) {
	if upTo < 0 || upTo > p.path.Len() {
		return "", false
	}
	key := make([]*ast.Term, upTo)
	for i := range upTo {
		key[i] = p.path.Elem(i)
	}
	t := p.params.Get(ast.ArrayTerm(key...))
	if t == nil {
		return "", false
	}
	obj, ok := t.Value.(ast.Object)
	if !ok {
		return "", false
	}
	in, _ := valueOf(obj, ast.InternedTerm("in")).(ast.String)
	nm, _ := valueOf(obj, ast.InternedTerm("name")).(ast.String)
	return ParamLabel(string(in), string(nm)), true
}
