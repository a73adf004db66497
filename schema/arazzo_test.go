package schema_test

import (
	"testing"

	"github.com/specgate/specgate/schema"
)

// TestArazzoIs2020: an Arazzo document's schemas are JSON Schema 2020-12,
// so prefixItems and items: false constrain a tuple (draft 7 ignores
// prefixItems and reads items: false as "no item at all").
func TestArazzoIs2020(t *testing.T) {
	sc := load(t, "inputs.arazzo.yaml").compile(t, "/workflows/0/inputs/properties/pair")
	if probs := sc.Validate(decode(t, `["a", 1]`), schema.Request); len(probs) != 0 {
		t.Errorf(`["a", 1]: %v`, probs)
	}
	for _, bad := range []string{`[1, "a"]`, `["a", 1, 2]`} {
		if probs := sc.Validate(decode(t, bad), schema.Request); len(probs) == 0 {
			t.Errorf("%s: valid, want a problem", bad)
		}
	}
}
