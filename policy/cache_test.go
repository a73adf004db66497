package policy

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/policy/internal/progcache"
	"github.com/specgate/specgate/rules"
)

// compiledBuiltins compiles every built-in rule from source, as a run
// without a cache does.
func compiledBuiltins(t testing.TB) (*Registry, map[string]*ast.Module) {
	t.Helper()
	reg, err := LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	sources := append([]*Source{}, reg.Libs...)
	for _, r := range reg.Rules {
		sources = append(sources, r.Source)
	}
	modules, err := parseSources(sources)
	if err != nil {
		t.Fatal(err)
	}
	c := newCompiler(Capabilities())
	c.Compile(modules)
	if c.Failed() {
		t.Fatal(c.Errors)
	}
	return reg, c.Modules
}

// TestCachedRuleErrorsKeepTheirPlace: an evaluation error names the same
// file, line and column whether the rule was compiled from source or read
// back from the cache.
func TestCachedRuleErrorsKeepTheirPlace(t *testing.T) {
	ctx := context.Background()
	cache := OpenCache(t.TempDir())
	src := ruletest.Module("clash", `violations contains {"path": [], "message": sprintf("%v", [byName])} if {
	byName := {name: i | some i in [1, 2]; name := "same"}
}
`)
	errorOf := func() string {
		t.Helper()
		reg := &Registry{}
		if err := reg.AddModule("user/clash.rego", src, false); err != nil {
			t.Fatal(err)
		}
		e, err := Compile(ctx, reg.Rules, reg.Libs, time.Minute, cache)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Eval(ctx, ast.MustParseTerm(`{"formats": ["oas3"], "document": {}}`).Value)
		if err == nil {
			t.Fatal("a comprehension with clashing keys evaluated without error")
		}
		return err.Error()
	}
	cold := errorOf()
	if !strings.Contains(cold, "user/clash.rego:13:") || !strings.Contains(cold, "object keys must be unique") {
		t.Fatalf("compiled from source, the error is %q; want it at user/clash.rego:13", cold)
	}
	if warm := errorOf(); warm != cold {
		t.Fatalf("read back from the cache, the error is %q; want %q", warm, cold)
	}
}

// emptyOAS30 is the input of an empty OpenAPI 3.0 document.
func emptyOAS30() ast.Value {
	return ast.MustParseTerm(`{"formats": ["oas3", "oas3.0", "oas"], "document": {"openapi": "3.0.3", "info": {}, "paths": {}}}`).Value
}

