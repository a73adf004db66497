# METADATA
# title: The API says where it is served
# description: |
#   The API declares where clients reach it. In OpenAPI 3 the document has
#   a non-empty `servers` list, unless every operation under `paths` has
#   servers of its own (on the operation or its path item); without one,
#   OpenAPI takes the server to be `/`, relative to wherever the document
#   happens to be served, which is rarely the API. In Swagger 2.0 the
#   document has a `host` (otherwise the host that serves the document is
#   used) and a non-empty `schemes` list (otherwise the scheme the document
#   was fetched with is used).
#
#   A document without operations under `paths` (only webhooks, or only
#   components) is not checked. The rule reports once per missing item, on
#   the empty list when there is one, else on the document.
#
#   ```yaml
#   openapi: 3.1.0
#   servers:                         # good
#     - url: https://api.acme.dev/v1
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas3-api-servers", "vacuum:oas2-api-host", "vacuum:oas2-api-schemes", "spectral:oas3-api-servers", "spectral:oas2-api-host", "spectral:oas2-api-schemes", "redocly:no-empty-servers"]
#   howToFix: |
#     Add a `servers` entry with the API's base URL (Swagger 2.0: `host`,
#     `basePath` and `schemes: [https]`). Use server variables for
#     environments or regions.
package specgate.rules["servers-defined"]

import data.specgate.lib.util

violations contains util.violation(_at("servers"), msg) if {
	not util.is_oas2
	count(input.operations) > 0
	count(object.get(input.document, "servers", [])) == 0
	some op in input.operations
	count(op.servers) == 0
	msg := "the document declares no servers, so clients take the API to be at \"/\" relative to where the document is served; give the API's base URL"
}

violations contains util.violation([], msg) if {
	util.is_oas2
	count(input.operations) > 0
	not _text(object.get(input.document, "host", ""))
	msg := "the document declares no host, so clients take the API to be on the host that serves the document; give the API's host"
}

violations contains util.violation(_at("schemes"), msg) if {
	util.is_oas2
	count(input.operations) > 0
	count(object.get(input.document, "schemes", [])) == 0
	msg := "the document declares no schemes, so clients use the scheme the document was fetched with; list https"
}

_text(s) if trim_space(s) != ""

_at(key) := [key] if key in object.keys(input.document)

else := []
