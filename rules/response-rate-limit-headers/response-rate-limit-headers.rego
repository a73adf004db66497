# METADATA
# title: Success responses declare rate-limit headers
# description: |
#   Every success (2xx) response declares a rate-limit header, so clients
#   see their quota before they exhaust it: `RateLimit` and
#   `RateLimit-Policy` (IETF draft "RateLimit header fields for HTTP"), the
#   older `RateLimit-Limit`/`-Remaining`/`-Reset`, or the common
#   `X-RateLimit-*` and `X-Rate-Limit-*` families. Documented limits are
#   the visible part of protection against resource exhaustion and
#   scraping (OWASP API4:2023 Unrestricted Resource Consumption).
#
#   The 2xx responses (and `2XX` ranges) of operations under `paths` are
#   checked; any header whose name starts with `RateLimit`, `Rate-Limit`,
#   `X-RateLimit` or `X-Rate-Limit` (any case) counts. Error responses are
#   not checked (the 429 has its own rules). A response shared through a
#   `$ref` to `components.responses` (Swagger: `responses`) is reported
#   once, at its definition; any other on the response.
#
#   When more than half of the success responses lack one, the rule
#   reports once, on `paths`, with their count: adding it is one decision
#   for the whole API. Otherwise it reports each exception.
#
#   ```yaml
#   "200":                   # bad
#     description: OK
#   "200":                   # good
#     description: OK
#     headers:
#       RateLimit: {$ref: '#/components/headers/RateLimit'}
#   ```
# custom:
#   category: Responses
#   maturity: Platinum
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-rate-limit"]
#   howToFix: |
#     Declare the rate-limit headers once under `components.headers` and
#     reference them from the success responses.
package specgate.rules["response-rate-limit-headers"]

import data.specgate.lib.security
import data.specgate.lib.util

# _checked are the sites of the success responses (a response shared
# through a $ref is one site, at its definition), _limited those with a
# rate-limit header, and _lacking the rest: every response of a site is
# the same object. A large API has tens of thousands of success
# responses, nearly all written in place and without headers, so each is
# read once for its source and its headers, and only the operations
# that write a $ref as a success response (found by specgate.reaching)
# are read again, to move those responses to their definition.
_success := [status | some status in security.statuses_written; startswith(status, "2")]

# _source_list are the success responses' sources, each once (a response
# is at one source), and _sources the same as a set, for lookups. An
# API-wide finding needs only counts and the first site that lacks a
# header, so the sets of every site are not subtracted then: OPA sorts
# both operands of a set difference, where min of a list is one pass.
_source_list := [r.source | some status in _success; some [_, r] in security.responses_at(status)]

_sources := {source | some source in _source_list}

# _written_as_refs are the success responses of operations that write
# them as a $ref, by the $ref: {ref: [source]}. Those of a local $ref
# are reported at its target, as security.response_site does, instead
# of at their source.
_written_as_refs := specgate.group([[raw["$ref"], array.concat(op.source, ["responses", status])] |
	some op in specgate.reaching(input.operations, [["responses", status, "$ref"] | some status in _success])
	some status, raw in op.node.responses
	startswith(status, "2")
])

_moved := {source | some ref, sources in _written_as_refs; util.ref_path(ref); some source in sources}

_definitions := {site | some ref, _ in _written_as_refs; site := util.ref_path(ref)}

_checked := (_sources - _moved) | _definitions

_limited := {security.response_site(input.operations[i], r) |
	some status in _success
	some [i, r] in security.responses_at(status)
	some h in r.headers
	regex.match(`(?i)^(x-)?rate-?limit`, h.name)
}

_lacking := _checked - _limited

# _is_checked(site) is site in _checked, and _count_checked and
# _count_lacking the sizes of _checked and _lacking, without either set.
_is_checked(site) if _kept(site)

_is_checked(site) if _definitions[site]

_count_checked := (count(_sources) - count({s | some s in _moved; _sources[s]})) + count({d | some d in _definitions; not _kept(d)})

# _kept(site) is site in _sources - _moved.
_kept(site) if {
	_sources[site]
	not _moved[site]
}

_count_lacking := _count_checked - count({site | some site in _limited; _is_checked(site)})

_api_wide if {
	_count_checked > 1
	_count_lacking * 2 > _count_checked
}

# _first_lacking is min(_lacking): the least of the sources and
# definitions when it lacks a header (nearly always, in an API-wide
# finding), else the least of those that lack one.
_first_lacking := site if {
	site := min(array.concat(_source_list, [d | some d in _definitions]))
	_is_checked(site)
	not _limited[site]
} else := min(array.concat(
	[s | some s in _source_list; not _moved[s]; not _limited[s]],
	[d | some d in _definitions; not _limited[d]],
))

violations contains util.violation(site, msg) if {
	not _api_wide
	some site in _lacking
	msg := sprintf("%s declares no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…)", [security.site_label(site)])
}

violations contains util.violation(security.api_wide_path, msg) if {
	_api_wide
	msg := sprintf("no rate-limit header (RateLimit, RateLimit-Policy, X-RateLimit-…) in %s", [security.counted_summary(_count_lacking, _count_checked, "success responses", _first_lacking)])
}
