package insights_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/internal/gittest"
)

func TestSpecMetadata(t *testing.T) {
	corpus := corpustest.Require(t)
	files := []string{
		"testdata/pets-base.yaml",
		filepath.Join(corpus, "petstore-expanded.yaml"),
		filepath.Join(corpus, "uber-v2.json"),
		filepath.Join(corpus, "asyncapi-streetlights-kafka-2.6.yml"),
		"testdata/missing.yaml",
	}
	rep, errs := insights.BuildSpecMetadata(context.Background(), loader(), files, &insights.Resolver{}, insights.Tool{Name: "specgate", Version: "test"})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing.yaml") {
		t.Errorf("errors %v, want the missing file's", errs)
	}
	if len(rep.Specs) != 5 {
		t.Fatalf("%d entries", len(rep.Specs))
	}
	pets := rep.Specs[0]
	if pets.File != "testdata/pets-base.yaml" || pets.ID != "testdata/pets-base.yaml" || pets.Format != "openapi" || pets.SpecVersion != "3.0.3" ||
		pets.Title != "Pets" || pets.Version != "1.0" || pets.OperationCount() != 3 || len(pets.Operations) != 3 {
		t.Errorf("pets: %+v", pets)
	}
	wantOps := []insights.OperationMetadata{
		{Path: "/pets", Method: "GET", Status: "200", ResponseContentType: "application/json", OperationID: "listPets"},
		{Path: "/pets", Method: "POST", RequestContentType: "application/json", Status: "201", ResponseContentType: "application/json", OperationID: "addPet"},
		{Path: "/pets/{id}", Method: "DELETE", Status: "204", OperationID: "deletePet"},
	}
	if !reflect.DeepEqual(pets.Operations, wantOps) {
		t.Errorf("operations\n got  %+v\n want %+v", pets.Operations, wantOps)
	}
	if !reflect.DeepEqual(pets.Servers, []insights.ServerMetadata{{URL: "https://pets.example.com/v1"}}) {
		t.Errorf("servers %+v", pets.Servers)
	}
	wantSchemes := []insights.SecuritySchemeInfo{{Name: "bearer", Type: "http", Scheme: "bearer"}, {Name: "key", Type: "apiKey", In: "header", ParamName: "X-Api-Key"}}
	if !reflect.DeepEqual(pets.SecuritySchemes, wantSchemes) {
		t.Errorf("security schemes %+v", pets.SecuritySchemes)
	}

	petstore := rep.Specs[1]
	if petstore.Title != "Swagger Petstore" || petstore.OperationCount() != 4 {
		t.Errorf("petstore-expanded: %q, %d operations", petstore.Title, petstore.OperationCount())
	}
	uber := rep.Specs[2]
	if uber.Format != "swagger" || uber.SpecVersion != "2.0" || uber.OperationCount() != 5 || len(uber.Servers) != 1 {
		t.Errorf("uber: %s %s, %d operations, servers %+v", uber.Format, uber.SpecVersion, uber.OperationCount(), uber.Servers)
	}
	kafka := rep.Specs[3]
	if kafka.Format != "asyncapi" || len(kafka.Operations) == 0 || kafka.Operations[0].Action == "" || kafka.Operations[0].Channel == "" {
		t.Errorf("streetlights: %+v", kafka.Operations)
	}
	if missing := rep.Specs[4]; missing.Error == "" || missing.Operations == nil {
		t.Errorf("missing: %+v", missing)
	}

	dir := t.TempDir()
	path, err := insights.WriteSpecMetadata(dir, rep)
	if err != nil || path != filepath.Join(dir, insights.SpecMetadataFile) {
		t.Fatalf("written to %s: %v", path, err)
	}
	back, err := insights.ReadSpecMetadata(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Specs, rep.Specs) {
		t.Error("the report does not read back the same")
	}

	s := insights.NewSubmission("spec-metadata-report", insights.SpecMetadataKind, insights.Tool{}, insights.CI{RepoID: "acme/contracts"})
	s.AddSpecMetadata(rep)
	if len(s.Results) != 4 || s.Results[0].Status != "published" || s.Results[0].Operations != 3 {
		t.Errorf("results %+v", s.Results)
	}
}

