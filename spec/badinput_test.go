package spec_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/spec"
)

// loadDeadline bounds every load of a hostile input. The inputs here load
// in milliseconds; the bound only turns a hang into a failure, so it is
// generous enough for the race detector on a slow machine.
const loadDeadline = 90 * time.Second // a hang guard for loaded CI machines, not a speed target

// wantErr is the *spec.Error a bad input must produce. A zero line means
// the error has no position (an unreadable or empty file).
type wantErr struct {
	file      string
	line, col int32
	msg       string // a substring of Error.Msg
}

// loadSafely runs load in a goroutine so that a panic or a hang fails the
// test with a message instead of killing or stalling the test binary.
func loadSafely(t *testing.T, load func() (*spec.Document, error)) (*spec.Document, error) {
	t.Helper()
	type result struct {
		doc   *spec.Document
		err   error
		panic string
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: fmt.Sprintf("%v\n%s", p, debug.Stack())}
			}
		}()
		doc, err := load()
		done <- result{doc: doc, err: err}
	}()
	select {
	case r := <-done:
		if r.panic != "" {
			t.Fatalf("load panicked: %s", r.panic)
		}
		return r.doc, r.err
	case <-time.After(loadDeadline):
		t.Fatalf("load did not return within %s", loadDeadline)
		return nil, nil
	}
}

// checkErr asserts that err is the *spec.Error described by want, and that
// its text has the file:line:col: prefix editors understand.
func checkErr(t *testing.T, err error, want wantErr) {
	t.Helper()
	if err == nil {
		t.Fatalf("loaded without error, want %s:%d:%d: …%s…", want.file, want.line, want.col, want.msg)
	}
	var se *spec.Error
	if !errors.As(err, &se) {
		t.Fatalf("error is %T (%v), want *spec.Error", err, err)
	}
	if se.File != want.file {
		t.Errorf("File = %q, want %q", se.File, want.file)
	}
	if se.Pos != (spec.Pos{Line: want.line, Col: want.col}) {
		t.Errorf("Pos = %d:%d, want %d:%d (%v)", se.Pos.Line, se.Pos.Col, want.line, want.col, err)
	}
	if !strings.Contains(se.Msg, want.msg) {
		t.Errorf("Msg = %q, want it to contain %q", se.Msg, want.msg)
	}
	prefix := want.file + ": "
	if want.line > 0 {
		prefix = fmt.Sprintf("%s:%d:%d: ", want.file, want.line, want.col)
	}
	if !strings.HasPrefix(se.Error(), prefix) {
		t.Errorf("Error() = %q, want prefix %q", se.Error(), prefix)
	}
}

// nested returns open repeated depth times, then leaf, then close repeated
// depth times.
func nested(prefix, open, leaf, close string, depth int) []byte {
	return []byte(prefix + strings.Repeat(open, depth) + leaf + strings.Repeat(close, depth))
}

