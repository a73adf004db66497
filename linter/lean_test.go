package linter

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// copyFixture copies testdata files into a folder of the test's own, where
// the test may change them.
func copyFixture(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// leanAt lints with a spec of min bytes or more counted as large (see
// lean), and notes each release of a node tree with onRelease.
func leanAt(t *testing.T, min int64, release func()) {
	t.Helper()
	oldFrom, oldRelease := leanFrom, onRelease
	leanFrom, onRelease = min, release
	t.Cleanup(func() { leanFrom, onRelease = oldFrom, oldRelease })
}

// strictPipeline is the strict ruleset's pipeline.
func strictPipeline(t *testing.T) *Pipeline {
	t.Helper()
	p, err := Open(context.Background(), Config{Rules: rulesets.Options{Ruleset: "strict"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLeanLintLocatesAlike: a large spec of one file, whose node tree goes
// while most rules run and is loaded again from the bytes first read, is
// linted as LintFile lints it: the same findings at the same places, those
// of the rules that read the document (path-methods-order through
// specgate.object_keys, no-eval-in-markdown through
// specgate.prose_matching) and of an x-lint-ignore among them, even when
// the file changes on disk while the rules run. The tree is garbage once
// let go.
func TestLeanLintLocatesAlike(t *testing.T) {
	ctx := context.Background()
	l := strictPipeline(t)
	dir := copyFixture(t, "lean.yaml")
	file := filepath.Join(dir, "lean.yaml")
	want := l.LintFile(ctx, file)
	wantAt := []string{
		"path-methods-order /paths/~1pets/get 12:5",
		"path-methods-order /components/pathItems/Owners/get 45:7",
		"no-eval-in-markdown /info/description 5:3",
		"no-eval-in-markdown /paths/~1pets/get/description 13:7",
		"no-eval-in-markdown /components/schemas/Pet/description 37:7",
	}
	var found []string
	for _, d := range want.Findings {
		if d.Rule == "path-methods-order" || d.Rule == "no-eval-in-markdown" {
			found = append(found, fmt.Sprintf("%s %s %d:%d", d.Rule, d.Pointer, d.Range.Start.Line, d.Range.Start.Col))
		}
	}
	slices.Sort(found)
	slices.Sort(wantAt)
	if !slices.Equal(found, wantAt) {
		t.Fatalf("LintFile's findings of the rules that read the document:\n%q\nwant\n%q", found, wantAt)
	}

	changed := []byte("openapi: 3.1.0\ninfo: {title: Other, version: \"2\"}\npaths: {}\n")
	var tree weak.Pointer[spec.Node]
	releases := 0
	leanAt(t, 1, func() {
		releases++
		runtime.GC()
		if tree.Value() != nil {
			t.Error("the node tree is still reachable once let go")
		}
		if err := os.WriteFile(file, changed, 0o644); err != nil {
			t.Error(err)
		}
	})
	pre := Preload(ctx, l.loader, []string{file})
	<-pre.done
	if pre.data == nil {
		t.Fatal("a spec of one file at the threshold kept no bytes to load again")
	}
	tree = weak.Make(pre.doc.Root.Root)
	got, doc := l.LintPreloaded(ctx, pre, file, false)
	if releases != 1 {
		t.Errorf("the node tree was let go %d times, want once", releases)
	}
	if doc != nil || pre.doc != nil || pre.data != nil {
		t.Errorf("after the lint: document returned %v, kept %v, bytes kept %v; want none", doc != nil, pre.doc != nil, pre.data != nil)
	}
	if got.Err != nil || got.Format != want.Format || got.File != want.File {
		t.Errorf("result %q %q, error %v; want %q %q", got.File, got.Format, got.Err, want.File, want.Format)
	}
	if !slices.Equal(got.Findings, want.Findings) {
		t.Errorf("diagnostics with the tree let go:\n%+v\nwant LintFile's\n%+v", got.Findings, want.Findings)
	}
	// The file did change: linted from disk now, it has other findings.
	if again := l.LintFile(ctx, file); slices.Equal(again.Findings, want.Findings) {
		t.Error("the file changed on disk lints as before; the test would not tell the kept bytes from a second read")
	}
}

// TestLeanOnlyWhereItLoadsAlike: the tree is kept (and no bytes) for a
// spec below the threshold, a spec whose $refs reach another file, and a
// caller that keeps the document; each lints as LintFile lints it.
func TestLeanOnlyWhereItLoadsAlike(t *testing.T) {
	ctx := context.Background()
	l := strictPipeline(t)
	dir := copyFixture(t, "lean.yaml", "split.yaml", "part.yaml")
	for _, c := range []struct {
		name string
		min  int64
		keep bool
	}{
		{"lean.yaml", 1 << 30, false},
		{"split.yaml", 1, false},
		{"lean.yaml", 1, true},
	} {
		file := filepath.Join(dir, c.name)
		releases := 0
		leanAt(t, c.min, func() { releases++ })
		want := l.LintFile(ctx, file)
		pre := Preload(ctx, l.loader, []string{file})
		got, doc := l.LintPreloaded(ctx, pre, file, c.keep)
		if releases != 0 {
			t.Errorf("%s (from %d bytes, keep %v): the tree was let go", c.name, c.min, c.keep)
		}
		if c.keep && doc == nil {
			t.Errorf("%s (from %d bytes, keep %v): no document returned", c.name, c.min, c.keep)
		}
		if !slices.Equal(got.Findings, want.Findings) || len(want.Findings) == 0 {
			t.Errorf("%s (from %d bytes, keep %v): diagnostics\n%+v\nwant LintFile's\n%+v", c.name, c.min, c.keep, got.Findings, want.Findings)
		}
	}
}

// TestLeanJSONLocatesInBytes: a large JSON spec whose tree was let go has
// its findings located in its bytes (spec.JSONLocator), at the places
// LintFile gives them; one that may have an x-lint-ignore, written as is
// or with an escape, is loaded again instead, and its ignore silences as
// it does for LintFile. The corpus's JSON specs join with
// SPECGATE_CORPUS=1.
func TestLeanJSONLocatesInBytes(t *testing.T) {
	ctx := context.Background()
	l := strictPipeline(t)
	type lintCase struct {
		file             string
		inBytes, ignores bool
	}
	cases := []lintCase{
		{filepath.Join("testdata", "lean-noignore.json"), true, false},
		{filepath.Join("testdata", "lean.json"), false, true},
		{filepath.Join("testdata", "lean-escaped.json"), false, true},
	}
	if os.Getenv("SPECGATE_CORPUS") == "1" && !testing.Short() {
		for _, f := range corpusspecs.Files(filepath.Join("..", "..", "shared", "corpus"), ".json") {
			cases = append(cases, lintCase{f, true, false})
		}
	}
	leanAt(t, 1, nil)
	t.Cleanup(func() { onLocate = nil })
	for _, c := range cases {
		want := l.LintFile(ctx, c.file)
		var located []bool
		onLocate = func(inBytes bool) { located = append(located, inBytes) }
		pre := Preload(ctx, l.loader, []string{c.file})
		got, _ := l.LintPreloaded(ctx, pre, c.file, false)
		if !slices.Equal(located, []bool{c.inBytes}) {
			t.Errorf("%s: located in the bytes %v, want [%v]", c.file, located, c.inBytes)
		}
		if got.Err != nil || len(want.Findings) == 0 || !slices.Equal(got.Findings, want.Findings) || !slices.Equal(got.Warnings, want.Warnings) {
			t.Errorf("%s: error %v, diagnostics\n%+v\nwarnings %q\nwant LintFile's\n%+v\nwarnings %q", c.file, got.Err,
				got.Findings, got.Warnings, want.Findings, want.Warnings)
		}
		quiet := 0
		for _, d := range want.Findings {
			if d.Rule == "path-methods-order" && strings.HasPrefix(d.Pointer, "/paths/~1quiet") {
				quiet++
			}
		}
		if strings.Contains(c.file, "lean") && (quiet == 0) != c.ignores {
			t.Errorf("%s: path-methods-order on /quiet %d times; x-lint-ignore there: %v", c.file, quiet, c.ignores)
		}
	}
}

// mayIgnore is true of JSON that holds x-lint-ignore, or an escape that
// could spell one of its characters, and false otherwise.
func TestMayIgnore(t *testing.T) {
	for text, want := range map[string]bool{
		`{"x-lint-ignore": ["a"]}`:        true,
		`{"x-lint-\u0069gnore": ["a"]}`:   true,
		`{"\u0078-lint-ignore": ["a"]}`:   true,
		`{"x-lint-ign\u006Fre": ["a"]}`:   true,
		`{"description": "caf\u00e9"}`:    false,
		`{"description": "\u0041\u005a"}`: false,
		`{"x-lint": "ignore", "a": "\u"}`: false,
		`{"title": "\u00"}`:               false,
	} {
		if got := mayIgnore([]byte(text)); got != want {
			t.Errorf("mayIgnore(%s) = %v, want %v", text, got, want)
		}
	}
}
