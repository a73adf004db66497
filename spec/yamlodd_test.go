package spec_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/hostiletest"
	"github.com/specgate/specgate/spec"
)

// TestYAMLMergeKeyBomb: merge keys (<<) copy the fields of the merged
// mapping. A 70 KB file merging a mapping of 3,000 keys 3,000 times made
// the loader copy nine million fields (15 s and 700 MB) before the alias
// bound, checked afterwards, refused it. The copies are now charged to the
// alias budget as they happen.
func TestYAMLMergeKeyBomb(t *testing.T) {
	bomb := hostiletest.MergeBomb(3000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := loadSafely(t, func() (*spec.Document, error) {
		return spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "merge-bomb.yaml", bomb)
	})
	runtime.ReadMemStats(&after)
	// The file writes 15,015 YAML nodes (keys count): the budget of
	// 10 × 15,015 + 1,000 copies runs out at the 51st merge, on line
	// 3,005 + 51.
	checkErr(t, err, wantErr{file: "merge-bomb.yaml", line: 3056, col: 5, msg: "YAML merge keys copy more fields than 10 times the values written plus 1000: an alias bomb? (--max-alias-expansion)"})
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("refusing a %d KB merge bomb allocated %d MiB", len(bomb)>>10, alloc>>20)
	}

	// A smaller one is refused by default and loads with a higher factor.
	small := hostiletest.MergeBomb(200)
	if _, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "small.yaml", small); err == nil {
		t.Error("200 merges of 200 keys loaded with the default factor")
	}
	doc, err := spec.NewLoader(spec.Options{Limits: spec.Limits{MaxAliasFactor: 100}}).LoadBytes(context.Background(), "small.yaml", small)
	if err != nil {
		t.Fatalf("with MaxAliasFactor 100: %v", err)
	}
	if copies := doc.Root.Root.Get("x-copies"); len(copies.Items) != 200 || len(copies.Items[199].Fields) != 200 {
		t.Errorf("x-copies: %d items, want 200 of 200 fields each", len(copies.Items))
	}
}

func TestYAMLMergeKeys(t *testing.T) {
	const head = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-base: &a {type: string, maxLength: 3}\n"
	ok := head + "x-one:\n  <<: *a\n  maxLength: 5\nx-list:\n  <<: [*a, {format: email}]\n"
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "merge.yaml", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	root := doc.Root.Root
	if got := fieldsOf(root.Get("x-one")); got != "maxLength=5 type=string" {
		t.Errorf("x-one = %s; the mapping's own key wins over the merged one", got)
	}
	if got := fieldsOf(root.Get("x-list")); got != "type=string maxLength=3 format=email" {
		t.Errorf("x-list = %s", got)
	}

	for _, tt := range []struct {
		name, src string
		want      wantErr
	}{
		{"unknown anchor", head + "x-bad:\n  <<: *nope\n", wantErr{file: "bad.yaml", line: 6, col: 7, msg: "unknown anchor 'nope'"}},
		{"alias to a scalar", head + "x-name: &n pets\nx-bad:\n  <<: *n\n", wantErr{file: "bad.yaml", line: 7, col: 7, msg: "the merge key << takes a mapping or a sequence of mappings, found string"}},
		{"string", head + "x-bad:\n  <<: just text\n", wantErr{file: "bad.yaml", line: 6, col: 7, msg: "the merge key << takes a mapping or a sequence of mappings, found string"}},
		{"number in a list", head + "x-bad:\n  <<: [*a, 3]\n", wantErr{file: "bad.yaml", line: 6, col: 12, msg: "found number"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "bad.yaml", []byte(tt.src))
			checkErr(t, err, tt.want)
		})
	}
}

// fieldsOf writes an object's scalar fields as key=value in order.
func fieldsOf(n *spec.Node) string {
	if n == nil {
		return "<missing>"
	}
	var parts []string
	for _, f := range n.Fields {
		parts = append(parts, f.Key+"="+f.Value.Value)
	}
	return strings.Join(parts, " ")
}

// TestYAMLAliasKeys: an alias may stand for a mapping key; it is the
// anchored scalar's value, and a key twice is a duplicate like any other.
func TestYAMLAliasKeys(t *testing.T) {
	const head = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "keys.yaml",
		[]byte(head+"x-names: [&get get, &post post]\npaths:\n  /a:\n    *get : {responses: {'200': {description: ok}}}\n    *post : {responses: {'200': {description: ok}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ops := doc.Views().Operations
	if len(ops) != 2 || ops[0].Method != "get" || ops[1].Method != "post" {
		t.Errorf("operations = %+v, want get and post on /a", ops)
	}
	a := doc.Root.Root.Get("paths").Get("/a")
	if r := a.Fields[0].KeyRange; r.Start != (spec.Pos{Line: 6, Col: 5}) || r.End != (spec.Pos{Line: 6, Col: 9}) {
		t.Errorf("key *get at %v, want 6:5-6:9", r)
	}

	for _, tt := range []struct {
		name, src string
		want      wantErr
	}{
		{"duplicate through an alias", head + "paths:\n  &p /a: {}\n  *p : {}\n", wantErr{file: "bad.yaml", line: 5, col: 3, msg: `duplicate key "/a" (first defined at 4:3)`}},
		{"alias to a mapping", head + "paths: {}\nx-a:\n  *i : 1\n", wantErr{file: "bad.yaml", line: 5, col: 3, msg: "mapping keys must be scalars; *i stands for a mapping"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(tt.src, "info: {", "info: &i {", 1)
			_, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "bad.yaml", []byte(src))
			checkErr(t, err, tt.want)
		})
	}
}

