package policy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/spec"
)

// TestLabelsOfViewsAndValuesAgree: the label input.Build gives each item
// of input.received (builtins.SchemaLabel of the views' paths and
// parameters) is what security.schema_label gives it (the same function of
// the Rego values and the library's parameters by place), on every rule
// fixture and corpus spec (the largest aside). Items written in a
// response, a callback or a webhook are named by a request that uses them
// instead (policy/input's TestReceivedLabelsNameARequest), and left out.
func TestLabelsOfViewsAndValuesAgree(t *testing.T) {
	alike, declined := eachSpecAsRego(t, `[[v.source, [l | l := v.label], data.specgate.lib.security.schema_label(v)] |
		some v in input.received
		not v.source[0] in {"webhooks", "responses"}
		not v.source[1] in {"responses", "headers", "callbacks"}
		not v.source[3] in {"responses", "callbacks"}
	]`, 5<<20)
	least := 500 // the fixtures' and small specs' labels
	if os.Getenv("SPECGATE_CORPUS") == "1" {
		least = 1000
	}
	if alike < least {
		t.Errorf("only %d labels compared, want %d", alike, least)
	}
	if declined > 0 {
		t.Errorf("%d items without a label", declined)
	}
}

// eachSpecAsRego evaluates, over the input of every OpenAPI rule fixture,
// document of testdata/spell and corpus spec smaller than maxSize, a
// comprehension of [what, Go's results, Rego's result] triples (with the
// built-in libraries), where Go's results are a list of one (its result)
// or none (Go declined), and reports each result that differs from
// Rego's. It counts the results alike and those Go declined. The built-in
// rules named by ids are compiled with the libraries, for triples that
// read their values. Corpus specs of 1 MB or more are compared only with
// SPECGATE_CORPUS=1 (which .ci/run sets): each such test took half a
// minute on two cores.
func eachSpecAsRego(t *testing.T, triples string, maxSize int64, ids ...string) (alike, declined int) {
	t.Helper()
	compiler := libraries(t)
	if len(ids) > 0 {
		reg, err := LoadFS(rules.FS, ".", true, nil)
		if err != nil {
			t.Fatal(err)
		}
		sources := reg.Libs
		for _, r := range reg.Rules {
			if slices.Contains(ids, r.ID) {
				sources = append(slices.Clip(sources), r.Source)
			}
		}
		if compiler, err = compileSources(sources); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	query, err := rego.New(rego.Compiler(compiler), rego.Query(`items := `+triples)).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compare := func(f string, in ast.Value) {
		rs, err := query.Eval(ctx, rego.EvalParsedInput(in))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v %v", f, rs, err)
		}
		items, err := ast.InterfaceToValue(rs[0].Bindings["items"])
		if err != nil {
			t.Fatal(err)
		}
		items.(*ast.Array).Foreach(func(item *ast.Term) {
			it := item.Value.(*ast.Array)
			what, got, want := it.Elem(0), it.Elem(1).Value.(*ast.Array), it.Elem(2)
			switch {
			case got.Len() == 0:
				declined++
				t.Logf("%s: Go declined %v (Rego: %v)", f, what, want)
			case got.Len() != 1 || got.Elem(0).Value.Compare(want.Value) != 0:
				t.Errorf("%s: %v is %v, Rego says %v", f, what, got, want)
			default:
				alike++
			}
		})
	}
	for _, in := range smallInputs(t) {
		compare(in.file, in.input)
	}
	if os.Getenv("SPECGATE_CORPUS") == "1" {
		loader := spec.NewLoader(spec.Options{})
		corpus := corpusspecs.Files("../../shared/corpus")
		for _, f := range corpus {
			if info, err := os.Stat(f); err != nil || info.Size() < smallSpec || info.Size() >= maxSize {
				continue
			}
			doc, err := loader.Load(ctx, f)
			if err != nil || doc.Format == spec.AsyncAPI {
				continue
			}
			compare(f, input.Build(doc))
		}
	}
	return alike, declined
}

// smallSpec is the size below which a corpus spec is one of smallInputs.
const smallSpec = 1 << 20

// specInput is a document's input, for the tests that compare what Go
// builds with what Rego computes.
type specInput struct {
	file  string
	input ast.Value
}

// smallInputs are the inputs of the OpenAPI rule fixtures, the documents
// of testdata/spell (made for these comparisons) and the corpus specs
// under smallSpec, loaded once for every test of the package.
var smallInputs = func() func(t *testing.T) []specInput {
	var once sync.Once
	var inputs []specInput
	var failed error
	return func(t *testing.T) []specInput {
		t.Helper()
		once.Do(func() {
			files, _ := filepath.Glob("../rules/*/testdata/*.*")
			edges, _ := filepath.Glob("testdata/spell/*.yaml")
			files = append(files, edges...)
			corpus := corpusspecs.Files("../../shared/corpus")
			for _, f := range corpus {
				if info, err := os.Stat(f); err == nil && info.Size() < smallSpec {
					files = append(files, f)
				}
			}
			loader := spec.NewLoader(spec.Options{})
			for _, f := range files {
				doc, err := loader.Load(context.Background(), f)
				if err != nil || doc.Format == spec.AsyncAPI {
					continue
				}
				inputs = append(inputs, specInput{f, input.Build(doc)})
			}
			if len(inputs) == 0 {
				failed = fmt.Errorf("no input among %d files", len(files))
			}
		})
		if failed != nil {
			t.Fatal(failed)
		}
		return inputs
	}
}()

// libraries is the compiled program of the built-in libraries, compiled
// once for every test of the package that needs it.
var libraries = func() func(t *testing.T) *ast.Compiler {
	var once sync.Once
	var compiler *ast.Compiler
	var failed error
	return func(t *testing.T) *ast.Compiler {
		t.Helper()
		once.Do(func() {
			reg, err := LoadFS(rules.FS, ".", true, nil)
			if err != nil {
				failed = err
				return
			}
			compiler, failed = compileSources(reg.Libs)
		})
		if failed != nil {
			t.Fatal(failed)
		}
		return compiler
	}
}()
