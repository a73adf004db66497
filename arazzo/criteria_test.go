package arazzo

import (
	"encoding/json"
	"testing"

	"github.com/specgate/specgate/contract"
)

// holdsOverBody compiles a criterion of the type over $response.body and
// evaluates it with the body given.
func holdsOverBody(t *testing.T, typ, condition string, body any) bool {
	t.Helper()
	cc, err := compileCriterion(&Criterion{Context: "$response.body", Condition: condition, Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	got, err := cc.eval(func(e *Expr) (any, bool, error) {
		if e.Raw != "$response.body" {
			return nil, false, nil
		}
		return body, true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestXPathCriteria evaluates XPath criteria over an XML body with a
// default namespace and a prefixed one: names match as the document
// prefixes them, local-name() across namespaces, and a criterion holds when
// its query selects something (or its value is true or non-zero).
func TestXPathCriteria(t *testing.T) {
	const body = `<?xml version="1.0"?>
<receipt xmlns="urn:shop" xmlns:tax="urn:tax" id="r1">
  <total currency="EUR">12.5</total>
  <tax:total tax:rate="0.2">2.5</tax:total>
  <!-- paid -->
</receipt>`
	for _, tc := range []struct {
		condition string
		holds     bool
	}{
		{"/receipt/total", true},
		{"/receipt/total[. = '12.5']", true},
		{"/receipt/total[@currency = 'USD']", false},
		{"//tax:total[@tax:rate = '0.2']", true},
		{"//other:total", false},
		{"count(//*[local-name() = 'total']) = 2", true},
		{"/receipt/@id", true},
		{"//comment()[contains(., 'paid')]", true},
		{"sum(//*[local-name() = 'total'])", true},
		{"//refund", false},
		{"count(//refund)", false},
	} {
		t.Run(tc.condition, func(t *testing.T) {
			if got := holdsOverBody(t, "xpath", tc.condition, body); got != tc.holds {
				t.Errorf("holds = %v, want %v", got, tc.holds)
			}
		})
	}
}

// TestJSONPathCriteria evaluates JSONPath criteria: a criterion holds when
// its query selects something in the context; a query that starts with a
// filter at the root also tests the context itself, so that the Arazzo
// specification's own example, $[?count(@.pets) > 0] over a body that
// has pets, holds.
func TestJSONPathCriteria(t *testing.T) {
	const pets = `{"pets": [{"name": "Rex", "status": "available", "age": 3}]}`
	for _, tc := range []struct {
		context, condition string
		holds              bool
	}{
		{pets, "$[?count(@.pets) > 0]", true},
		{pets, "$[?length(@.pets) > 0]", true},
		{`{"pets": []}`, "$[?length(@.pets) > 0]", false},
		{`{"total": 0}`, "$[?count(@.pets) > 0]", false},
		{pets, "$.pets[?@.status == 'available']", true},
		{pets, "$.pets[?@.age > 2]", true},
		{pets, "$.pets[?@.status == 'sold']", false},
		{pets, "$[?@.status == 'sold']", false},
		{`[{"status": "available"}]`, "$[?@.status == 'available']", true}, // the members of an array
		{`{"status": "done"}`, "$[ ?@.status == 'done']", true},
		{`{"status": "done"}`, "$[?@ == 'done']", true}, // a member's value
		{pets, "$.missing", false},
		{pets, "$.pets[0].name", true},
	} {
		t.Run(tc.condition, func(t *testing.T) {
			if got := holdsOverBody(t, "jsonpath", tc.condition, tc.context); got != tc.holds {
				t.Errorf("over %s: holds = %v, want %v", tc.context, got, tc.holds)
			}
		})
	}
}

// TestRegexCriterionOverJSON: a regex criterion reads an object or array
// context as its JSON text, with <, > and & as written (json.Marshal
// escapes them as \u003c, \u003e and \u0026, which no one writes in a
// pattern).
func TestRegexCriterionOverJSON(t *testing.T) {
	for _, tc := range []struct {
		context   any
		condition string
		holds     bool
	}{
		{map[string]any{"q": "<a&b>"}, `^\{"q":"<a&b>"\}$`, true},
		{[]any{"<a&b>", json.Number("2")}, `^\["<a&b>",2\]$`, true},
		{map[string]any{"q": "<a&b>"}, `u003c`, false},
		{"<a&b>", `^<a&b>$`, true},
	} {
		t.Run(tc.condition, func(t *testing.T) {
			if got := holdsOverBody(t, "regex", tc.condition, tc.context); got != tc.holds {
				t.Errorf("over %v: holds = %v, want %v (it read %s)", tc.context, got, tc.holds, contract.InlineText(tc.context))
			}
		})
	}
}
