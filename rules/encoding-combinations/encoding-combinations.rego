# METADATA
# title: A media type encodes one way (OpenAPI 3.2)
# description: |
#   A media type of OpenAPI 3.2 does not combine `encoding` with
#   `prefixEncoding` or `itemEncoding`. `encoding` describes the fields of
#   a form-like body by property name; `prefixEncoding` and `itemEncoding`
#   describe the parts of a multipart body by position. The specification
#   forbids giving both, since a part would then have two encodings.
#
#   The media types of request bodies and responses are checked (those of
#   reusable ones where operations use them). The rule reports on
#   `encoding`.
#
#   ```yaml
#   multipart/mixed:
#     itemSchema: {type: object}
#     itemEncoding: {contentType: application/json}
#     encoding:                       # bad: with itemEncoding
#       file: {contentType: image/png}
#   ```
# custom:
#   category: Requests
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [oas3.2]
#   peers: ["redocly:spec-no-invalid-encoding-combinations"]
#   howToFix: |
#     Describe the body one way: by property name with `encoding`, or by
#     position with `prefixEncoding` and `itemEncoding`.
package specgate.rules["encoding-combinations"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(m.source, ["encoding"]), msg) if {
	some m in _media_types
	is_object(m.node.encoding)
	others := [k | some k in ["prefixEncoding", "itemEncoding"]; k in object.keys(m.node)]
	count(others) > 0
	msg := sprintf("media type %s has encoding and %s; describe its parts either by name or by position", [m.mediaType, concat(" and ", others)])
}

_media_types := array.concat(
	[m | some op in correctness.operations; op.requestBody != null; some m in op.requestBody.content],
	[m | some op in correctness.operations; some r in op.responses; some m in r.content],
)
