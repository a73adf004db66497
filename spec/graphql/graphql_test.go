package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/graphql"
	"github.com/specgate/specgate/spec/internal/formattest"
)

func load(t *testing.T, name string) (*spec.Document, *graphql.Schema) {
	t.Helper()
	return formattest.Load(t, name, graphql.Of)
}

// pos is where a model path stands in the entry file, "line:col".
func pos(doc *spec.Document, p spec.Path) string { return formattest.Pos(doc, doc.Root, p) }

func TestSDL(t *testing.T) {
	doc, s := load(t, "testdata/shop.graphql")
	if doc.String() != "GraphQL SDL" || strings.Join(doc.FormatTags(), ",") != "graphql,graphql-sdl" {
		t.Errorf("%s %v", doc, doc.FormatTags())
	}
	if len(s.Problems) > 0 {
		t.Fatalf("problems: %+v", s.Problems)
	}
	if s.Query != "Query" || s.Mutation != "Mutation" || s.Subscription != "" {
		t.Errorf("roots %q %q %q", s.Query, s.Mutation, s.Subscription)
	}
	q := s.Type("Query")
	if q.Description != "The root of every query." || pos(doc, q.Source) != "4:6" {
		t.Errorf("Query: %q at %s", q.Description, pos(doc, q.Source))
	}
	// extend type Query adds its field where it is written.
	if f := q.Field("category"); f == nil || pos(doc, f.Source) != "71:3" || len(f.Directives) != 1 || f.Directives[0].Args["maxAge"] != "60" {
		t.Errorf("extension field: %+v", f)
	}
	products := q.Field("products")
	if products.Type.String() != "ProductConnection!" || products.Arg("first").Default != "10" || !products.Arg("first").HasDefault || products.Arg("after").HasDefault {
		t.Errorf("products: %s %+v", products.Type, products.Args)
	}
	if f := q.Field("search"); f.Type.String() != "[SearchResult!]!" || !f.Type.IsList() || f.Type.Named() != "SearchResult" {
		t.Errorf("search: %s", f.Type)
	}
	if f := q.Field("legacyProducts"); !f.Deprecated || f.DeprecationReason != "Use products." {
		t.Errorf("legacyProducts: %+v", f)
	}
	if f := s.Type("Product").Field("status"); !f.Deprecated || f.DeprecationReason != "" {
		t.Errorf("@deprecated without a reason: %+v", f)
	}
	if u := s.Type("SearchResult"); u.Kind != graphql.Union || strings.Join(u.Members, ",") != "Product,Category" {
		t.Errorf("union: %+v", u)
	}
	cur := s.Type("Currency")
	if v := cur.Value("OLD_FRANC"); !v.Deprecated || v.DeprecationReason != "Replaced by EUR." || pos(doc, v.Source) != "54:3" {
		t.Errorf("enum value: %+v at %s", v, pos(doc, v.Source))
	}
	in := s.Type("CreateProductInput")
	if in.Kind != graphql.InputObject || in.Field("tags").Default != "[]" || pos(doc, in.Field("price").Source) != "64:3" {
		t.Errorf("input: %+v", in)
	}
	if p := s.Type("Product"); strings.Join(p.Interfaces, ",") != "Node" || p.Description != "A product for sale." {
		t.Errorf("Product: %+v", p)
	}
	if len(s.Directives) != 1 || s.Directives[0].Name != "cacheControl" || strings.Join(s.Directives[0].Locations, ",") != "FIELD_DEFINITION,OBJECT" {
		t.Errorf("directives: %+v", s.Directives)
	}
}

func TestIntrospection(t *testing.T) {
	doc, s := load(t, "testdata/introspection.json")
	if doc.String() != "GraphQL introspection" || !s.Introspection {
		t.Errorf("%s", doc)
	}
	if len(s.Problems) > 0 {
		t.Fatalf("problems: %+v", s.Problems)
	}
	if s.Type("String") != nil && len(s.Types) != 3 {
		t.Errorf("built-in types are left out: %d types", len(s.Types))
	}
	users := s.Type("Query").Field("users")
	if users.Type.String() != "[User!]!" || !users.Deprecated || users.DeprecationReason != "Use search." || pos(doc, users.Source) != "13:12" {
		t.Errorf("users: %s %+v at %s", users.Type, users, pos(doc, users.Source))
	}
	if a := s.Type("Query").Field("user").Arg("login"); a.Type.String() != "String!" {
		t.Errorf("arg: %+v", a)
	}
	if len(s.Type("Role").Values) != 2 {
		t.Errorf("enum values: %+v", s.Type("Role").Values)
	}
}

