package mcp_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/cli"
	"github.com/specgate/specgate/mcp"
)

// TestMain runs the specgate command line when a test starts this binary
// as a server (SPECGATE_MCP_TEST_MAIN=1), as main.go does; otherwise it
// runs the tests with a cache of compiled rules of their own.
func TestMain(m *testing.M) {
	if os.Getenv("SPECGATE_MCP_TEST_MAIN") == "1" {
		os.Exit(cli.Main(context.Background(), append([]string{"specgate"}, os.Args[1:]...), cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	dir, err := os.MkdirTemp("", "specgate-mcp-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("SPECGATE_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// specgate is a command running specgate with args, as a client starts a
// stdio server.
func specgate(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SPECGATE_MCP_TEST_MAIN=1")
	return cmd
}

// TestStdioProcess drives `specgate mcp` as an editor does: a process
// whose standard input and output carry the session. Closing the session
// ends the process cleanly, and the mocks it started with it.
func TestStdioProcess(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml", "pets_examples", "compat")
	cmd := specgate("mcp", "--root", root)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "editor", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	t.Logf("initialize answered %s after the process started", time.Since(start))
	if info := cs.InitializeResult().ServerInfo; info.Name != "specgate" {
		t.Errorf("server info = %+v", info)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := []string{mcp.ToolCompat, mcp.ToolLint, mcp.ToolMock, mcp.ToolContractTest, mcp.ToolValidateEx, mcp.ToolRunSuite, mcp.ToolGenerateEx, mcp.ToolFixExamples}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}

	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: mcp.ToolValidateEx, Arguments: map[string]any{"spec": "pets.yaml"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	var examples mcp.ValidateExamplesOutput
	decode(t, res, &examples)
	if examples.Valid || len(examples.Invalid) != 2 {
		t.Errorf("validate_examples = %+v", examples)
	}

	res, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: mcp.ToolCompat, Arguments: map[string]any{"base": "compat/base.yaml", "revision": "compat/breaking.yaml"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	var verdict mcp.CompatOutput
	decode(t, res, &verdict)
	if verdict.Verdict != "incompatible" {
		t.Errorf("verdict = %+v", verdict)
	}

	// A tool error leaves the process serving.
	res, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: mcp.ToolLint, Arguments: map[string]any{"specs": []string{"../../etc/passwd"}}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "outside the root") {
		t.Fatalf("%v %s", err, text(res))
	}

	res, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: mcp.ToolMock, Arguments: map[string]any{"command": "start", "specs": []string{"pets.yaml"}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	var started mcp.MockOutput
	decode(t, res, &started)
	resp, err := http.Get(started.Specs[0].URL + "/pets/1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET /pets/1 from the mock: %d", resp.StatusCode)
	}

	if err := cs.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	if st := cmd.ProcessState; st == nil || !st.Exited() || st.ExitCode() != 0 {
		t.Errorf("the server ended with %v\n%s", st, stderr.String())
	}
	if conn, err := net.Dial("tcp", strings.TrimPrefix(started.Address, "http://")); err == nil {
		conn.Close()
		t.Error("the mock still listens after the server exited")
	}
}
