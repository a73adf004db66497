package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/mcp"
)

// corpus is the shared folder of real-world specifications.
const corpus = "../../shared/corpus"

// session is a client connected to a server over the SDK's in-memory
// transport, as an editor's client is over stdio.
type session struct {
	t   *testing.T
	srv *mcp.Server
	cs  *mcpsdk.ClientSession

	mu       sync.Mutex
	progress []*mcpsdk.ProgressNotificationParams
}

// connect starts a server on root and connects a client to it; both close
// when the test ends.
func connect(t *testing.T, opts mcp.Options) *session {
	t.Helper()
	srv, err := mcp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, srv: srv}
	st, ct := mcpsdk.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, &mcpsdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcpsdk.ProgressNotificationClientRequest) {
			s.mu.Lock()
			s.progress = append(s.progress, req.Params)
			s.mu.Unlock()
		},
	})
	s.cs, err = client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.cs.Close()
		ss.Wait()
		if err := srv.Close(); err != nil {
			t.Errorf("closing the server: %v", err)
		}
	})
	return s
}

// fixtureRoot copies files (from testdata, or the corpus when the name
// starts with corpus) into a fresh root.
func fixtureRoot(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		src := f
		if !strings.HasPrefix(f, corpus) {
			src = filepath.Join("testdata", f)
		} else if _, err := os.Stat(f); err != nil {
			t.Skipf("the corpus is not beside the clone: %v", err)
		}
		copyTree(t, src, filepath.Join(root, filepath.Base(f)))
	}
	return root
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// call calls a tool and decodes its structured output into out; it fails
// the test on a protocol error or a tool error.
func (s *session) call(name string, args map[string]any, out any) {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		s.t.Fatalf("%s: tool error: %s", name, text(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		s.t.Fatalf("%s: %v in %s", name, err, data)
	}
}

// toolError calls a tool that must answer a tool error, and returns its
// message.
func (s *session) toolError(name string, args map[string]any) string {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: want a tool error, got a protocol error: %v", name, err)
	}
	if !res.IsError {
		s.t.Fatalf("%s: want a tool error, got %s", name, text(res))
	}
	return text(res)
}

