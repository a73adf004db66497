# METADATA
# title: Operations are protected by security
# description: |
#   Every operation requires authentication, through its own `security`
#   (or one of its traits') or through every server its channel is
#   available on. An operation that no requirement covers lets anyone who
#   reaches the broker publish or read its messages (OWASP API Security
#   Top 10: broken authentication). Public channels exist, but they should
#   be a decision written down, not an omission.
#
#   A channel is available on the servers it lists, or on all root servers
#   when it lists none. An operation is covered when it or one of its
#   traits has a non-empty `security` list, or when each of those servers
#   has one; a document without servers leaves its operations uncovered.
#   Operations whose traits cannot all be read are skipped. The rule
#   reports on the operation, naming the servers without security.
#
#   ```yaml
#   servers:
#     public:                                # no security
#       host: broker.mycompany.com
#       protocol: kafka
#   channels:
#     announcements: {address: announcements}
#   operations:
#     receiveAnnouncements:                  # bad: nothing protects it
#       action: receive
#       channel: {$ref: '#/channels/announcements'}
#     sendAnnouncements:                     # good
#       action: send
#       channel: {$ref: '#/channels/announcements'}
#       security:
#         - $ref: '#/components/securitySchemes/sasl'
#   ```
# custom:
#   category: Security
#   maturity: Silver
#   severity: warn
#   family: security
#   formats: [asyncapi2, asyncapi3]
#   peers: ["redocly:security-defined"]
#   howToFix: |
#     Add a `security` list to the servers (or to the operation) naming the
#     schemes clients must satisfy. For a channel that is public on
#     purpose, say so in its description and silence the rule there with
#     `x-lint-ignore: [asyncapi-operation-secured]`.
package specgate.rules["asyncapi-operation-secured"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(op.source, msg) if {
	some op in input.asyncOperations
	not _own_security(op.node)
	not asyncapi.has_unread_trait(op.node)
	servers := _servers(op)
	open := [name | some name in servers; not _secured_server(name)]
	msg := _message(op, servers, open)
}

_own_security(node) if count(node.security) > 0

_own_security(node) if {
	some t in asyncapi.trait_values(node)
	count(t.security) > 0
}

_root_servers := object.get(input.document, "servers", {})

_secured_server(name) if count(asyncapi.deref(_root_servers[name]).security) > 0

# _servers are the names of the root servers the operation's channel is
# available on, sorted.
_servers(op) := sort(names) if {
	some ch in input.channels
	ch.id == op.channel
	names := _listed(ch.node)
	count(names) > 0
} else := sort(object.keys(_root_servers))

_listed(channel) := [name | some name in object.get(channel, "servers", [])] if asyncapi.v2

_listed(channel) := [name |
	some item in object.get(channel, "servers", [])
	["servers", name] = asyncapi.pointer_path(item["$ref"])
] if asyncapi.v3

_message(op, servers, _) := sprintf("%s requires no security and the document defines no servers that do", [asyncapi.operation(op)]) if {
	count(servers) == 0
}

_message(op, servers, open) := sprintf("%s requires no security, and neither do its servers %s", [asyncapi.operation(op), concat(", ", [sprintf("%q", [s]) | some s in open])]) if {
	count(servers) > 0
	count(open) > 0
}
