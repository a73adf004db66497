// Package builtins holds specgate's own Rego builtins (specgate.*), which
// every rule may call: Go implementations of what is slow or awkward in
// Rego (schema validation, word splitting, grouping, naming a schema's
// place), registered with OPA when the package is loaded. Package policy
// imports it, so every engine has them.
package builtins

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/specgate/specgate/spec"
)

// specgate's own builtins, each documented at its Go function:
// specgate.json_schema, match_schema and match_example validate values
// against JSON Schemas (schema.go); specgate.object_keys lists an object's
// keys in source order, which OPA's objects do not keep; the others are in
// prose.go, naming.go, group.go, blank.go, repeats.go, overlaps.go,
// place.go, label.go, sets.go and keys.go, and those that read or judge
// every item of a large list in one call in items.go and reaching.go. The
// schema builtins are not memoized by OPA, which keys its memo by the
// arguments' text (a large schema's, on every call): they keep their
// compiled schemas per evaluation instead, found by value.
func init() {
	rego.RegisterBuiltin4(&rego.Function{
		Name: "specgate.json_schema",
		Decl: types.NewFunction(types.Args(types.A, types.A, types.S, types.B), types.NewArray(nil, types.A)),
	}, jsonSchemaBuiltin)
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.match_schema",
		Decl: types.NewFunction(types.Args(types.A, types.A), types.NewArray([]types.Type{types.B, types.NewArray(nil, types.A)}, nil)),
	}, matchSchemaBuiltin)
	rego.RegisterBuiltin4(&rego.Function{
		Name: "specgate.match_example",
		Decl: types.NewFunction(types.Args(types.A, types.A, types.S, types.A), types.NewArray([]types.Type{types.B, types.NewArray(nil, types.A)}, nil)),
	}, matchExampleBuiltin)
	rego.RegisterBuiltin2(&rego.Function{
		Name:    "specgate.object_keys",
		Decl:    types.NewFunction(types.Args(types.S, types.NewArray(nil, types.A)), types.NewArray(nil, types.S)),
		Memoize: true,
	}, objectKeysBuiltin)
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.prose_matching",
		Decl: types.NewFunction(types.Args(types.S),
			types.NewArray(nil, types.NewArray([]types.Type{types.NewArray(nil, types.A), types.S, types.S}, nil))),
		Memoize: true,
	}, proseMatchingBuiltin)
}

// guard turns a panic in a builtin into an evaluation error: a bug in one
// builtin must not take the whole process down.
func guard(name string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal error in %s: %v", name, r)
	}
}

// arrays returns a builtin's first two operands, which must be arrays, or
// the error that names the builtin and the operand that is not one.
func arrays(builtin string, a, b *ast.Term) (*ast.Array, *ast.Array, error) {
	x, ok := a.Value.(*ast.Array)
	if !ok {
		return nil, nil, fmt.Errorf("%s: operand 1 must be an array, got %s", builtin, ast.ValueName(a.Value))
	}
	y, ok := b.Value.(*ast.Array)
	if !ok {
		return nil, nil, fmt.Errorf("%s: operand 2 must be an array, got %s", builtin, ast.ValueName(b.Value))
	}
	return x, y, nil
}

// listAndKey checks the operands of a builtin that reads a key of each
// item's node: a list of items, and the key as a string.
func listAndKey(builtin string, items, key *ast.Term) (*ast.Array, error) {
	list, ok := items.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("%s: operand 1 must be an array, got %s", builtin, ast.ValueName(items.Value))
	}
	if _, ok := key.Value.(ast.String); !ok {
		return nil, fmt.Errorf("%s: operand 2 must be a string, got %s", builtin, ast.ValueName(key.Value))
	}
	return list, nil
}

// WithEvaluation gives the schema builtins a state of their own for one
// evaluation (every rule of it, on every worker): the schemas they compile,
// kept by value. Without it, each call compiles its schema again.
func WithEvaluation(ctx context.Context) context.Context {
	return context.WithValue(ctx, stateKey{}, newEvalState())
}

type docKey struct{}

// DocumentReaders are the builtins that read the document's source
// (WithDocument) rather than the input: an evaluation that lets the
// document go part-way runs the rules that reach them first.
var DocumentReaders = []string{"specgate.object_keys", "specgate.prose_matching"}

// docHolder holds the document of an evaluation until ForgetDocument.
type docHolder struct{ doc atomic.Pointer[spec.Document] }

// WithDocument attaches the document being evaluated to ctx, for the
// builtins that read its source (DocumentReaders).
func WithDocument(ctx context.Context, doc *spec.Document) context.Context {
	h := &docHolder{}
	h.doc.Store(doc)
	return context.WithValue(ctx, docKey{}, h)
}

// ForgetDocument lets go of the document WithDocument attached to ctx:
// the builtins that read it fail from then on, and ctx no longer keeps
// it alive.
func ForgetDocument(ctx context.Context) {
	if h, _ := ctx.Value(docKey{}).(*docHolder); h != nil {
		h.doc.Store(nil)
	}
}

// documentOf is the document WithDocument attached to a builtin's
// evaluation; an error naming the builtin when there is none, or it was
// let go (ForgetDocument).
func documentOf(bctx rego.BuiltinContext, builtin string) (*spec.Document, error) {
	var doc *spec.Document
	if h, _ := bctx.Context.Value(docKey{}).(*docHolder); h != nil {
		doc = h.doc.Load()
	}
	if doc == nil {
		return nil, fmt.Errorf("%s: no document in the evaluation context", builtin)
	}
	return doc, nil
}

// objectKeysBuiltin is specgate.object_keys(file, path) -> [key]: the keys
// of the object at path in the document's file ("" for the entry file) in
// source order.
func objectKeysBuiltin(bctx rego.BuiltinContext, file, path *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.object_keys", &err)
	doc, err := documentOf(bctx, "specgate.object_keys")
	if err != nil {
		return nil, err
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
