package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/mcp"
)

func TestGenerateExamples(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml")
	s := connect(t, mcp.Options{Root: root})
	var out mcp.GenerateExamplesOutput
	s.call(mcp.ToolGenerateEx, map[string]any{"spec": "pets.yaml", "seed": 7}, &out)
	if out.Dir != "pets_examples" || out.Counts.Written == 0 || out.Counts.Skipped != 0 || len(out.Written) != out.Counts.Written {
		t.Fatalf("generate = %+v", out)
	}
	if !slices.Contains(out.Written, "pets_examples/showPet_200.json") {
		t.Errorf("written = %v", out.Written)
	}
	// What was generated is valid, and a second run overwrites nothing.
	var valid mcp.ValidateExamplesOutput
	s.call(mcp.ToolValidateEx, map[string]any{"spec": "pets.yaml"}, &valid)
	if !valid.Valid || valid.External != out.Counts.Written {
		t.Errorf("the generated examples: %+v", valid)
	}
	var again mcp.GenerateExamplesOutput
	s.call(mcp.ToolGenerateEx, map[string]any{"spec": "pets.yaml", "seed": 7}, &again)
	if again.Counts.Written != 0 || again.Counts.Skipped != out.Counts.Written {
		t.Errorf("second run = %+v", again.Counts)
	}
	if msg := s.toolError(mcp.ToolGenerateEx, map[string]any{"spec": "pets.yaml", "dir": "../elsewhere"}); !strings.Contains(msg, "is outside the root") {
		t.Errorf("dir outside the root: %q", msg)
	}
}

func TestFixExamples(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml", "pets_examples")
	s := connect(t, mcp.Options{Root: root})
	bad := filepath.Join(root, "pets_examples", "bad_name.json")
	before, _ := os.ReadFile(bad)

	var dry mcp.FixExamplesOutput
	s.call(mcp.ToolFixExamples, map[string]any{"spec": "pets.yaml", "dryRun": true}, &dry)
	if len(dry.Fixed) != 1 || dry.Fixed[0].File != "pets_examples/bad_name.json" || dry.Fixed[0].Repaired != 1 {
		t.Fatalf("dry run = %+v", dry)
	}
	if d := dry.Fixed[0].Diff; !strings.Contains(d, `-    "body": {"id": 3, "name": 42}`) || !strings.Contains(d, `+    "body": {"id": 3, "name": "42"}`) {
		t.Errorf("diff = %s", d)
	}
	if after, _ := os.ReadFile(bad); string(after) != string(before) {
		t.Error("the dry run wrote the file")
	}
	// What no repair removes is listed: an undeclared status.
	if len(dry.Left) != 1 || dry.Left[0].Code != "example-status-undeclared" || dry.Left[0].File != "pets_examples/bad_status.json" {
		t.Errorf("left = %+v", dry.Left)
	}

	var fixed mcp.FixExamplesOutput
	s.call(mcp.ToolFixExamples, map[string]any{"spec": "pets.yaml"}, &fixed)
	if len(fixed.Fixed) != 1 || fixed.Fixed[0].Diff != "" {
		t.Fatalf("fix = %+v", fixed)
	}
	var valid mcp.ValidateExamplesOutput
	s.call(mcp.ToolValidateEx, map[string]any{"spec": "pets.yaml"}, &valid)
	if len(valid.Invalid) != 1 || valid.Invalid[0].Example != "bad_status" {
		t.Errorf("after the fix: %+v", valid.Invalid)
	}
}

