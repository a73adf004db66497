package apitest

import "testing"

// A failed check's message says each problem once, with the place of the
// rule it breaks: the message of a failure that is its one problem takes
// the place in line; several problems are counted and listed.
func TestResultMessageSaysEachProblemOnce(t *testing.T) {
	status := Problem{In: "status", Keyword: "status", Message: "status 401 is not declared by GET /items (declared: 200)", Schema: "api.yaml:8:7"}
	id := Problem{In: "body", Path: "$.id", Keyword: "type", Message: "expected integer, found string", Schema: "api.yaml:30:15"}
	name := Problem{In: "body", Path: "$.name", Keyword: "required", Message: "missing, and required", Schema: "api.yaml:28:9"}
	rex := Problem{In: "body", Path: "$.name", Message: `expected "Rex", found "Max"`, Example: "rex.json:4:37"}
	for _, tc := range []struct {
		name string
		f    Failure
		want string
	}{
		{"one problem", Failure{Check: "status_code_conformance", Message: status.Message, Problems: []Problem{status}},
			"status_code_conformance: status 401 is not declared by GET /items (declared: 200) (schema at api.yaml:8:7)"},
		{"one problem and a hint", Failure{Check: "status_code_conformance", Message: status.Message + " (a hint)", Problems: []Problem{status}},
			"status_code_conformance: status 401 is not declared by GET /items (declared: 200) (schema at api.yaml:8:7) (a hint)"},
		{"one problem with its path", Failure{Check: "response_schema_conformance", Message: id.Message, Problems: []Problem{id}},
			"response_schema_conformance: $.id: expected integer, found string (schema at api.yaml:30:15)"},
		{"an example's", Failure{Check: "example_body_match", Message: `the body does not match example "rex": $.name: expected "Rex", found "Max"`, Problems: []Problem{rex}},
			`example_body_match: the body does not match example "rex": $.name: expected "Rex", found "Max" (example at rex.json:4:37)`},
		{"two problems", Failure{Check: "response_schema_conformance", Message: id.Message + " (and 1 more)", Problems: []Problem{id, name}},
			"response_schema_conformance: 2 problems\n  $.id: expected integer, found string (schema at api.yaml:30:15)\n  $.name: missing, and required (schema at api.yaml:28:9)"},
		{"no problem", Failure{Check: "ignored_auth", Message: "the request without credentials got 200"},
			"ignored_auth: the request without credentials got 200"},
	} {
		r := &Result{Outcome: Failed, Failures: []Failure{tc.f}}
		if got := r.Message(); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
