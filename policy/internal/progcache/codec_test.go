package progcache_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/internal/inline"
	"github.com/specgate/specgate/policy/internal/progcache"
	"github.com/specgate/specgate/rules"
)

var parseOpts = ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1}

// newCompiler is the compiler of specgate's engine: its sandbox and its
// inlining stage.
func newCompiler() *ast.Compiler {
	return ast.NewCompiler().WithCapabilities(policy.Capabilities()).WithEnablePrintStatements(false).
		WithStageAfterID(ast.StageResolveRefs, inline.Stage)
}

// compiledBuiltins compiles every built-in rule from source, as a run
// without a cache does.
func compiledBuiltins(t testing.TB) map[string]*ast.Module {
	t.Helper()
	reg, err := policy.LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	sources := append([]*policy.Source{}, reg.Libs...)
	for _, r := range reg.Rules {
		sources = append(sources, r.Source)
	}
	modules := map[string]*ast.Module{}
	for _, s := range sources {
		m, err := s.Module()
		if err != nil {
			t.Fatal(err)
		}
		modules[s.File] = m
	}
	c := newCompiler()
	c.Compile(modules)
	if c.Failed() {
		t.Fatal(c.Errors)
	}
	return c.Modules
}

// builtinsReadBack compiles every built-in rule, writes the modules with
// the codec and reads them back.
func builtinsReadBack(t *testing.T) (compiled, back map[string]*ast.Module) {
	t.Helper()
	compiled = compiledBuiltins(t)
	data, err := progcache.EncodeModules(compiled)
	if err != nil {
		t.Fatal(err)
	}
	if back, err = progcache.DecodeModules(data); err != nil {
		t.Fatal(err)
	}
	return compiled, back
}

// TestCodecRoundTrip: every compiled built-in module reads back as the
// same Rego (METADATA comments aside, which the codec leaves out), with the
// same locations.
func TestCodecRoundTrip(t *testing.T) {
	compiled, back := builtinsReadBack(t)
	if len(back) != len(compiled) {
		t.Fatalf("%d modules read back, %d written", len(back), len(compiled))
	}
	for file, m := range compiled {
		got := back[file]
		if got == nil {
			t.Fatalf("%s not read back", file)
		}
		want := m.Copy()
		want.Annotations = nil
		if want.String() != got.String() {
			t.Fatalf("%s reads back differently:\n%s\n--- read back:\n%s", file, want, got)
		}
		for i, r := range m.Rules {
			if !r.Location.Equal(&ast.Location{File: got.Rules[i].Location.File, Row: got.Rules[i].Location.Row, Col: got.Rules[i].Location.Col, Text: r.Location.Text}) {
				t.Fatalf("%s: rule %d at %v, read back at %v", file, i, r.Location, got.Rules[i].Location)
			}
		}
	}
}

// TestCodecKeepsWhatErrorsName: the codec keeps the locations that
// evaluation reads (every expression's, for errors and traces; a rule
// head's terms and an object comprehension's key, which conflict errors
// name) and drops those of other terms.
func TestCodecKeepsWhatErrorsName(t *testing.T) {
	compiled, back := builtinsReadBack(t)
	// places lists a module's kept locations in walk order, and counts
	// its other terms that have one.
	places := func(m *ast.Module) (kept []string, others int) {
		at := func(l *ast.Location) string {
			if l == nil {
				return "-"
			}
			return fmt.Sprintf("%s:%d:%d", l.File, l.Row, l.Col)
		}
		headTerms := map[*ast.Term]bool{}
		ast.NewGenericVisitor(func(x any) bool {
			switch x := x.(type) {
			case *ast.Rule:
				kept = append(kept, at(x.Location), at(x.Head.Location))
				for _, t := range append(append(append([]*ast.Term{}, x.Head.Reference...), x.Head.Args...), x.Head.Key, x.Head.Value) {
					if t != nil {
						headTerms[t] = true
						kept = append(kept, at(t.Location))
					}
				}
			case *ast.Expr:
				kept = append(kept, at(x.Location))
			case *ast.ObjectComprehension:
				headTerms[x.Key] = true
				kept = append(kept, at(x.Key.Location))
			case *ast.Term:
				if !headTerms[x] && x.Location != nil {
					others++
				}
			}
			return false
		}).Walk(m)
		return kept, others
	}
	total := 0
	for file, m := range compiled {
		want, _ := places(m)
		got, others := places(back[file])
		if !slices.Equal(got, want) {
			t.Fatalf("%s: kept locations read back as\n%v\nwant\n%v", file, got, want)
		}
		if others > 0 {
			t.Fatalf("%s: %d other terms read back with a location", file, others)
		}
		total += len(want)
	}
	if total < 10000 {
		t.Fatalf("only %d locations compared", total)
	}
}

