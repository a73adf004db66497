package policy_test

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/input"
)

// refsLib is a library whose function reads input.refs and whose rule reads
// input.index.markupTexts.
const refsLib = "package specgate.lib.reach\n\nrefs_of(kind) := [r | some r in input.refs; r.kind == kind]\n\ntexts := input.index.markupTexts\n"

func TestInputMembersFollowWhatRulesRead(t *testing.T) {
	cases := []struct {
		name    string
		modules []string
		want    []string // nil: every member
	}{
		{"a member", []string{rule("ops", `violations contains {"path": op.source, "message": "x"} if { some op in input.operations; op.method == "post" }`)},
			[]string{"operations"}},
		{"two rules", []string{
			rule("ops", `violations contains {"path": op.source, "message": "x"} if { some op in input.operations; op.method == "post" }`),
			rule("doc", `violations contains {"path": [], "message": "x"} if { not input.document.info.description }`)},
			[]string{"document", "operations"}},
		{"an index member", []string{rule("idx", `violations contains {"path": [], "message": "x"} if { input.index.hasExamples }`)},
			[]string{"index.hasExamples"}},
		{"through a library function", []string{refsLib, rule("lib", `violations contains {"path": [], "message": "x"} if { count(data.specgate.lib.reach.refs_of("schema")) > 0 }`)},
			[]string{"refs"}},
		{"through a library rule", []string{refsLib, rule("lib", `violations contains {"path": [], "message": "x"} if { count(data.specgate.lib.reach.texts) > 0 }`)},
			[]string{"index.markupTexts"}},
		{"the whole index", []string{rule("idx", `violations contains {"path": [], "message": "x"} if { some k, v in input.index; k == "a"; v }`)},
			[]string{"index"}},
		{"a key chosen at evaluation", []string{rule("any", `violations contains {"path": [], "message": k} if { some k in ["operations", "tags"]; count(input[k]) > 100 }`)},
			nil},
		{"the whole input", []string{rule("walk", `violations contains {"path": [], "message": "x"} if { walk(input, [p, v]); v == "secret" }`)},
			nil},
		{"object.get of a key", []string{rule("get", `violations contains {"path": [], "message": "x"} if { count(object.get(input, "tags", [])) > 9 }`)},
			[]string{"tags"}},
		{"object.get of a path", []string{rule("get", `violations contains {"path": [], "message": k} if { some k in ["a", "b"]; object.get(input, ["schemasWith", k], []) != [] }`)},
			[]string{"schemasWith"}},
		{"object.get of an index path", []string{rule("get", `violations contains {"path": [], "message": "x"} if { object.get(input, ["index", "hasExamples"], false) }`)},
			[]string{"index.hasExamples"}},
		{"object.get of a key chosen at evaluation", []string{rule("get", `violations contains {"path": [], "message": k} if { some k in ["tags", "servers"]; count(object.get(input, k, [])) > 9 }`)},
			nil},
		{"object.get of a path chosen at evaluation", []string{rule("get", `violations contains {"path": [], "message": "x"} if { some k in ["tags", "servers"]; count(object.get(input, [k, 0], [])) > 9 }`)},
			nil},
		{"object.get of a member's key", []string{rule("get", `violations contains {"path": [], "message": "x"} if { some k in ["tags", "servers"]; count(object.get(input.document, k, [])) > 9 }`)},
			[]string{"document"}},
		{"a with on the input", []string{refsLib, rule("with", `violations contains {"path": [], "message": "x"} if { count(data.specgate.lib.reach.refs_of("schema")) with input.refs as [] }`)},
			nil},
		{"a rule reading nothing", []string{rule("none", `violations contains {"path": [], "message": "x"} if { false }`)},
			[]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := compile(t, 0, tc.modules...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.InputMembers(load(t, api).FormatTags())
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if got != nil {
					t.Fatalf("members = %v, want every member (nil)", slices.Sorted(maps.Keys(got)))
				}
				return
			}
			if got == nil {
				t.Fatalf("members = every member, want %v", tc.want)
			}
			if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, tc.want) {
				t.Errorf("members = %v, want %v", keys, tc.want)
			}
		})
	}
}

// A custom rule sees the members it reads in an input built with only
// them, and the members it does not read are left out.
func TestBuiltMembersAreThoseRead(t *testing.T) {
	e, err := compile(t, 0,
		rule("no-post", `violations contains {"path": op.source, "message": sprintf("%s is a POST", [op.path])} if { some op in input.operations; op.method == "post" }`),
		rule("tagged", `violations contains {"path": ["tags"], "message": "no tags"} if { count(input.tags) == 0 }`))
	if err != nil {
		t.Fatal(err)
	}
	doc := load(t, api)
	members, err := e.InputMembers(doc.FormatTags())
	if err != nil {
		t.Fatal(err)
	}
	in := input.BuildMembers(doc, members)
	obj := in.(ast.Object)
	for _, k := range []string{"operations", "tags", "format", "version", "formats"} {
		if obj.Get(ast.StringTerm(k)) == nil {
			t.Errorf("input lacks %s", k)
		}
	}
	for _, k := range []string{"document", "schemas", "refs", "index", "pathItems"} {
		if obj.Get(ast.StringTerm(k)) != nil {
			t.Errorf("input has %s, which no rule reads", k)
		}
	}
	gated, err := e.Eval(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.Eval(context.Background(), input.Build(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(gated) != 2 || gated[0].Rule != "no-post" || gated[0].Message != "/b is a POST" || gated[1].Rule != "tagged" {
		t.Errorf("violations = %+v, want no-post on /b and tagged", gated)
	}
	if !slices.EqualFunc(gated, full, func(a, b policy.Violation) bool {
		return a.Rule == b.Rule && a.Message == b.Message && slices.Equal(a.Path, b.Path)
	}) {
		t.Errorf("violations %+v, with every member %+v", gated, full)
	}
}

// With a cache, the members a rule set reads are kept there: a second
// engine of the same rules finds the same members, every member included.
func TestInputMembersCached(t *testing.T) {
	dir := t.TempDir()
	doc := load(t, api)
	for _, tc := range []struct {
		body string
		want []string // nil: every member
	}{
		{`violations contains {"path": op.source, "message": "x"} if { some op in input.operations; op.method == "post" }`, []string{"operations"}},
		{`violations contains {"path": [], "message": "x"} if { walk(input, [p, v]); v == "secret" }`, nil},
	} {
		var got []input.Members
		for range 2 {
			reg := &policy.Registry{}
			if err := reg.AddModule("user/a.rego", rule("r", tc.body), false); err != nil {
				t.Fatal(err)
			}
			e, err := policy.Compile(context.Background(), reg.Rules, reg.Libs, 0, policy.OpenCache(dir))
			if err != nil {
				t.Fatal(err)
			}
			m, err := e.InputMembers(doc.FormatTags())
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
		for i, m := range got {
			if (m == nil) != (tc.want == nil) || !slices.Equal(slices.Sorted(maps.Keys(m)), tc.want) && tc.want != nil {
				t.Errorf("engine %d: members %v (every member: %v), want %v", i+1, slices.Sorted(maps.Keys(m)), m == nil, tc.want)
			}
		}
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "members*"))
	if len(entries) != 2 {
		t.Errorf("cache entries of members: %v, want 2", entries)
	}
}
