package policy

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// TestFormatInputs: the input of a Protocol Buffers, GraphQL and WSDL
// document holds its elements, each with the path of its name.
func TestFormatInputs(t *testing.T) {
	tests := []struct {
		file  string
		query string // a reference into the input
		want  string // its value, as Rego writes it
	}{
		{"testdata/library/example/library/v1/library.proto", `input.proto.package`, `"example.library.v1"`},
		{"testdata/library/example/library/v1/library.proto", `input.proto.rpcs[2]`,
			`{"clientStreaming": true, "comment": "WatchBooks streams changes.", "input": "example.library.v1.GetBookRequest", "name": "WatchBooks", "output": "example.library.v1.Book", "serverStreaming": true, "service": "LibraryService", "source": ["services", "LibraryService", "rpcs", "WatchBooks"]}`},
		{"testdata/library/example/library/v1/library.proto", `input.proto.fields[3].type`, `"map<string, string>"`},
		{"../graphql/testdata/shop.graphql", `input.graphql.fields[3]`,
			`{"args": [], "deprecated": true, "deprecationReason": "Use products.", "description": "", "list": true, "name": "legacyProducts", "named": "Product", "namedKind": "OBJECT", "source": ["types", "Query", "fields", "legacyProducts"], "type": "Query", "typeKind": "OBJECT", "typeRef": "[Product]"}`},
		{"../wsdl/testdata/orders.wsdl", `input.wsdl.bindings[1]`,
			`{"contentType": "application/soap+xml", "file": "", "name": "OrdersSoap12", "soapVersion": "1.2", "source": ["bindings", "OrdersSoap12"], "style": "document"}`},
	}
	// From the folder of the proto fixtures: a module root (testdata/library)
	// must lie inside the working directory.
	t.Chdir("../spec/proto")
	l := spec.NewLoader(spec.Options{})
	for _, tt := range tests {
		doc, err := l.Load(context.Background(), tt.file)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := ast.ParseRef(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		in := ast.NewTerm(Input(doc))
		got, err := in.Value.Find(ref[1:])
		if err != nil {
			t.Errorf("%s: %s: %v", tt.file, tt.query, err)
			continue
		}
		want := ast.MustParseTerm(tt.want)
		if got.Compare(want.Value) != 0 {
			t.Errorf("%s: %s = %v, want %v", tt.file, tt.query, got, want)
		}
	}
}