// garbage returns n deterministic pseudo-random bytes.
func garbage(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func withoutNUL(b []byte) []byte {
	for i := range b {
		if b[i] == 0 {
			b[i] = 0xfe
		}
	}
	return b
}

func TestBadInput(t *testing.T) {
	pngLike := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), garbage(4096, 1)...)
	noisy := withoutNUL(garbage(4096, 2))
	noisy[0] = 0xc3 // a UTF-8 lead byte followed by a non-continuation byte
	noisy[1] = 0x28

	// A JSON object with 20 keys whose last key repeats the first one: the
	// parser switches to a set for large objects.
	var large strings.Builder
	large.WriteString("{\n")
	for i := range 20 {
		fmt.Fprintf(&large, "  \"k%d\": %d,\n", i, i)
	}
	large.WriteString("  \"k0\": 0\n}\n")

	tests := []struct {
		name    string
		fixture string // a file under testdata/bad, loaded by path
		data    []byte // else these bytes, loaded with LoadBytes as "input" + ext
		ext     string
		limits  spec.Limits
		want    wantErr
	}{
		{name: "empty file", data: []byte{}, ext: ".yaml",
			want: wantErr{file: "input.yaml", msg: "file is empty"}},
		{name: "whitespace only", data: []byte(" \n\t\r\n   \n"), ext: ".yaml",
			want: wantErr{file: "input.yaml", msg: "file is empty"}},
		{name: "binary with NUL bytes", data: pngLike, ext: ".yaml",
			want: wantErr{file: "input.yaml", msg: "binary data (NUL byte at offset 8)"}},
		{name: "random bytes without NUL", data: noisy, ext: ".yaml",
			want: wantErr{file: "input.yaml", line: 1, col: 1, msg: "invalid UTF-8 (byte 0xc3)"}},
		{name: "invalid UTF-8 in YAML", fixture: "invalid-utf8.yaml",
			want: wantErr{line: 3, col: 14, msg: "invalid UTF-8 (byte 0xe9)"}},
		// The JSON parser points at the invalid byte itself (after the
		// "Caf" of "Caf\xe9"), as the YAML one does.
		{name: "invalid UTF-8 in a JSON string", fixture: "invalid-utf8.json",
			want: wantErr{line: 3, col: 25, msg: "invalid UTF-8 (byte 0xe9) in string"}},
		{name: "YAML tab indentation", fixture: "tab-indent.yaml",
			want: wantErr{line: 3, col: 1, msg: "invalid YAML: found character that cannot start any token"}},
		{name: "YAML unterminated quote", fixture: "unterminated-quote.yaml",
			want: wantErr{line: 4, col: 1, msg: "invalid YAML: found unexpected end of stream"}},
		{name: "YAML second document", fixture: "two-documents.yaml",
			want: wantErr{line: 2, col: 1, msg: "a second YAML document starts here"}},
		{name: "YAML comment only", fixture: "comment-only.yaml",
			want: wantErr{line: 1, col: 1, msg: "empty document"}},
		{name: "YAML duplicate key", fixture: "duplicate-key.yaml",
			want: wantErr{line: 5, col: 3, msg: `duplicate key "title" (first defined at 3:3)`}},
		{name: "JSON duplicate key", fixture: "duplicate-key.json",
			want: wantErr{line: 6, col: 5, msg: `duplicate key "title" (first defined at 4:5)`}},
		{name: "JSON duplicate key in a large object", data: []byte(large.String()), ext: ".json",
			want: wantErr{file: "input.json", line: 22, col: 3, msg: `duplicate key "k0" (first defined at 2:3)`}},
		{name: "YAML alias bomb", fixture: "alias-bomb.yaml",
			want: wantErr{line: 13, col: 10, msg: "YAML aliases expand 25 written values to 490329061 (*h alone stands for 48427561), more than 10 times as many plus 1000: an alias bomb? (--max-alias-expansion)"}},
		// 100,000 levels: the parsers must stop at their limit, not recurse.
		{name: "JSON nested 100000 deep", data: nested("", "[", "1", "]", 100_000), ext: ".json",
			want: wantErr{file: "input.json", line: 1, col: 1002, msg: "nesting deeper than 1000 levels"}},
		{name: "JSON objects nested 100000 deep", data: nested("\n", `{"a":`, "1", "}", 100_000), ext: ".json",
			want: wantErr{file: "input.json", line: 2, col: 5006, msg: "nesting deeper than 1000 levels"}},
		// yaml.v3 stops at 10000 levels and names only a line: the line of
		// the key whose value is too deep.
		{name: "YAML flow nested 100000 deep", data: nested("openapi: 3.0.0\nx: ", "[", "1", "]", 100_000), ext: ".yaml",
			want: wantErr{file: "input.yaml", line: 2, col: 1, msg: "invalid YAML: exceeded max depth of 10000"}},
		{name: "YAML block nested 100000 deep", data: nested("openapi: 3.0.0\nx:\n", "- ", "1", "", 100_000), ext: ".yaml",
			want: wantErr{file: "input.yaml", line: 2, col: 1, msg: "invalid YAML: exceeded max depth of 10000"}},
		// Deeper than MaxDepth but within yaml.v3's own limit of 10000: the
		// converter reports the first value past the limit.
		{name: "YAML flow nested 5000 deep", data: nested("openapi: 3.0.0\nx: ", "[", "1", "]", 5000), ext: ".yaml",
			want: wantErr{file: "input.yaml", line: 2, col: 1004, msg: "nesting deeper than 1000 levels"}},
		// Values 1-3 are the root, "3.0.0" and x's array; value 101 is the
		// array's item 97, at column 7 + 3*97.
		{name: "more values than MaxNodes", data: []byte("{\"openapi\": \"3.0.0\",\n\"x\": [" + strings.Repeat("[],", 200) + "[]]}"), ext: ".json",
			limits: spec.Limits{MaxNodes: 100},
			want:   wantErr{file: "input.json", line: 2, col: 7 + 3*97, msg: "document has more than 100 values"}},
		{name: "valid YAML that is not a spec", fixture: "not-a-spec.yaml",
			want: wantErr{line: 1, col: 1, msg: "not an API specification: expected a top-level openapi, swagger, asyncapi or arazzo field (found top-level keys: name, replicas, image)"}},
		{name: "JSON array at top level", fixture: "array.json",
			want: wantErr{line: 1, col: 1, msg: "not an API specification: the document is an array"}},
		{name: "YAML scalar at top level", data: []byte("just some text\n"), ext: ".yaml",
			want: wantErr{file: "input.yaml", line: 1, col: 1, msg: "the document is a string"}},
		{name: "openapi 4.0.0", fixture: "openapi-4.yaml",
			want: wantErr{line: 1, col: 10, msg: `unsupported openapi version "4.0.0": specgate reads openapi 3.0.x, 3.1.x or 3.2.x`}},
		{name: "swagger 1.2", fixture: "swagger-1.2.yaml",
			want: wantErr{line: 1, col: 10, msg: `unsupported swagger version "1.2": specgate reads swagger 2.0`}},
		{name: "truncated JSON", fixture: "truncated.json",
			want: wantErr{line: 4, col: 20, msg: "unexpected end of input in object started at 3:11"}},
		{name: "JSON truncated inside a string", fixture: "truncated-string.json",
			want: wantErr{line: 2, col: 18, msg: "unterminated string"}},
		{name: "JSON truncated inside an array", data: []byte(`{"openapi": "3.0.0", "x": [1, 2`), ext: ".json",
			want: wantErr{file: "input.json", line: 1, col: 32, msg: "unexpected end of input in array started at 1:27"}},
		{name: "JSON array without a comma", data: []byte(`{"openapi": "3.0.0", "x": [1 2]}`), ext: ".json",
			want: wantErr{file: "input.json", line: 1, col: 30, msg: "unexpected character '2', expected ',' or ']'"}},
		{name: "JSON object without a comma", data: []byte(`{"openapi": "3.0.0" "x": 1}`), ext: ".json",
			want: wantErr{file: "input.json", line: 1, col: 21, msg: "unexpected character '\"', expected ',' or '}'"}},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := spec.NewLoader(spec.Options{Limits: tt.limits})
			want := tt.want
			var load func() (*spec.Document, error)
			if tt.fixture != "" {
				name := filepath.Join("testdata", "bad", tt.fixture)
				want.file = name
				load = func() (*spec.Document, error) { return l.Load(ctx, name) }
			} else {
				load = func() (*spec.Document, error) { return l.LoadBytes(ctx, "input"+tt.ext, tt.data) }
			}
			doc, err := loadSafely(t, load)
			if doc != nil {
				t.Errorf("got a document (%v), want nil with the error", doc)
			}
			checkErr(t, err, want)
		})
	}
}

