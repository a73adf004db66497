# METADATA
# title: The API says where it is served
# description: |
#   The document says where the API is served: OpenAPI 3 documents list at
#   least one server under `servers`, Swagger 2.0 documents give a `host`.
#   Without them, tools fall back on the host that served the description
#   (or `/`), which is rarely where the API runs: generated clients have no
#   base URL, and "try it" consoles and contract tests call the wrong host.
#
#   Documents without operations under `paths` (a webhooks-only API, a
#   library of components) serve nothing and are not checked. The rule
#   reports on `servers` when it is empty, else on the document's
#   `openapi` or `swagger` field.
#
#   ```yaml
#   openapi: 3.1.0      # bad: no servers
#   info: ...
#   paths: ...
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["spectral:oas3-api-servers", "spectral:oas2-api-host", "vacuum:oas3-api-servers", "vacuum:oas2-api-host", "redocly:no-empty-servers"]
#   howToFix: |
#     Add `servers` with the API's base URL (`- url:
#     https://api.example.org/v1`, several for several environments), or,
#     in Swagger 2.0, `host` (and `basePath`).
package specgate.rules["api-servers"]

import data.specgate.lib.util

violations contains util.violation(["servers"], "servers is empty; list the URL the API is served from") if {
	not util.is_oas2
	count(input.operations) > 0
	input.document.servers == []
}

violations contains util.violation(["openapi"], "the document has no servers; list the URL the API is served from") if {
	not util.is_oas2
	count(input.operations) > 0
	not "servers" in object.keys(input.document)
}

violations contains util.violation(["swagger"], "the document has no host; give the host (and basePath) the API is served from") if {
	util.is_oas2
	count(input.operations) > 0
	not _has_host
}

_has_host if {
	is_string(input.document.host)
	input.document.host != ""
}
