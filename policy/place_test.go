package policy

import "testing"

// TestSchemaPlacesSpellAsRego: specgate.schema_place names every schema
// (and Swagger 2.0 schema-like value) of the rule fixtures and the smaller
// corpus specs as correctness._where, the Rego it replaces, does; and
// declines only what the Rego alone can spell.
func TestSchemaPlacesSpellAsRego(t *testing.T) {
	alike, declined := eachSpecAsRego(t, `[[v.source, [p | p := specgate.schema_place(v.source, input.document, input.format)], data.specgate.lib.correctness._where(v.source)] |
		some v in array.concat(input.schemas, input.swaggerValues)
	]`, 2<<20)
	if alike < 1000 {
		t.Errorf("only %d places compared", alike)
	}
	t.Logf("%d places alike, %d declined", alike, declined)
}