// TestCodecRejectsCorruptData: every truncation of a valid encoding, and
// a flipped byte anywhere, is an error or a different rule set, never a
// panic or a hang.
func TestCodecRejectsCorruptData(t *testing.T) {
	m := ast.MustParseModuleWithOpts(`package specgate.rules["x"]

violations contains {"path": [k], "message": sprintf("%v", [v])} if {
	some k, v in input.document
	every x in [1, 2] { x > 0 }
	not v == null
	xs := {y | some y in [1, 2]}
	count(xs) > 0
}
`, parseOpts)
	c := newCompiler()
	c.Compile(map[string]*ast.Module{"x.rego": m})
	if c.Failed() {
		t.Fatal(c.Errors)
	}
	data, err := progcache.EncodeModules(c.Modules)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := progcache.DecodeModules(data[:n]); err == nil {
			t.Fatalf("a truncation to %d of %d bytes decoded without error", n, len(data))
		}
	}
	for i := range data {
		bad := append([]byte{}, data...)
		bad[i] ^= 0xff
		progcache.DecodeModules(bad) //nolint:errcheck // must only not panic
	}
}

// TestEncodeRefusesUnknownNodes: a node the codec has no form for makes
// encoding fail, wherever it sits (so the rule set is compiled from
// source), instead of writing an entry that reads back as something else.
func TestEncodeRefusesUnknownNodes(t *testing.T) {
	m := ast.MustParseModuleWithOpts("package p\n\nr := x if { x := [1, {\"k\": input.a}] }\n", parseOpts)
	m.Rules[0].Body[0].Operand(1).Value.(*ast.Array).Elem(1).Value.(ast.Object).Get(ast.StringTerm("k")).Value = &ast.TemplateString{}
	data, err := progcache.EncodeModules(map[string]*ast.Module{"p.rego": m})
	if err == nil || !strings.Contains(err.Error(), "cannot encode a term of type *ast.TemplateString") || data != nil {
		t.Fatalf("encodeModules = %d bytes, %v; want the unknown node named", len(data), err)
	}
}

func FuzzDecodeModules(f *testing.F) {
	m := ast.MustParseModuleWithOpts("package p\n\nr contains x if { some x in input.a; x > 1 }\n", parseOpts)
	data, err := progcache.EncodeModules(map[string]*ast.Module{"p.rego": m})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		progcache.DecodeModules(data) //nolint:errcheck // must only not panic
	})
}

// BenchmarkReadProgram measures what start-up pays to read every built-in
// rule's program back from the cache: decoding it, and the compiler
// stages that build its trees and indices.
func BenchmarkReadProgram(b *testing.B) {
	compiled := compiledBuiltins(b)
	data, err := progcache.EncodeModules(compiled)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := progcache.DecodeModules(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode+compile", func(b *testing.B) {
		for b.Loop() {
			modules, err := progcache.DecodeModules(data)
			if err != nil {
				b.Fatal(err)
			}
			c := newCompiler().WithSkipStages(progcache.SkippedWhenCached...)
			if c.Compile(modules); c.Failed() {
				b.Fatal(c.Errors)
			}
		}
	})
}
