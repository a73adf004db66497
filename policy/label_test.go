package policy

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/spec"
)

// TestLabelsSpellAsRego: the label policy.Input gives each item of
// input.received is what security.schema_label, the Rego it replaces, gives,
// on every rule fixture and corpus spec (the largest aside).
func TestLabelsSpellAsRego(t *testing.T) {
	alike, declined := eachSpecAsRego(t, `[[v.source, [l | l := v.label], data.specgate.lib.security.schema_label(v)] | some v in input.received]`, 5<<20)
	if alike < 1000 {
		t.Errorf("only %d labels compared", alike)
	}
	t.Logf("%d labels alike, %d left to Rego", alike, declined)
}

// eachSpecAsRego evaluates, over the input of every OpenAPI rule fixture,
// corpus spec smaller than maxSize and document of testdata/spell, a comprehension of [what, Go's
// results, Rego's result] triples (with the built-in libraries), where
// Go's results are a list of one (its result) or none (Go declined), and
// reports each result that differs from Rego's. It counts the results
// alike and those Go declined. The built-in rules named by ids are
// compiled with the libraries, for triples that read their values.
func eachSpecAsRego(t *testing.T, triples string, maxSize int64, ids ...string) (alike, declined int) {
	t.Helper()
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
	compiler, err := compileSources(sources)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	query, err := rego.New(rego.Compiler(compiler), rego.Query(`items := `+triples)).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../rules/*/testdata/*.*")
	edges, _ := filepath.Glob("testdata/spell/*.yaml") // documents made for these comparisons
	files = append(files, edges...)
	corpus, _ := filepath.Glob("../../shared/corpus/*.*")
	for _, f := range corpus {
		if info, err := os.Stat(f); err == nil && info.Size() < maxSize {
			files = append(files, f)
		}
	}
	loader := spec.NewLoader(spec.Options{})
	for _, f := range files {
		doc, err := loader.Load(ctx, f)
		if err != nil || doc.Format == spec.AsyncAPI {
			continue
		}
		rs, err := query.Eval(ctx, rego.EvalParsedInput(Input(doc)))
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
	return alike, declined
}
