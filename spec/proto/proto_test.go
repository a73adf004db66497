package proto_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/formattest"
	"github.com/specgate/specgate/spec/proto"
)

func load(t *testing.T, name string) (*spec.Document, *proto.Schema) {
	t.Helper()
	return formattest.Load(t, name, proto.Of)
}

// problems are the schema's problems, each "file:line:col: message" with
// the file's base name.
func problems(s *proto.Schema) []string {
	var out []string
	for _, p := range s.Problems {
		out = append(out, fmt.Sprintf("%s:%d:%d: %s", filepath.Base(p.File), p.Range.Start.Line, p.Range.Start.Col, p.Message))
	}
	return out
}

// at locates a model path in its file: "file:line:col".
func at(doc *spec.Document, file string, path spec.Path) string {
	loc := doc.LocateIn(doc.FileNamed(file), path, nil)
	if !loc.Exact {
		return "inexact " + spec.Pointer(path)
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(loc.File.Name), loc.Range.Start.Line, loc.Range.Start.Col)
}

func TestLibrary(t *testing.T) {
	doc, s := load(t, "testdata/library/example/library/v1/library.proto")
	if got := doc.String(); got != "Protocol Buffers proto3" {
		t.Errorf("String() = %q", got)
	}
	if got := strings.Join(doc.FormatTags(), ","); got != "proto,proto3" {
		t.Errorf("FormatTags() = %s", got)
	}
	if len(s.Problems) > 0 {
		t.Errorf("unexpected problems: %v", s.Problems)
	}
	if len(s.Files) != 2 || s.Files[1].Path != "example/library/v1/book.proto" || len(doc.Files()) != 2 {
		t.Fatalf("files: %d in the model, %d in the document", len(s.Files), len(doc.Files()))
	}
	if s.Entry.Path != "example/library/v1/library.proto" || s.Entry.Package != "example.library.v1" || s.Entry.Options["go_package"] != "example.com/library/v1;libraryv1" {
		t.Errorf("entry: %+v", s.Entry)
	}
	svc := s.Entry.Services[0]
	if svc.FullName != "example.library.v1.LibraryService" || svc.Comment != "Library serves books." {
		t.Errorf("service %s %q", svc.FullName, svc.Comment)
	}
	wantRPCs := []struct {
		name, in, out, pos string
		cs, ss             bool
	}{
		{"GetBook", "example.library.v1.GetBookRequest", "example.library.v1.Book", "library.proto:13:7", false, false},
		{"ListBooks", "example.library.v1.ListBooksRequest", "example.library.v1.ListBooksResponse", "library.proto:15:7", false, false},
		{"WatchBooks", "example.library.v1.GetBookRequest", "example.library.v1.Book", "library.proto:17:7", true, true},
		{"DeleteBook", "example.library.v1.GetBookRequest", "google.protobuf.Empty", "library.proto:19:7", false, false},
	}
	for i, w := range wantRPCs {
		m := svc.Methods[i]
		if m.Name != w.name || m.Input != w.in || m.Output != w.out || m.ClientStreaming != w.cs || m.ServerStreaming != w.ss {
			t.Errorf("rpc %d: %+v", i, m)
		}
		if got := at(doc, s.Entry.Name, m.Source); got != w.pos {
			t.Errorf("rpc %s at %s, want %s", m.Name, got, w.pos)
		}
	}
	if lvl := svc.Methods[3].IdempotencyLevel; lvl != "IDEMPOTENT" {
		t.Errorf("idempotency level %q", lvl)
	}

	list := s.Message("example.library.v1.ListBooksRequest")
	filters := list.Field(3)
	if filters.Map == nil || filters.Map.Key != "string" || filters.Map.Value != "string" || filters.TypeString() != "map<string, string>" || filters.Cardinality("proto3") != "map" {
		t.Errorf("map field: %+v %+v", filters, filters.Map)
	}
	if f := list.Field(4); !f.Proto3Optional || f.Cardinality("proto3") != "optional" || f.JSONName != "includeDeleted" {
		t.Errorf("optional field: %+v", f)
	}
	if f := list.Field(1); f.Cardinality("proto3") != "implicit" || at(doc, s.Entry.Name, f.Source) != "library.proto:29:9" {
		t.Errorf("page_size: %s at %s", f.Cardinality("proto3"), at(doc, s.Entry.Name, f.Source))
	}
	resp := s.Message("example.library.v1.ListBooksResponse")
	if !resp.Reserved(3) || !resp.Reserved(6) || resp.Reserved(8) || !resp.ReservedName("total") {
		t.Errorf("reserved: %+v %v", resp.ReservedRanges, resp.ReservedNames)
	}
	if len(resp.Oneofs) != 1 || resp.Oneofs[0].Name != "extra" || len(resp.Oneofs[0].Fields) != 2 || resp.Field(9).Oneof != "extra" {
		t.Errorf("oneofs: %+v", resp.Oneofs)
	}
	if f := resp.Field(9); f.JSONName != "total_count" || !f.JSONNameSet {
		t.Errorf("json_name: %+v", f)
	}
	if f := resp.Field(1); f.Type != "message" || f.TypeName != "example.library.v1.Book" || f.Cardinality("proto3") != "repeated" {
		t.Errorf("books: %+v", f)
	}
	// Elements of an imported file are located in that file.
	book := s.Message("example.library.v1.Book")
	if book.Comment != "A book." || at(doc, book.File.Name, book.Source) != "book.proto:6:9" {
		t.Errorf("Book: %q at %s", book.Comment, at(doc, book.File.Name, book.Source))
	}
	if f := book.Field(3); f.Type != "enum" || f.TypeName != "example.library.v1.Genre" {
		t.Errorf("genre: %+v", f)
	}
	genre := s.Enum("example.library.v1.Genre")
	if genre.Closed || len(genre.Values) != 3 || at(doc, genre.File.Name, genre.Values[1].Source) != "book.proto:18:3" {
		t.Errorf("Genre: closed %v, %d values, value 1 at %s", genre.Closed, len(genre.Values), at(doc, genre.File.Name, genre.Values[1].Source))
	}
	if author := s.Message("example.library.v1.Book.Author"); author == nil || author.Parent != book {
		t.Errorf("nested message: %+v", author)
	}
}