func text(res *mcpsdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestInitializeAndListTools(t *testing.T) {
	s := connect(t, mcp.Options{Root: t.TempDir(), Version: "1.2.3"})
	init := s.cs.InitializeResult()
	if init.ServerInfo.Name != "specgate" || init.ServerInfo.Version != "1.2.3" {
		t.Errorf("server info = %+v", init.ServerInfo)
	}
	if init.Capabilities.Tools == nil {
		t.Error("the server does not announce tools")
	}
	list, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{ // each tool's required inputs
		mcp.ToolLint:         {"specs"},
		mcp.ToolCompat:       nil,
		mcp.ToolValidateEx:   {"spec"},
		mcp.ToolContractTest: {"specs", "baseUrl"},
		mcp.ToolMock:         {"command"},
		mcp.ToolRunSuite:     nil,
		mcp.ToolGenerateEx:   {"spec"},
		mcp.ToolFixExamples:  {"spec"},
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		required, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		in := schemaOf(t, tool.InputSchema)
		if in.Type != "object" || len(in.Properties) == 0 {
			t.Errorf("%s: input schema %+v", tool.Name, in)
		}
		if !slices.Equal(in.Required, required) {
			t.Errorf("%s: required inputs %v, want %v", tool.Name, in.Required, required)
		}
		for name, p := range in.Properties {
			if p.Description == "" {
				t.Errorf("%s: input %s has no description", tool.Name, name)
			}
		}
		out := schemaOf(t, tool.OutputSchema)
		if out.Type != "object" || len(out.Properties) == 0 {
			t.Errorf("%s: output schema %+v", tool.Name, out)
		}
		if tool.Description == "" || tool.Title == "" {
			t.Errorf("%s: no description or title", tool.Name)
		}
	}
	slices.Sort(names)
	if len(names) != len(want) {
		t.Errorf("tools = %v, want %d", names, len(want))
	}
	// Enumerations are part of the schema, so that a client can check them.
	for _, tool := range list.Tools {
		if tool.Name == mcp.ToolMock {
			cmd := schemaOf(t, tool.InputSchema).Properties["command"]
			if !slices.Equal(cmd.Enum, []any{"start", "stop", "list"}) {
				t.Errorf("command enum = %v", cmd.Enum)
			}
		}
	}
}

type schemaJSON struct {
	Type        any                    `json:"type"`
	Properties  map[string]*schemaJSON `json:"properties"`
	Required    []string               `json:"required"`
	Description string                 `json:"description"`
	Enum        []any                  `json:"enum"`
}

func schemaOf(t *testing.T, v any) *schemaJSON {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s schemaJSON
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestLint(t *testing.T) {
	root := fixtureRoot(t, filepath.Join(corpus, "petstore-expanded.yaml"), "pets.yaml")
	s := connect(t, mcp.Options{Root: root})
	var out mcp.LintOutput
	s.call(mcp.ToolLint, map[string]any{"specs": []string{"pets.yaml"}, "ruleset": "recommended"}, &out)
	if len(out.Files) != 1 || out.Files[0].File != "pets.yaml" || out.Files[0].Format != "OpenAPI 3.1.0" {
		t.Fatalf("files = %+v", out.Files)
	}
	found := false
	for _, f := range out.Findings {
		if f.Rule == "health-endpoint" {
			found = true
			if f.File != "pets.yaml" || f.Line != 7 || f.Column != 1 || f.Severity != "error" {
				t.Errorf("health-endpoint at %s:%d:%d %s", f.File, f.Line, f.Column, f.Severity)
			}
		}
	}
	if !found {
		t.Errorf("no health-endpoint finding in %+v", out.Findings)
	}

	// A real spec with more findings than an answer holds: the first are
	// listed, errors first, and the full report has them all.
	s.call(mcp.ToolLint, map[string]any{"specs": []string{"."}, "ruleset": "recommended"}, &out)
	if len(out.Files) != 2 {
		t.Fatalf("files = %+v", out.Files)
	}
	total := out.Errors + out.Warnings
	if len(out.Findings) != mcp.MaxItems || out.Omitted != total-mcp.MaxItems || out.Report == "" {
		t.Fatalf("%d findings listed, %d omitted, report %q, of %d", len(out.Findings), out.Omitted, out.Report, total)
	}
	if out.Findings[0].Severity != "error" || out.Findings[len(out.Findings)-1].Severity != "warn" {
		t.Errorf("errors do not come first: %+v", out.Findings)
	}
	var report struct {
		Diagnostics []json.RawMessage `json:"diagnostics"`
	}
	data, err := os.ReadFile(filepath.Join(root, out.Report))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Diagnostics) != total {
		t.Errorf("the report holds %d diagnostics, want %d", len(report.Diagnostics), total)
	}
}

func TestCompat(t *testing.T) {
	root := fixtureRoot(t, "compat")
	s := connect(t, mcp.Options{Root: root})
	var out mcp.CompatOutput
	s.call(mcp.ToolCompat, map[string]any{"base": "compat/base.yaml", "revision": "compat/breaking.yaml"}, &out)
	if out.Verdict != "incompatible" || len(out.Specs) != 1 {
		t.Fatalf("verdict %s, specs %+v", out.Verdict, out.Specs)
	}
	sp := out.Specs[0]
	if sp.Reason != "breaking-changes" || sp.Breaking != 1 || len(sp.Changes) != 1 {
		t.Fatalf("spec = %+v", sp)
	}
	ch := sp.Changes[0]
	rev := mcp.Location{File: "compat/breaking.yaml", Line: 26, Column: 22, Pointer: "/components/schemas/Order/required/1"}
	if ch.Rule != "request-property-became-required" || ch.WrittenIn != "revision" || ch.Revision == nil || *ch.Revision != rev || !slices.Equal(ch.Operations, []string{"POST /orders"}) {
		t.Errorf("change = %+v, revision %+v", ch, ch.Revision)
	}
	if ch.Base == nil || ch.Base.File != "compat/base.yaml" || ch.Base.Line == 0 {
		t.Errorf("base side = %+v", ch.Base)
	}
	if !strings.Contains(ch.Message, `property "note" became required`) {
		t.Errorf("message = %q", ch.Message)
	}

	s.call(mcp.ToolCompat, map[string]any{"base": "compat/base.yaml", "revision": "compat/compatible.yaml"}, &out)
	if out.Verdict != "compatible" || out.Specs[0].Reason != "non-breaking" || len(out.Specs[0].Changes) != 0 || out.Specs[0].Info != 2 {
		t.Errorf("compatible revision: %+v", out)
	}
}

// TestCompatFormats checks Protocol Buffers, GraphQL and WSDL pairs as the
// command line does, each change placed in both versions; protocol, when
// given, must be the documents' own.
func TestCompatFormats(t *testing.T) {
	root := fixtureRoot(t, "formats", "compat")
	s := connect(t, mcp.Options{Root: root})
	for _, tc := range []struct {
		protocol, base, rev string
		rule                string
		where               *mcp.Location // the side the change is written in
		other               *mcp.Location // the other side, when compat places it there
		written             string
	}{
		{"grpc", "formats/proto/base/api.proto", "formats/proto/rev/api.proto", "proto-field-removed",
			&mcp.Location{File: "formats/proto/base/api.proto", Line: 6, Column: 10, Pointer: "/messages/Item/fields/name"}, nil, "base"},
		{"graphql", "formats/graphql/base/schema.graphql", "formats/graphql/rev/schema.graphql", "graphql-field-removed",
			&mcp.Location{File: "formats/graphql/base/schema.graphql", Line: 11, Column: 3, Pointer: "/types/Product/fields/tags"}, nil, "base"},
		{"wsdl", "formats/wsdl/base/orders.wsdl", "formats/wsdl/rev/orders.wsdl", "wsdl-operation-removed",
			&mcp.Location{File: "formats/wsdl/base/orders.wsdl", Line: 43, Column: 27, Pointer: "/portTypes/OrdersPort/operations/GetOrder"}, nil, "base"},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			for _, args := range []map[string]any{
				{"base": tc.base, "revision": tc.rev},
				{"base": tc.base, "revision": tc.rev, "protocol": tc.protocol},
			} {
				var out mcp.CompatOutput
				s.call(mcp.ToolCompat, args, &out)
				if out.Verdict != "incompatible" || len(out.Specs) != 1 || len(out.Specs[0].Changes) != 1 {
					t.Fatalf("%v: %+v", args, out)
				}
				ch := out.Specs[0].Changes[0]
				if ch.Rule != tc.rule || ch.WrittenIn != tc.written || ch.Base == nil || *ch.Base != *tc.where {
					t.Errorf("%v: change %+v, base %+v", args, ch, ch.Base)
				}
				if tc.other != nil && (ch.Revision == nil || *ch.Revision != *tc.other) {
					t.Errorf("%v: revision side %+v, want %+v", args, ch.Revision, tc.other)
				}
			}
		})
	}
	msg := s.toolError(mcp.ToolCompat, map[string]any{"base": "compat/base.yaml", "revision": "compat/breaking.yaml", "protocol": "graphql"})
	if msg != `protocol is graphql, but compat/breaking.yaml is OpenAPI 3.0.3: leave protocol out to check the documents as they are` {
		t.Errorf("protocol mismatch: %q", msg)
	}
}

