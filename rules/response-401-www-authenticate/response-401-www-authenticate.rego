# METADATA
# title: 401 responses declare WWW-Authenticate
# description: |
#   Every `401 Unauthorized` response declares the `WWW-Authenticate`
#   header. HTTP requires it (RFC 9110, section 15.5.2: a 401 "MUST send
#   a WWW-Authenticate header field"): it names the scheme and realm to
#   authenticate with, and for bearer tokens carries the error
#   (`invalid_token`, `insufficient_scope`) that tells a client whether to
#   refresh its token or ask the user again (RFC 6750; OWASP API2:2023
#   Broken Authentication).
#
#   The 401 responses of operations under `paths` are checked; header
#   names are compared without case. A response shared through a `$ref` to
#   `components.responses` (Swagger: `responses`) is reported once, at its
#   definition; any other on the response.
#
#   When more than half of the 401 responses lack the header, the rule
#   reports once, on `paths`, with their count: adding it is one decision
#   for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   "401":                       # bad
#     description: Unauthorized
#   "401":                       # good
#     description: Unauthorized
#     headers:
#       WWW-Authenticate: {schema: {type: string}}
#   ```
# custom:
#   category: Responses
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   howToFix: |
#     Declare `WWW-Authenticate` on the 401 response, ideally once in a
#     shared `components.responses.Unauthorized`.
package specgate.rules["response-401-www-authenticate"]

import data.specgate.lib.security
import data.specgate.lib.util

# _checked are the sites of the 401 responses (a response shared through a
# $ref is one site, at its definition), and _lacking those without a
# WWW-Authenticate header: every response of a site is the same object. A
# large API writes a 401 in each of thousands of operations, so each is
# read once for its source and its headers, and only the operations that
# write their 401 as a $ref (found by specgate.reaching) are read again, to
# move those responses to their definition.
_sources := {r.source | some [_, r] in security.responses_at("401")}

# _written_as_refs are the 401 responses written as a $ref, by the $ref:
# {ref: [source]}. Those of a local $ref are reported at its target, as
# security.response_site does, instead of at their source.
_written_as_refs := specgate.group([[ref, array.concat(op.source, ["responses", "401"])] |
	some op in specgate.reaching(input.operations, [["responses", "401", "$ref"]])
	ref := op.node.responses["401"]["$ref"]
])

_moved := {source | some ref, sources in _written_as_refs; util.ref_path(ref); some source in sources}

_definitions := {site | some ref, _ in _written_as_refs; site := util.ref_path(ref)}

_checked := (_sources - _moved) | _definitions

_challenging := {security.response_site(input.operations[i], r) |
	some [i, r] in security.responses_at("401")
	security.header_named(r, {"www-authenticate"})
}

_lacking := _checked - _challenging

violations contains util.violation(site, msg) if {
	not security.api_wide(_lacking, _checked)
	some site in _lacking
	msg := sprintf("%s declares no WWW-Authenticate header, which HTTP requires on a 401", [security.site_label(site)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	security.api_wide(_lacking, _checked)
	msg := sprintf("no WWW-Authenticate header, which HTTP requires, in %s", [security.responses_summary(_lacking, _checked, "401 responses")])
}