// compileEval compiles reg's rules with cache and evaluates them on input,
// failing the test on an error.
func compileEval(t *testing.T, reg *Registry, cache *Cache, input ast.Value) []Violation {
	t.Helper()
	e, err := Compile(context.Background(), reg.Rules, reg.Libs, time.Minute, cache)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Eval(context.Background(), input)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestCacheEntries: the first run writes a registry entry and a compiled
// rule set; the next run reads both back (no module is parsed) and its
// engine finds the same violations; a corrupt entry is ignored and
// rewritten.
func TestCacheEntries(t *testing.T) {
	dir := t.TempDir()
	cache := OpenCache(dir)

	cold, err := LoadFS(rules.FS, ".", true, cache)
	if err != nil {
		t.Fatal(err)
	}
	want := compileEval(t, cold, cache, emptyOAS30())
	entries, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, e := range entries {
		names = append(names, filepath.Base(e))
	}
	// The registry, every rule's program, and the program of the rules
	// of the input's formats.
	if len(names) != 3 || !strings.HasPrefix(names[0], "registry-") || !strings.HasPrefix(names[1], "rules-") || !strings.HasPrefix(names[2], "rules-") {
		t.Fatalf("cache holds %v, want one registry- and two rules- entries", names)
	}
	if len(want) == 0 {
		t.Fatal("the document should break some rules")
	}

	warm, err := LoadFS(rules.FS, ".", true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(warm.Rules) != len(cold.Rules) || len(warm.Libs) != len(cold.Libs) {
		t.Fatalf("cached registry has %d rules and %d libraries, want %d and %d", len(warm.Rules), len(warm.Libs), len(cold.Rules), len(cold.Libs))
	}
	for i, r := range warm.Rules {
		c := cold.Rules[i]
		if r.ID != c.ID || r.Title != c.Title || r.Description != c.Description || r.Severity != c.Severity || r.Family != c.Family ||
			!reflect.DeepEqual(r.Formats, c.Formats) || !reflect.DeepEqual(r.Peers, c.Peers) || r.HowToFix != c.HowToFix || r.File != c.File {
			t.Fatalf("cached metadata of %s differs: %+v, want %+v", c.ID, r, c)
		}
	}
	if got := compileEval(t, warm, cache, emptyOAS30()); !reflect.DeepEqual(got, want) {
		t.Fatalf("engine from the cache found %v, want %v", got, want)
	}
	for _, r := range warm.Rules {
		if r.Source.module != nil {
			t.Fatalf("rule %s was parsed although its compiled form was cached", r.ID)
		}
	}

	// Corrupt the compiled entries: they are ignored, the rules compile
	// from source, and the entries are rewritten.
	for _, prog := range entries[1:] {
		data, err := os.ReadFile(prog)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0xff
		if err := os.WriteFile(prog, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	again, err := LoadFS(rules.FS, ".", true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if got := compileEval(t, again, cache, emptyOAS30()); !reflect.DeepEqual(got, want) {
		t.Fatalf("after corruption, found %v, want %v", got, want)
	}
	for _, prog := range entries[1:] {
		if fixed, _ := os.ReadFile(prog); cache.entries().Get(filepath.Base(prog)) == nil || len(fixed) == 0 {
			t.Fatalf("the corrupt entry %s was not rewritten", filepath.Base(prog))
		}
	}
}

// TestCacheReadsTheProgramOfAnInputsRules: an engine whose rule set was
// compiled before reads, for an OpenAPI 3.0 input, the program of the
// rules of that format alone, and finds what every rule's program finds.
func TestCacheReadsTheProgramOfAnInputsRules(t *testing.T) {
	ctx := context.Background()
	cache := OpenCache(t.TempDir())
	reg, err := LoadFS(rules.FS, ".", true, cache)
	if err != nil {
		t.Fatal(err)
	}
	input := emptyOAS30()
	want := compileEval(t, reg, cache, input)
	warm, err := Compile(ctx, reg.Rules, reg.Libs, time.Minute, cache)
	if err != nil {
		t.Fatal(err)
	}
	todo := warm.applicable(inputFormats(input))
	program, err := warm.program(todo)
	if err != nil {
		t.Fatal(err)
	}
	if len(todo) >= len(reg.Rules) || len(program.Modules) != len(reg.Libs)+len(todo) {
		t.Fatalf("the program for %d of %d rules has %d modules, want %d", len(todo), len(reg.Rules), len(program.Modules), len(reg.Libs)+len(todo))
	}
	for _, i := range todo {
		if program.Modules[reg.Rules[i].File] == nil {
			t.Fatalf("the program lacks %s", reg.Rules[i].ID)
		}
	}
	if got, err := warm.Eval(ctx, input); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("from the program of the input's rules: %v, %v; want %v", got, err, want)
	}

	// An input of other formats: from then on the whole program runs
	// every input, one program in memory rather than one per format; the
	// program of the Swagger rules is stored for later runs.
	swagger := ast.MustParseTerm(`{"formats": ["oas2", "oas"], "format": "swagger", "document": {"swagger": "2.0", "info": {}, "paths": {}}}`).Value
	if _, err := warm.Eval(ctx, swagger); err != nil {
		t.Fatal(err)
	}
	full, _ := warm.full()
	for _, in := range []ast.Value{input, swagger} {
		if p, err := warm.program(warm.applicable(inputFormats(in))); err != nil || p != full {
			t.Errorf("after two formats, %v is run by a program of %d modules, not the whole one", in.(ast.Object).Get(ast.StringTerm("formats")), len(p.Modules))
		}
	}
	if got, err := warm.Eval(ctx, input); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("from the whole program: %v, %v; want %v", got, err, want)
	}
	if !cache.has(warm.subsetKey(warm.applicable(inputFormats(swagger)))) {
		t.Error("the program of the Swagger rules was not stored")
	}
}

// TestCacheKeepsRulesOtherRulesRead: a rule that reads the value of a rule
// of other formats is not given a program without that rule.
func TestCacheKeepsRulesOtherRulesRead(t *testing.T) {
	ctx := context.Background()
	cache := OpenCache(t.TempDir())
	reg := &Registry{}
	ruletest.Register(t, reg,
		ruletest.Rule{File: "a.rego", ID: "a", Body: `violations contains {"path": [], "message": "b says so"} if data.specgate.rules["b"].flag`},
		ruletest.Rule{File: "b.rego", ID: "b", Meta: ruletest.Meta{Formats: "asyncapi2"}, Body: "flag := true\n\nviolations := set()\n"})
	input := ast.MustParseTerm(`{"formats": ["oas3", "oas3.0", "oas"], "document": {}}`).Value
	for _, run := range []string{"cold", "warm"} {
		e, err := Compile(ctx, reg.Rules, reg.Libs, time.Minute, cache)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := e.Eval(ctx, input)
		if err != nil || len(vs) != 1 || vs[0].Rule != "a" {
			t.Fatalf("%s: %v, %v; want a's violation", run, vs, err)
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(cache.entries().Dir(), "rules-*")); len(entries) != 1 {
		t.Fatalf("cache holds %d programs, want the whole rule set's only", len(entries))
	}
}

// TestComprehensionIndicesAreRecorded: a rule set is stored with whether
// OPA indexed a comprehension of it, so that a rule set without one skips
// building the indices when it is read back. The built-in rules have
// none (specgate.group does their grouping).
func TestComprehensionIndicesAreRecorded(t *testing.T) {
	_, compiled := compiledBuiltins(t)
	c := newCompiler(Capabilities()).WithSkipStages(progcache.SkippedWhenCached...)
	c.Compile(compiled)
	if progcache.HasComprehensionIndices(c, c.Modules) {
		for _, m := range c.Modules {
			ast.WalkTerms(m, func(x *ast.Term) bool {
				if c.ComprehensionIndex(x) != nil {
					t.Errorf("%v: OPA indexes this comprehension, so every start-up builds comprehension indices; group with specgate.group instead", x.Location)
				}
				return false
			})
		}
	}
	grouped := ast.MustParseModule(`package specgate.rules["x"]

counts := {k: n | some k in ["a", "b"]; n := count([v | some [k2, v] in input.pairs; k2 == k])}
`)
	c = newCompiler(Capabilities())
	c.Compile(map[string]*ast.Module{"x.rego": grouped})
	if c.Failed() {
		t.Fatal(c.Errors)
	}
	if !progcache.HasComprehensionIndices(c, c.Modules) {
		t.Fatal("the indexed comprehension was not found")
	}
}

// TestCacheUnwritable: a cache that cannot be written is no cache.
func TestCacheUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cache := OpenCache(filepath.Join(file, "dir"))
	reg, err := LoadFS(rules.FS, ".", true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(context.Background(), reg.Rules[:3], reg.Libs, 0, cache); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultCacheDir(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "SPECGATE_CACHE_DIR" {
				return v
			}
			return ""
		}
	}
	if got := DefaultCacheDir(env("off")); got != "" {
		t.Errorf("SPECGATE_CACHE_DIR=off gives %q, want no cache", got)
	}
	if got := DefaultCacheDir(env("/x/y")); got != "/x/y" {
		t.Errorf("SPECGATE_CACHE_DIR=/x/y gives %q", got)
	}
	t.Setenv("XDG_CACHE_HOME", "/home/u/.cache")
	if got := DefaultCacheDir(env("")); got != "/home/u/.cache/specgate" {
		t.Errorf("without SPECGATE_CACHE_DIR: %q, want the user's cache directory", got)
	}
}

// TestCacheKeyNamesSpecgateBuiltins: the key depends on specgate's own
// builtins too, which register after package variables are set.
func TestCacheKeyNamesSpecgateBuiltins(t *testing.T) {
	if !strings.Contains(builtinsFingerprint(), "specgate.match_example/4;") {
		t.Fatalf("the builtins fingerprint lacks specgate's builtins: %.200s…", builtinsFingerprint())
	}
}

func TestReadsRules(t *testing.T) {
	kept := map[string]bool{"a": true}
	for ref, want := range map[string]bool{
		`data.specgate.rules.a.violations`: false,
		`data.specgate.rules.b.flag`:       true,
		`data.specgate.rules[x].flag`:      true,
		`data.specgate.rules`:              true,
		`data.specgate[x]`:                 true,
		`data`:                             true,
		`data.specgate.lib.util.violation`: false,
		`data.specgate.lib[x]`:             false,
		`input.refs`:                       false,
	} {
		if got := readsRules(ast.MustParseRef(ref), kept); got != want {
			t.Errorf("readsRules(%s) = %v, want %v", ref, got, want)
		}
	}
}

// TestRegistryCodec: a registry entry reads back as written (nil and
// empty lists apart); no truncation of it reads, and no flipped byte
// makes the decoder panic.
func TestRegistryCodec(t *testing.T) {
	reg, err := LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	libs := []string{"lib/a.rego", "lib/b.rego"}
	rules := append([]*Rule{{ID: "x", Severity: level.Error, Formats: []string{}, Peers: nil, File: "x.rego"}}, reg.Rules...)
	data := encodeRegistry(libs, rules)
	gotLibs, got, ok := decodeRegistry(data)
	if !ok || !reflect.DeepEqual(gotLibs, libs) || len(got) != len(rules) {
		t.Fatalf("read back %v %d rules, ok=%v", gotLibs, len(got), ok)
	}
	for i, r := range got {
		want := *rules[i]
		want.Source, want.Builtin, want.validated = nil, false, false
		if !reflect.DeepEqual(*r, want) {
			t.Fatalf("rule %d reads back as %+v, want %+v", i, *r, want)
		}
	}
	for n := 0; n < len(data); n += 1 + n/8 { // every length near the ends, some between
		if _, _, ok := decodeRegistry(data[:n]); ok {
			t.Fatalf("a truncation to %d of %d bytes reads", n, len(data))
		}
	}
	for n := max(0, len(data)-300); n < len(data); n++ {
		if _, _, ok := decodeRegistry(data[:n]); ok {
			t.Fatalf("a truncation to %d of %d bytes reads", n, len(data))
		}
	}
	for i := 0; i < len(data); i += 1 + len(data)/64 {
		flipped := bytes.Clone(data)
		flipped[i] ^= 0xa5
		decodeRegistry(flipped) //nolint:errcheck // must only not panic
	}
}