func TestValidateExamples(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml", "pets_examples")
	s := connect(t, mcp.Options{Root: root})
	var out mcp.ValidateExamplesOutput
	s.call(mcp.ToolValidateEx, map[string]any{"spec": "pets.yaml"}, &out)
	if out.Valid || out.External != 3 || out.Inline == 0 || out.Checked != out.External+out.Inline {
		t.Fatalf("output = %+v", out)
	}
	got := map[string]mcp.ExampleProblem{}
	for _, p := range out.Invalid {
		got[p.Example+" "+p.Code] = p
	}
	name, ok := got["bad_name example-body-invalid"]
	if !ok || name.File != "pets_examples/bad_name.json" || name.Line != 5 || name.Column != 23 || name.Path != "$.http-response.body.name" {
		t.Errorf("bad_name: %+v (all: %+v)", name, out.Invalid)
	}
	if !strings.HasPrefix(name.Rule, "pets.yaml:") {
		t.Errorf("bad_name's rule is at %q, want a place in pets.yaml", name.Rule)
	}
	status, ok := got["bad_status example-status-undeclared"]
	if !ok || status.File != "pets_examples/bad_status.json" || status.Path != "$.http-response.status" || status.Line != 3 {
		t.Errorf("bad_status: %+v (all: %+v)", status, out.Invalid)
	}
	if len(out.Invalid) != 2 {
		t.Errorf("invalid = %+v", out.Invalid)
	}
}

