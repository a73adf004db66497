package linter

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// openRules opens the built-in ruleset named, narrowed to only when it is
// not empty.
func openRules(t *testing.T, ruleset string, only ...string) *Pipeline {
	t.Helper()
	p, err := Open(context.Background(), Config{Rules: rulesets.Options{Ruleset: ruleset, NoSearch: true}, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// has tells whether an input has a top-level member.
func has(in ast.Value, key string) bool { return in.(ast.Object).Get(ast.StringTerm(key)) != nil }

// A preloaded spec's input has the members its rules read once the linter
// gives them (LintPreloaded does), and every member when take comes first.
func TestPreloadBuildsTheMembersRead(t *testing.T) {
	const name = "../examples/petstore.yaml"
	p := openRules(t, "recommended", "operation-summary")
	loader := spec.NewLoader(spec.Options{})
	ctx := context.Background()

	pre := Preload(ctx, loader, []string{name})
	formats, ok := pre.Formats()
	if !ok {
		t.Fatal("petstore.yaml did not load")
	}
	pre.build(p.members(formats))
	_, in, ok, err := pre.take(name)
	if !ok || err != nil {
		t.Fatalf("take: %v, %v", ok, err)
	}
	for _, k := range []string{"operations", "format", "formats", "version"} {
		if !has(in, k) {
			t.Errorf("the input of operation-summary lacks %s", k)
		}
	}
	for _, k := range []string{"schemas", "refs", "componentRefs", "received"} {
		if has(in, k) {
			t.Errorf("the input of operation-summary has %s, which it does not read", k)
		}
	}

	_, in, _, _ = Preload(ctx, loader, []string{name}).take(name)
	for _, k := range []string{"operations", "schemas", "refs", "componentRefs", "index"} {
		if !has(in, k) {
			t.Errorf("an input taken before its members were given lacks %s", k)
		}
	}
}

// The findings are the same whether the input holds every member or only
// those the rules read: for the whole recommended and lenient rulesets and
// for a few rules, on a few specs, and with SPECGATE_CORPUS=1 on every spec
// of the shared corpus.
func TestMembersReadLintAlike(t *testing.T) {
	specs := []string{"../examples/petstore.yaml", "../../shared/corpus/webhook-example-3.1.yaml",
		"../../shared/corpus/uber-v2.json", "../../shared/corpus/asyncapi-streetlights-kafka-2.6.yml"}
	if os.Getenv("SPECGATE_CORPUS") == "1" {
		all := corpusspecs.Files("../../shared/corpus")
		if len(all) == 0 {
			t.Fatal("no spec in ../../shared/corpus")
		}
		specs = append(specs[:1], all...)
	}
	pipelines := map[string]*Pipeline{
		"recommended": openRules(t, "recommended"),
		"lenient":     openRules(t, "lenient"),
		"three rules": openRules(t, "recommended", "operation-summary", "unused-components", "no-unresolved-ref"),
	}
	loader := spec.NewLoader(spec.Options{})
	ctx := context.Background()
	for _, name := range specs {
		for what, p := range pipelines {
			doc, err := loader.Load(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			members := p.members(doc.FormatTags())
			if what == "three rules" && (members == nil || members["schemas"]) {
				t.Errorf("%s, %s: members %v, want neither all nor schemas", name, what, members)
			}
			gated := p.lintInput(ctx, doc, input.BuildMembers(doc, members), checkStructure(doc))
			if doc, err = loader.Load(ctx, name); err != nil {
				t.Fatal(err)
			}
			full := p.lintInput(ctx, doc, input.Build(doc), checkStructure(doc))
			if len(full.Findings) == 0 && what != "three rules" {
				t.Errorf("%s, %s: no findings, nothing compared", name, what)
			}
			if !reflect.DeepEqual(gated.Findings, full.Findings) {
				t.Errorf("%s, %s: %d findings with the members read, %d with every member", name, what, len(gated.Findings), len(full.Findings))
			}
		}
	}
}
