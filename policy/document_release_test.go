package policy_test

import (
	"context"
	"slices"
	"testing"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/input"
)

// A library whose functions and rules read the document, for the rules of
// TestDocumentReleased to reach directly, through a call or through a
// reference chosen at evaluation.
const docLib = `package specgate.lib.docs

keys_of(source) := specgate.object_keys("", source)

texts.eval := specgate.prose_matching("eval")

texts.plain := ["no document read"]
`

// TestDocumentReleased: with WithDocumentReleased, the rules that may call
// a builtin reading the document (directly, through a library function,
// or through a library reference chosen at evaluation) run before the
// document is let go, the others after; release is called once, and the
// findings are WithDocument's (a reader run after the release would find
// nothing: see TestDocumentForgotten).
func TestDocumentReleased(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1", description: "eval(x)"}
paths:
  /a:
    post: {responses: {"200": {description: ok}}}
    get: {responses: {"200": {description: ok}}}
`)
	modules := []string{docLib,
		rule("a-plain", `violations contains {"path": op.source, "message": op.method} if { some op in input.operations }`),
		rule("b-keys", `import data.specgate.lib.docs
violations contains {"path": item.source, "message": concat(",", docs.keys_of(item.source))} if { some item in input.pathItems }`),
		rule("c-prose", `violations contains {"path": p, "message": text} if { some [p, text, _] in specgate.prose_matching("eval") }`),
		rule("d-dynamic", `violations contains {"path": [k], "message": sprintf("%d", [count(data.specgate.lib.docs.texts[k])])} if { some k in ["eval", "plain"] }`),
		rule("e-plain", `violations contains {"path": ["info"], "message": input.formats[0]} if { true }`),
	}
	e, err := compile(t, 0, modules...)
	if err != nil {
		t.Fatal(err)
	}
	in := input.Build(doc)
	want, err := e.Eval(policy.WithDocument(context.Background(), doc), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 5 {
		t.Fatalf("%d findings with the document, want one at least of each rule: %+v", len(want), want)
	}
	for _, timed := range []bool{false, true} {
		releases := 0
		ctx := policy.WithDocumentReleased(context.Background(), doc, func() { releases++ })
		var got []policy.Violation
		if timed {
			got, _, err = e.EvalTimed(ctx, in)
		} else {
			got, err = e.Eval(ctx, in)
		}
		if err != nil {
			t.Fatalf("timed %v: %v", timed, err)
		}
		if releases != 1 {
			t.Errorf("timed %v: released %d times, want once", timed, releases)
		}
		if !slices.EqualFunc(got, want, sameViolation) {
			t.Errorf("timed %v: findings %+v, want WithDocument's %+v", timed, got, want)
		}
	}
}

// TestDocumentForgotten: a builtin that reads the document finds none
// once it is let go, and its call is undefined, as a builtin's error makes
// it (OPA reports such errors only when strict): a reader run after the
// release would lose its findings without a word, which is why the
// readers are found in the compiled program (TestDocumentReleased).
func TestDocumentForgotten(t *testing.T) {
	doc := load(t, api)
	e, err := compile(t, 0, rule("keys", `violations contains {"path": [], "message": concat(",", specgate.object_keys("", ["paths"]))} if { true }`))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Eval(policy.WithDocumentReleased(context.Background(), doc, func() {}), input.Build(doc))
	if err != nil || len(vs) != 1 || vs[0].Message != "/a,/b" {
		t.Errorf("findings %+v, error %v; want one of keys /a,/b", vs, err)
	}
	// The document forgotten beforehand, as a release forgets it.
	vs, err = e.Eval(policy.WithDocumentReleased(context.Background(), nil, func() {}), input.Build(doc))
	if err != nil || len(vs) != 0 {
		t.Errorf("without the document: findings %+v, error %v; want none", vs, err)
	}
}

func sameViolation(a, b policy.Violation) bool {
	return a.Rule == b.Rule && a.Message == b.Message && a.File == b.File && slices.Equal(a.Path, b.Path)
}