func TestBadArguments(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml", "compat")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("openapi: 3.1.0\n"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(root, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "broken.yaml"), []byte("openapi: 3.1.0\npaths: [\n"), 0o644)
	s := connect(t, mcp.Options{Root: root})
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"missing spec", mcp.ToolValidateEx, map[string]any{"spec": "nope.yaml"}, `spec "nope.yaml": no such file under the root`},
		{"missing spec to lint", mcp.ToolLint, map[string]any{"specs": []string{"nope.yaml"}}, "nope.yaml"},
		{"outside by ..", mcp.ToolValidateEx, map[string]any{"spec": "../x/pets.yaml"}, "is outside the root"},
		{"outside absolute", mcp.ToolLint, map[string]any{"specs": []string{filepath.Join(outside, "secret.yaml")}}, "is outside the root"},
		{"outside through a link", mcp.ToolCompat, map[string]any{"base": "link.yaml", "revision": "pets.yaml"}, "is outside the root"},
		{"a URL", mcp.ToolContractTest, map[string]any{"specs": []string{"https://example.com/api.yaml"}, "baseUrl": "http://127.0.0.1:1"}, "not URLs"},
		{"wrong type", mcp.ToolLint, map[string]any{"specs": "pets.yaml"}, "specs"},
		{"missing input", mcp.ToolContractTest, map[string]any{"specs": []string{"pets.yaml"}}, "baseUrl"},
		{"unknown input", mcp.ToolLint, map[string]any{"specs": []string{"pets.yaml"}, "rules": "all"}, "rules"},
		{"bad base URL", mcp.ToolContractTest, map[string]any{"specs": []string{"pets.yaml"}, "baseUrl": "localhost:8080"}, "is not an http(s) URL"},
		{"unknown command", mcp.ToolMock, map[string]any{"command": "restart"}, "command"},
		{"unknown ruleset", mcp.ToolLint, map[string]any{"specs": []string{"pets.yaml"}, "ruleset": "strictest"}, `ruleset "strictest": no such file`},
		{"unparsable spec", mcp.ToolValidateEx, map[string]any{"spec": "broken.yaml"}, "broken.yaml:3:1: invalid YAML"},
		{"both compat modes", mcp.ToolCompat, map[string]any{"base": "compat/base.yaml", "revision": "pets.yaml", "git": map[string]any{}}, "not both"},
		{"stop without id", mcp.ToolMock, map[string]any{"command": "stop"}, "stop needs the id"},
		{"stop an unknown mock", mcp.ToolMock, map[string]any{"command": "stop", "id": "mock-9"}, `no mock "mock-9" is running`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := s.toolError(tc.tool, tc.args)
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%q, want it to contain %q", msg, tc.want)
			}
			// Files under the root are named relative to it.
			if strings.Contains(msg, root+string(filepath.Separator)) {
				t.Errorf("%q names a file by its absolute path", msg)
			}
		})
	}
	// The server still answers after them all.
	var out mcp.LintOutput
	s.call(mcp.ToolLint, map[string]any{"specs": []string{"pets.yaml"}}, &out)
	if len(out.Files) != 1 {
		t.Errorf("files = %+v", out.Files)
	}
}

