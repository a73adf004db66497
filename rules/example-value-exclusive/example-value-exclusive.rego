# METADATA
# title: Example Objects give their value one way
# description: |
#   An Example Object gives its example one way only: `value` (the value
#   written inline) and `externalValue` (a URL to it) are mutually
#   exclusive. OpenAPI 3.2 adds `dataValue` (the data) and
#   `serializedValue` (the serialized form): `value` excludes all three,
#   and `serializedValue` excludes `externalValue`. With two of them, tools
#   pick one and readers cannot tell which example is meant.
#
#   Every Example Object is checked once: those under
#   `components.examples` and those written inline in the `examples` of
#   media types, parameters and headers. The rule reports on the second
#   field of each conflicting pair.
#
#   ```yaml
#   examples:
#     pet:
#       value: {name: Rex}
#       externalValue: https://example.org/pet.json   # bad: two values
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3]
#   peers: ["spectral:oas3-examples-value-or-externalValue", "vacuum:oas3-example-external-check", "redocly:no-example-value-and-externalValue", "redocly:spec-example-values"]
#   howToFix: |
#     Keep one of the fields: `value` for an example written inline,
#     `externalValue` for one kept in a file, and in OpenAPI 3.2
#     `dataValue` and/or `serializedValue` instead of `value`.
package specgate.rules["example-value-exclusive"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.style
import data.specgate.lib.util

_conflicts := [["value", "externalValue"], ["value", "dataValue"], ["value", "serializedValue"], ["serializedValue", "externalValue"]] if correctness.is_version("3.2")

else := [["value", "externalValue"]]

violations contains util.violation(array.concat(path, [second]), msg) if {
	some [path, example] in _examples
	some [first, second] in _conflicts
	_ = example[first]
	_ = example[second]
	msg := sprintf("example %q has both %s and %s; give the example one way", [path[count(path) - 1], first, second])
}

# _examples are [path, Example Object] pairs, each written once: none in
# an API without any example (correctness.no_examples, from one pass over its
# files), whose media types, parameters and headers are not read then.
_examples := [] if correctness.no_examples

else := array.concat(
	[[["components", "examples", name], ex] |
		some name, ex in object.get(input.document, ["components", "examples"], {})
		is_object(ex)
	],
	[[array.concat(holder.source, ["examples", name]), ex] |
		some holder in _holders
		some name, ex in object.get(holder.node, "examples", {})
		is_object(ex)
		not health.is_ref(ex)
	],
)

# _holders are the media types, headers and parameters that write
# examples. Each body and response is read once (a response that many
# operations share through a $ref is one use), in one call: an iteration
# per operation, response and media type read every response of a large
# API for none.
_holders := specgate.reaching(
	array.concat(
		array.concat(
			specgate.values_at(style.request_body_uses, ["requestBody", "content", null]),
			specgate.values_at(style.response_uses, ["response", "content", null]),
		),
		array.concat(
			specgate.values_at(style.response_uses, ["response", "headers", null]),
			input.parameters,
		),
	),
	[["examples"]],
)
