# METADATA
# title: Swagger 2.0 documents list their schemes
# description: |
#   A Swagger 2.0 document lists the transfer protocols of its API in
#   `schemes` (`https`, `http`, `ws`, `wss`). Without it, tools use the
#   scheme the description was fetched with, which for a file on disk is
#   none: generated clients and consoles cannot build a URL, or guess
#   `http` for an API served only over `https`.
#
#   The rule reports on `schemes` when it is empty, else on the document's
#   `swagger` field.
#
#   ```yaml
#   swagger: "2.0"
#   host: api.example.org
#   schemes: [https]
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2]
#   peers: ["spectral:oas2-api-schemes", "vacuum:oas2-api-schemes"]
#   howToFix: |
#     Add `schemes` with the protocols the API really serves, usually
#     `[https]`.
package specgate.rules["oas2-api-schemes"]

import data.specgate.lib.util

violations contains util.violation(["schemes"], "schemes is empty; list the protocols the API is served over, such as https") if {
	input.document.schemes == []
}

violations contains util.violation(["swagger"], "the document has no schemes; list the protocols the API is served over, such as https") if {
	not "schemes" in object.keys(input.document)
}
