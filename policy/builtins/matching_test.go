package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestMatching(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// The path starts at the item; a value that is not a string, or
		// an item without the path, is left out; the list's order is kept.
		{`x := specgate.matching([
			{"i": 1, "name": "api_key"},
			{"i": 2, "name": "limit"},
			{"i": 3, "name": 7},
			{"i": 4},
			"name",
			{"i": 6, "name": "AccessToken"}
		], ["name"], "(?i)key|token")`, `[{"i": 1, "name": "api_key"}, {"i": 6, "name": "AccessToken"}]`},
		// null is any member or element: an item is kept once when any
		// string it reaches matches; numbers index arrays, not objects.
		{`x := specgate.matching([
			{"i": 1, "parameters": [{"name": "id"}, {"name": "token"}, {"name": "sessionToken"}]},
			{"i": 2, "parameters": [{"name": "id"}]},
			{"i": 3, "parameters": {"a": {"name": "token"}}},
			{"i": 4, "parameters": []}
		], ["parameters", null, "name"], "^token$")`, `[{"i": 1, "parameters": [{"name": "id"}, {"name": "token"}, {"name": "sessionToken"}]}, {"i": 3, "parameters": {"a": {"name": "token"}}}]`},
		{`x := specgate.matching([
			{"i": 1, "l": ["a", "b"]},
			{"i": 2, "l": {"1": "b"}},
			{"i": 3, "l": ["b"]}
		], ["l", 1], "b")`, `[{"i": 1, "l": ["a", "b"]}]`},
		// An empty path tests the item itself.
		{`x := specgate.matching(["ab", "b", 1], [], "^a")`, `["ab"]`},
		{`x := specgate.matching([], ["name"], "a")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.matching(input.items, ["name"], "a")`, "operand 1 must be an array"},
		{`x := specgate.matching([], ["a", true], "a")`, "element 1 of the path must be a string, a number or null"},
		{`x := specgate.matching([], ["a", 1.5], "a")`, "element 1 of the path must be an integer"},
		{`x := specgate.matching([], ["a"], "(")`, "missing closing )"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

// TestMatchingAgreesWithRegexMatch checks that an item is kept exactly
// when OPA's regex.match accepts its string, on patterns with flags,
// anchors and classes.
func TestMatchingAgreesWithRegexMatch(t *testing.T) {
	names := []string{"api_key", "APIKey", "password", "pass", "x-session", "", "ü-token", "tok\nen"}
	for _, pattern := range []string{`(?i)pass|secret|token|jwt|key|cred|sess`, `^[a-z_]+$`, `(?s)tok.en`, `\btoken$`} {
		q := `x := {[a, b] | some n in input.names; a := n; b := regex.match(input.p, n)} == {[n, n in specgate.matching(input.names, [], input.p)] | some n in input.names}`
		rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"names": names, "p": pattern})).Eval(context.Background())
		if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
			t.Errorf("pattern %q: specgate.matching and regex.match disagree (%v, %v)", pattern, rs, err)
		}
	}
}

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