// petService is a service for testdata/pets.yaml whose GET /pets/{id}
// answers an id as a string, breaking the schema.
func petService() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/v1/pets":
			io.WriteString(w, `[{"id": 1, "name": "Rex"}]`)
		case strings.HasPrefix(r.URL.Path, "/v1/pets/"):
			io.WriteString(w, `{"id": "1", "name": "Rex"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	})
}

func TestContractTest(t *testing.T) {
	svc := httptest.NewServer(petService())
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml")
	s := connect(t, mcp.Options{Root: root})
	res, err := s.cs.CallTool(context.Background(), progressParams(mcp.ToolContractTest, map[string]any{"specs": []string{"pets.yaml"}, "baseUrl": svc.URL}))
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	var out mcp.ContractTestOutput
	decode(t, res, &out)
	if out.Summary.Tests < 2 || out.Summary.Failed == 0 || out.Summary.Passed == 0 || out.Summary.Interrupted {
		t.Fatalf("summary = %+v", out.Summary)
	}
	if listed := countFailed(out.Failed) + out.Omitted; listed != out.Summary.Failed {
		t.Fatalf("%d failed tests listed of %d", listed, out.Summary.Failed)
	}
	f := out.Failed[0]
	if f.Request == nil || f.Request.Method != "GET" || !strings.HasPrefix(f.Request.URL, svc.URL+"/v1/pets/") {
		t.Errorf("request = %+v", f.Request)
	}
	if f.Response == nil || f.Response.Status != 200 || f.Response.Body != `{"id": "1", "name": "Rex"}` {
		t.Errorf("response = %+v", f.Response)
	}
	schemaProblem := slices.IndexFunc(f.Problems, func(p mcp.TestProblem) bool {
		return p.Check == "response_schema_conformance" && p.Path == "$.id" && p.Keyword == "type" && p.In == "body" && strings.HasPrefix(p.Schema, "pets.yaml:")
	})
	if schemaProblem < 0 {
		t.Errorf("problems = %+v, want the schema's type broken at $.id", f.Problems)
	}
	if len(out.Coverage) != 1 || out.Coverage[0].Spec != "pets.yaml" || out.Coverage[0].Operations != 2 {
		t.Errorf("coverage = %+v", out.Coverage)
	} else if c := out.Coverage[0]; c.Selected == 0 || c.Percent != c.Covered*100/c.Selected {
		t.Errorf("coverage percent %d of %+v, want covered of selected as the CLI prints it", c.Percent, c)
	}
	for _, name := range []string{"ctrf-report.json", "junit.xml", "report.html"} {
		if _, err := os.Stat(filepath.Join(root, out.ReportDir, name)); err != nil {
			t.Errorf("report %s: %v", name, err)
		}
	}
	// One notification per test, counting up to the total. Notifications
	// reach the client on their own, so the last may come after the answer.
	var last *mcpsdk.ProgressNotificationParams
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		if n := len(s.progress); n > 0 {
			last = s.progress[n-1]
		}
		s.mu.Unlock()
		if last != nil && last.Progress == float64(out.Summary.Tests) || time.Now().After(deadline) {
			break
		}
	}
	if last == nil {
		t.Fatal("no progress notification")
	}
	if last.Total != float64(out.Summary.Tests) || last.Progress != last.Total {
		t.Errorf("last progress %v of %v, want %d", last.Progress, last.Total, out.Summary.Tests)
	}
}

// countFailed counts the failed tests the entries of an answer cover.
func countFailed(entries []mcp.FailedTest) int {
	n := 0
	for _, f := range entries {
		n += f.Count
	}
	return n
}

func progressParams(name string, args map[string]any) *mcpsdk.CallToolParams {
	p := &mcpsdk.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken("progress-1")
	return p
}

func decode(t *testing.T, res *mcpsdk.CallToolResult, out any) {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatal(err)
	}
}

// slowService holds every request until its client goes away, counting
// the requests it got and those still open.
type slowService struct {
	mu       sync.Mutex
	got      int
	open     int
	arrived  chan struct{}
	released chan struct{}
}

func newSlowService() *slowService {
	return &slowService{arrived: make(chan struct{}, 100), released: make(chan struct{}, 100)}
}

func (s *slowService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.got++
	s.open++
	s.mu.Unlock()
	s.arrived <- struct{}{}
	select {
	case <-r.Context().Done():
	case <-time.After(30 * time.Second):
	}
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
	s.released <- struct{}{}
}

func (s *slowService) counts() (got, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got, s.open
}

func TestCancelledContractTestStopsItsRequests(t *testing.T) {
	slow := newSlowService()
	svc := httptest.NewServer(slow)
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml")
	s := connect(t, mcp.Options{Root: root})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: mcp.ToolContractTest, Arguments: map[string]any{"specs": []string{"pets.yaml"}, "baseUrl": svc.URL}})
		done <- err
	}()
	select {
	case <-slow.arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("no request reached the service")
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call returned no error")
	}
	select {
	case <-slow.released:
	case <-time.After(10 * time.Second):
		t.Fatal("the request in flight was not cancelled")
	}
	got, _ := slow.counts()
	time.Sleep(300 * time.Millisecond)
	if again, open := slow.counts(); again != got || open != 0 {
		t.Errorf("after the cancellation: %d requests (were %d), %d open", again, got, open)
	}
}

func TestTimeLimit(t *testing.T) {
	slow := newSlowService()
	svc := httptest.NewServer(slow)
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml")
	s := connect(t, mcp.Options{Root: root, Timeout: 500 * time.Millisecond})
	start := time.Now()
	var out mcp.ContractTestOutput
	s.call(mcp.ToolContractTest, map[string]any{"specs": []string{"pets.yaml"}, "baseUrl": svc.URL}, &out)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the call took %s", took)
	}
	if !out.Summary.Interrupted || !strings.Contains(out.Summary.Stopped, "time limit of 500ms") {
		t.Errorf("summary = %+v", out.Summary)
	}
	if _, open := slow.counts(); open != 0 {
		time.Sleep(200 * time.Millisecond)
		if _, open := slow.counts(); open != 0 {
			t.Errorf("%d requests still open", open)
		}
	}
}

func TestMockStartCallStop(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml", "pets_examples")
	s := connect(t, mcp.Options{Root: root})
	var started mcp.MockOutput
	s.call(mcp.ToolMock, map[string]any{"command": "start", "specs": []string{"pets.yaml"}}, &started)
	if started.ID != "mock-1" || !strings.HasPrefix(started.Address, "http://127.0.0.1:") || len(started.Mocks) != 1 {
		t.Fatalf("start = %+v", started)
	}
	if len(started.Specs) != 1 || started.Specs[0].Spec != "pets.yaml" || started.Specs[0].URL != started.Address+"/v1" {
		t.Errorf("specs = %+v", started.Specs)
	}
	resp, err := http.Get(started.Specs[0].URL + "/pets?limit=10")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"Tom"`) {
		t.Errorf("GET /pets: %d %s", resp.StatusCode, body)
	}

	var list mcp.MockOutput
	s.call(mcp.ToolMock, map[string]any{"command": "list"}, &list)
	if len(list.Mocks) != 1 || list.Mocks[0].ID != "mock-1" || list.Mocks[0].Address != started.Address {
		t.Errorf("list = %+v", list)
	}
	// The port is taken: a second mock on it says so.
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(started.Address, "http://"))
	msg := s.toolError(mcp.ToolMock, map[string]any{"command": "start", "specs": []string{"pets.yaml"}, "port": atoi(t, port)})
	if !strings.Contains(msg, "address already in use") {
		t.Errorf("second mock on port %s: %q", port, msg)
	}

	var stopped mcp.MockOutput
	s.call(mcp.ToolMock, map[string]any{"command": "stop", "id": "mock-1"}, &stopped)
	if stopped.ID != "mock-1" || len(stopped.Mocks) != 0 {
		t.Errorf("stop = %+v", stopped)
	}
	if conn, err := net.Dial("tcp", strings.TrimPrefix(started.Address, "http://")); err == nil {
		conn.Close()
		t.Error("the stopped mock still listens")
	}
}

func TestCloseStopsMocks(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml")
	srv, err := mcp.New(mcp.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcpsdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for range 2 {
		res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: mcp.ToolMock, Arguments: map[string]any{"command": "start", "specs": []string{"pets.yaml"}}})
		if err != nil || res.IsError {
			t.Fatalf("%v %s", err, text(res))
		}
		var out mcp.MockOutput
		decode(t, res, &out)
		addrs = append(addrs, strings.TrimPrefix(out.Address, "http://"))
	}
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if conn, err := net.Dial("tcp", a); err == nil {
			conn.Close()
			t.Errorf("mock at %s still listens after Close", a)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("%q is not a number", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}