// TestYAMLParserErrorLine: yaml.v3 reports parser errors (as opposed to
// scanner errors) with the 0-based line of the construct being parsed, one
// line above it, and never names the offending line. The line reported must
// at least fall within the broken mapping: between its first key (line 3)
// and the offending "- item" (line 4).
func TestYAMLParserErrorLine(t *testing.T) {
	name := filepath.Join("testdata", "bad", "parser-error.yaml")
	_, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
	var se *spec.Error
	if !errors.As(err, &se) {
		t.Fatalf("error = %v, want *spec.Error", err)
	}
	if !strings.Contains(se.Msg, "did not find expected key") {
		t.Errorf("Msg = %q, want it to contain %q", se.Msg, "did not find expected key")
	}
	if se.Pos.Line < 3 || se.Pos.Line > 4 {
		t.Errorf("error at line %d, want line 3 (start of the mapping) or 4 (the offending line): %v", se.Pos.Line, err)
	}
}

// TestYAMLUnknownAnchorPosition: yaml.v3 names the anchor but gives no line
// for an unknown alias, so the loader reports 1:1; the alias is at 4:12.
func TestYAMLUnknownAnchorPosition(t *testing.T) {
	name := filepath.Join("testdata", "bad", "unknown-anchor.yaml")
	_, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
	checkErr(t, err, wantErr{file: name, line: 4, col: 12, msg: "unknown anchor 'nope'"})
}

