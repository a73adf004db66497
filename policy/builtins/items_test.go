package builtins

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

func TestValuesAt(t *testing.T) {
	items := `[
		{"i": 1, "responses": [{"content": [{"m": "a"}, {"m": "b"}]}, {"content": []}, {"status": "x"}]},
		{"i": 2, "responses": {"b": {"content": {"y": 2, "x": 1}}, "a": {"content": "c"}}},
		{"i": 3, "responses": null},
		{"i": 4},
		"item",
		{"i": 6, "responses": [{"content": [null, false]}]}
	]`
	for _, c := range []struct{ query, want string }{
		// null is every element of an array and every member of an object
		// in Rego's order (by key); a value that is not a container where
		// the path goes on gives nothing; null and false are values.
		{`x := specgate.values_at(` + items + `, ["responses", null, "content", null])`, `[{"m": "a"}, {"m": "b"}, 1, 2, null, false]`},
		{`x := specgate.values_at(` + items + `, ["responses", 0, "content", 1])`, `[{"m": "b"}, false]`},
		{`x := specgate.values_at(` + items + `, ["i"])`, `[1, 2, 3, 4, 6]`},
		{`x := specgate.values_at(` + items + `, ["responses", null, "status"])`, `["x"]`},
		{`x := specgate.values_at(` + items + `, ["responses", -1])`, `[]`},
		{`x := specgate.values_at([[1, 2], {"k": 3}], [])`, `[[1, 2], {"k": 3}]`},
		{`x := specgate.values_at([[1, 2], {"1": 3}], [1])`, `[2]`},
		{`x := specgate.values_at([], ["a"])`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same values as the comprehension it replaces, in its order.
	want := evalX(t, `x := [m | some op in `+items+`; is_object(op); some r in op.responses; some m in r.content]`)
	if got := evalX(t, `x := specgate.values_at(`+items+`, ["responses", null, "content", null])`); got != want {
		t.Errorf("values_at = %s, the comprehension %s", got, want)
	}
	for _, q := range []string{
		`x := specgate.values_at(input.items, ["a"])`,
		`x := specgate.values_at([], ["a", true])`,
		`x := specgate.values_at([], [1.5])`,
		`x := specgate.values_at([], "a")`,
	} {
		rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": map[string]any{}})).Eval(context.Background())
		if err == nil && len(rs) != 0 {
			t.Errorf("%s: %v, want an error or undefined", q, rs)
		}
	}
}

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

func TestWithRepeats(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Elements repeat as specgate.repeats finds them (1 and 1.0 are
		// one value); a value that is not an array, a node that is not an
		// object and an item without a node are left out.
		{`x := specgate.with_repeats([
			{"i": 1, "node": {"enum": ["a", "b", "a"]}},
			{"i": 2, "node": {"enum": ["a", "b"]}},
			{"i": 3, "node": {"enum": [1, 1.0]}},
			{"i": 4, "node": {"enum": [{"k": [1]}, {"k": [1]}]}},
			{"i": 5, "node": {"enum": {"a": 1, "b": 1}}},
			{"i": 6, "node": ["enum"]},
			{"i": 7},
			{"i": 8, "node": {"enum": []}}
		], "enum")`, `[{"i": 1, "node": {"enum": ["a", "b", "a"]}}, {"i": 3, "node": {"enum": [1, 1.0]}}, {"i": 4, "node": {"enum": [{"k": [1]}, {"k": [1]}]}}]`},
		{`x := specgate.with_repeats([], "enum")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same items as specgate.repeats asked of each.
	q := `x := specgate.with_repeats(input.items, "enum") == [s | some s in input.items; specgate.repeats(s.node.enum) != []]`
	items := []any{
		map[string]any{"node": map[string]any{"enum": []any{"a", "b", "a"}}},
		map[string]any{"node": map[string]any{"enum": []any{true, false, nil, nil}}},
		map[string]any{"node": map[string]any{"enum": []any{"x"}}},
	}
	rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": items})).Eval(context.Background())
	if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
		t.Errorf("with_repeats and repeats disagree: %v, %v", rs, err)
	}
}

func TestElementsOfType(t *testing.T) {
	items := `[
		{"i": 1, "node": {"enum": ["a", "b"]}},
		{"i": 2, "node": {"enum": ["a", 1]}},
		{"i": 3, "node": {"enum": []}},
		{"i": 4, "node": {"enum": "a"}},
		{"i": 5, "node": {"type": "string"}},
		{"i": 6},
		"item",
		{"i": 8, "node": {"enum": [null]}}
	]`
	for _, c := range []struct{ query, want string }{
		// Every element has the type, an empty array included; anything
		// else is among the others, in order.
		{`x := specgate.elements_of_type(` + items + `, "enum", "string")`,
			`[[{"i": 1, "node": {"enum": ["a", "b"]}}, {"i": 3, "node": {"enum": []}}], [{"i": 2, "node": {"enum": ["a", 1]}}, {"i": 4, "node": {"enum": "a"}}, {"i": 5, "node": {"type": "string"}}, {"i": 6}, "item", {"i": 8, "node": {"enum": [null]}}]]`},
		{`x := specgate.elements_of_type([{"node": {"e": [null, null]}}, {"node": {"e": [1, 2.5]}}], "e", "null")`,
			`[[{"node": {"e": [null, null]}}], [{"node": {"e": [1, 2.5]}}]]`},
		{`x := specgate.elements_of_type([{"node": {"e": [1, 2.5]}}, {"node": {"e": [{}, []]}}], "e", "number")`,
			`[[{"node": {"e": [1, 2.5]}}], [{"node": {"e": [{}, []]}}]]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.elements_of_type(input.items, "enum", "string")`, "operand 1 must be an array"},
		{`x := specgate.elements_of_type([], "enum", "text")`, `operand 3 must name a JSON type (string, number, boolean, null, array or object), got "text"`},
		{`x := specgate.with_repeats(input.items, "enum")`, "operand 1 must be an array"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

func TestViolationsOf(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		// Each {field} takes the item's string, even one that looks like a
		// field; other braces are text; an item without a source array or
		// with a field that is missing or not a string gives nothing.
		{`x := specgate.violations_of([
			{"source": ["paths", "/a/{id}"], "label": "schema \"A\"", "kind": "string"},
			{"source": ["components"], "label": 7, "kind": "string"},
			{"source": "components", "label": "b", "kind": "string"},
			{"label": "c", "kind": "string"},
			"item",
			{"source": [], "label": "{kind}", "kind": "number"}
		], ["type"], "{label} is a {kind} {with space} a {} bound{")`,
			`[{"message": "schema \"A\" is a string {with space} a {} bound{", "path": ["paths", "/a/{id}", "type"]}, {"message": "{kind} is a number {with space} a {} bound{", "path": ["type"]}]`},
		{`x := specgate.violations_of([{"source": [0, "a"]}], [], "no field")`, `[{"message": "no field", "path": [0, "a"]}]`},
		{`x := specgate.violations_of([{"source": [], "label": "l"}], [], "{label} {missing}")`, `[]`},
		{`x := specgate.violations_of([], ["type"], "{label}")`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.violations_of(input.items, [], "m")`, "operand 1 must be an array"},
		{`x := specgate.violations_of([], input.items, "m")`, "operand 2 must be an array"},
		{`x := specgate.violations_of([], [], input.items)`, "operand 3 must be a string"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

// TestViolationsOfAgreesWithRego checks that the findings are those the
// comprehension a rule would write builds, value for value.
func TestViolationsOfAgreesWithRego(t *testing.T) {
	q := `x := specgate.violations_of(input.items, ["type"], "{label} lacks maxLength") == [{"path": array.concat(v.source, ["type"]), "message": concat("", [v.label, " lacks maxLength"])} | some v in input.items]`
	items := []any{
		map[string]any{"source": []any{"paths", "/p", "get", "parameters", 0, "schema"}, "label": `query parameter "q"`},
		map[string]any{"source": []any{"components", "schemas", "Pet", "properties", "name"}, "label": `property "name" in schema "Pet"`},
	}
	rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": items})).Eval(context.Background())
	if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
		t.Errorf("specgate.violations_of and the comprehension disagree (%v, %v)", rs, err)
	}
}

// TestOperationViolations: {operation} is the operation's name as
// specgate.operation_name gives it, other fields are read as
// specgate.violations_of reads them, and an operation without a name gives
// no finding; the findings are those of the comprehension a rule would
// write, value for value.
func TestOperationViolations(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{`x := specgate.operation_violations([
			{"source": ["paths", "/a/{id}", "get"], "method": "get", "path": "/a/{id}", "webhook": "", "callback": "", "summary": "S"},
			{"source": ["webhooks", "new", "post"], "method": "post", "path": "", "webhook": "new", "callback": ""},
			{"source": ["paths", "/e", "put"], "method": "put", "path": "/e", "webhook": "", "callback": "", "summary": 2},
			{"source": ["paths", "/b", "put"], "method": 1, "path": "/b", "webhook": "", "callback": ""},
			{"source": ["paths", "/c", "put"], "method": "put", "webhook": "", "callback": ""},
			{"method": "get", "path": "/d", "webhook": "", "callback": ""}
		], ["description"], "{operation} ({summary}) has no description{}")`,
			`[{"message": "GET /a/{id} (S) has no description{}", "path": ["paths", "/a/{id}", "get", "description"]}]`},
		{`x := specgate.operation_violations([{"source": ["webhooks", "new", "post"], "method": "post", "webhook": "new"}], [], "{operation} has none")`,
			`[{"message": "POST webhook new has none", "path": ["webhooks", "new", "post"]}]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	q := `x := specgate.operation_violations(input.ops, [], "{operation} has no summary") == [{"path": op.source, "message": sprintf("%s has no summary", [specgate.operation_name(op)])} | some op in input.ops]`
	ops := []any{
		map[string]any{"source": []any{"paths", "/p", "get"}, "method": "get", "path": "/p", "webhook": "", "callback": ""},
		map[string]any{"source": []any{"paths", "/p", "post", "callbacks", "on", "{$url}", "post"}, "method": "post", "path": "{$url}", "webhook": "", "callback": "on"},
		map[string]any{"source": []any{"paths", "/q", "get"}, "method": "get", "webhook": ""},
	}
	rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"ops": ops})).Eval(context.Background())
	if err != nil || len(rs) == 0 || rs[0].Bindings["x"] != true {
		t.Errorf("specgate.operation_violations and the comprehension disagree (%v, %v)", rs, err)
	}
	_, err = rego.New(rego.Query(`x := specgate.operation_violations([], [], input.ops)`), rego.Input(map[string]any{"ops": 1}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
	if err == nil || !strings.Contains(err.Error(), "specgate.operation_violations: operand 3 must be a string") {
		t.Errorf("a template that is not a string: error %v", err)
	}
}

func TestPartitionAt(t *testing.T) {
	items := `[
		{"i": 1, "node": {"format": "uuid"}},
		{"i": 2, "node": {"format": ""}},
		{"i": 3, "node": {}},
		{"i": 4, "node": "text"},
		{"i": 5, "node": {"format": null}},
		{"i": 6, "node": {"format": ["uuid"]}},
		{"i": 7}
	]`
	for _, c := range []struct{ query, want string }{
		// A path that leads nowhere (a missing key, a value that is not a
		// container) reads the default; values are a set or an array; the
		// list's order is kept on both sides.
		{`x := specgate.partition_at(` + items + `, ["node", "format"], "", {""})`,
			`[[{"i": 2, "node": {"format": ""}}, {"i": 3, "node": {}}, {"i": 4, "node": "text"}, {"i": 7}], [{"i": 1, "node": {"format": "uuid"}}, {"i": 5, "node": {"format": null}}, {"i": 6, "node": {"format": ["uuid"]}}]]`},
		{`p := specgate.partition_at(` + items + `, ["node", "format"], null, ["uuid", "date"]); x := [[a.i | some a in p[0]], [b.i | some b in p[1]]]`, `[[1], [2, 3, 4, 5, 6, 7]]`},
		{`p := specgate.partition_at(` + items + `, ["node", "format", 0], "none", {"uuid", "none"}); x := [[a.i | some a in p[0]], [b.i | some b in p[1]]]`, `[[1, 2, 3, 4, 5, 6, 7], []]`},
		{`p := specgate.partition_at(` + items + `, ["node", "format", 0], "none", {"uuid"}); x := [[a.i | some a in p[0]], [b.i | some b in p[1]]]`, `[[6], [1, 2, 3, 4, 5, 7]]`},
		// Numbers compare as `in` compares them; an object's key is not
		// an array's index.
		{`x := specgate.partition_at([{"n": 1}, {"n": 1.0}, {"n": 2}, {"1": 1}], ["n"], 0, {1})`, `[[{"n": 1}, {"n": 1.0}], [{"n": 2}, {"1": 1}]]`},
		{`x := specgate.partition_at([[5, 6], {"1": 6}], [1], 0, [6])`, `[[[5, 6]], [{"1": 6}]]`},
		{`x := specgate.partition_at(["a", "b"], [], null, ["b"])`, `[["b"], ["a"]]`},
		{`x := specgate.partition_at([], ["a"], null, [])`, `[[], []]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.partition_at(input.items, ["a"], null, [])`, "operand 1 must be an array"},
		{`x := specgate.partition_at([], input.items, null, [])`, "operand 2 must be an array"},
		{`x := specgate.partition_at([], [null], null, [])`, "element 0 of the path must be a string or a number"},
		{`x := specgate.partition_at([], ["a"], null, "b")`, "operand 4 must be a set or an array"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

// TestPartitionAtAgreesWithRego checks both sides against the
// comprehensions the string rules wrote, item for item and in order.
func TestPartitionAtAgreesWithRego(t *testing.T) {
	q := `x := [
		specgate.partition_at(input.items, ["node", "format"], "", {""})[0] == [v | some v in input.items; object.get(v.node, "format", "") == ""],
		specgate.partition_at(input.items, ["node", "format"], null, {"date", "uuid"})[1] == [v | some v in input.items; not object.get(v.node, "format", null) in {"date", "uuid"}],
	]`
	var items []any
	for i, f := range []any{nil, "", "uuid", "date-time", "date", 7, " ", false} {
		node := map[string]any{"type": "string"}
		if i > 0 {
			node["format"] = f
		}
		items = append(items, map[string]any{"source": []any{"components", "schemas", i}, "node": node})
	}
	rs, err := rego.New(rego.Query(q), rego.Input(map[string]any{"items": items})).Eval(context.Background())
	if err != nil || len(rs) == 0 {
		t.Fatalf("%s: %v, %v", q, rs, err)
	}
	if got := ast.MustInterfaceToValue(rs[0].Bindings["x"]).String(); got != "[true, true]" {
		t.Errorf("specgate.partition_at and the comprehensions agree: %s, want [true, true]", got)
	}
}

func TestKeysAt(t *testing.T) {
	ops := `[
		{"node": {"responses": {"200": {"content": {"b/json": {}, "a/json": null}}, "404": {"content": {"a/json": 1, "c/xml": {}}}}}},
		{"node": {"responses": {"200": {"content": "text"}, "500": {"$ref": "#/r"}}}},
		{"node": {"responses": [{"content": {"d/x": {}}}]}},
		{"node": {"requestBody": {"content": {"e/x": {}}}}},
		{"node": {"responses": {"200": {"content": [{}]}}}},
		"op"
	]`
	for _, c := range []struct{ query, want string }{
		// Each key once, in the order met (an object's keys in Rego's
		// order), whatever its value; an array gives its indices, as
		// `some k, _ in x` does; any other value gives none.
		{`x := specgate.keys_at(` + ops + `, ["node", "responses", null, "content"])`, `["a/json", "b/json", "c/xml", "d/x", 0]`},
		{`x := specgate.keys_at(` + ops + `, ["node", "requestBody", "content"])`, `["e/x"]`},
		{`x := specgate.keys_at(` + ops + `, ["node", "responses", 0])`, `["content"]`},
		{`x := specgate.keys_at([{"1": 1, "a": 2}, {"a": 3, "b": 4}, [{"c": 5}, 6], "s", [7]], [])`, `["1", "a", "b", 0, 1]`},
		{`x := specgate.keys_at([], ["a"])`, `[]`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same keys as the set the comprehension it replaces builds.
	want := evalX(t, `x := {k | some op in `+ops+`; is_object(op); some r in op.node.responses; some k, _ in r.content}`)
	if got := evalX(t, `x := {k | some k in specgate.keys_at(`+ops+`, ["node", "responses", null, "content"])}`); got != want {
		t.Errorf("keys_at = %s, the comprehension %s", got, want)
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.keys_at(input.items, ["a"])`, "operand 1 must be an array"},
		{`x := specgate.keys_at([], input.items)`, "operand 2 must be an array"},
		{`x := specgate.keys_at([], [true])`, "element 0 of the path must be a string, a number or null"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}

func TestGroupAt(t *testing.T) {
	ops := `[
		{"responses": [{"status": "200", "d": 1}, {"status": "404"}, {"d": 2}, "r", {"status": "200", "d": 3}]},
		{"responses": []},
		{"responses": [{"status": 7}, {"status": "404", "d": 4}]},
		{"responses": {"b": {"status": "500"}, "a": {"status": "404"}}},
		"op"
	]`
	for _, c := range []struct{ query, want string }{
		// Each group in the order of the items and their values; a value
		// without the key (or not an object) is left out; keys of any
		// type.
		{`x := specgate.group_at(` + ops + `, ["responses", null], "status")`,
			`{"200": [[0, {"d": 1, "status": "200"}], [0, {"d": 3, "status": "200"}]], "404": [[0, {"status": "404"}], [2, {"d": 4, "status": "404"}], [3, {"status": "404"}]], "500": [[3, {"status": "500"}]], "7": [[2, {"status": 7}]]}`}, // (7 a number, printed through JSON)
		{`x := specgate.group_at([[1, 2], [3], {"1": 4}], [], 1)`, `{"2": [[0, [1, 2]]]}`},
		{`x := specgate.group_at([], ["a"], "k")`, `{}`},
	} {
		if got := evalX(t, c.query); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	// The same index as specgate.group of the pairs a comprehension builds.
	q := `x := specgate.group_at(` + ops + `, ["responses", null], "status") == specgate.group([[r.status, [i, r]] | some i, op in ` + ops + `; is_object(op); some r in op.responses])`
	if got := evalX(t, q); got != "true" {
		t.Errorf("%s = %s, want true", q, got)
	}
	for _, c := range []struct{ query, err string }{
		{`x := specgate.group_at(input.items, ["a"], "k")`, "operand 1 must be an array"},
		{`x := specgate.group_at([], input.items, "k")`, "operand 2 must be an array"},
		{`x := specgate.group_at([], ["a"], null)`, "element 0 of the path must be a string or a number"},
	} {
		_, err := rego.New(rego.Query(c.query), rego.Input(map[string]any{"items": map[string]any{}}), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one with %q", c.query, err, c.err)
		}
	}
}