// TestDefaultsAgree: a default value reads the same from SDL and from an
// introspection result, whose values graphql-js prints with spaces after
// ':' and ',', so that the compatibility check sees no change between the
// two forms of one schema (GitHub's SDL and JSON showed 127 "changed"
// defaults before).
func TestDefaultsAgree(t *testing.T) {
	_, sdl := load(t, "testdata/defaults.graphql")
	_, js := load(t, "testdata/defaults.json")
	if len(sdl.Problems)+len(js.Problems) > 0 {
		t.Fatalf("problems: %v %v", sdl.Problems, js.Problems)
	}
	for _, arg := range []string{"order", "ids", "q"} {
		a, b := sdl.Type("Query").Field("books").Arg(arg), js.Type("Query").Field("books").Arg(arg)
		if !a.HasDefault || !b.HasDefault || a.Default != b.Default {
			t.Errorf("argument %s: SDL %q, introspection %q", arg, a.Default, b.Default)
		}
	}
	for _, f := range []string{"field", "direction"} {
		a, b := sdl.Type("Order").Field(f), js.Type("Order").Field(f)
		if a.Default != b.Default || a.Default == "" {
			t.Errorf("input field %s: SDL %q, introspection %q", f, a.Default, b.Default)
		}
	}
	if d := js.Type("Query").Field("books").Arg("q").Default; d != `"a, b: c"` {
		t.Errorf("a string keeps its text: %q", d)
	}
}

