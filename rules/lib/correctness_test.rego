package specgate.lib.correctness_test

# swagger_input completes a test input with what policy.Input builds in Go
# for Swagger 2.0 (`swaggerValues` and its indexes, read by
# correctness.having and correctness.of_type): the non-body parameters of
# input.parameters and the operations' response headers, indexed by key
# and by type.
swagger_input(doc) := object.union(doc, {
	"swaggerValues": values,
	"swaggerValuesWith": {k: [v | some v in values; k in object.keys(v.node)] | some v0 in values; some k, _ in v0.node},
	"swaggerValuesOfType": {t: [v | some v in values; v.node.type == t] | some v0 in values; t := v0.node.type; is_string(t)},
}) if {
	values := array.concat(
		[{"node": p.node, "source": p.source, "name": ""} | some p in object.get(doc, "parameters", [])],
		[{"node": h.node, "source": h.source, "name": ""} |
			some op in object.get(doc, "operations", [])
			some r in object.get(op, "responses", [])
			some h in object.get(r, "headers", [])
		],
	)
}
