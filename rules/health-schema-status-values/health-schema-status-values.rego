# METADATA
# title: The health "status" enumerates pass, fail and warn
# description: |
#   When the `status` property of a health response enumerates its values,
#   they are those of the health check response format: `pass`, `fail` and
#   `warn`, or the aliases the format accepts (`ok` and `up` for pass,
#   `error` and `down` for fail), compared without case; and they include a
#   value for pass and one for fail. Monitors and platforms read `status`
#   without knowing the API: a value such as `healthy` or `degraded` means
#   nothing to them, and a status that cannot say `fail` cannot report an
#   outage.
#
#   The success responses of `GET …/health` and `GET …/health/info` are
#   checked, as in `health-schema-status`; the `status` property is looked
#   up in the schema and its `allOf` members, following local `$ref`s one
#   level. A `status` without an `enum` is not reported. The rule reports
#   on the `enum`.
#
#   ```yaml
#   status:
#     type: string
#     enum: [healthy, unhealthy]   # bad
#     enum: [pass, fail, warn]     # good
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: health
#   formats: [oas2, oas3]
#   howToFix: |
#     Use `enum: [pass, fail, warn]` for the `status` property, and map the
#     service's own states onto these three.
package specgate.rules["health-schema-status-values"]

import data.specgate.lib.health
import data.specgate.lib.util

_aliases := {
	"pass": "pass", "ok": "pass", "up": "pass",
	"fail": "fail", "error": "fail", "down": "fail",
	"warn": "warn",
}

violations contains util.violation(array.concat(st.path, ["enum"]), msg) if {
	some st in _statuses
	unknown := [v | some v in st.schema.enum; not _aliases[lower(_text(v))]]
	count(unknown) > 0
	msg := sprintf("the \"status\" of %s allows %s, which the health check response format does not know; use pass, fail and warn", [st.where, concat(", ", [json.marshal(v) | some v in unknown])])
}

violations contains util.violation(array.concat(st.path, ["enum"]), msg) if {
	some st in _statuses
	known := {_aliases[lower(_text(v))] | some v in st.schema.enum}
	some needed in ["pass", "fail"]
	not needed in known
	msg := sprintf("the \"status\" of %s has no value for %s; a health response must be able to say %s", [st.where, needed, needed])
}

# _statuses are the status properties with an enum of the health success
# bodies: where the property is written, its schema and how to name it.
_statuses contains {"path": path, "schema": schema, "where": where} if {
	some suffix in ["/health", "/health/info"]
	some b in health.bodies(suffix)
	b.body != null
	[at, prop] := _status_property(b.body.schema, b.body.schemaSource)
	[path, schema] := _followed(prop, at)
	is_array(schema.enum)
	where := sprintf("GET %s response %s (%s)", [b.op.path, b.response.status, b.body.mediaType])
}

# _status_property is [path, schema] of the status property declared by
# the schema itself or by one of its allOf members.
_status_property(s, source) := [array.concat(source, ["properties", "status"]), s.properties.status] if {
	s.properties.status
} else := [array.concat(path, ["properties", "status"]), member.properties.status] if {
	some i, m in object.get(s, "allOf", [])
	[path, member] := _followed(m, array.concat(source, ["allOf", i]))
	member.properties.status
}

# _followed is [path, schema] of a schema written at source, or of the
# target of its local $ref.
_followed(s, source) := [util.ref_path(s["$ref"]), health.ref_target(s["$ref"])] if health.is_ref(s)

else := [source, s]

_text(v) := v if is_string(v)

else := json.marshal(v)
