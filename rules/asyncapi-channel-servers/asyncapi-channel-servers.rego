# METADATA
# title: Channels name servers that exist
# description: |
#   A channel may restrict the servers it is available on. Each server it
#   lists must be one of the document's root `servers`: in AsyncAPI 2 by
#   name, in AsyncAPI 3 by a `$ref` to `#/servers/<name>` (the specification
#   forbids pointing a root channel at a server under `components` or
#   elsewhere, and forbids writing the server inline). A channel that names
#   a server the document does not define cannot be connected to.
#
#   Channels of the root `channels` object are checked (with their targets
#   when they are `$ref`s). The rule reports on the offending item of the
#   channel's `servers` list.
#
#   ```yaml
#   servers:
#     production: {url: broker.mycompany.com, protocol: kafka}
#   channels:
#     users/signedup:
#       servers: [production, staging]   # bad: no server "staging"
#     users/deleted:
#       servers: [production]            # good
#   ```
# custom:
#   category: Channels
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-channel-servers", "spectral:asyncapi-3-channel-servers", "vacuum:asyncapi-3-channel-servers"]
#   howToFix: |
#     Define the missing server under the root `servers`, or remove it from
#     the channel's list. In AsyncAPI 3 write each item as
#     `$ref: '#/servers/<name>'`.
package specgate.rules["asyncapi-channel-servers"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(array.concat(ch.source, ["servers", i]), msg) if {
	asyncapi.v2
	some ch in input.channels
	some i, name in ch.node.servers
	not name in object.keys(_servers)
	msg := sprintf("%s lists server %q, which is not defined under servers", [asyncapi.channel(ch), name])
}

violations contains util.violation(array.concat(ch.source, ["servers", i]), msg) if {
	asyncapi.v3
	some ch in input.channels
	some i, item in ch.node.servers
	msg := _v3_problem(ch, item)
}

_servers := object.get(input.document, "servers", {})

_v3_problem(ch, item) := sprintf("%s lists a server written inline; list a $ref to one of the root servers instead", [asyncapi.channel(ch)]) if {
	not asyncapi.is_ref(item)
}

_v3_problem(ch, item) := sprintf("%s lists server %q, which is not one of the root servers; point to #/servers/<name>", [asyncapi.channel(ch), item["$ref"]]) if {
	asyncapi.is_ref(item)
	not _root_server(item["$ref"])
}

_root_server(ref) if {
	["servers", name] = asyncapi.pointer_path(ref)
	name in object.keys(_servers)
}
