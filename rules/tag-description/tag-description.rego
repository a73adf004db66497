# METADATA
# title: Tags have a description
# description: |
#   Every tag declared in the top-level tag list has a `description`.
#   Documentation tools show it as the introduction of the tag's group of
#   operations (or channels and messages, for AsyncAPI); without it a group
#   is only a name.
#
#   The top-level `tags` of OpenAPI and AsyncAPI 2 documents and the
#   `info.tags` of AsyncAPI 3 documents are checked; a tag of AsyncAPI 3
#   written as a local `$ref` is checked at its target, one that points to
#   another file is not checked. A description made only of whitespace
#   counts as missing. The rule reports on the tag.
#
#   ```yaml
#   tags:
#     - name: pets       # bad: no description
#     - name: stores
#       description: Shops that sell pets.
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3, asyncapi2, asyncapi3]
#   peers: ["vacuum:tag-description", "spectral:tag-description", "redocly:tag-description", "spectral:asyncapi-tag-description", "spectral:asyncapi-3-tag-description", "vacuum:asyncapi-3-tag-description"]
#   howToFix: |
#     Add a `description` to the tag saying what its operations have in
#     common and where to start. Markdown is allowed.
package specgate.rules["tag-description"]

import data.specgate.lib.util

violations contains util.violation(tag.source, sprintf("tag %q has no description", [tag.name])) if {
	some tag in _tags
	not _described(tag)
}

_tags contains {"name": t.name, "description": t.description, "source": t.source} if some t in input.tags

# AsyncAPI 3 moved the tag list under info; the tags view holds the
# top-level list only.
_tags contains {"name": object.get(t, "name", ""), "description": object.get(t, "description", ""), "source": ["info", "tags", i]} if {
	input.format == "asyncapi"
	some i, raw in input.document.info.tags
	t := _deref(raw)
}

_deref(raw) := raw if {
	not "$ref" in object.keys(raw)
} else := target if {
	target := object.get(input.document, util.ref_path(raw["$ref"]), null)
	is_object(target)
}


_described(tag) if trim_space(tag.description) != ""
