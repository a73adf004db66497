package policy_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/specgate/specgate/policy"
)

// TestTestInput: a Rego test builds its input as lint does with
// specgate.test_input, from YAML text or from an object; a document that
// does not load fails the test with the loader's position.
func TestTestInput(t *testing.T) {
	test := `package t_test

test_text if {
	i := specgate.test_input("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a/{id}: {}\n")
	i.format == "openapi"
	i.pathItems[0].shape == ["a", "{}"]
}

test_object if {
	i := specgate.test_input({"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {}})
	i.formats == ["oas", "oas2"]
}

test_broken if {
	specgate.test_input("openapi: 3.1.0\ninfo: [\n")
}
`
	outcome := runRegoTests(t, test)
	if outcome["t_test.test_text"] != "ok" || outcome["t_test.test_object"] != "ok" {
		t.Errorf("outcomes = %v, want test_text and test_object ok", outcome)
	}
	if got := outcome["t_test.test_broken"]; !strings.Contains(got, "specgate.test_input: test.yaml:3:1:") {
		t.Errorf("test_broken: %s, want an error at test.yaml:3:1", got)
	}
}

// TestTestInputFiles: specgate.test_input_files builds the input of a
// document of several files, whose entry is test.yaml: references between
// the files resolve, a missing one is unresolved with the file it is
// written in, and names that leave the test's folder are refused.
func TestTestInputFiles(t *testing.T) {
	test := `package t_test

test_files if {
	i := specgate.test_input_files({
		"test.yaml": "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\ndefinitions:\n  Pet: {$ref: 'models/pet.yaml'}\n",
		"models/pet.yaml": {"type": "object", "properties": {"tag": {"$ref": "tag.yaml"}, "owner": {"$ref": "../owner.yaml"}}},
		"models/tag.yaml": {"type": "string"},
	})
	[r] := [r | some r in i.refs; r.ref == "../owner.yaml"]
	r.file == "models/pet.yaml"
	r.target == null
	[t] := [r | some r in i.refs; r.ref == "tag.yaml"]
	t.file == "models/pet.yaml"
	t.targetFile == "models/tag.yaml"
}

test_no_entry if {
	specgate.test_input_files({"other.yaml": {}})
}

test_outside if {
	specgate.test_input_files({"test.yaml": {}, "../x.yaml": {}})
}
`
	outcome := runRegoTests(t, test)
	if outcome["t_test.test_files"] != "ok" {
		t.Errorf("test_files: %s, want ok", outcome["t_test.test_files"])
	}
	if got := outcome["t_test.test_no_entry"]; !strings.Contains(got, "the files have no test.yaml") {
		t.Errorf("test_no_entry: %s, want an error naming test.yaml", got)
	}
	if got := outcome["t_test.test_outside"]; !strings.Contains(got, `file name "../x.yaml" is not a clean relative path`) {
		t.Errorf("test_outside: %s, want the name refused", got)
	}
}

// runRegoTests runs the Rego tests of module text as rules test does and
// gives each test's outcome: ok, fail or its error.
func runRegoTests(t *testing.T, text string) map[string]string {
	t.Helper()
	path := t.TempDir() + "/t_test.rego"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	results, err := policy.RunTests(context.Background(), &policy.Registry{}, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	outcome := map[string]string{}
	for _, r := range results {
		switch {
		case r.Err != nil:
			outcome[r.Name] = "error: " + r.Err.Error()
		case r.Failed:
			outcome[r.Name] = "fail"
		default:
			outcome[r.Name] = "ok"
		}
	}
	return outcome
}
