# METADATA
# title: Deprecations give a reason
# description: |
#   Every `@deprecated` field, argument, input field and enum value gives a
#   `reason` saying what to use instead. Without one, introspection reports
#   the specification's default, "No longer supported", and clients learn
#   neither why nor where to go.
#
#   ```graphql
#   type Product {
#     price: Float @deprecated                                  # bad
#     cost: Float @deprecated(reason: "Use priceV2, in cents.")  # good
#   }
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [graphql]
#   howToFix: |
#     Add `reason:` to the directive, naming the replacement and, when there
#     is one, the date the element will be removed.
package specgate.rules["graphql-deprecation-reason"]

import data.specgate.lib.util

violations contains util.violation(f.source, sprintf("field %s.%s is deprecated without a reason", [f.type, f.name])) if {
	some f in input.graphql.fields
	_bare(f)
}

violations contains util.violation(a.source, sprintf("argument %s of %s.%s is deprecated without a reason", [a.name, a.type, a.field])) if {
	some a in input.graphql.arguments
	_bare(a)
}

violations contains util.violation(v.source, sprintf("value %s of enum %s is deprecated without a reason", [v.name, v.type])) if {
	some v in input.graphql.enumValues
	_bare(v)
}

# A reason left out, empty, or the specification's default (which
# introspection reports for a bare @deprecated) says nothing.
_bare(x) if {
	x.deprecated
	reason := trim_space(x.deprecationReason)
	reason in {"", "No longer supported"}
}
