package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSubschemaSlots holds subschemaSlot to the keyword lists it numbers.
func TestSubschemaSlots(t *testing.T) {
	want := map[string]int{}
	for i, k := range schemaSingles {
		want[k] = i
	}
	for i, k := range schemaMaps {
		want[k] = len(schemaSingles) + i
	}
	for i, k := range schemaLists {
		if _, both := want[k]; !both {
			want[k] = len(schemaSingles) + len(schemaMaps) + i
		}
	}
	if len(want) != subschemaSlots {
		t.Errorf("%d distinct keywords, subschemaSlots is %d", len(want), subschemaSlots)
	}
	for k, slot := range want {
		if got := subschemaSlot(k); got != slot {
			t.Errorf("subschemaSlot(%q) = %d, want %d", k, got, slot)
		}
	}
	for _, k := range []string{"", "type", "$ref", "example", "Items", "item", "allof", "x-items", "required"} {
		if got := subschemaSlot(k); got != -1 {
			t.Errorf("subschemaSlot(%q) = %d, want -1", k, got)
		}
	}
}

// eachSubschemaByLookup is eachSubschema as a lookup of each keyword in
// turn: the order and the subschemas it must keep.
func eachSubschemaByLookup(n *Node, fn func(c *Node, keys ...any)) {
	for _, k := range schemaSingles {
		if c := n.Get(k); c != nil && c.Kind == Object {
			fn(c, k)
		}
	}
	for _, k := range schemaMaps {
		each(n.Get(k), func(name string, c *Node) { fn(c, k, name) })
	}
	for _, k := range schemaLists {
		if c := n.Get(k); c != nil && c.Kind == Array {
			for i, it := range c.Items {
				fn(it, k, i)
			}
		}
	}
}

// TestEachSubschemaOrder compares eachSubschema with a lookup of each
// keyword on every object of a fixture that writes every keyword, in
// reverse order and with "items" as an object and as a list, and of the
// corpus's JSON and YAML specs.
func TestEachSubschemaOrder(t *testing.T) {
	fixture := `{"s": {"prefixItems": [{"a": 1}], "oneOf": [{"b": 1}, true], "anyOf": [], "allOf": [{"c": 1}],
	  "definitions": {"d": {}}, "$defs": {"e": {}}, "dependentSchemas": {"f": {}}, "patternProperties": {"^g": {}},
	  "properties": {"h": {}, "i": {"items": [{}, {}]}}, "contentSchema": {}, "additionalItems": {}, "unevaluatedProperties": false,
	  "unevaluatedItems": {}, "propertyNames": {}, "else": {}, "then": {}, "if": {}, "contains": {}, "not": {},
	  "additionalProperties": {"items": {}}, "items": {"type": "string"}, "type": "object"}}`
	roots := map[string]*Node{}
	root, err := Parse("fixture.json", []byte(fixture), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	roots["fixture.json"] = root
	for _, name := range []string{"github.json", "stripe.yaml", "openai.yaml", "kubernetes.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "shared", "corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		if roots[name], err = Parse(name, data, DefaultLimits()); err != nil {
			t.Fatal(err)
		}
	}
	for name, root := range roots {
		objects, visits := 0, 0
		var walk func(n *Node)
		walk = func(n *Node) {
			var got, want []string
			record := func(to *[]string) func(c *Node, keys ...any) {
				return func(c *Node, keys ...any) {
					*to = append(*to, fmt.Sprintf("%p %v", c, keys))
				}
			}
			if n.Kind == Object {
				objects++
				eachSubschema(n, record(&got))
				eachSubschemaByLookup(n, record(&want))
				visits += len(want)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: object at %d:%d: eachSubschema gave\n  %s\nwant\n  %s", name, n.Range.Start.Line, n.Range.Start.Col,
						strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			}
			for _, f := range n.Fields {
				walk(f.Value)
			}
			for _, it := range n.Items {
				walk(it)
			}
		}
		walk(root)
		if visits == 0 {
			t.Errorf("%s: no subschema among %d objects", name, objects)
		}
	}
}
