package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestPositionsMatching(t *testing.T) {
	ops := `[
		{"i": 0, "responses": [{"status": "200"}, {"status": "404"}]},
		{"i": 1, "responses": [{"status": "4XX"}, {"status": "default"}]},
		{"i": 2, "responses": []},
		{"i": 3},
		"op",
		{"i": 5, "responses": [{"status": 200}, {"status": "2xx"}]},
		{"i": 6, "responses": {"a": {"status": "301"}}}
	]`
	for _, c := range []struct{ query, want string }{
		// An item matches when one string it reaches matches; a value
		// that is not a string, an item without the path and an item that
		// is not a container are among the others.
		{`x := specgate.positions_matching(` + ops + `, ["responses", null, "status"], "^[23]([0-9][0-9]|[Xx][Xx])$")`, `[[0, 5, 6], [1, 2, 3, 4]]`},
		{`x := specgate.positions_matching(` + ops + `, ["responses", 0, "status"], "^4")`, `[[1], [0, 2, 3, 4, 5, 6]]`},
		{`x := specgate.positions_matching(["ab", "b", 1], [], "^a")`, `[[0], [1, 2]]`},
		{`x := specgate.positions_matching([], ["a"], "a")`, `[[], []]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same positions as a test of each item with regex.match.
	q := `x := specgate.positions_matching(` + ops + `, ["responses", null, "status"], "^4|default") ==
		[[i | some i, op in ` + ops + `; m(op)], [i | some i, op in ` + ops + `; not m(op)]]`
	mod := `package p
		m(op) if { some r in op.responses; regex.match("^4|default", r.status) }`
	rs, err := rego.New(rego.Query(strings.Replace(q, "m(op)", "data.p.m(op)", 2)), rego.Module("p.rego", mod)).Eval(context.Background())
	if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
		t.Errorf("positions_matching and regex.match disagree: %v, %v", rs, err)
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.positions_matching(input.items, ["a"], "a")`, "operand 1 must be an array"},
		{`x := specgate.positions_matching([], ["a", true], "a")`, "element 1 of the path must be a string, a number or null"},
		{`x := specgate.positions_matching([], [1.5], "a")`, "element 0 of the path must be an integer"},
		{`x := specgate.positions_matching([], [], "(")`, "missing closing )"},
		{`x := specgate.positions_matching([], [], input.n)`, "operand 3 must be a string"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}, "n": 1}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}
