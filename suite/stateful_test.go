package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/reports"
)

// ctrfTest is a test of the combined CTRF report, as these tests read it.
type ctrfTest struct {
	Name, Status, Message string
	Suite                 []string
	Type                  string
	Extra                 map[string]any
}

// runIn writes specgate.yaml into dir, runs its suite with the combined
// reports in dir/reports, and returns the summary and the CTRF report's
// tests, checked against the CTRF schema.
func runIn(t *testing.T, dir, cfg string, inputs map[string]map[string]any) (*Summary, []ctrfTest) {
	t.Helper()
	file := filepath.Join(dir, "specgate.yaml")
	if err := os.WriteFile(file, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(file, config.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	reportDir := filepath.Join(dir, "reports")
	if err := os.MkdirAll(reportDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctrf := filepath.Join(reportDir, "ctrf-report.json")
	sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: ctrf}, reports.Output{Format: "junit", Path: filepath.Join(reportDir, "junit.xml")},
		reports.Output{Format: "html", Path: filepath.Join(reportDir, "report.html")})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), Options{Config: c, Inputs: inputs, Parallel: 1}, sink, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ctrf)
	if err != nil {
		t.Fatal(err)
	}
	validateCTRF(t, data)
	var rep struct{ Results struct{ Tests []ctrfTest } }
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"junit.xml", "report.html"} {
		if st, err := os.Stat(filepath.Join(reportDir, f)); err != nil || st.Size() == 0 {
			t.Errorf("the combined report %s is not written: %v", f, err)
		}
	}
	return sum, rep.Results.Tests
}

// outcomes lists each step as "suite › step: status".
func outcomes(tests []ctrfTest) []string {
	var out []string
	for _, tc := range tests {
		out = append(out, strings.Join(tc.Suite, " › ")+" › "+strings.SplitN(tc.Name, ":", 2)[0]+": "+tc.Status)
	}
	return out
}