// TestYAMLFlowStyleDocument: a YAML file written in flow style starts with
// '{' and is handed to the JSON parser, which rejects the unquoted keys.
func TestYAMLFlowStyleDocument(t *testing.T) {
	src := "{openapi: 3.0.0, info: {title: Flow, version: '1'}, paths: {}}\n"
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "flow.yaml", []byte(src))
	if err != nil {
		t.Fatalf("valid YAML in flow style: %v", err)
	}
	if got := doc.String(); got != "OpenAPI 3.0.0" {
		t.Errorf("detected %q, want %q", got, "OpenAPI 3.0.0")
	}
}

// TestYAMLLargeMappingLoadsInLinearTime: a 1.2 MB YAML mapping with 100,000
// keys loads (the duplicate key check once compared every key with all
// previous ones). The bound only guards against a hang on a loaded CI
// machine; BenchmarkYAMLLargeMapping measures the speed.
func TestYAMLLargeMappingLoadsInLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1.2 MB input")
	}
	data := largeMapping(100_000)
	const bound = 2 * time.Minute // linear: well under a second, even with -race
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "keys.yaml", data)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("loaded %d bytes in %s", len(data), time.Since(start))
	case <-time.After(bound):
		t.Fatalf("a mapping of 100,000 keys did not load within %s", bound)
	}
}

func largeMapping(n int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\nx:\n")
	for i := range n {
		fmt.Fprintf(&b, "  k%d: 1\n", i)
	}
	return []byte(b.String())
}

func BenchmarkYAMLLargeMapping(b *testing.B) {
	data := largeMapping(100_000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "keys.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestYAMLNumbersAllocateLittle: each YAML number is checked with the JSON
// number scanner, which allocated a slab of 512 nodes per call: 20,000
// numbers (184 KiB) cost about 1 GiB of allocation.
func TestYAMLNumbersAllocateLittle(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\nx:\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "  - %d\n", i)
	}
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "numbers.yaml", data); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("loading %d KiB of numbers allocated %d MiB", len(data)>>10, alloc>>20)
	}
}

