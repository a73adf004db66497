# METADATA
# title: Ports are addressed over HTTPS
# description: |
#   Every port (WSDL 2.0: endpoint) addressed by an `http:` URL uses
#   `https:` instead. SOAP messages over plain HTTP cross the network
#   readable and changeable by anyone on the path, credentials in their
#   WS-Security headers included (OWASP API8:2023 Security
#   Misconfiguration). The rule is the WSDL counterpart of
#   `servers-use-https`.
#
#   Addresses on the local machine (`localhost`, `*.localhost`,
#   `127.0.0.1`, `[::1]`, `0.0.0.0`) serve development and are not
#   reported here (`wsdl-address-not-placeholder` reports them), nor are
#   addresses of other schemes (JMS, SMTP) or none.
#
#   ```xml
#   <soap:address location="http://library.acme.com/soap"/>    <!-- bad -->
#   <soap:address location="https://library.acme.com/soap"/>   <!-- good -->
#   ```
# custom:
#   category: Servers
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [wsdl]
#   howToFix: |
#     Serve the service over TLS and write its addresses with `https://`.
#     A service that protects its messages with WS-Security encryption
#     instead may silence the rule on the port with a
#     `<!-- specgate:ignore wsdl-address-https -->` comment saying so.
package specgate.rules["wsdl-address-https"]

violations contains {"path": p.source, "message": msg} if {
	some p in input.wsdl.ports
	p.file == ""
	m := regex.find_all_string_submatch_n(`^(?i:http)://(?:[^/@?#]*@)?(\[[^\]]*\]|[^/:?#]+)`, p.address, 1)
	count(m) == 1
	not _local(lower(m[0][1]))
	msg := sprintf("port %s of service %s is addressed over plain HTTP (%s)", [p.name, p.service, p.address])
}

_local(h) if h in {"localhost", "127.0.0.1", "[::1]", "0.0.0.0"}

_local(h) if endswith(h, ".localhost")
