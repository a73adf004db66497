package policy

import "testing"

// TestResponseUsesSpellAsRego: input.responseUses, built in Go, holds the
// same {op, response, name, at} uses as data.specgate.lib.style.response_uses
// computes from the operations when the input lacks them, on every rule
// fixture and corpus spec (the largest aside).
func TestResponseUsesSpellAsRego(t *testing.T) {
	pairs := `[[u.op.source, u.response.source, u.name, u.at] | some u in uses]`
	alike, _ := eachSpecAsRego(t, `[["responseUses", [sort(g)], sort(r)] |
		uses := input.responseUses
		g := `+pairs+`
		rego_uses := data.specgate.lib.style.response_uses with input.responseUses as null
		r := [[u.op.source, u.response.source, u.name, u.at] | some u in rego_uses]
	]`, 5<<20)
	if alike < 100 {
		t.Errorf("only %d specs compared", alike)
	}
}
