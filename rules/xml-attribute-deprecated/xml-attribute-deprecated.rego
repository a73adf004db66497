# METADATA
# title: XML attributes use nodeType (OpenAPI 3.2)
# description: |
#   In OpenAPI 3.2, a schema's XML Object says that a property is an XML
#   attribute with `nodeType: attribute`; the older `attribute: true` is
#   deprecated. 3.2 tools read `nodeType` first and may ignore the old
#   field, so the property can be written as an element instead of an
#   attribute, and `attribute` cannot be combined with the other node types
#   3.2 adds (`text`, `cdata`, `none`).
#
#   Every schema is checked once, named or inline. The rule reports on
#   `attribute`.
#
#   ```yaml
#   id:
#     type: integer
#     xml:
#       attribute: true          # bad: deprecated in 3.2
#   id:
#     type: integer
#     xml:
#       nodeType: attribute
#   ```
# custom:
#   category: Schemas
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [oas3.2]
#   peers: ["spectral:oas3_2-no-deprecated-xml-attribute"]
#   howToFix: |
#     Replace `attribute: true` with `nodeType: attribute`, and remove
#     `attribute: false` (elements are the default).
package specgate.rules["xml-attribute-deprecated"]

import data.specgate.lib.correctness
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["xml", "attribute"]), msg) if {
	some s in correctness.having("xml")
	is_boolean(s.node.xml.attribute)
	msg := sprintf("%s uses xml.attribute, which OpenAPI 3.2 deprecates; write %s", [correctness.describe(s), _instead(s.node.xml.attribute)])
}

_instead(true) := "xml.nodeType: attribute"

_instead(false) := "nothing (elements are the default) or xml.nodeType: element"
