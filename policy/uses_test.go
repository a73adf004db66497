package policy

import "testing"

// TestBodyUsesSpellAsRego: input.responseUses and input.requestBodyUses,
// built in Go, hold the same {op, response, name, at} and {op,
// requestBody, name, at} uses as data.specgate.lib.style.response_uses and
// request_body_uses compute from the operations when the input lacks
// them, on every rule fixture and corpus spec (the largest aside).
func TestBodyUsesSpellAsRego(t *testing.T) {
	for _, c := range []struct{ field, rule, part string }{
		{"responseUses", "response_uses", "response"},
		{"requestBodyUses", "request_body_uses", "requestBody"},
	} {
		pairs := `[[u.op.source, u.` + c.part + `.source, u.name, u.at] | some u in uses]`
		alike, _ := eachSpecAsRego(t, `[["`+c.field+`", [sort(g)], sort(r)] |
			uses := input.`+c.field+`
			g := `+pairs+`
			rego_uses := data.specgate.lib.style.`+c.rule+` with input.`+c.field+` as null
			r := [[u.op.source, u.`+c.part+`.source, u.name, u.at] | some u in rego_uses]
		]`, 5<<20)
		if alike < 100 {
			t.Errorf("%s: only %d specs compared", c.field, alike)
		}
	}
}

// TestPathSegmentsSpellAsRego: the segments and shape of each path item
// and input.pathSegments, built in Go, are what
// data.specgate.lib.naming.path_items and segment_users compute when the
// input lacks them, on every rule fixture and corpus spec (the largest
// aside).
func TestPathSegmentsSpellAsRego(t *testing.T) {
	alike, _ := eachSpecAsRego(t, `[["pathItems", [g], r] |
		g := [[[i.segments, i.shape] | some i in input.pathItems], input.pathSegments]
		items := data.specgate.lib.naming.path_items with input.pathSegments as null
		users := data.specgate.lib.naming.segment_users with input.pathSegments as null
		r := [[[i.segments, i.shape] | some i in items], users]
	]`, 5<<20)
	if alike < 100 {
		t.Errorf("only %d specs compared", alike)
	}
}

// TestParameterKeysSpellAsRego: input.parameterKeys, built in Go, holds
// for each path item and operation what
// data.specgate.lib.correctness.parameter_key makes of each entry of its
// parameter list, read through health.deref (null where there is no
// list), on every rule fixture and corpus spec (the largest aside).
func TestParameterKeysSpellAsRego(t *testing.T) {
	alike, _ := eachSpecAsRego(t, `[["parameterKeys", [g], r] |
		some kind, owners in {"pathItems": input.pathItems, "operations": data.specgate.lib.correctness.operations}
		g := [[i, input.parameterKeys[kind][i]] | some i, _ in owners]
		r := [[i, k] | some i, owner in owners; k := object.get({"x": [data.specgate.lib.correctness.parameter_key(data.specgate.lib.health.deref(e)) |
			some e in owner.node.parameters
		] | is_array(owner.node.parameters)}, "x", null)]
	]`, 5<<20)
	if alike < 200 {
		t.Errorf("only %d lists compared", alike)
	}
}

// TestReferencedComponentsSpellAsRego: input.referencedComponents, built
// in Go, holds the components of the kinds unused-components judges that
// it finds referenced from outside them when the input lacks it, on every
// rule fixture and corpus spec (the largest aside).
func TestReferencedComponentsSpellAsRego(t *testing.T) {
	alike, _ := eachSpecAsRego(t, `[["referencedComponents", [g], r] |
		g := {container: names |
			some container, names in input.referencedComponents
			some [prefix, _] in data.specgate.rules["unused-components"]._containers
			container == concat("", ["#", data.specgate.lib.correctness.pointer(prefix)])
		}
		r := data.specgate.rules["unused-components"]._referenced with input.referencedComponents as null
	]`, 5<<20, "unused-components")
	if alike < 100 {
		t.Errorf("only %d specs compared", alike)
	}
}
