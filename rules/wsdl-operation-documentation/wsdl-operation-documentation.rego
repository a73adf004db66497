# METADATA
# title: Operations are documented
# description: |
#   Every operation of a port type (WSDL 2.0: an interface) has a
#   `wsdl:documentation` saying what it does. The description is the
#   contract SOAP clients are generated from: code generators (wsimport,
#   svcutil, Apache CXF's wsdl2java) carry the documentation into the
#   generated methods' comments, and catalogues and test tools show it.
#
#   An element that holds only markup or whitespace is not documentation.
#
#   ```xml
#   <wsdl:operation name="getBook">                       <!-- bad -->
#     <wsdl:input message="tns:GetBookRequest"/>
#   </wsdl:operation>
#   <wsdl:operation name="getBook">                       <!-- good -->
#     <wsdl:documentation>Returns the book of an ISBN.</wsdl:documentation>
#     <wsdl:input message="tns:GetBookRequest"/>
#   </wsdl:operation>
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [wsdl]
#   howToFix: |
#     Write a `wsdl:documentation` element as the operation's first child,
#     saying what the operation does, what it needs and what it returns.
package specgate.rules["wsdl-operation-documentation"]

violations contains {"path": o.source, "message": sprintf("operation %s of %s %s has no wsdl:documentation", [o.name, _kind, o.portType])} if {
	some o in input.wsdl.operations
	o.file == ""
	trim_space(o.documentation) == ""
}

_kind := "interface" if input.wsdl.version == "2.0"

else := "port type"
