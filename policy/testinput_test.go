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
	dir := t.TempDir()
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
	path := dir + "/t_test.rego"
	if err := os.WriteFile(path, []byte(test), 0o644); err != nil {
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
	if outcome["t_test.test_text"] != "ok" || outcome["t_test.test_object"] != "ok" {
		t.Errorf("outcomes = %v, want test_text and test_object ok", outcome)
	}
	if got := outcome["t_test.test_broken"]; !strings.Contains(got, "specgate.test_input: test.yaml:3:1:") {
		t.Errorf("test_broken: %s, want an error at test.yaml:3:1", got)
	}
}
