# METADATA
# title: Port types are documented
# description: |
#   Every port type (WSDL 2.0: every interface) has a `wsdl:documentation`
#   saying what service it offers. A port type becomes the interface of the
#   generated client and server code (wsimport's service endpoint
#   interface, svcutil's service contract), whose comment it supplies.
#
#   An element that holds only markup or whitespace is not documentation.
#
#   ```xml
#   <wsdl:portType name="Library">                         <!-- bad -->
#     <wsdl:operation name="getBook">…</wsdl:operation>
#   </wsdl:portType>
#   <wsdl:portType name="Library">                         <!-- good -->
#     <wsdl:documentation>The library's catalogue.</wsdl:documentation>
#     <wsdl:operation name="getBook">…</wsdl:operation>
#   </wsdl:portType>
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [wsdl]
#   howToFix: |
#     Write a `wsdl:documentation` element as the port type's first child,
#     saying what its operations are for.
package specgate.rules["wsdl-port-type-documentation"]

violations contains {"path": p.source, "message": sprintf("%s %s has no wsdl:documentation", [_kind, p.name])} if {
	some p in input.wsdl.portTypes
	p.file == ""
	trim_space(p.documentation) == ""
}

_kind := "interface" if input.wsdl.version == "2.0"

else := "port type"
