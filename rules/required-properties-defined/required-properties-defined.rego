# METADATA
# title: Required properties are defined
# description: |
#   Every name a schema lists in `required` is a property it defines. A
#   required name without a definition is almost always a typo or a
#   property removed from `properties` and forgotten in `required`: the
#   schema then demands a value nobody documents, and clients that follow
#   the documented properties produce payloads the server rejects.
#
#   A property counts as defined when it is in the `properties` of the
#   schema, of the schemas it is composed of (`allOf`, `anyOf`, `oneOf`,
#   three levels deep, local `$ref`s followed), or of the schema it is
#   itself a member of: `allOf: [{$ref: Base}, {required: [id]}]` is fine
#   when `Base` defines `id`, and so is a named schema that lists
#   `required` only and is composed with the schema that defines the
#   properties. Schemas that accept undeclared properties on purpose
#   (`additionalProperties` set to `true` or a schema, `patternProperties`,
#   `dependentSchemas`, `if`) are not checked, nor schemas whose
#   composition cannot be read completely (a `$ref` to another file,
#   deeper nesting): the rule stays quiet rather than guess. It reports on
#   each undefined name in `required`; when an array schema lists
#   `required` beside `items` whose properties define the name, the
#   message says to move it into `items`.
#
#   ```yaml
#   User:
#     type: object
#     required: [id, emial]   # bad: "emial" is not defined
#     properties:
#       id: {type: string}
#       email: {type: string}
#   ```
# custom:
#   category: Schemas
#   maturity: Bronze
#   severity: warn
#   family: correctness
#   formats: [oas2, oas3]
#   peers: ["vacuum:required-fields-defined", "redocly:no-required-schema-properties-undefined"]
#   howToFix: |
#     Correct the name in `required` to the property it means, add the
#     missing property to `properties`, or remove the name from
#     `required`.
package specgate.rules["required-properties-defined"]

import data.specgate.lib.correctness
import data.specgate.lib.health
import data.specgate.lib.util

violations contains util.violation(array.concat(s.source, ["required", i]), msg) if {
	some s in correctness.having("required")
	required := s.node.required
	is_array(required)
	# One builtin call settles the common case: own properties cover all.
	count(object.filter(object.get(s.node, "properties", {}), required)) < count(required)
	not _open(s.node)
	correctness.family_complete(s.node)
	_context_known(s)
	defined := correctness.family_properties(s.node) | _context_properties(s)
	some i, name2 in required
	not name2 in defined
	msg := sprintf("%s requires property %q but does not define it%s", [correctness.describe(s), name2, _hint(s.node, name2)])
}

# _hint points at the frequent slip of writing an array's `required`
# beside `items` instead of inside it.
_hint(node, name) := "; its items define it: move required into items" if {
	is_object(node.items)
	name in correctness.family_properties(health.deref(node.items))
} else := ""

# _open holds for schemas that accept properties beyond their declared
# ones on purpose, or declare them in ways this rule does not read.
_open(node) if node.additionalProperties == true

_open(node) if is_object(node.additionalProperties)

_open(node) if {
	some k in ["patternProperties", "dependentSchemas", "if", "unevaluatedProperties", "dependencies"]
	k in object.keys(node)
}

# _parents(s) are the schemas s is a composition member of: the schema it
# is written inside (allOf/anyOf/oneOf/<i>), and those that reference it
# from such a position in the entry file.
_parents(s) := array.concat(_inline_parent(s), _composers(s))

_inline_parent(s) := [object.get(input.document, array.slice(s.source, 0, count(s.source) - 2), null)] if {
	count(s.source) > 2
	s.source[count(s.source) - 2] in {"allOf", "anyOf", "oneOf"}
} else := []

_composers(s) := [p |
	some r in object.get(input.refsTo, concat("", ["#", correctness.pointer(s.source)]), [])
	r.file == ""
	count(r.path) > 2
	r.path[count(r.path) - 2] in {"allOf", "anyOf", "oneOf"}
	p := object.get(input.document, array.slice(r.path, 0, count(r.path) - 2), null)
]

# _context_known holds when the schema is written in the entry file where
# its path says (a path through a $ref into another file has composers
# this rule cannot look up) and every parent could be read completely.
_context_known(s) if {
	object.get(input.document, s.source, null) != null
	every p in _parents(s) {
		is_object(p)
		correctness.family_complete(p)
	}
}

_context_properties(s) := {name |
	some p in _parents(s)
	some name in correctness.family_properties(p)
}
