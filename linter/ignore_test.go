package linter_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An x-lint-ignore id that names no rule silences nothing: the result
// warns of it where it is written, with the nearest id, and its findings
// stay as they are.
func TestUnknownIgnoreIsAWarning(t *testing.T) {
	l := userRuleLinter(t, "info-license", `violations contains {"path": ["info"], "message": "info has no license"} if not input.info.license
`)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"list.yaml":  "openapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\n  x-lint-ignore: [info-license, info-licence]\npaths: {}\n",
		"one.yaml":   "openapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\n  x-lint-ignore: specgate/info-licnse\npaths: {}\n",
		"known.yaml": "openapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\n  x-lint-ignore: [specgate/info-license]\npaths: {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file     string
		warnings []string
		findings int
	}{
		{"list.yaml", []string{`list.yaml:5:33: x-lint-ignore names no rule "info-licence", and silences nothing; did you mean "info-license"?`}, 0},
		{"one.yaml", []string{`one.yaml:5:18: x-lint-ignore names no rule "specgate/info-licnse", and silences nothing; did you mean "info-license"?`}, 1},
		{"known.yaml", nil, 0},
	} {
		res := l.LintFile(context.Background(), filepath.Join(dir, tc.file))
		var got []string
		for _, w := range res.Warnings {
			got = append(got, strings.TrimPrefix(w, dir+string(filepath.Separator)))
		}
		if !slices.Equal(got, tc.warnings) || len(res.Findings) != tc.findings {
			t.Errorf("%s: warnings %q and %d findings, want %q and %d", tc.file, got, len(res.Findings), tc.warnings, tc.findings)
		}
	}
}
