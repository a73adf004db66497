package policy

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/spec"
)

// TestLabelsSpellAsRego: the label policy.Input gives each item of
// input.received is what security._label, the Rego it replaces, gives,
// on every rule fixture and corpus spec (the largest aside); and only a
// value that Go declines to name lacks one.
func TestLabelsSpellAsRego(t *testing.T) {
	labelled, unlabelled := 0, 0
	eachSpecAsRego(t, `[[v.source, object.get(v, "label", null), data.specgate.lib.security._label(v)] | some v in input.received]`, 5<<20,
		func(file string, source, goLabel, regoLabel *ast.Term) {
			switch {
			case goLabel.Value.Compare(ast.Null{}) == 0:
				unlabelled++
				t.Logf("%s: %v has no label (Rego: %v)", file, source, regoLabel)
			case goLabel.Value.Compare(regoLabel.Value) != 0:
				t.Errorf("%s: %v is %v, Rego says %v", file, source, goLabel, regoLabel)
			default:
				labelled++
			}
		})
	if labelled < 1000 {
		t.Errorf("only %d labels compared", labelled)
	}
	t.Logf("%d labels alike, %d left to Rego", labelled, unlabelled)
}

// eachSpecAsRego evaluates, over the input of every OpenAPI rule fixture
// and corpus spec smaller than maxSize, a comprehension of [what, Go's
// result, Rego's result] triples (with the built-in libraries), and
// hands each triple to check.
func eachSpecAsRego(t *testing.T, triples string, maxSize int64, check func(file string, what, goResult, regoResult *ast.Term)) {
	t.Helper()
	reg, err := LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	compiler, err := compileSources(reg.Libs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	query, err := rego.New(rego.Compiler(compiler), rego.Query(`items := `+triples)).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../rules/*/testdata/*.*")
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
			check(f, it.Elem(0), it.Elem(1), it.Elem(2))
		})
	}
}
