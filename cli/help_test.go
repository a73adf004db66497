package cli_test

import (
	"strings"
	"testing"

	"github.com/specgate/specgate/cli"
)

// TestCommandExitCodes pins the exit codes of help, version and unknown
// commands, which the scripts can only tell apart as zero or not.
func TestCommandExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{}, cli.ExitOK, "USAGE:", ""},
		{[]string{"help"}, cli.ExitOK, "COMMANDS:", ""},
		{[]string{"help", "validate"}, cli.ExitOK, "specgate validate - ", ""},
		{[]string{"version"}, cli.ExitOK, "specgate version ", ""},
		{[]string{"--version"}, cli.ExitOK, "specgate version ", ""},
		{[]string{"lnt"}, cli.ExitUsage, "", `unknown command "lnt" (did you mean "lint"?)`},
		{[]string{"frobnicate", "x.yaml"}, cli.ExitUsage, "", `unknown command "frobnicate"; see 'specgate --help'`},
		{[]string{"help", "nope"}, cli.ExitUsage, "", `unknown command "nope"`},
		{[]string{"--help"}, cli.ExitOK, "COMMANDS:", ""},
		{[]string{"-h"}, cli.ExitOK, "COMMANDS:", ""},
		{[]string{"rules"}, cli.ExitOK, "specgate rules - ", ""},
		{[]string{"rules", "tst"}, cli.ExitUsage, "", `unknown command "tst" (did you mean "test"?); see 'specgate rules --help'`},
		{[]string{"rules", "list", "--bogus"}, cli.ExitUsage, "", `flag provided but not defined: -bogus (see 'specgate rules list --help')`},
		{[]string{"lint", "--bogus", "x.yaml"}, cli.ExitUsage, "", `(see 'specgate lint --help')`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := specgate(t, nil, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tc.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tc.stdout) {
				t.Errorf("stdout %q does not contain %q", r.stdout, tc.stdout)
			}
			if tc.stderr == "" && r.stderr != "" || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tc.stderr)
			}
		})
	}
}
