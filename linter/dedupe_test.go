package linter_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestViolationsThatLocateAlikeAreOneDiagnostic: violations of absent
// fields of one object locate at that object; with one message they are
// one diagnostic, however many there are (enough for several cores to
// locate them).
func TestViolationsThatLocateAlikeAreOneDiagnostic(t *testing.T) {
	l := userRuleLinter(t, "absent", `violations contains {"path": ["info", sprintf("x-absent-%d", [i])], "message": "info lacks something"} if {
	some i in numbers.range(1, 5000)
}

violations contains {"path": ["info", "title"], "message": "the title is short"} if true
`)
	file := filepath.Join(t.TempDir(), "api.yaml")
	if err := os.WriteFile(file, []byte("openapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\npaths: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := l.LintFile(context.Background(), file)
	var got []string
	for _, d := range res.Findings {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Col, d.Pointer, d.Message))
	}
	want := []string{"2:1 /info info lacks something", "3:3 /info/title the title is short"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("diagnostics %q, want %q", got, want)
	}
}
