package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/specgate/specgate/cli"
	"github.com/specgate/specgate/internal/filetest"
)

// TestJSONOutputUnescaped: the JSON of `rules list` and `validate` writes
// <, > and & as they are, as the reports do, not as \u003c, \u003e and
// \u0026; the output stays valid JSON.
func TestJSONOutputUnescaped(t *testing.T) {
	api := filetest.File(t, t.TempDir(), "api.yaml",
		"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  \"/b<&>\":\n    get:\n      bogus<&>: 1\n      responses:\n        '200': {description: ok}\n")
	for _, tc := range []struct {
		args []string
		code int
		want string // a line of the output
	}{
		// Rule descriptions hold code such as `ids=1&ids=2` and <placeholders>.
		{[]string{"rules", "list", "--format", "json"}, cli.ExitOK, "&"},
		{[]string{"validate", "--format", "json", api}, cli.ExitFindings, `"pointer": "/paths/~1b<&>/get/bogus<&>",`},
	} {
		r := specgate(t, nil, tc.args...)
		if r.code != tc.code || !json.Valid([]byte(r.stdout)) {
			t.Fatalf("%v: exit %d (want %d), valid JSON %v\n%s%s", tc.args, r.code, tc.code, json.Valid([]byte(r.stdout)), r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%v: no %q in the output:\n%s", tc.args, tc.want, r.stdout)
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if strings.Contains(r.stdout, esc) {
				t.Errorf("%v: %s in the output", tc.args, esc)
			}
		}
	}
}
