# METADATA
# title: Identifiers in requests are not sequential numbers
# description: |
#   No parameter that identifies an object (`id`, `userId`, `order_id`,
#   `Account-ID`) is an integer. Sequential numeric ids can be guessed and
#   enumerated: an attacker walks `/orders/1001`, `/orders/1002`, … and
#   every missing authorization check becomes a data leak (OWASP API1:2023
#   Broken Object Level Authorization). Random identifiers (UUIDs, or
#   opaque strings) make that walk useless and do not reveal how many
#   objects exist.
#
#   A parameter is an id when its name is `id` or its last word is `id`
#   (words split at `_`, `-` and case changes: `userId`, `user_id`,
#   `X-Request-ID`); `uuid`, `paid` or `valid` are not ids. Its type is
#   judged on its schema (Swagger 2.0: on the parameter); OpenAPI 3.1 type
#   arrays count. Parameters in any location are checked, each once. The
#   rule reports on `type`.
#
#   ```yaml
#   - name: orderId
#     in: path
#     schema: {type: integer}            # bad: 1, 2, 3, …
#   - name: orderId
#     in: path
#     schema: {type: string, format: uuid}  # good
#   ```
# custom:
#   category: Parameters
#   maturity: Gold
#   severity: warn
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-no-numeric-ids"]
#   howToFix: |
#     Expose a random identifier (a UUID, or an opaque string) instead of
#     the database key. Changing the type of a published id breaks clients:
#     do it in a new version, and check authorization on every object
#     either way.
package specgate.rules["no-numeric-ids"]

import data.specgate.lib.naming
import data.specgate.lib.util

# violations is a list, built in one comprehension, where a set would hash
# and order each finding: a large API takes numeric ids in most of its
# paths (the linter drops repeats).
violations := [util.violation(array.concat(p.schemaSource, ["type"]), msg) |
	some p in _integers
	words := naming.words(p.name)
	lower(words[count(words) - 1]) == "id"
	msg := sprintf("%s parameter %q is a numeric id, which can be guessed; use a random identifier such as a UUID", [p["in"], p.name])
]

# _integers are the parameters whose schema has the type integer
# (security.has_type), found in two calls (specgate.matching: the type as a
# string, then in a list, where null also reaches an object's members)
# rather than by a test of each parameter: a large API has tens of
# thousands, nearly all strings.
_integers := array.concat(
	specgate.matching(input.parameters, ["schema", "type"], "^integer$"),
	[p | some p in specgate.matching(input.parameters, ["schema", "type", null], "^integer$"); is_array(p.schema.type)],
)
