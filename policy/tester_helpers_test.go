package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/policy"
)

// TestRunTestsHelpers: a test may call the helpers of a test module given
// beside the test files, whose own tests do not run; a helper whose
// package a test file declares is left out, so the file's own copy wins.
func TestRunTestsHelpers(t *testing.T) {
	helper := &policy.Source{File: "specgate:rules/lib/h_test.rego", Text: `package h_test

doc := {"from": "helper"}

test_the_helpers_own if false
`}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	uses := write("uses_test.rego", `package uses_test

test_calls_the_helper if data.h_test.doc.from == "helper"
`)
	results, err := policy.RunTests(context.Background(), &policy.Registry{}, []string{uses}, helper)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Name != "uses_test.test_calls_the_helper" || results[0].Failed || results[0].Err != nil {
		t.Fatalf("results = %+v, want test_calls_the_helper alone, passing", results)
	}

	own := write("h_test.rego", `package h_test

doc := {"from": "file"}

test_own_copy if doc.from == "file"
`)
	results, err = policy.RunTests(context.Background(), &policy.Registry{}, []string{own}, helper)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Name != "h_test.test_own_copy" || results[0].Failed || results[0].Err != nil {
		t.Fatalf("results = %+v, want the file's own test alone, passing", results)
	}
}
