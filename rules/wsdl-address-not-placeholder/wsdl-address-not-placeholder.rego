# METADATA
# title: Port addresses are not placeholders
# description: |
#   No port (WSDL 2.0: endpoint) of a service is addressed at a placeholder:
#   a host reserved for documentation (`example.com`, `example.org`,
#   `example.net` and their subdomains, RFC 2606), the local machine
#   (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`, `0.0.0.0`), or the
#   `REPLACE_WITH_ACTUAL_URL` that JAX-WS tooling writes into descriptions
#   it generates. Clients generated from the description call the address
#   it gives: a placeholder sends every call nowhere, or to the caller's own
#   machine.
#
#   ```xml
#   <soap:address location="http://localhost:8080/library"/>       <!-- bad -->
#   <soap:address location="https://library.acme.com/soap"/>        <!-- good -->
#   ```
# custom:
#   category: Servers
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [wsdl]
#   howToFix: |
#     Write the address the service is deployed at; a description published
#     for several environments names the production one, and clients
#     override it for the others.
package specgate.rules["wsdl-address-not-placeholder"]

violations contains {"path": p.source, "message": msg} if {
	some p in input.wsdl.ports
	p.file == ""
	reason := _placeholder(p.address)
	msg := sprintf("port %s of service %s is addressed at %s, %s", [p.name, p.service, p.address, reason])
}

_placeholder(address) := "a placeholder JAX-WS writes" if contains(address, "REPLACE_WITH_ACTUAL_URL")

else := "a host reserved for examples" if regex.match(`(^|\.)example\.(com|org|net)\.?$`, _host(address))

else := "the local machine" if {
	h := _host(address)
	_local(h)
}

_local(h) if h in {"localhost", "127.0.0.1", "[::1]", "0.0.0.0"}

_local(h) if endswith(h, ".localhost")

# _host is the lower-cased host of an absolute URL, "" for anything else.
_host(address) := lower(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@?#]*@)?(\[[^\]]*\]|[^/:?#]+)`, address, 1)
	count(m) == 1
} else := ""