func TestProto2AndEditions(t *testing.T) {
	doc, s := load(t, "testdata/proto2.proto")
	if doc.String() != "Protocol Buffers proto2" {
		t.Errorf("String() = %q", doc.String())
	}
	order := s.Message("legacy.Order")
	if f := order.Field(1); f.Cardinality("proto2") != "required" || f.Label != "required" {
		t.Errorf("id: %+v", f)
	}
	if f := order.Field(2); f.Default != "1" || !f.HasDefault || f.Cardinality("proto2") != "optional" {
		t.Errorf("quantity: %+v", f)
	}
	if f := order.Field(3); f.Type != "group" || f.TypeName != "legacy.Order.Line" || f.Label != "repeated" {
		t.Errorf("group: %+v", f)
	}
	if len(order.ExtensionRanges) != 1 || order.ExtensionRanges[0] != (proto.Range{Start: 100, End: 199}) {
		t.Errorf("extension ranges: %v", order.ExtensionRanges)
	}
	if x := s.Entry.Extensions; len(x) != 1 || x[0].Extendee != "legacy.Order" || x[0].FullName != "legacy.note" || at(doc, s.Entry.Name, x[0].Source) != "proto2.proto:15:19" {
		t.Errorf("extensions: %+v", x)
	}
	if !s.Enum("legacy.Kind").Closed {
		t.Error("a proto2 enum is closed")
	}

	doc, s = load(t, "testdata/editions/features.proto")
	if doc.String() != "Protocol Buffers edition 2023" || strings.Join(doc.FormatTags(), ",") != "proto,editions" {
		t.Errorf("%s %v", doc, doc.FormatTags())
	}
	item := s.Message("editions.v1.Item")
	if c := item.Field(1).Cardinality("editions"); c != "optional" {
		t.Errorf("editions fields have explicit presence by default, got %s", c)
	}
	if c := item.Field(2).Cardinality("editions"); c != "implicit" {
		t.Errorf("field_presence = IMPLICIT: got %s", c)
	}
	if !s.Enum("editions.v1.Status").Closed {
		t.Error("features.enum_type = CLOSED on the file closes its enums")
	}
}

