package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/util"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/specgate/specgate/policy/dsl"
)

// jsonSchemaBuiltin is specgate.json_schema(value, schema, dialect,
// allErrors) -> [{"message", "path"}]: it validates a value against a JSON
// Schema (draft 4 to 2020-12). ast.JSON decodes numbers as json.Number, as
// the validator expects.
func jsonSchemaBuiltin(bctx rego.BuiltinContext, value, schema, dialect, all *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.json_schema", &err)
	v, err := ast.JSON(value.Value)
	if err != nil {
		return nil, err
	}
	d, _ := dialect.Value.(ast.String)
	a, _ := all.Value.(ast.Boolean)
	compiled, err := stateOf(bctx.Context).compiled(schema.Value, string(d))
	if err != nil {
		return nil, err
	}
	errs, err := dsl.Validate(compiled, v, bool(a))
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
func matchSchemaBuiltin(bctx rego.BuiltinContext, value, schema *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.match_schema", &err)
	v, err := ast.JSON(value.Value)
	if err != nil {
		return nil, err
	}
	compiled, err := stateOf(bctx.Context).compiled(schema.Value, "auto")
	if err != nil {
		return nil, err
	}
	errs, err := dsl.Validate(compiled, v, true)
	if err != nil {
		return nil, err
	}
	return schemaErrorsTerm(errs), nil
}

// schemaErrorsTerm is json.match_schema's result: [valid, errors], errors
// as {error, type, field, desc}.
func schemaErrorsTerm(errs []dsl.SchemaError) *ast.Term {
	items := make([]*ast.Term, len(errs))
	for i, e := range errs {
		field := dsl.FieldName(e.Path)
		items[i] = ast.ObjectTerm(
			ast.Item(ast.StringTerm("error"), ast.StringTerm(field+": "+e.Desc)),
			ast.Item(ast.StringTerm("type"), ast.StringTerm(e.Kind)),
			ast.Item(ast.StringTerm("field"), ast.StringTerm(field)),
			ast.Item(ast.StringTerm("desc"), ast.StringTerm(e.Desc)))
	}
	return ast.ArrayTerm(ast.BooleanTerm(len(errs) == 0), ast.ArrayTerm(items...))
}

// matchExampleBuiltin is specgate.match_example(value, schema, prefix,
// shared) -> [valid, errors]: specgate.match_schema({"value": value},
// <schema as property "value">) where $refs prefix + name (e.g.
// "#/components/schemas/Pet") name the schemas of the object shared,
// compiled once per evaluation.
func matchExampleBuiltin(bctx rego.BuiltinContext, value, schema, prefix, shared *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.match_example", &err)
	p, _ := prefix.Value.(ast.String)
	set, err := stateOf(bctx.Context).set(string(p), shared.Value)
	if err != nil {
		return nil, err
	}
	compiled, err := set.schema(schema.Value)
	if err != nil {
		return nil, err
	}
	v, err := ast.JSON(value.Value)
	if err != nil {
		return nil, err
	}
	errs, err := dsl.Validate(compiled, map[string]any{"value": v}, true)
	if err != nil {
		return nil, err
	}
	return schemaErrorsTerm(errs), nil
}

// evalState is what the schema builtins keep during one evaluation (all
// its rules, on every worker): compiled schemas, found by value. A value
// is compared in full the first time each copy of it is looked up (workers
// that compute the same library value at once hold copies), and then found
// by pointer.
type evalState struct {
	mu      sync.Mutex
	schemas *util.HasherMap[ast.Value, compiledSchema] // by [dialect, schema]
	sets    []*exampleSet
}

type compiledSchema struct {
	schema *jsonschema.Schema
	err    error
}

type exampleSet struct {
	prefix  string
	shared  []ast.Value // the shared schemas, each copy of them
	set     *dsl.SchemaSet
	mu      sync.Mutex
	schemas *util.HasherMap[ast.Value, compiledSchema]
}

type stateKey struct{}

func newEvalState() *evalState {
	return &evalState{schemas: util.NewHasherMap[ast.Value, compiledSchema](sameValue)}
}

// stateOf returns the evaluation's state; a fresh one outside an Engine's
// evaluation (in `rules test`).
func stateOf(ctx context.Context) *evalState {
	if s, ok := ctx.Value(stateKey{}).(*evalState); ok {
		return s
	}
	return newEvalState()
}

// sameValue is ast.ValueEqual, short-cut for the same collection.
func sameValue(a, b ast.Value) bool { return samePointer(a, b) || ast.ValueEqual(a, b) }

// samePointer reports whether a and b are the same array or object.
func samePointer(a, b ast.Value) bool {
	switch a := a.(type) {
	case *ast.Array:
		b, ok := b.(*ast.Array)
		return ok && a == b
	case ast.Object:
		b, ok := b.(ast.Object)
		return ok && a == b
	}
	return false
}

// compiled compiles a schema of the given dialect once per evaluation
// (and once per process for the same text, see dsl.CheckSchema).
func (e *evalState) compiled(schema ast.Value, dialect string) (*jsonschema.Schema, error) {
	key := ast.NewArray(ast.StringTerm(dialect), ast.NewTerm(schema))
	e.mu.Lock()
	c, ok := e.schemas.Get(key)
	e.mu.Unlock()
	if !ok {
		text, err := json.Marshal(mustJSON(schema))
		if err != nil {
			return nil, err
		}
		c.schema, c.err = dsl.CheckSchema(string(text), dialect)
		e.mu.Lock()
		e.schemas.Put(key, c)
		e.mu.Unlock()
	}
	return c.schema, c.err
}

func (e *evalState) set(prefix string, shared ast.Value) (*exampleSet, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.sets {
		if s.prefix == prefix && slices.ContainsFunc(s.shared, func(d ast.Value) bool { return samePointer(d, shared) }) {
			return s, nil
		}
	}
	for _, s := range e.sets {
		if s.prefix == prefix && ast.ValueEqual(s.shared[0], shared) {
			s.shared = append(s.shared, shared)
			return s, nil
		}
	}
	doc, err := ast.JSON(shared)
	if err != nil {
		return nil, err
	}
	named, _ := doc.(map[string]any)
	s := &exampleSet{prefix: prefix, shared: []ast.Value{shared}, set: dsl.NewSchemaSet(named, prefix),
		schemas: util.NewHasherMap[ast.Value, compiledSchema](sameValue)}
	e.sets = append(e.sets, s)
	return s, nil
}

// schema compiles a schema once; an error is kept as well: a schema that
// does not compile stays so.
func (s *exampleSet) schema(v ast.Value) (*jsonschema.Schema, error) {
	s.mu.Lock()
	c, ok := s.schemas.Get(v)
	s.mu.Unlock()
	if !ok {
		doc, err := ast.JSON(v)
		if err != nil {
			return nil, err
		}
		c.schema, c.err = s.set.Compile(map[string]any{"type": "object", "required": []any{"value"}, "properties": map[string]any{"value": doc}})
		s.mu.Lock()
		s.schemas.Put(v, c)
		s.mu.Unlock()
	}
	return c.schema, c.err
}

func mustJSON(v ast.Value) any {
	x, err := ast.JSON(v)
	if err != nil {
		return nil
	}
	return x
}
