package policy

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestBlankMembers(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Missing, not a string, empty and whitespace-only texts are
		// blank; members that are not objects, or are references, are
		// left out; keys sorted.
		{`x := specgate.blank_members({"b": {}, "a": {"description": 1}, "c": {"description": " \n\t"},
			"d": {"description": "text"}, "e": "not an object", "f": {"description": ""}, "g": {"description": " x "},
			"h": {"$ref": "#/h"}, "i": {"$ref": 1}, "j": {"$ref": false}, "k": {"$ref": null}}, "description")`,
			`["a", "b", "c", "f", "j"]`},
		{`x := specgate.blank_members({}, "description")`, `[]`},
		{`x := specgate.blank_members({"a": {"summary": "s"}}, "summary")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// A value that is not an object is an error, which leaves the call
	// undefined as OPA's builtins do.
	rs, err := rego.New(rego.Query(`x := specgate.blank_members(input.props, "description")`), rego.Input(map[string]any{"props": []any{1}})).Eval(context.Background())
	if err != nil || len(rs) != 0 {
		t.Errorf("an array: %v %v, want undefined", rs, err)
	}
}