// TestLegacySpecMetadata: the report under its earlier name and shape
// still reads.
func TestLegacySpecMetadata(t *testing.T) {
	rep, err := insights.ReadSpecMetadata("testdata/legacy_central_contract_repo_report.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []insights.OperationMetadata{{Path: "/pets", Method: "GET", Status: "200"}, {Path: "/pets", Method: "POST", Status: "201"}}
	if len(rep.Specs) != 1 || rep.Specs[0].ID != "specs/pets.yaml" || rep.Specs[0].Format != "openapi" || !reflect.DeepEqual(rep.Specs[0].Operations, want) {
		t.Errorf("legacy report read as %+v", rep.Specs)
	}
}

func TestReadSpecMetadataErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, data, want string }{
		{"syntax", "{\n  \"specs\": [\n    {\"file\": 1,}\n  ]\n}", ":3:16: invalid character '}'"},
		{"syntax after a multi-byte character", `{"specs": [{"title": "café—",}]}`, ":1:30: invalid character '}'"},
		{"type", `{"specs": [{"file": 1}]}`, ":1:21: json: cannot unmarshal number into Go struct field"},
		{"neither", `{"reports": []}`, "not a spec metadata report (it has neither specs nor specifications)"},
		{"unknown member", `{"specs": [], "extra": 1}`, `unknown field "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".json")
			os.WriteFile(p, []byte(tc.data), 0o644)
			_, err := insights.ReadSpecMetadata(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), p) {
				t.Errorf("error %v, want %s…%q", err, p, tc.want)
			}
		})
	}
}

// TestSpecRefInGit: a specification in a git repository is named by its
// origin and its path within the repository, wherever it is checked out.
func TestSpecRefInGit(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	repo := filepath.Join(root, "checkout")
	os.MkdirAll(filepath.Join(repo, "specs"), 0o755)
	os.WriteFile(filepath.Join(repo, "specs", "api.yaml"), []byte("openapi: 3.0.3\n"), 0o644)
	gittest.Init(t, repo)
	gittest.Run(t, repo, "remote", "add", "origin", "git@github.com:Acme/Contracts.git")
	res := &insights.Resolver{Dir: root, Git: &insights.Git{}}
	ref := res.Ref(ctx, "checkout/specs/api.yaml")
	want := insights.SpecRef{ID: "github.com/Acme/Contracts/specs/api.yaml", Repository: "github.com/Acme/Contracts", Path: "specs/api.yaml", File: "checkout/specs/api.yaml"}
	if ref != want {
		t.Errorf("ref %+v, want %+v", ref, want)
	}
	res.Aliases = map[string]string{"api": filepath.Join(repo, "specs", "api.yaml")}
	if alias := res.Ref(ctx, "api"); alias.ID != want.ID || alias.File != "api" {
		t.Errorf("alias: %+v", alias)
	}
	outside := res.Ref(ctx, "elsewhere/api.yaml")
	if outside.ID != "elsewhere/api.yaml" || outside.Repository != "" {
		t.Errorf("outside git: %+v", outside)
	}
}

// TestSpecMetadataFormats: Protocol Buffers, GraphQL and WSDL documents
// are described from their models: their operations (RPCs, the fields of
// the root types, port type operations) named as the compatibility check
// names them, a title where the format has one, the servers of WSDL; a
// document that loads with problems (an unknown type, no query root) lists
// them, each at its line and column.
func TestSpecMetadataFormats(t *testing.T) {
	dir := "testdata/formats/"
	files := []string{dir + "shop.proto", dir + "shop.graphql", dir + "orders.wsdl", dir + "bad.proto", dir + "bad.graphql"}
	rep, errs := insights.BuildSpecMetadata(context.Background(), loader(), files, &insights.Resolver{}, insights.Tool{Name: "specgate", Version: "test"})
	if len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
	byFile := map[string]insights.SpecMetadata{}
	for _, m := range rep.Specs {
		byFile[strings.TrimPrefix(m.File, dir)] = m
	}
	for _, tc := range []struct {
		file, format, version, title string
		ops                          []insights.OperationMetadata
		servers                      []insights.ServerMetadata
		problems                     []insights.Problem
	}{
		{"shop.proto", "proto", "proto3", "acme.shop.v1", []insights.OperationMetadata{
			{Name: "rpc acme.shop.v1.Orders/GetOrder", Kind: "unary", Input: "acme.shop.v1.GetOrderRequest", Output: "acme.shop.v1.Order"},
			{Name: "rpc acme.shop.v1.Orders/WatchOrders", Kind: "server-streaming", Input: "acme.shop.v1.WatchOrdersRequest", Output: "acme.shop.v1.Order"},
		}, nil, nil},
		{"shop.graphql", "graphql", "SDL", "", []insights.OperationMetadata{
			{Name: "Query.order", Kind: "query", Input: "id: ID!", Output: "Order"},
			{Name: "Query.orders", Kind: "query", Input: "first: Int", Output: "[Order!]!"},
			{Name: "Mutation.cancelOrder", Kind: "mutation", Input: "id: ID!, reason: String", Output: "Order"},
			{Name: "Subscription.orderShipped", Kind: "subscription", Output: "Order!"},
		}, nil, nil},
		{"orders.wsdl", "wsdl", "1.1", "Orders", []insights.OperationMetadata{
			{Name: "OrdersPort.GetOrder", Kind: "in-out", Input: "GetOrderRequest", Output: "GetOrderResponse"},
		}, []insights.ServerMetadata{
			{URL: "http://example.com/orders/soap11", Description: "OrdersService.OrdersSoap11Port (SOAP 1.1)"},
			{URL: "http://example.com/orders/soap12", Description: "OrdersService.OrdersSoap12Port (SOAP 1.2)"},
		}, nil},
		{"bad.proto", "proto", "proto3", "acme.bad.v1", []insights.OperationMetadata{
			{Name: "rpc acme.bad.v1.Things/Get", Kind: "unary", Input: "acme.bad.v1.GetThingRequest", Output: "Thing"},
		}, nil, []insights.Problem{{File: dir + "bad.proto", Line: 6, Column: 37, Message: "method acme.bad.v1.Things.Get: unknown response type Thing"}}},
		{"bad.graphql", "graphql", "SDL", "", []insights.OperationMetadata{
			{Name: "Mutation.ping", Kind: "mutation", Output: "Boolean"},
		}, nil, []insights.Problem{
			{File: dir + "bad.graphql", Line: 1, Column: 1, Message: "the schema has no query root type: define an object type Query, or name one in schema { query: … }"},
			{File: dir + "bad.graphql", Line: 6, Column: 13, Message: "field Order.customer has an unknown type Customer"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m, ok := byFile[tc.file]
			if !ok {
				t.Fatalf("no entry in %+v", rep.Specs)
			}
			if m.Format != tc.format || m.SpecVersion != tc.version || m.Title != tc.title || m.Error != "" {
				t.Errorf("format %q %q, title %q, error %q", m.Format, m.SpecVersion, m.Title, m.Error)
			}
			if !reflect.DeepEqual(m.Operations, tc.ops) || m.OperationCount() != len(tc.ops) {
				t.Errorf("operations (%d)\n got  %+v\n want %+v", m.OperationCount(), m.Operations, tc.ops)
			}
			if !reflect.DeepEqual(m.Servers, tc.servers) {
				t.Errorf("servers %+v", m.Servers)
			}
			if !reflect.DeepEqual(m.Problems, tc.problems) {
				t.Errorf("problems\n got  %+v\n want %+v", m.Problems, tc.problems)
			}
		})
	}
	s := insights.NewSubmission("spec-metadata-report", insights.SpecMetadataKind, insights.Tool{}, insights.CI{RepoID: "acme/contracts"})
	s.AddSpecMetadata(rep)
	statuses := map[string]string{}
	for _, r := range s.Results {
		statuses[strings.TrimPrefix(r.Spec.File, dir)] = r.Status
	}
	want := map[string]string{"shop.proto": "published", "shop.graphql": "published", "orders.wsdl": "published", "bad.proto": "invalid", "bad.graphql": "invalid"}
	if !reflect.DeepEqual(statuses, want) {
		t.Errorf("statuses %v", statuses)
	}
}
