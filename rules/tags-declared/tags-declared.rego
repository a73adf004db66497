# METADATA
# title: The document declares its tags
# description: |
#   A document with operations has a non-empty top-level `tags` list.
#   Declared tags give each group of operations a description and an
#   order in documentation, and let tools check the tags operations use
#   (`operation-tag-defined`); without the list, documentation invents the
#   groups from whatever tags operations happen to carry, in no chosen
#   order and without introductions.
#
#   Operations under `paths`, `webhooks` and `callbacks` count. The rule
#   reports once, on the empty list when there is one, else on the
#   document.
#
#   ```yaml
#   tags:                          # good
#     - name: pets
#       description: Adopting and caring for pets.
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:openapi-tags", "spectral:openapi-tags"]
#   howToFix: |
#     Add a top-level `tags` list with one entry per group of operations,
#     each with a `name` and a `description`, in the order documentation
#     should show them, and tag every operation with one of them.
package specgate.rules["tags-declared"]

import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(_anchor, msg) if {
	count(style.operations) > 0
	count(input.tags) == 0
	msg := "the document declares no tags; list the groups of its operations, each with a description, under tags"
}

_anchor := ["tags"] if "tags" in object.keys(input.document)

else := []
