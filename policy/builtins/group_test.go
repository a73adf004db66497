package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

func TestGroupBuiltin(t *testing.T) {
	for _, tc := range []struct{ pairs, want, err string }{
		// An array's values keep their order, repeats included.
		{`[["b", 2], ["a", 1], ["b", 1], ["b", 2]]`, `{"a": [1], "b": [2, 1, 2]}`, ""},
		// Keys of any type; a set's pairs come sorted.
		{`{[["x", 1], "q"], [["x", 1], "p"], [3, true]}`, `{["x", 1]: ["p", "q"], 3: [true]}`, ""},
		{`[]`, `{}`, ""},
		{`[["a", 1], ["b"]]`, ``, `specgate.group: element 1 is not a [key, value] pair: ["b"]`},
		{`{"a": 1}`, ``, `specgate.group: operand must be an array or a set of [key, value] pairs, got object`},
	} {
		// The pairs come as the input, so that the type checker leaves
		// their checks to the builtin.
		pairs := ast.MustParseTerm(tc.pairs).Value
		rs, err := rego.New(rego.Query("x := specgate.group(input)"), rego.ParsedInput(pairs), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("group(%s): error %v, want one with %q", tc.pairs, err, tc.err)
			}
			continue
		}
		if err != nil || len(rs) != 1 {
			t.Fatalf("group(%s): %v %v", tc.pairs, rs, err)
		}
		rs, err = rego.New(rego.Query("specgate.group(input) == "+tc.want), rego.ParsedInput(pairs)).Eval(context.Background())
		if err != nil || len(rs) != 1 {
			t.Errorf("group(%s) is not %s", tc.pairs, tc.want)
		}
	}
}
