package mcp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/mcp"
)

// The tools that run contract tests return the warnings specgate test and
// run-suite print before a run, in the structured answer and in its text:
// here the bearer scheme that has no credential, whose placeholder is
// sent. run_contract_test says to give it in its input.
func TestContractTestWarnings(t *testing.T) {
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok": true}`)
	}))
	defer svc.Close()
	root := fixtureRoot(t, "secured")
	getenv := func(k string) string {
		if k == "SUT_URL" {
			return svc.URL
		}
		return ""
	}
	s := connect(t, mcp.Options{Root: root, Getenv: getenv})
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		want       []string
	}{
		{"contract test", mcp.ToolContractTest, map[string]any{"specs": []string{"secured/secured.yaml"}, "baseUrl": svc.URL},
			[]string{`secured/secured.yaml: no credential for security scheme bearer (sending "specgate-token"): give it in the input credentials, by scheme name (docs/test.md, Authentication)`}},
		{"contract test with the credential", mcp.ToolContractTest,
			map[string]any{"specs": []string{"secured/secured.yaml"}, "baseUrl": svc.URL, "credentials": map[string]string{"bearer": "t0ken"}}, nil},
		{"suite", mcp.ToolRunSuite, map[string]any{"config": "secured/specgate.yaml"},
			[]string{`secured.yaml: no credential for security scheme bearer (sending "specgate-token"): set the environment variable bearer=…, or give it in specgate.yaml's securitySchemes (docs/test.md, Authentication)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil || res.IsError {
				t.Fatalf("%v %s", err, text(res))
			}
			var out struct {
				Summary  mcp.TestSummary `json:"summary"`
				Warnings []string        `json:"warnings"`
			}
			decode(t, res, &out)
			if out.Summary.Tests == 0 || out.Summary.Failed != 0 {
				t.Errorf("summary = %+v, want tests that pass", out.Summary)
			}
			if !slices.Equal(out.Warnings, tc.want) {
				t.Errorf("warnings = %q\nwant %q", out.Warnings, tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(text(res), strings.ReplaceAll(w, `"`, `\"`)) {
					t.Errorf("the answer's text lacks the warning %q:\n%s", w, text(res))
				}
			}
		})
	}
}