func copyFiles(t *testing.T, dst string, files map[string]string) {
	t.Helper()
	for to, from := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// suiteConfig is a specgate.yaml whose system under test is the Arazzo
// documents and whose dependencies are one mock of the given type per
// OpenAPI description, each on a free port.
func suiteConfig(arazzo []string, mockType string, openapi ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 3\nsystemUnderTest:\n  service:\n    definitions:\n      - definition:\n          specs: [%s]\n", strings.Join(arazzo, ", "))
	b.WriteString("  runOptions:\n    openapi:\n      type: test\ndependencies:\n  services:\n")
	for _, spec := range openapi {
		fmt.Fprintf(&b, "    - service:\n        definitions:\n          - definition:\n              specs: [%s]\n", spec)
		fmt.Fprintf(&b, "      runOptions:\n        openapi:\n          type: %s\n          port: 0\n", mockType)
	}
	return b.String()
}

// TestCreateThenRead runs a workflow that registers a pet, reads it back,
// renames it and reads the new name, against a mock of the pets API. It
// passes end to end against the stateful mock, which keeps what the
// workflow created and changed; against the stateless mock the read gets
// the spec's example (Felix) instead of the pet just created, and fails.
func TestCreateThenRead(t *testing.T) {
	inputs := map[string]map[string]any{"register-pet": {"name": "Tom", "newName": "Thomas"}}
	for _, tc := range []struct {
		mockType string
		want     []string
		failed   int
	}{
		{"stateful-mock", []string{"create: passed", "read: passed", "rename: passed", "read-again: passed"}, 0},
		{"mock", []string{"create: passed", "read: failed", "rename: skipped", "read-again: skipped"}, 1},
	} {
		t.Run(tc.mockType, func(t *testing.T) {
			dir := t.TempDir()
			copyFiles(t, dir, map[string]string{"pets.openapi.yaml": "testdata/stateful/pets.openapi.yaml", "register.arazzo.yaml": "testdata/stateful/register.arazzo.yaml"})
			sum, tests := runIn(t, dir, suiteConfig([]string{"register.arazzo.yaml"}, tc.mockType, "pets.openapi.yaml"), inputs)
			var got []string
			for _, o := range outcomes(tests) {
				got = append(got, strings.TrimPrefix(o, "register.arazzo.yaml › register-pet › "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("steps:\n got %q\nwant %q", got, tc.want)
			}
			if sum.Failed != tc.failed || sum.Mocks != 1 || sum.Workflows != 1 {
				t.Errorf("failed %d, mocks %d, workflows %d; want %d, 1, 1", sum.Failed, sum.Mocks, sum.Workflows, tc.failed)
			}
			last := tests[len(tests)-1]
			switch tc.mockType {
			case "stateful-mock":
				if outs, _ := last.Extra["stepOutputs"].(map[string]any); outs["name"] != "Thomas" {
					t.Errorf("read-again read %v, want the new name Thomas", last.Extra["stepOutputs"])
				}
			case "mock":
				want := `success criterion "$response.body#/name == $inputs.name" did not hold ($response.body#/name is "Felix", $inputs.name is "Tom")`
				if msg := tests[1].Message; msg != want {
					t.Errorf("read failed with %q, want %q", msg, want)
				}
			}
		})
	}
}

// TestSpecExamplesAgainstStatefulMocks runs the Arazzo specification's
// examples that can run with specgate run-suite against the stateful mock
// of their OpenAPI descriptions, and checks that the combined report has
// every step's outcome. oauth.arazzo.yaml is valid as published; its
// description declares no response bodies, so the mock answers the token
// and authorize calls with none and the steps whose criteria read
// access_token fail (those after them are skipped). The source of
// ExtendedParametersExample.arazzo.yaml, ./animals.yaml, is not published:
// the test copy gets one (testdata/stateful/animals.yaml) declaring the
// two operations and the parameters the workflow sends, and both steps
// pass. The other examples are invalid for reasons a source on disk does
// not change (arazzo/check_test.go lists them).
func TestSpecExamplesAgainstStatefulMocks(t *testing.T) {
	examples := filepath.Join("..", "..", "shared", "arazzo", "examples", "1.0.0")
	if _, err := os.Stat(examples); err != nil {
		t.Skip("../shared/arazzo is not beside the repository")
	}
	dir := t.TempDir()
	copyFiles(t, dir, map[string]string{
		"oauth.arazzo.yaml":                     filepath.Join(examples, "oauth.arazzo.yaml"),
		"oauth.openapi.yaml":                    filepath.Join(examples, "oauth.openapi.yaml"),
		"ExtendedParametersExample.arazzo.yaml": filepath.Join(examples, "ExtendedParametersExample.arazzo.yaml"),
		"animals.yaml":                          "testdata/stateful/animals.yaml",
	})
	inputs := map[string]map[string]any{
		"refresh-token-flow":      {"my_client_id": "app", "my_client_secret": "s3cret", "my_redirect_uri": "https://app.example/cb"},
		"client-credentials-flow": {"client_id": "app", "client_secret": "s3cret"},
		"authorization-code-flow": {"client_id": "app", "client_secret": "s3cret", "redirect_uri": "https://app.example/cb"},
	}
	cfg := suiteConfig([]string{"oauth.arazzo.yaml", "ExtendedParametersExample.arazzo.yaml"}, "stateful-mock", "oauth.openapi.yaml", "animals.yaml")
	sum, tests := runIn(t, dir, cfg, inputs)
	want := []string{
		"oauth.arazzo.yaml › authorization-code-flow (called by refresh-token-flow.do-the-auth-flow) › browser-authorize: failed",
		"oauth.arazzo.yaml › authorization-code-flow (called by refresh-token-flow.do-the-auth-flow) › get-access-token: skipped",
		"oauth.arazzo.yaml › refresh-token-flow › do-the-auth-flow: failed",
		"oauth.arazzo.yaml › refresh-token-flow › do-the-refresh: skipped",
		"oauth.arazzo.yaml › client-credentials-flow › get-client-creds-token: failed",
		"oauth.arazzo.yaml › authorization-code-flow › browser-authorize: failed",
		"oauth.arazzo.yaml › authorization-code-flow › get-access-token: skipped",
		"ExtendedParametersExample.arazzo.yaml › animal-workflow › post-step: passed",
		"ExtendedParametersExample.arazzo.yaml › animal-workflow › get-step: passed",
	}
	if got := outcomes(tests); !slices.Equal(got, want) {
		t.Errorf("steps:\n got %q\nwant %q", got, want)
	}
	if sum.Mocks != 2 || sum.Workflows != 4 {
		t.Errorf("%d mocks, %d workflows; want 2, 4", sum.Mocks, sum.Workflows)
	}
	for _, tc := range tests {
		if tc.Status == "failed" && !strings.Contains(tc.Message, "access_token") && !strings.Contains(tc.Message, "did not pass") {
			t.Errorf("%s failed for another reason than the missing access_token: %s", tc.Name, tc.Message)
		}
		if tc.Status != "skipped" && tc.Extra["outputs"] == nil && !strings.Contains(tc.Name, "workflow ") {
			t.Errorf("step %s has no exchanges in extra.outputs", tc.Name)
		}
	}
}