// TestNumbersBeyondFloat64: YAML's core schema and JSON make 1e400 a
// number; yaml.v3 resolved it as a string, so validate reported
// "maximum must be a number" in YAML and nothing in the same JSON. Every
// number keeps its literal as written.
func TestNumbersBeyondFloat64(t *testing.T) {
	const big = "123456789012345678901234567890123456789"
	yamlSrc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx:\n" +
		"  huge: 1e400\n  tiny: -1E-400\n  big: " + big + "\n  negbig: -" + big + ".5\n" +
		"  quoted: '1e400'\n  tagged: !!str 1e400\n  hex: 0x1F\n  inf: .inf\n"
	jsonSrc := `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "x": {"huge": 1e400, "tiny": -1E-400, "big": ` + big + `, "negbig": -` + big + `.5}}`
	want := map[string]struct {
		kind  spec.Kind
		value string
	}{
		"huge": {spec.Number, "1e400"}, "tiny": {spec.Number, "-1E-400"}, "big": {spec.Number, big}, "negbig": {spec.Number, "-" + big + ".5"},
		"quoted": {spec.String, "1e400"}, "tagged": {spec.String, "1e400"}, "hex": {spec.Number, "31"}, "inf": {spec.String, ".inf"},
	}
	for name, src := range map[string]string{"numbers.yaml": yamlSrc, "numbers.json": jsonSrc} {
		doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range doc.Root.Root.Get("x").Fields {
			w := want[f.Key]
			if f.Value.Kind != w.kind || f.Value.Value != w.value {
				t.Errorf("%s: %s = %s %q, want %s %q", name, f.Key, f.Value.Kind, f.Value.Value, w.kind, w.value)
			}
		}
	}
}

// TestYAMLTabIndentation: yaml.v3 reports a tab in indentation with a
// line (sometimes the one before) and no column; the loader points at the
// tab and says what it is.
func TestYAMLTabIndentation(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want wantErr
	}{
		{"openapi: 3.0.3\ninfo:\n\ttitle: t\npaths: {}\n",
			wantErr{file: "tabs.yaml", line: 3, col: 1, msg: "found character that cannot start any token (a tab: YAML indents with spaces)"}},
		{"openapi: 3.0.3\ninfo:\n  title: t\n \tversion: '1'\npaths: {}\n",
			wantErr{file: "tabs.yaml", line: 4, col: 2, msg: "found a tab character that violates indentation"}},
	} {
		_, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "tabs.yaml", []byte(tt.src))
		checkErr(t, err, tt.want)
	}
}

// TestYAMLLoneCR: YAML takes a lone carriage return for a line break, as
// editors do; positions count it so. The fuzzer found an empty value after
// a lone CR that ended before it started.
func TestYAMLLoneCR(t *testing.T) {
	src := "openapi: 3.0.3\rinfo:\r  title: T\r  version: '1'\rpaths: {}\rx:\r  empty:\r  bad: \xe9\r"
	_, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "cr.yaml", []byte(src))
	checkErr(t, err, wantErr{file: "cr.yaml", line: 8, col: 8, msg: "invalid UTF-8 (byte 0xe9)"})

	src = strings.Replace(src, "  bad: \xe9\r", "  s: \"a\rb\"\r", 1)
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "cr.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	x := doc.Root.Root.Get("x")
	if r := x.Get("empty").Range; r.Start.Line != 7 || r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Col < r.Start.Col) {
		t.Errorf("empty value at %v", r)
	}
	if s := x.Get("s"); s.Value != "a b" || s.Range != (spec.Range{Start: spec.Pos{Line: 8, Col: 6}, End: spec.Pos{Line: 9, Col: 3}}) {
		t.Errorf("s = %q at %v, want \"a b\" at 8:6-9:3", s.Value, s.Range)
	}
	if r := doc.Root.Root.Get("info").Get("title").Range; r.Start != (spec.Pos{Line: 3, Col: 10}) {
		t.Errorf("title at %v, want 3:10", r)
	}
}

// TestStdinReadInChunks: standard input, whose size is unknown, is read in
// chunks and joined; an input spanning many chunks loads whole, and one
// past the limit is refused having read little more than the limit.
func TestStdinReadInChunks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "large.json")
	writeLargeJSON(t, path, 10<<20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := spec.NewLoader(spec.Options{Stdin: bytes.NewReader(data)}).Load(context.Background(), "-")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(doc.Root.Root.Get("paths").Fields); got < 100_000 || doc.Root.Size != len(data) {
		t.Errorf("%d paths, %d of %d bytes", got, doc.Root.Size, len(data))
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = spec.NewLoader(spec.Options{Stdin: bytes.NewReader(data), Limits: spec.Limits{MaxFileSize: 4 << 20}}).Load(context.Background(), "-")
	runtime.ReadMemStats(&after)
	checkErr(t, err, wantErr{file: "<stdin>", msg: "file is larger than the 4 MiB limit (--max-file-size)"})
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("refusing 10 MB on stdin with a 4 MiB limit allocated %d MiB", alloc>>20)
	}
}