// TestProblems: every semantic error of a schema, each at the element it
// is about.
func TestProblems(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"testdata/broken.graphql", []string{
			"7:10 field Root.other has an unknown type Missing",
			"10:11 interfaces implement each other in a cycle: A → B → A",
			"20:5 argument arg of Item.y must have an input type (a scalar, an enum or an input object); Item is an object",
			"20:25 unknown directive @unknown",
			"21:14 directive @deprecated has no argument because",
			"22:14 directive @include may not be used on field definitions (it is allowed on FIELD, FRAGMENT_SPREAD, INLINE_FRAGMENT)",
			"25:18 union U can only hold object types; Scalarish is a scalar",
			"29:6 enum Empty must have one or more values",
		}},
		// A duplicate is reported where it is written, naming the first
		// definition (GitHub's schema 15.26 defines two fields twice).
		{"testdata/duplicates.graphql", []string{
			"3:37 argument first of Query.search is defined more than once (first defined at 3:10)",
			"4:3 field Query.owner is defined more than once (first defined at 2:3)",
			"8:3 field Query.owner is defined more than once (first defined at 2:3)",
			"11:24 enum value Color.RED is defined more than once (first defined at 11:14)",
			"13:31 union Result includes Item more than once",
			"17:6 type Item implements Node more than once",
			"21:3 input field Filter.name is defined more than once (first defined at 20:3)",
			"24:30 argument name of directive @tag is defined more than once (first defined at 24:16)",
			"25:12 directive @tag is defined more than once (first defined at 24:12)",
			"26:8 type Color is defined more than once (first defined at 11:6)",
		}},
		{"testdata/duplicates.json", []string{
			"6:7 field Query.a is defined more than once (first defined at 5:7)",
			"10:7 enum value E.X is defined more than once (first defined at 9:7)",
		}},
		{"testdata/noquery.graphql", []string{
			"1:1 the schema has no query root type: define an object type Query, or name one in schema { query: … }",
		}},
		{"testdata/emptyquery.graphql", []string{
			"1:6 the query root type Query has no fields: a schema must offer at least one query",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, s := load(t, tt.file)
			var got []string
			for _, p := range s.Problems {
				got = append(got, fmt.Sprintf("%d:%d %s", p.Range.Start.Line, p.Range.Start.Col, p.Message))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	l := spec.NewLoader(spec.Options{})
	tests := []struct{ name, want string }{
		{"testdata/syntax.graphql", "testdata/syntax.graphql:3:10: Expected Name, found :"},
		{"testdata/ops.graphql", `testdata/ops.graphql:1:1: the file holds GraphQL operations (queries, mutations or fragments), not a schema: Unexpected Name "query"`},
	}
	for _, tt := range tests {
		_, err := l.Load(context.Background(), tt.name)
		var se *spec.Error
		if !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
	}
	// Malformed input never panics: a few shapes the parser must refuse.
	for i, data := range []string{"type Query { a: [[[[String }", "type", "{", `{"__schema": {"types": [{"kind": "OBJECT"}]}}`, `{"__schema": 1}`, "type Query { a(b: Int = {x: [}) : Int }", "\"\"\"unterminated"} {
		_, err := l.LoadBytes(context.Background(), fmt.Sprintf("bad%d.graphql", i), []byte(data))
		if err == nil {
			continue
		}
		if !errors.As(err, new(*spec.Error)) {
			t.Errorf("%q: %v is not a *spec.Error", data, err)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, in := range []string{"type Query { a: Int }\n", "# comment\n\"\"\"doc\"\"\"\nschema { query: Q }\ntype Q { a: Int }", `{"data": {"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "OBJECT", "name": "Q", "fields": [{"name": "a", "args": [], "type": {"kind": "SCALAR", "name": "Int"}}]}]}}}`} {
		l := spec.NewLoader(spec.Options{Stdin: strings.NewReader(in)})
		doc, err := l.Load(context.Background(), "-")
		if err != nil || doc.Format != spec.GraphQL {
			t.Errorf("%q: %v %v", in, doc, err)
		}
	}
}

// TestPublicSchema reads GitHub's public schema (SDL and introspection)
// when SPECGATE_GRAPHQL_SCHEMA names the folder of the npm package
// @octokit/graphql-schema.
func TestPublicSchema(t *testing.T) {
	dir := getenv("SPECGATE_GRAPHQL_SCHEMA")
	if dir == "" {
		t.Skip("SPECGATE_GRAPHQL_SCHEMA is not set")
	}
	for _, f := range []string{"schema.graphql", "schema.json"} {
		doc, s := load(t, dir+"/"+f)
		if len(s.Types) < 1000 || s.Query != "Query" {
			t.Errorf("%s: %d types", doc.Root.Name, len(s.Types))
		}
		for _, p := range s.Problems {
			t.Logf("%s:%d:%d %s", f, p.Range.Start.Line, p.Range.Start.Col, p.Message)
		}
	}
}

// TestIgnoreDirectives: a specgate:ignore comment puts x-lint-ignore on the
// element it stands before or beside, the name after a description;
// # inside strings is no comment.
func TestIgnoreDirectives(t *testing.T) {
	src := `type Query {
  a(x: String = "# specgate:ignore not-a-comment"): Int # specgate:ignore a-rule
  # specgate:ignore b-rule
  """
  B, with # no comment in it.
  """
  b: Int
}
`
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "ig.graphql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ignores := func(field string) string { return formattest.Ignores(doc, "types", "Query", "fields", field) }
	if a, b := ignores("a"), ignores("b"); a != "a-rule" || b != "b-rule" {
		t.Errorf("a: %q, b: %q", a, b)
	}
	if n := doc.Root.Root.Get("types").Get("Query").Get("x-lint-ignore"); n != nil {
		t.Errorf("Query: %v", n)
	}
}

// TestWideSchemaLoads: a type of 100,000 fields and 100,000 types load in
// linear time: searching a tree node's fields for a name, and gqlparser's
// validator comparing every two fields of a type, were quadratic. The
// deadline turns such a regression into a failure and asserts no
// duration otherwise.
func TestWideSchemaLoads(t *testing.T) {
	var b strings.Builder
	b.WriteString("type Query {\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "  f%d: T%d\n", i, i)
	}
	b.WriteString("}\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "type T%d { a: Int }\n", i)
	}
	done := make(chan error, 1)
	var s *graphql.Schema
	go func() {
		doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "wide.graphql", []byte(b.String()))
		if err == nil {
			s = graphql.Of(doc)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || len(s.Problems) > 0 || len(s.Types) != 100_001 || len(s.Type("Query").Fields) != 100_000 {
			t.Fatalf("wide schema: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a schema of 100,000 fields and types did not load within a minute")
	}
}
