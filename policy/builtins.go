package policy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/spec"
)

// specgate's own builtins, available to every rule:
//
//	specgate.json_schema(value, schema, dialect, allErrors) -> [{"message", "path"}]
//	    validates a value against a JSON Schema (draft 4 to 2020-12);
//	specgate.object_keys(file, path) -> [key]
//	    the keys of the object at path in the document's file ("" for the
//	    entry file) in source order, which OPA's objects do not keep.
func init() {
	rego.RegisterBuiltin4(&rego.Function{
		Name:             "specgate.json_schema",
		Decl:             types.NewFunction(types.Args(types.A, types.A, types.S, types.B), types.NewArray(nil, types.A)),
		Memoize:          true,
		Nondeterministic: false,
	}, jsonSchemaBuiltin)
	rego.RegisterBuiltin2(&rego.Function{
		Name:    "specgate.match_schema",
		Decl:    types.NewFunction(types.Args(types.A, types.A), types.NewArray([]types.Type{types.B, types.NewArray(nil, types.A)}, nil)),
		Memoize: true,
	}, matchSchemaBuiltin)
	rego.RegisterBuiltin2(&rego.Function{
		Name:    "specgate.object_keys",
		Decl:    types.NewFunction(types.Args(types.S, types.NewArray(nil, types.A)), types.NewArray(nil, types.S)),
		Memoize: true,
	}, objectKeysBuiltin)
}

// guard turns a panic in a builtin into an evaluation error: a bug in one
// builtin must not take the whole process down.
func guard(name string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal error in %s: %v", name, r)
	}
}

// ast.JSON decodes numbers as json.Number, as the validator expects.
func jsonSchemaBuiltin(_ rego.BuiltinContext, value, schema, dialect, all *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.json_schema", &err)
	v, err := ast.JSON(value.Value)
	if err != nil {
		return nil, err
	}
	d, _ := dialect.Value.(ast.String)
	a, _ := all.Value.(ast.Boolean)
	text, err := json.Marshal(mustJSON(schema.Value))
	if err != nil {
		return nil, err
	}
	errs, err := dsl.ValidateValue(v, string(text), string(d), bool(a))
	if err != nil {
		return nil, err
	}
	items := make([]*ast.Term, len(errs))
	for i, e := range errs {
		path := make([]*ast.Term, len(e.Path))
		for j, s := range e.Path {
			if n, ok := s.(int); ok {
				path[j] = ast.IntNumberTerm(n)
			} else {
				path[j] = ast.StringTerm(fmt.Sprint(s))
			}
		}
		items[i] = ast.ObjectTerm(
			ast.Item(ast.StringTerm("message"), ast.StringTerm(e.Message)),
			ast.Item(ast.StringTerm("path"), ast.ArrayTerm(path...)))
	}
	return ast.ArrayTerm(items...), nil
}

// matchSchemaBuiltin is a safe stand-in for OPA's json.match_schema (which
// follows file:// references and is denied): the same [valid, errors]
// result, errors as {error, type, field, desc}, validated by
// specgate.json_schema's validator with every $ref kept inside the schema.
func matchSchemaBuiltin(_ rego.BuiltinContext, value, schema *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.match_schema", &err)
	v, err := ast.JSON(value.Value)
	if err != nil {
		return nil, err
	}
	text, err := json.Marshal(mustJSON(schema.Value))
	if err != nil {
		return nil, err
	}
	errs, err := dsl.ValidateValue(v, string(text), "auto", true)
	if err != nil {
		return nil, err
	}
	items := make([]*ast.Term, len(errs))
	for i, e := range errs {
		field := dsl.FieldName(e.Path)
		items[i] = ast.ObjectTerm(
			ast.Item(ast.StringTerm("error"), ast.StringTerm(field+": "+e.Desc)),
			ast.Item(ast.StringTerm("type"), ast.StringTerm(e.Kind)),
			ast.Item(ast.StringTerm("field"), ast.StringTerm(field)),
			ast.Item(ast.StringTerm("desc"), ast.StringTerm(e.Desc)))
	}
	return ast.ArrayTerm(ast.BooleanTerm(len(errs) == 0), ast.ArrayTerm(items...)), nil
}

func mustJSON(v ast.Value) any {
	x, err := ast.JSON(v)
	if err != nil {
		return nil
	}
	return x
}

type docKey struct{}

// WithDocument attaches the document being evaluated to ctx, for the
// builtins that read its source (specgate.object_keys).
func WithDocument(ctx context.Context, doc *spec.Document) context.Context {
	return context.WithValue(ctx, docKey{}, doc)
}

func objectKeysBuiltin(bctx rego.BuiltinContext, file, path *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.object_keys", &err)
	doc, _ := bctx.Context.Value(docKey{}).(*spec.Document)
	if doc == nil {
		return nil, fmt.Errorf("specgate.object_keys: no document in the evaluation context")
	}
	name, _ := file.Value.(ast.String)
	start := doc.Root
	if name != "" {
		if start = doc.FileNamed(string(name)); start == nil {
			return ast.ArrayTerm(), nil
		}
	}
	arr, ok := path.Value.(*ast.Array)
	if !ok {
		return ast.ArrayTerm(), nil
	}
	segs := make([]any, 0, arr.Len())
	for i := range arr.Len() {
		switch s := arr.Elem(i).Value.(type) {
		case ast.String:
			segs = append(segs, string(s))
		case ast.Number:
			n, ok := s.Int()
			if !ok {
				return ast.ArrayTerm(), nil
			}
			segs = append(segs, n)
		}
	}
	var last *spec.Node
	loc := doc.LocateIn(start, segs, func(n *spec.Node) { last = n })
	if !loc.Exact || last == nil {
		return ast.ArrayTerm(), nil
	}
	last = doc.Deref(last)
	keys := make([]*ast.Term, 0, len(last.Fields))
	for _, f := range last.Fields {
		keys = append(keys, ast.StringTerm(f.Key))
	}
	return ast.ArrayTerm(keys...), nil
}
