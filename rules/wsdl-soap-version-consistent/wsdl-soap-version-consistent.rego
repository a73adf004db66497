# METADATA
# title: SOAP versions are consistent
# description: |
#   A description speaks its SOAP versions consistently:
#
#   - inside a WSDL 1.1 binding, the `soap:operation`, `soap:body`,
#     `soap:header` and `soap:fault` elements are of the binding's SOAP
#     version (the `soap:` namespace for SOAP 1.1, `soap12:` for SOAP 1.2),
#     and so is the address of every port bound to it. Toolkits read only
#     the elements of the binding's version: a `soap:operation` copied into a
#     `soap12:binding` loses its SOAP action, a `soap:body` its use and
#     parts;
#   - across bindings, every port type is bound in the same SOAP versions.
#     Offering both SOAP 1.1 and SOAP 1.2 bindings of a port type is common
#     and fine; binding one port type in SOAP 1.1 only and another in SOAP
#     1.2 only makes clients of the service handle both versions, with their
#     different envelopes and content types (`text/xml` against
#     `application/soap+xml`).
#
#   ```xml
#   <wsdl:binding name="LibrarySoap12" type="tns:Library">
#     <soap12:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
#     <wsdl:operation name="getBook">
#       <soap:operation soapAction="urn:getBook"/>      <!-- bad: a SOAP 1.1 element -->
#       <soap12:operation soapAction="urn:getBook"/>    <!-- good -->
#   ```
# custom:
#   category: Operations
#   maturity: Silver
#   severity: warn
#   family: correctness
#   formats: [wsdl]
#   howToFix: |
#     Write the binding's extension elements, and the addresses of its ports,
#     in the namespace of its version. Bind each port type in the SOAP
#     versions the others have (often both, in two bindings).
package specgate.rules["wsdl-soap-version-consistent"]

violations contains {"path": o.source, "message": msg} if {
	some o in input.wsdl.bindingOperations
	o.file == ""
	o.soapVersion != ""
	others := [v | some v in o.soapVersions; v != o.soapVersion]
	count(others) > 0
	msg := sprintf("operation %s of the SOAP %s binding %s writes SOAP %s elements (%s)", [o.name, o.soapVersion, o.binding, concat(", ", others), _prefix[others[0]]])
}

violations contains {"path": p.source, "message": msg} if {
	some p in input.wsdl.ports
	p.file == ""
	p.soapVersion != ""
	p.bindingSoapVersion != ""
	p.soapVersion != p.bindingSoapVersion
	msg := sprintf("port %s of service %s has a SOAP %s address (%saddress) for the SOAP %s binding %s", [p.name, p.service, p.soapVersion, _prefix[p.soapVersion], p.bindingSoapVersion, p.binding])
}

violations contains {"path": array.concat(b.source, ["soapVersion"]), "message": msg} if {
	some b in input.wsdl.bindings
	b.file == ""
	b.soapVersion != ""
	mine := _versions[b.portType]
	mine != _all
	missing := concat(" and ", sort([sprintf("SOAP %s", [v]) | some v in _all - mine]))
	msg := sprintf("port type %s is bound in %s only, while other port types of the description are bound in %s too", [b.portType, concat(" and ", sort([sprintf("SOAP %s", [v]) | some v in mine])), missing])
}

_prefix := {"1.1": "soap:", "1.2": "soap12:"}

# _versions are the SOAP versions each port type is bound in.
_versions := {pt: {v | some v in vs; v != ""} | some pt, vs in specgate.group([[b.portType, b.soapVersion] | some b in input.wsdl.bindings])}

_all := {v | some b in input.wsdl.bindings; v := b.soapVersion; v != ""}