func TestRunSuite(t *testing.T) {
	svc := httptest.NewServer(petService())
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml", "compat", "specgate.yaml")
	getenv := func(k string) string {
		if k == "SUT_URL" {
			return svc.URL
		}
		return os.Getenv(k)
	}
	s := connect(t, mcp.Options{Root: root, Getenv: getenv})
	var out mcp.SuiteOutput
	s.call(mcp.ToolRunSuite, map[string]any{}, &out)
	if out.Specs != 1 || out.Mocks != 1 || out.Summary.Tests == 0 || out.Summary.Failed == 0 || out.Summary.Passed == 0 {
		t.Fatalf("suite = %+v", out)
	}
	if listed := countFailed(out.Failed) + out.Omitted; listed != out.Summary.Failed {
		t.Fatalf("%d failed tests listed of %d", listed, out.Summary.Failed)
	}
	f := out.Failed[0]
	if f.Response == nil || f.Response.Body != `{"id": "1", "name": "Rex"}` || !strings.HasPrefix(f.Request.URL, svc.URL+"/v1/pets/") {
		t.Errorf("failed = %+v", f)
	}
	i := slices.IndexFunc(f.Problems, func(p mcp.TestProblem) bool {
		return p.Check == "response_schema_conformance" && p.Path == "$.id"
	})
	if i < 0 {
		t.Errorf("problems = %+v", f.Problems)
	}
	if _, err := os.Stat(filepath.Join(root, out.ReportDir, "ctrf-report.json")); err != nil {
		t.Error(err)
	}
	if msg := s.toolError(mcp.ToolRunSuite, map[string]any{"config": "nope.yaml"}); !strings.Contains(msg, `config "nope.yaml": no such file`) {
		t.Errorf("missing config: %q", msg)
	}
}

