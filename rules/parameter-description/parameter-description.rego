# METADATA
# title: Parameters have a description
# description: |
#   Every parameter has a `description` saying what it means and how it is
#   used: its effect on the result, its format, its default. A name and a
#   type rarely say enough (what does `filter` accept? is `since` a date or
#   an id?).
#
#   Every path, query, header and cookie parameter is checked once, inline
#   or reusable; a parameter written as a `$ref` is checked at its target.
#   Swagger 2.0 `body` and `formData` parameters are request bodies and are
#   not checked here. A description made only of whitespace counts as
#   missing. The rule reports on the parameter.
#
#   ```yaml
#   parameters:
#     - name: limit       # bad: no description
#       in: query
#       schema: {type: integer}
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:oas3-parameter-description", "vacuum:oas2-parameter-description", "spectral:oas3-parameter-description", "spectral:oas2-parameter-description", "redocly:parameter-description"]
#   howToFix: |
#     Add a `description` to the parameter: what it does, the values it
#     accepts and what happens when it is left out.
package specgate.rules["parameter-description"]

import data.specgate.lib.util

# violations is a list, built in one comprehension: a large API writes
# thousands of parameters without a description, and a set's hashing and
# ordering of each finding cost more than the finding (the linter drops
# repeats).
# The parameters without a description are found in one call
# (specgate.blank_at): a large API has tens of thousands of parameters,
# nearly all described, and a test of each in Rego was the rule's time.
violations := [util.violation(p.source, sprintf("%s parameter %q has no description", [p.in, p.name])) |
	some p in specgate.blank_at(input.parameters, ["node", "description"])
]