// TestProblems: semantic errors are the document's problems, each at the
// place protocompile names, and the document still loads.
func TestProblems(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"testdata/bad/semantic.proto", []string{
			"semantic.proto:7:14: message bad.v1.Thing: fields name and id both have the same tag 1",
			"semantic.proto:8:3: field bad.v1.Thing.other: unknown type Missing",
			"semantic.proto:10:16: message bad.v1.Thing: field old is using tag 5 which is in reserved range 5 to 5",
			"semantic.proto:14:27: method bad.v1.Things.Get: unknown response type Nowhere",
		}},
		{"testdata/cycle/a.proto", []string{
			`b.proto:3:8: cycle found in imports: "b.proto" -> "a.proto" -> "b.proto"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, s := load(t, tt.file)
			if got := strings.Join(problems(s), "\n"); got != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", got, strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestUnlinkedNamesResolve: a file with errors is not linked, yet the
// names of its own types resolve.
func TestUnlinkedNamesResolve(t *testing.T) {
	_, s := load(t, "testdata/bad/semantic.proto")
	m := s.Entry.Services[0].Methods[0]
	if m.Input != "bad.v1.Thing" || m.Output != "Nowhere" {
		t.Errorf("rpc types: %s → %s", m.Input, m.Output)
	}
}

func TestLoadErrors(t *testing.T) {
	l := spec.NewLoader(spec.Options{})
	tests := []struct {
		name, data, want string
	}{
		{"syntax.proto", "syntax = \"proto3\";\n\nmessage Broken {\n  string name = 1\n  int32 id = 2;\n}\n", "syntax.proto:5:3: syntax error: expecting ';'"},
		{"unterminated.proto", "syntax = \"proto3\";\nmessage M {\n  string s = 1;\n", "unterminated.proto:4:1: syntax error: unexpected end of file"},
		{"tab.proto", "syntax = \"proto3\";\nmessage M {\n\tstring s = ;\n}\n", "tab.proto:3:13: syntax error: unexpected ';', expecting int literal"},
		{"empty.proto", "  \n", "empty.proto: file is empty"},
		{"binary.proto", "syntax\x00", "binary.proto: binary data (NUL byte at offset 6), not a text specification"},
		// protocompile's lexer panics on a bad escape at the end of a file
		// that is not UTF-8 (found by FuzzLoad).
		{"escape.proto", "\"\\\xc7\\\xff", "escape.proto:1:3: the file is not UTF-8: byte 0xC7 here does not start a character"},
	}
	for _, tt := range tests {
		_, err := l.LoadBytes(context.Background(), tt.name, []byte(tt.data))
		var se *spec.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: %v is not a *spec.Error", tt.name, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, err.Error(), tt.want)
		}
	}
}

func TestSniffStandardInput(t *testing.T) {
	l := spec.NewLoader(spec.Options{Stdin: strings.NewReader("// a comment\nsyntax = \"proto3\";\nmessage X { int32 a = 1; }\n")})
	doc, err := l.Load(context.Background(), "-")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Format != spec.Proto || proto.Of(doc).Message("X") == nil {
		t.Errorf("standard input read as %s", doc)
	}
}

// TestGoogleapis loads every .proto file of a googleapis tree (npm's
// google-proto-files ships one) when SPECGATE_PROTO_CORPUS names its root,
// from that root as a user of a checkout would: every file loads, and none
// has a problem but those protocompile cannot read (google/protobuf's
// editions newer than 2023, and the files that import them).
func TestGoogleapis(t *testing.T) {
	root := os.Getenv("SPECGATE_PROTO_CORPUS")
	if root == "" {
		t.Skip("SPECGATE_PROTO_CORPUS is not set")
	}
	t.Chdir(root)
	var files []string
	filepath.WalkDir("google", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
			files = append(files, p)
		}
		return nil
	})
	l := spec.NewLoader(spec.Options{})
	withProblems := 0
	for _, f := range files {
		wellKnown := strings.HasPrefix(f, filepath.Join("google", "protobuf")+string(filepath.Separator))
		doc, err := l.Load(context.Background(), f)
		if err != nil {
			if !wellKnown {
				t.Errorf("%v", err)
			}
			continue
		}
		if ps := proto.Of(doc).Problems; len(ps) > 0 {
			withProblems++
			if !wellKnown {
				t.Errorf("%s: %d problems, first %s:%d:%d %s", f, len(ps), ps[0].File, ps[0].Range.Start.Line, ps[0].Range.Start.Col, ps[0].Message)
			}
		}
	}
	t.Logf("%d files loaded, %d with problems", len(files), withProblems)
}

// TestNestedModuleRoot: folders that spell the package and go on below it
// still give the module root, from which the file's imports resolve.
func TestNestedModuleRoot(t *testing.T) {
	_, s := load(t, "testdata/nested/acme/shop/v1/extra/item.proto")
	if len(s.Problems) > 0 || s.Entry.Path != "acme/shop/v1/extra/item.proto" {
		t.Fatalf("path %s, problems %v", s.Entry.Path, s.Problems)
	}
	if f := s.Message("acme.shop.v1.Item").Field(1); f.TypeName != "acme.shop.v1.Price" || f.Type != "message" {
		t.Errorf("price: %+v", f)
	}
}

// TestModuleRootFromImports: a file whose package does not spell its
// folders (googleapis' google/maps/fleetengine/v1/trips.proto is of package
// maps.fleetengine.v1) imports from the parent its imports are written
// from, when that parent lies inside the working directory; above it, the
// import is not read without --ref-root.
func TestModuleRootFromImports(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, wd, file, path string
		refRoot              string
		want                 []string
	}{
		{name: "the module root is the working directory", wd: "unspelled", file: "unspelled/acme/fleet/v1/trips.proto",
			path: "acme/fleet/v1/trips.proto"},
		{name: "the module root is inside the working directory", wd: ".", file: "unspelled/acme/fleet/v1/trips.proto",
			path: "acme/fleet/v1/trips.proto"},
		// protocompile stops at the first import it cannot resolve.
		{name: "the module root is above the working directory", wd: "unspelled/acme/fleet", file: "unspelled/acme/fleet/v1/trips.proto",
			path: "trips.proto", want: []string{`trips.proto:5:8: import "acme/api/common.proto" not found in the import roots (the entry file's folder and its parents inside the working directory or the ref root; pass --ref-root DIR for a wider tree)`}},
		{name: "--ref-root widens the tree", wd: "unspelled/acme/fleet", file: "unspelled/acme/fleet/v1/trips.proto", refRoot: "unspelled",
			path: "acme/fleet/v1/trips.proto"},
		// With one import found and one missing, the root is where the
		// one is found, and the other is reported.
		{name: "the root where most imports are", wd: ".", file: "outside/inner/escape.proto", path: "inner/escape.proto",
			want: []string{`escape.proto:4:8: import "missing.proto" not found in the import roots (the entry file's folder and its parents inside the working directory or the ref root; pass --ref-root DIR for a wider tree)`}},
		{name: "the root is the working directory", wd: "outside", file: "outside/inner/escape.proto", path: "inner/escape.proto",
			want: []string{`escape.proto:4:8: import "missing.proto" not found in the import roots (the entry file's folder and its parents inside the working directory or the ref root; pass --ref-root DIR for a wider tree)`}},
		{name: "a parent's file, above the working directory", wd: "outside/inner", file: "outside/inner/escape.proto", path: "escape.proto",
			want: []string{`escape.proto:3:8: import "secret.proto" not found in the import roots (the entry file's folder and its parents inside the working directory or the ref root; pass --ref-root DIR for a wider tree)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(filepath.Join(dir, tt.wd))
			refRoot := ""
			if tt.refRoot != "" {
				refRoot = filepath.Join(dir, tt.refRoot)
			}
			doc, err := spec.NewLoader(spec.Options{RefRoot: refRoot}).Load(context.Background(), filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			s := proto.Of(doc)
			if s.Entry.Path != tt.path {
				t.Errorf("entry path %s, want %s", s.Entry.Path, tt.path)
			}
			if got := strings.Join(problems(s), "\n"); got != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", got, strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestSharedParses: documents that import the same file share its parse
// (spec/proto's cache), and each reports the file's problems; the loads
// may run at once.
func TestSharedParses(t *testing.T) {
	want := `dep.proto:3:15: field importbad.Dep.a: label 'required' is not allowed in proto3 or editions`
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "testdata/importbad/main.proto"
			if i%2 == 1 {
				name = "testdata/library/example/library/v1/library.proto"
			}
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
			if err != nil {
				t.Error(err)
				return
			}
			s := proto.Of(doc)
			got := problems(s)
			switch {
			case i%2 == 0 && strings.Join(got, "\n") != want:
				t.Errorf("load %d: problems %q, want %q", i, got, want)
			case i%2 == 1 && (len(got) > 0 || s.Message("example.library.v1.Book").Field(3).TypeName != "example.library.v1.Genre"):
				t.Errorf("load %d: problems %q", i, got)
			}
		}()
	}
	wg.Wait()
}

// TestIgnoreDirectives: a specgate:ignore comment puts x-lint-ignore on the
// element it stands before or beside (the linter honours it as in YAML);
// comment markers inside strings are no comments.
func TestIgnoreDirectives(t *testing.T) {
	src := `syntax = "proto3";
// specgate:ignore file-rule
package ig.v1;

message M { // specgate:ignore m-rule
  string a = 1 [json_name = "a // specgate:ignore not-a-comment"];
  /* specgate:ignore b-rule
     a reason on a line of its own */
  string b = 2;
}
`
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "ig.proto", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path []string
		want string
	}{
		{nil, "file-rule"},
		{[]string{"messages", "M"}, "m-rule"},
		{[]string{"messages", "M", "fields", "a"}, ""},
		{[]string{"messages", "M", "fields", "b"}, "b-rule"},
	} {
		if got := formattest.Ignores(doc, tt.path...); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.path, got, tt.want)
		}
	}
}
