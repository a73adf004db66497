package input

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
			`{"contentType": "application/soap+xml", "documentation": "", "file": "", "name": "OrdersSoap12", "portType": "OrdersPort", "soapVersion": "1.2", "source": ["bindings", "OrdersSoap12"], "style": "document"}`},
		// A binding operation with its SOAP elements and the parts each
		// soap:body carries.
		{"../wsdl/testdata/orders.wsdl", `input.wsdl.bindingOperations[0]`,
			`{"binding": "OrdersSoap11", "bodies": [{"element": "body", "in": "input", "soapVersion": "1.1", "use": "literal"}, {"element": "body", "in": "output", "soapVersion": "1.1", "use": "literal"}],
			  "file": "", "name": "GetOrder", "portType": "OrdersPort", "soapAction": "http://example.com/orders/GetOrder", "soapVersion": "1.1", "soapVersions": ["1.1"],
			  "source": ["bindings", "OrdersSoap11", "operations", "GetOrder"], "style": "document",
			  "input": {"message": "GetOrderRequest", "partsWritten": false, "parts": [{"element": "GetOrder", "elementNamespace": "http://example.com/orders", "file": "", "message": "GetOrderRequest", "name": "parameters", "source": ["messages", "GetOrderRequest", "parts", "parameters"], "type": ""}]},
			  "output": {"message": "GetOrderResponse", "partsWritten": false, "parts": [{"element": "GetOrderResponse", "elementNamespace": "http://example.com/orders", "file": "", "message": "GetOrderResponse", "name": "parameters", "source": ["messages", "GetOrderResponse", "parts", "parameters"], "type": ""}]}}`},
		{"../wsdl/testdata/orders.wsdl", `input.wsdl.ports[1]`,
			`{"address": "http://example.com/orders/soap12", "binding": "OrdersSoap12", "bindingSoapVersion": "1.2", "file": "", "https": false, "name": "OrdersSoap12Port", "service": "OrdersService", "soapVersion": "1.2", "source": ["services", "OrdersService", "ports", "OrdersSoap12Port"]}`},
		{"../wsdl/testdata/documented.wsdl", `input.wsdl.portTypes[0]`,
			`{"documentation": "The shop.", "file": "", "name": "Shop", "operations": ["Ping", "Pong"], "source": ["portTypes", "Shop"]}`},
		{"../wsdl/testdata/documented.wsdl", `input.wsdl.operations[0].documentation`, `""`},
		{"../wsdl/testdata/documented.wsdl", `input.wsdl.messages[0]`,
			`{"documentation": "", "file": "", "name": "PingRequest", "parts": [{"element": "", "elementNamespace": "", "file": "", "message": "PingRequest", "name": "text", "source": ["messages", "PingRequest", "parts", "text"], "type": "string"}], "source": ["messages", "PingRequest"]}`},
	}
	// From the folder of the proto fixtures: a module root (testdata/library)
	// must lie inside the working directory.
	t.Chdir("../../spec/proto")
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
		in := ast.NewTerm(Build(doc))
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
