# METADATA
# title: Webhooks do not declare servers
# description: |
#   Webhooks (OpenAPI 3.1 and later) and their operations have no
#   `servers`. A webhook is a request the API provider sends to a URL the
#   consumer registers; servers describe where the provider's API is, so
#   on a webhook they say nothing true, and tools that read them send test
#   requests to the provider instead of the consumer.
#
#   The rule reports on the `servers` of each webhook path item and
#   operation.
#
#   ```yaml
#   webhooks:
#     newPet:
#       servers:                          # bad
#         - url: https://hooks.example.org
#       post: ...
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas3.1, oas3.2]
#   peers: ["spectral:oas3_1-servers-in-webhook"]
#   howToFix: |
#     Remove the servers; describe in the webhook's description how
#     consumers register the URL that receives it.
package specgate.rules["webhook-servers"]

import data.specgate.lib.health
import data.specgate.lib.naming
import data.specgate.lib.util

violations contains util.violation(["webhooks", name, "servers"], msg) if {
	some name, item in object.get(input.document, "webhooks", {})
	"servers" in object.keys(health.deref(item))
	msg := sprintf("webhook %s declares servers; a webhook is sent to the consumer's URL, not to the API's servers", [name])
}

violations contains util.violation(array.concat(op.source, ["servers"]), msg) if {
	some op in input.webhooks
	"servers" in object.keys(op.node)
	msg := sprintf("%s declares servers; a webhook is sent to the consumer's URL, not to the API's servers", [naming.operation(op)])
}
