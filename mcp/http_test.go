package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/mcp"
)

func TestStreamableHTTP(t *testing.T) {
	root := fixtureRoot(t, "pets.yaml")
	srv, err := mcp.New(mcp.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.HTTPHandler(mcp.HTTPOptions{AllowedOrigins: []string{"http://localhost:5173"}}))
	defer ts.Close()

	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcpsdk.StreamableClientTransport{Endpoint: ts.URL + mcp.HTTPPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: mcp.ToolValidateEx, Arguments: map[string]any{"spec": "pets.yaml"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	var out mcp.ValidateExamplesOutput
	decode(t, res, &out)
	if !out.Valid || out.Inline == 0 {
		t.Errorf("validate_examples = %+v", out)
	}

	// A browser page of another origin cannot reach the tools; the
	// server's own and the allowed ones can, and so can clients that send
	// no Origin.
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	for _, tc := range []struct {
		origin    string
		forbidden bool
	}{
		{"http://evil.example", true},
		{"http://127.0.0.1:1", true},
		{"null", true},
		{ts.URL, false},
		{"http://localhost:5173", false},
		{"", false},
	} {
		req, _ := http.NewRequest("POST", ts.URL+mcp.HTTPPath, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.StatusCode == http.StatusForbidden; got != tc.forbidden {
			t.Errorf("Origin %q: status %d", tc.origin, resp.StatusCode)
		}
	}
}