func TestRefErrors(t *testing.T) {
	ctx := context.Background()
	l := spec.NewLoader(spec.Options{})

	t.Run("cycle", func(t *testing.T) {
		src := "openapi: 3.0.0\na: {$ref: '#/b'}\nb: {$ref: '#/a'}\n"
		doc, err := l.LoadBytes(ctx, "cycle.yaml", []byte(src))
		if err != nil {
			t.Fatalf("a $ref cycle must load, with the problem on the refs: %v", err)
		}
		if len(doc.Refs) != 2 {
			t.Fatalf("%d refs, want 2", len(doc.Refs))
		}
		for i, r := range doc.Refs {
			line := int32(2 + i)
			checkErr(t, refErr(r), wantErr{file: "cycle.yaml", line: line, col: 11, msg: "circular $ref chain never reaches a value"})
			if !r.Circular {
				t.Errorf("ref %q at line %d: Circular = false", r.Value, line)
			}
		}
	})

	t.Run("missing file", func(t *testing.T) {
		name := filepath.Join("testdata", "refs", "missing-file.yaml")
		doc, err := l.Load(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		r := onlyRef(t, doc)
		checkErr(t, refErr(r), wantErr{file: name, line: 10, col: 17, msg: `cannot resolve $ref "responses/nope.yaml#/Ok": no such file`})
		if r.Pointer() != "/paths/~1pets/get/responses/200" {
			t.Errorf("Pointer = %q", r.Pointer())
		}
	})

	t.Run("syntax error in a referenced file", func(t *testing.T) {
		name := filepath.Join("testdata", "refs", "bad-target.yaml")
		doc, err := spec.NewLoader(spec.Options{RefRoot: "testdata"}).Load(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		// The referenced file is named as the user would write it, like
		// every other file, not by its absolute path.
		bad := filepath.Join("testdata", "bad", "tab-indent.yaml")
		checkErr(t, refErr(onlyRef(t, doc)), wantErr{file: name, line: 7, col: 11,
			msg: `cannot resolve $ref "../bad/tab-indent.yaml": ` + bad + ":3:1: invalid YAML: found character that cannot start any token"})
	})

	t.Run("remote ref without permission", func(t *testing.T) {
		src := "openapi: 3.0.0\npaths:\n  /pets:\n    $ref: 'https://example.com/pets.yaml#/Pets'\n"
		doc, err := l.LoadBytes(ctx, "remote.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := onlyRef(t, doc)
		checkErr(t, refErr(r), wantErr{file: "remote.yaml", line: 4, col: 11, msg: "pass --allow-remote-refs to allow it"})
		if r.Target != nil {
			t.Errorf("remote ref resolved without permission")
		}
	})

	t.Run("recursive schema", func(t *testing.T) {
		src := `openapi: 3.1.0
components:
  schemas:
    Node:
      type: object
      properties:
        children:
          type: array
          items:
            $ref: '#/components/schemas/Node'
`
		doc, err := l.LoadBytes(ctx, "recursive.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := onlyRef(t, doc)
		if r.Err != nil {
			t.Errorf("a recursive schema is legal, got Err %v", r.Err)
		}
		if !r.Circular {
			t.Error("the ref closing the recursion: Circular = false")
		}
		if r.Target != doc.Root.Root.Get("components").Get("schemas").Get("Node") {
			t.Error("the ref does not target the Node schema")
		}
	})

	t.Run("recursion across two files", func(t *testing.T) {
		doc, err := l.Load(ctx, filepath.Join("testdata", "refs", "tree.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(doc.Files()); n != 2 {
			t.Errorf("%d files, want 2 (tree.yaml, node.yaml)", n)
		}
		// Refs by where they are written: file#pointer.
		circular := map[string]bool{}
		for _, r := range doc.Refs {
			if r.Err != nil {
				t.Errorf("ref %q: %v", r.Value, r.Err)
			}
			circular[filepath.Base(r.File.Name)+"#"+r.Pointer()] = r.Circular
		}
		const (
			treeRoot = "tree.yaml#/components/schemas/Tree/properties/root"
			children = "node.yaml#/Node/properties/children/items"
			nodeTree = "node.yaml#/Node/properties/tree"
		)
		if len(circular) != 3 {
			t.Fatalf("refs %v, want %s, %s and %s", circular, treeRoot, children, nodeTree)
		}
		if !circular[children] {
			t.Errorf("%s closes the Node → Node cycle: Circular = false", children)
		}
		if !circular[treeRoot] && !circular[nodeTree] {
			t.Errorf("the Tree → Node → Tree cycle has no circular ref: %v", circular)
		}
	})

	t.Run("chain cycle across two files", func(t *testing.T) {
		name := filepath.Join("testdata", "refs", "chain-a.yaml")
		doc, err := l.Load(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Refs) != 2 {
			t.Fatalf("%d refs, want 2", len(doc.Refs))
		}
		wants := map[string]wantErr{
			"chain-b.yaml#/B": {file: name, line: 9, col: 13, msg: "circular $ref chain never reaches a value: chain-b.yaml#/B → chain-a.yaml#/components/schemas/A"},
			"chain-a.yaml#/components/schemas/A": {file: filepath.Join("testdata", "refs", "chain-b.yaml"), line: 2, col: 9,
				msg: "circular $ref chain never reaches a value: chain-a.yaml#/components/schemas/A → chain-b.yaml#/B"},
		}
		for _, r := range doc.Refs {
			want, ok := wants[r.Value]
			if !ok {
				t.Errorf("unexpected ref %q", r.Value)
				continue
			}
			checkErr(t, refErr(r), want)
		}
	})
}

// refErr returns r.Err as an error, nil when there is none (not a nil
// *spec.Error in a non-nil interface).
func refErr(r *spec.Ref) error {
	if r.Err == nil {
		return nil
	}
	return r.Err
}

func onlyRef(t *testing.T, doc *spec.Document) *spec.Ref {
	t.Helper()
	if len(doc.Refs) != 1 {
		t.Fatalf("%d refs, want 1", len(doc.Refs))
	}
	return doc.Refs[0]
}

// writeLargeJSON streams a syntactically valid JSON spec of at least size
// bytes to path without holding it in memory.
func writeLargeJSON(t *testing.T, path string, size int64) {
	t.Helper()
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	fmt.Fprint(w, "{\n  \"openapi\": \"3.0.0\",\n  \"info\": {\"title\": \"large\", \"version\": \"1\"},\n  \"paths\": {\n")
	var written int64
	for i := 0; written < size; i++ {
		n, err := fmt.Fprintf(w, "    \"/p%d\": {\"get\": {\"operationId\": \"op%d\", \"responses\": {\"200\": {\"description\": \"ok\"}}}},\n", i, i)
		if err != nil {
			t.Fatal(err)
		}
		written += int64(n)
	}
	fmt.Fprint(w, "    \"/end\": {}\n  }\n}\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFileLargerThanLimit: a 200 MB file is refused from its size alone;
// loading it must not allocate anything near its size.
func TestFileLargerThanLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB file")
	}
	path := filepath.Join(t.TempDir(), "large.json")
	writeLargeJSON(t, path, 200<<20)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := loadSafely(t, func() (*spec.Document, error) {
		return spec.NewLoader(spec.Options{}).Load(context.Background(), path)
	})
	runtime.ReadMemStats(&after)
	checkErr(t, err, wantErr{file: path, msg: "file is 200 MiB, larger than the 64 MiB limit (--max-file-size)"})
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("refusing a 200 MB file allocated %d MiB; it must be refused from os.Stat", alloc>>20)
	}
}

// TestSmallFileSizeLimit: limits below 1 MiB must be reported in a unit that
// does not round them to "0 MiB".
func TestSmallFileSizeLimit(t *testing.T) {
	ctx := context.Background()
	src := []byte("{\"openapi\": \"3.0.0\", \"info\": {\"title\": \"" + strings.Repeat("x", 2000) + "\"}}")
	path := filepath.Join(t.TempDir(), "small.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	l := spec.NewLoader(spec.Options{Limits: spec.Limits{MaxFileSize: 1024}, Stdin: bytes.NewReader(src)})
	for _, name := range []string{path, "-"} {
		_, err := l.Load(ctx, name)
		file := name
		if name == "-" {
			file = "<stdin>"
		}
		checkErr(t, err, wantErr{file: file, msg: "(--max-file-size)"})
		if err != nil && strings.Contains(err.Error(), " 0 MiB") {
			t.Errorf("%s: %v: a 1024-byte limit is not 0 MiB", file, err)
		}
	}
	if _, err := spec.NewLoader(spec.Options{Limits: spec.Limits{MaxFileSize: int64(len(src))}}).Load(ctx, path); err != nil {
		t.Errorf("a file exactly at the limit: %v", err)
	}
}

// TestRefToDeviceFile: a $ref to a device is read like a file; /dev/zero is
// read up to the size limit (64 MiB) once per $ref, as a failed file is not
// remembered, and a $ref to a FIFO or a terminal would block forever. /dev
// is outside the spec's folder: the loader here allows external $refs, so
// that the device check itself is what refuses them.
func TestRefToDeviceFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\n")
	for i := range 4 {
		fmt.Fprintf(&b, "x%d: {$ref: '/dev/zero#/x%d'}\n", i, i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	doc, err := loadSafely(t, func() (*spec.Document, error) {
		return spec.NewLoader(spec.Options{AllowExternalRefs: true}).LoadBytes(context.Background(), "devices.yaml", []byte(b.String()))
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Refs {
		if r.Err == nil || !strings.Contains(r.Err.Msg, "is not a regular file") {
			t.Errorf("ref %q: error %v, want the device refused as not a regular file", r.Value, refErr(r))
		}
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("4 $refs to /dev/zero allocated %d MiB; a device is not a specification file", alloc>>20)
	}
}

// TestBadInputMemory bounds what hostile inputs cost. TotalAlloc counts
// every byte allocated during the load, so it bounds the peak heap growth
// from above whatever the garbage collector did meanwhile.
func TestBadInputMemory(t *testing.T) {
	bomb, err := os.ReadFile(filepath.Join("testdata", "bad", "alias-bomb.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []struct {
		name string
		data []byte
	}{
		{"alias-bomb.yaml", bomb},
		{"deep.json", nested("", "[", "1", "]", 100_000)},
		{"deep-objects.json", nested("", `{"a":`, "1", "}", 100_000)},
		{"deep-flow.yaml", nested("openapi: 3.0.0\nx: ", "[", "1", "]", 100_000)},
		{"deep-block.yaml", nested("openapi: 3.0.0\nx:\n", "- ", "1", "", 100_000)},
		{"deep-5000.yaml", nested("openapi: 3.0.0\nx: ", "[", "1", "]", 5000)},
	}
	const bound = 100 << 20
	l := spec.NewLoader(spec.Options{})
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := l.LoadBytes(context.Background(), in.name, in.data)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("loaded without error")
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			t.Logf("%d KiB input: %d KiB allocated, heap %+d KiB", len(in.data)>>10, alloc>>10, heap>>10)
			if alloc > bound {
				t.Errorf("allocated %d MiB, want well under %d MiB", alloc>>20, bound>>20)
			}
		})
	}
}
