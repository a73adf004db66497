package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/mcp"
)

// TestStdioProtocolErrors sends what a faulty client may write on standard
// input: a call before initialize gets JSON-RPC's invalid request (-32600),
// a line that is not JSON its parse error (-32700) and one that is JSON but
// no message its invalid request, each with a null id when none can be
// read; the session goes on and answers the requests after them.
func TestStdioProtocolErrors(t *testing.T) {
	srv, err := mcp.New(mcp.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`{not json`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`42`,
		``,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lint","arguments":{"specs":["nope.yaml"]}}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv.ServeStdio(ctx, strings.NewReader(in), &out)

	type answer struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	got := map[string]answer{}
	var order []string
	nulls := map[int]int{} // answers without an id, by error code
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a answer
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("answer %q is not JSON: %v", line, err)
		}
		id := string(a.ID)
		order = append(order, id)
		if id == "null" && a.Error != nil {
			nulls[a.Error.Code]++
			continue
		}
		got[id] = a
	}
	if a, ok := got["1"]; !ok || a.Error == nil || a.Error.Code != -32600 {
		t.Errorf("answer to the call before initialize: %+v, want error -32600 (answers %q)", a, order)
	}
	// {not json, and the call whose last brace is missing (its id cannot
	// be read); 42.
	if want := map[int]int{-32700: 2, -32600: 1}; !maps.Equal(nulls, want) {
		t.Errorf("answers without an id, by code: %v, want %v (answers %q)", nulls, want, order)
	}
	for _, id := range []string{"2", "3", "4", "6"} {
		if a, ok := got[id]; !ok || a.Error != nil || a.Result == nil {
			t.Errorf("answer to %s: %+v (answers %q)", id, a, order)
		}
	}
	if a := got["1"]; a.Error != nil && !strings.Contains(a.Error.Message, "initialize") {
		t.Errorf("the early call's message says nothing of initialize: %q", a.Error.Message)
	}
}
