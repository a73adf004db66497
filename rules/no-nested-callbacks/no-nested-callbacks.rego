# METADATA
# title: Callbacks and webhooks do not declare callbacks
# description: |
#   Operations of callbacks, and of webhooks (OpenAPI 3.1 and later), do
#   not declare `callbacks` of their own. A callback or a webhook is a
#   request the API provider sends to the consumer; a callback of that
#   request would be a call from the consumer's server back to the
#   provider, which the API description cannot promise and no tool
#   generates code or documentation for. It is usually a callback
#   indented one level too deep.
#
#   The rule reports on the `callbacks` of each such operation.
#
#   ```yaml
#   callbacks:
#     onPaid:
#       '{$request.body#/callbackUrl}':
#         post:
#           callbacks:          # bad: a callback of a callback
#             ...
#   ```
# custom:
#   category: Operations
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas3]
#   peers: ["spectral:oas3-callbacks-in-callbacks", "spectral:oas3_1-callbacks-in-webhook"]
#   howToFix: |
#     Move the callback to the operation of `paths` that triggers it, or
#     remove it.
package specgate.rules["no-nested-callbacks"]

import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(array.concat(op.source, ["callbacks"]), msg) if {
	some op in array.concat(input.callbacks, input.webhooks)
	"callbacks" in object.keys(op.node)
	msg := sprintf("%s declares callbacks, but it is itself a request the API sends; declare callbacks on the operations of paths", [naming.operation(op)])
}
