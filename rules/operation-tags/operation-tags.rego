# METADATA
# title: Operations have tags
# description: |
#   Every operation has at least one tag. Documentation tools group
#   operations by tag in navigation, and client generators split clients
#   by tag; an untagged operation ends up in a catch-all group or is hard to
#   find.
#
#   Operations under `paths` and `webhooks` are checked. Callback operations
#   are not: they are shown with the operation that registers them. The
#   rule reports on the operation.
#
#   ```yaml
#   /pets:
#     get:
#       tags: [pets]   # good
#   ```
# custom:
#   category: Documentation
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["vacuum:operation-tags", "spectral:operation-tags"]
#   howToFix: |
#     Add `tags` with the name of the resource or feature the operation
#     belongs to, and declare each tag with a description in the top-level
#     `tags` list.
package specgate.rules["operation-tags"]

# Only the operations whose first tag is missing or blank may have none
# that is not: they are found in one call (specgate.blank_at), and only
# those have their tags read. Their findings are built in one call
# (specgate.operation_violations): a large API leaves thousands of
# operations untagged.
violations := specgate.operation_violations(
	[op |
		some op in specgate.blank_at(array.concat(input.operations, input.webhooks), ["tags", 0])
		count([t | some t in op.tags; trim_space(t) != ""]) == 0
	],
	[], "{operation} has no tags; tags group operations in documentation and clients",
)
