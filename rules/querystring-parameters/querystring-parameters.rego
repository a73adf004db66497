# METADATA
# title: A querystring parameter stands alone (OpenAPI 3.2)
# description: |
#   An operation takes at most one `in: querystring` parameter, and none
#   besides `in: query` parameters. OpenAPI 3.2's querystring parameter
#   describes the whole query string as one value (a form, a JSON
#   document): two of them, or one beside individual query parameters,
#   describe the same part of the URL twice, in ways that cannot both hold,
#   and the specification forbids both.
#
#   The parameters an operation takes count, its own and those of its path
#   item. The rule reports on the second querystring parameter, and on the
#   querystring parameter when query parameters stand beside it.
#
#   ```yaml
#   parameters:
#     - {name: filter, in: querystring, content: {application/x-www-form-urlencoded: {schema: {type: object}}}}
#     - {name: limit, in: query, schema: {type: integer}}   # bad: with a querystring
#   ```
# custom:
#   category: Parameters
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3.2]
#   peers: ["redocly:spec-querystring-parameters"]
#   howToFix: |
#     Describe the query string one way: as one querystring parameter
#     whose schema has every field, or as individual query parameters.
package specgate.rules["querystring-parameters"]

import data.specgate.lib.correctness
import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(qs[1].source, msg) if {
	some op in correctness.operations
	qs := [p | some p in op.parameters; p["in"] == "querystring"]
	count(qs) > 1
	msg := sprintf("%s has %d querystring parameters (%s); it may have one", [naming.operation(op), count(qs), concat(", ", [sprintf("%q", [p.name]) | some p in qs])])
}

violations contains util.violation(qs.source, msg) if {
	some op in correctness.operations
	qs := [p | some p in op.parameters; p["in"] == "querystring"][0]
	query := [p.name | some p in op.parameters; p["in"] == "query"]
	count(query) > 0
	msg := sprintf("%s has the querystring parameter %q and query parameters (%s); describe the query string one way", [naming.operation(op), qs.name, concat(", ", [sprintf("%q", [n]) | some n in query])])
}