// A stateful mock keeps what requests create.
func TestStatefulMock(t *testing.T) {
	root := fixtureRoot(t, "store.yaml")
	s := connect(t, mcp.Options{Root: root})
	var started mcp.MockOutput
	s.call(mcp.ToolMock, map[string]any{"command": "start", "specs": []string{"store.yaml"}, "stateful": true}, &started)
	if !started.Mocks[0].Stateful {
		t.Errorf("start = %+v", started)
	}
	resp, err := http.Post(started.Address+"/items", "application/json", strings.NewReader(`{"name": "cup"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created map[string]any
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != 201 || created["name"] != "cup" {
		t.Fatalf("POST /items: %d %v", resp.StatusCode, created)
	}
	resp, err = http.Get(fmt.Sprintf("%s/items/%v", started.Address, created["id"]))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if resp.StatusCode != 200 || got["name"] != "cup" || got["id"] != created["id"] {
		t.Errorf("GET the created item: %d %v", resp.StatusCode, got)
	}
	var stopped mcp.MockOutput
	s.call(mcp.ToolMock, map[string]any{"command": "stop", "id": "all"}, &stopped)
	if len(stopped.Mocks) != 0 {
		t.Errorf("stop all = %+v", stopped)
	}
}

// Git mode compares the working tree with a base branch; targetPaths and
// repoDir are resolved against the root.
func TestCompatGitMode(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, "api"), 0o755)
	base, _ := os.ReadFile("testdata/compat/base.yaml")
	breaking, _ := os.ReadFile("testdata/compat/breaking.yaml")
	spec := filepath.Join(repo, "api", "orders.yaml")
	os.WriteFile(spec, base, 0o644)
	gittest.Init(t, repo)
	gittest.Commit(t, repo, "base")
	gittest.Run(t, repo, "checkout", "-q", "-b", "feature")
	os.WriteFile(spec, breaking, 0o644)

	s := connect(t, mcp.Options{Root: root})
	var out mcp.CompatOutput
	s.call(mcp.ToolCompat, map[string]any{"git": map[string]any{"baseBranch": "main", "repoDir": "repo", "targetPaths": []string{"repo/api"}}}, &out)
	if out.Mode != "git" || out.Base != "main" || len(out.Commit) != 40 || out.Verdict != "incompatible" || len(out.Specs) != 1 {
		t.Fatalf("git mode = %+v", out)
	}
	if sp := out.Specs[0]; sp.Spec != "repo/api/orders.yaml" || !strings.HasPrefix(sp.Message, "repo/api/orders.yaml is NOT backward compatible with main") {
		t.Errorf("spec %q: %q", sp.Spec, sp.Message)
	}
	ch := out.Specs[0].Changes
	if len(ch) != 1 || ch[0].Rule != "request-property-became-required" || ch[0].Revision == nil || ch[0].Revision.File != "repo/api/orders.yaml" || ch[0].Revision.Line != 26 {
		t.Errorf("changes = %+v", ch)
	}
	if msg := s.toolError(mcp.ToolCompat, map[string]any{"git": map[string]any{"baseBranch": "nope", "repoDir": "repo"}}); !strings.Contains(msg, `base branch "nope" not found`) || !strings.Contains(msg, "(name another with git.baseBranch)") {
		t.Errorf("unknown branch: %q", msg)
	}
}

// An answer lists MaxItems problems; the report names them all.
func TestValidateExamplesBounded(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml")
	dir := filepath.Join(root, "pets_examples")
	os.MkdirAll(dir, 0o755)
	const n = mcp.MaxItems + 5
	for i := range n {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("teapot_%02d.json", i)),
			[]byte(`{"http-request": {"method": "GET", "path": "/pets/1"}, "http-response": {"status": 418}}`), 0o644)
	}
	s := connect(t, mcp.Options{Root: root})
	var out mcp.ValidateExamplesOutput
	s.call(mcp.ToolValidateEx, map[string]any{"spec": "pets.yaml"}, &out)
	if len(out.Invalid) != mcp.MaxItems || out.Omitted != n-mcp.MaxItems || !strings.HasPrefix(out.Report, "specgate-reports/mcp/validate_examples-") {
		t.Fatalf("%d listed, %d omitted, report %q", len(out.Invalid), out.Omitted, out.Report)
	}
	data, err := os.ReadFile(filepath.Join(root, out.Report))
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Invalid []mcp.ExampleProblem `json:"invalid"`
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Invalid) != n || report.Invalid[n-1].File != fmt.Sprintf("pets_examples/teapot_%02d.json", n-1) {
		t.Errorf("the report holds %d problems, the last %+v", len(report.Invalid), report.Invalid[len(report.Invalid)-1])
	}
}

// TestRefusals checks that a tool given a document of a format it does not
// read says so in the same words as its description, naming the tools
// that read it, and that messages advise what a tool's caller can do, not
// the command line's flags.
func TestRefusals(t *testing.T) {
	root := fixtureRoot(t, "refs", "formats")
	s := connect(t, mcp.Options{Root: root})
	arazzo := "refs/shop.arazzo.yaml is Arazzo 1.0.1: %s reads OpenAPI 2.0 and 3.x descriptions; run its workflows with run_contract_test or run_suite"
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{mcp.ToolValidateEx, map[string]any{"spec": "refs/shop.arazzo.yaml"}, fmt.Sprintf(arazzo, mcp.ToolValidateEx)},
		{mcp.ToolGenerateEx, map[string]any{"spec": "refs/shop.arazzo.yaml"}, fmt.Sprintf(arazzo, mcp.ToolGenerateEx)},
		{mcp.ToolFixExamples, map[string]any{"spec": "refs/shop.arazzo.yaml"}, fmt.Sprintf(arazzo, mcp.ToolFixExamples)},
		{mcp.ToolMock, map[string]any{"command": "start", "specs": []string{"refs/shop.arazzo.yaml"}}, fmt.Sprintf(arazzo, mcp.ToolMock)},
		{mcp.ToolMock, map[string]any{"command": "start", "specs": []string{"formats/proto/base/api.proto"}},
			"formats/proto/base/api.proto is Protocol Buffers proto3: manage_mock_server reads OpenAPI 2.0 and 3.x descriptions"},
		{mcp.ToolCompat, map[string]any{"base": "refs/shop.arazzo.yaml", "revision": "refs/shop.arazzo.yaml"},
			"refs/shop.arazzo.yaml is Arazzo 1.0.1: backward_compatibility_check reads OpenAPI 2.0 and 3.x, AsyncAPI 2.x and 3.x, Protocol Buffers (gRPC), GraphQL and WSDL 1.1; run its workflows with run_contract_test or run_suite"},
	} {
		if msg := s.toolError(tc.tool, tc.args); msg != tc.want {
			t.Errorf("%s %v:\n got %q\nwant %q", tc.tool, tc.args, msg, tc.want)
		}
	}

	var out mcp.LintOutput
	s.call(mcp.ToolLint, map[string]any{"specs": []string{"refs/api.yaml", "refs/remote.arazzo.yaml"}}, &out)
	var messages []string
	for _, f := range out.Findings {
		messages = append(messages, f.Message)
	}
	all := strings.Join(messages, "\n")
	for _, want := range []string{"the server reads files under its root only (start it with another --root to read elsewhere)", "a remote document, which the server does not fetch"} {
		if !strings.Contains(all, want) {
			t.Errorf("no finding says %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "--allow-") || strings.Contains(all, "--ref-root") {
		t.Errorf("findings advise command line flags:\n%s", all)
	}
}

// TestLintSkipsLinksOutsideTheRoot: a glob that reaches a symbolic link
// leading outside the root lints the other files and lists the link as
// not linted, rather than failing the call; a link named itself is still
// refused.
func TestLintSkipsLinksOutsideTheRoot(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"openapi": "3.1.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "specs", "more"), 0o755)
	os.WriteFile(filepath.Join(root, "specs", "a.json"), []byte(`{"openapi": "3.1.0", "info": {"title": "A", "version": "1"}, "paths": {}}`), 0o644)
	os.WriteFile(filepath.Join(root, "specs", "more", "b.json"), []byte(`{"openapi": "3.1.0", "info": {"title": "B", "version": "1"}, "paths": {}}`), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "specs", "link.json")); err != nil {
		t.Fatal(err)
	}
	s := connect(t, mcp.Options{Root: root})
	var out mcp.LintOutput
	s.call(mcp.ToolLint, map[string]any{"specs": []string{"**/*.json"}}, &out)
	var got []string
	for _, f := range out.Files {
		got = append(got, f.File+" "+f.Format+" "+f.Error)
	}
	want := []string{
		"specs/a.json OpenAPI 3.1.0 ",
		"specs/link.json  not linted: a symbolic link to " + filepath.Join(outside, "secret.json") + ", outside the root",
		"specs/more/b.json OpenAPI 3.1.0 ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%q\nwant\n%q", got, want)
	}
	if msg := s.toolError(mcp.ToolLint, map[string]any{"specs": []string{"specs/link.json"}}); !strings.Contains(msg, "is outside the root") {
		t.Errorf("the link named itself: %q", msg)
	}
}

// TestWorkflows runs Arazzo workflows through run_contract_test (as
// specgate test does) and run_suite, each with inputs by workflowId; a
// workflowId the documents do not have and missing inputs are tool errors
// before anything runs.
func TestWorkflows(t *testing.T) {
	svc := httptest.NewServer(petService())
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml", "flows")
	s := connect(t, mcp.Options{Root: root, Getenv: func(k string) string {
		if k == "SUT_URL" {
			return svc.URL
		}
		return os.Getenv(k)
	}})
	inputs := map[string]any{"read-pet": map[string]any{"petId": 1}}
	wantFailed := mcp.FailedTest{Test: "read-pet › read: GET /pets/{petId} (showPet)", Count: 1, Source: "flows/pets.arazzo.yaml:14",
		Reason: `success criterion "$response.body#/name == 'Tom'" did not hold ($response.body#/name is "Rex")`}
	check := func(name string, sum mcp.TestSummary, failed []mcp.FailedTest) {
		t.Helper()
		if sum.Tests != 2 || sum.Passed != 1 || sum.Failed != 1 || len(failed) != 1 {
			t.Fatalf("%s: summary %+v, failed %+v", name, sum, failed)
		}
		f := failed[0]
		if f.Test != wantFailed.Test || f.Count != 1 || f.Source != wantFailed.Source || f.Reason != wantFailed.Reason {
			t.Errorf("%s: failed %+v\nwant %+v", name, f, wantFailed)
		}
		if f.Request == nil || f.Request.URL != svc.URL+"/v1/pets/1" || f.Response == nil || f.Response.Status != 200 {
			t.Errorf("%s: exchange %+v %+v", name, f.Request, f.Response)
		}
		// The exchange breaks the contract too: id is a string.
		if !slices.ContainsFunc(f.Problems, func(p mcp.TestProblem) bool { return p.Path == "$.id" && p.Keyword == "type" }) {
			t.Errorf("%s: problems %+v", name, f.Problems)
		}
	}

	var ct mcp.ContractTestOutput
	s.call(mcp.ToolContractTest, map[string]any{"specs": []string{"flows/pets.arazzo.yaml"}, "baseUrl": svc.URL, "inputs": inputs}, &ct)
	check(mcp.ToolContractTest, ct.Summary, ct.Failed)

	var st mcp.SuiteOutput
	s.call(mcp.ToolRunSuite, map[string]any{"config": "flows/specgate.yaml", "inputs": inputs}, &st)
	check(mcp.ToolRunSuite, st.Summary, st.Failed)
	if st.Workflows != 2 || st.Specs != 0 {
		t.Errorf("suite ran %d workflows and %d specs", st.Workflows, st.Specs)
	}
	// One shard of two runs the document or nothing; together they run it.
	var one, two mcp.SuiteOutput
	s.call(mcp.ToolRunSuite, map[string]any{"config": "flows/specgate.yaml", "inputs": inputs, "shard": "1/2"}, &one)
	s.call(mcp.ToolRunSuite, map[string]any{"config": "flows/specgate.yaml", "inputs": inputs, "shard": "2/2"}, &two)
	if one.Summary.Tests+two.Summary.Tests != 2 || one.Workflows+two.Workflows != 2 {
		t.Errorf("shards ran %d and %d tests", one.Summary.Tests, two.Summary.Tests)
	}

	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{mcp.ToolContractTest, map[string]any{"specs": []string{"flows/pets.arazzo.yaml"}, "baseUrl": svc.URL, "inputs": map[string]any{"read-pets": map[string]any{"petId": 1}}},
			`inputs: inputs of workflow "read-pets", which no Arazzo document of the run has; did you mean "read-pet"?`},
		{mcp.ToolContractTest, map[string]any{"specs": []string{"flows/pets.arazzo.yaml"}, "baseUrl": svc.URL},
			`flows/pets.arazzo.yaml: workflow "read-pet" cannot run: input "petId" is missing (give the inputs of each workflow by its workflowId in the input inputs)`},
		{mcp.ToolRunSuite, map[string]any{"config": "flows/specgate.yaml"}, `workflow "read-pet" cannot run: input "petId" is missing`},
		{mcp.ToolRunSuite, map[string]any{"config": "flows/specgate.yaml", "shard": "3/2"}, "shard: "},
		{mcp.ToolContractTest, map[string]any{"specs": []string{"flows/pets.arazzo.yaml", "pets.yaml"}, "baseUrl": svc.URL}, "specs mixes Arazzo documents and OpenAPI descriptions"},
		{mcp.ToolContractTest, map[string]any{"specs": []string{"flows/pets.arazzo.yaml"}, "baseUrl": svc.URL, "negative": true, "inputs": inputs}, "are for OpenAPI descriptions"},
		{mcp.ToolContractTest, map[string]any{"specs": []string{"pets.yaml"}, "baseUrl": svc.URL, "inputs": inputs}, "specs names no Arazzo document"},
	} {
		if msg := s.toolError(tc.tool, tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("%s %v:\n got %q\nwant %q", tc.tool, tc.args, msg, tc.want)
		}
	}
}

// TestFailuresGroupedAndAlike checks that the tests that failed the same
// way are one entry with their count and titles (an unreachable service is
// one entry, whatever the number of tests), that run_contract_test and
// run_suite show a failure alike (its title once, the example file it
// comes from), and that an answer stays small.
func TestFailuresGroupedAndAlike(t *testing.T) {
	svc := httptest.NewServer(petService())
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml", "pets_examples", "compat", "specgate.yaml")
	sut := svc.URL
	s := connect(t, mcp.Options{Root: root, Getenv: func(k string) string {
		if k == "SUT_URL" {
			return sut
		}
		return os.Getenv(k)
	}})

	var ct mcp.ContractTestOutput
	s.call(mcp.ToolContractTest, map[string]any{"specs": []string{"pets.yaml"}, "baseUrl": svc.URL}, &ct)
	var st mcp.SuiteOutput
	s.call(mcp.ToolRunSuite, map[string]any{}, &st)
	if len(ct.Failed) == 0 || !reflect.DeepEqual(ct.Failed, st.Failed) {
		t.Errorf("run_contract_test and run_suite show the failures differently:\n%+v\n%+v", ct.Failed, st.Failed)
	}
	for _, f := range ct.Failed {
		if strings.Count(f.Test, "GET /pets") != 1 || f.Source == "pets.yaml" || f.Source == "" {
			t.Errorf("failure %q from %q", f.Test, f.Source)
		}
	}
	if i := slices.IndexFunc(ct.Failed, func(f mcp.FailedTest) bool { return strings.HasPrefix(f.Source, "pets_examples/bad_name.json:") }); i < 0 {
		t.Errorf("no failure from its example file: %+v", ct.Failed)
	}

	sut = "http://127.0.0.1:1"
	res, err := s.cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: mcp.ToolRunSuite, Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	decode(t, res, &st)
	if len(st.Failed) != 1 || st.Failed[0].Count != st.Summary.Failed || st.Summary.Failed < 4 {
		t.Fatalf("unreachable: %d failed, entries %+v", st.Summary.Failed, st.Failed)
	}
	f := st.Failed[0]
	if !strings.Contains(f.Reason, "the service could not be reached") || len(f.Others) != min(mcp.MaxOthers, f.Count-1) {
		t.Errorf("unreachable: %+v", f)
	}
	data, _ := json.Marshal(res.StructuredContent)
	if len(data) > 2048 {
		t.Errorf("the answer of %d failures is %d bytes:\n%s", f.Count, len(data), data)
	}
}

// TestSuiteProgress: run_suite's progress counts the suite's tests, the
// workflow steps with the contract tests, against the total its summary
// ends with.
func TestSuiteProgress(t *testing.T) {
	svc := httptest.NewServer(petService())
	defer svc.Close()
	root := fixtureRoot(t, "pets.yaml", "compat", "specgate.yaml")
	s := connect(t, mcp.Options{Root: root, Getenv: func(k string) string {
		if k == "SUT_URL" {
			return svc.URL
		}
		return os.Getenv(k)
	}})
	res, err := s.cs.CallTool(context.Background(), progressParams(mcp.ToolRunSuite, map[string]any{}))
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	var out mcp.SuiteOutput
	decode(t, res, &out)
	total := float64(out.Summary.Tests)
	var seen []*mcpsdk.ProgressNotificationParams
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		seen = slices.Clone(s.progress)
		s.mu.Unlock()
		if n := len(seen); n > 0 && seen[n-1].Progress == total {
			break
		}
	}
	if len(seen) == 0 || total == 0 {
		t.Fatalf("%d notifications for %v tests", len(seen), total)
	}
	for _, p := range seen {
		if p.Total != total {
			t.Errorf("notification %v of %v (%q); the summary counts %v tests", p.Progress, p.Total, p.Message, total)
		}
	}
	if last := seen[len(seen)-1]; last.Progress != total {
		t.Errorf("last notification %v of %v", last.Progress, last.Total)
	}
}
