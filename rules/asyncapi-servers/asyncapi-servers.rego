# METADATA
# title: The document names its servers
# description: |
#   An AsyncAPI document lists at least one server under `servers`: the
#   brokers or endpoints, with their protocols, that applications connect
#   to. Without them readers learn the channels and messages but not where
#   to send or receive them, and code generators cannot produce a working
#   client.
#
#   The rule reports on the document root when there is no `servers`
#   object and on `servers` when it is empty.
#
#   ```yaml
#   asyncapi: 3.0.0             # bad: no servers
#   info: {title: Accounts, version: 1.0.0}
#   ---
#   asyncapi: 3.0.0
#   servers:                    # good
#     production:
#       host: broker.mycompany.com:9092
#       protocol: kafka
#   ```
# custom:
#   category: Servers
#   maturity: Bronze
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-servers", "vacuum:asyncapi-servers"]
#   howToFix: |
#     Add a `servers` entry for each environment applications connect to,
#     with its URL (2.x) or host (3.x), protocol and a description.
package specgate.rules["asyncapi-servers"]

import data.specgate.lib.util

violations contains util.violation([], "the document defines no servers; name the brokers applications connect to") if {
	not "servers" in object.keys(input.document)
}

violations contains util.violation(["servers"], "servers is empty; name the brokers applications connect to") if {
	count(input.document.servers) == 0
}
