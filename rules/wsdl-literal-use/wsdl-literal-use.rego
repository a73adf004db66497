# METADATA
# title: SOAP bindings use literal, not encoded
# description: |
#   Every `soap:body`, `soap:header`, `soap:headerfault` and `soap:fault` of a
#   WSDL 1.1 SOAP binding has `use="literal"` (or no `use`, whose meaning
#   toolkits then guess). The WS-I Basic Profile 1.1 requires it (R2706: a
#   binding MUST use "literal" in all of them): SOAP encoding (section 5 of
#   SOAP 1.1) describes messages by a graph model that no schema validates,
#   which toolkits read differently. JAX-WS does not support rpc/encoded at
#   all, and WSDL 2.0 dropped encoded use.
#
#   ```xml
#   <wsdl:input><soap:body use="encoded"
#       encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:input>  <!-- bad -->
#   <wsdl:input><soap:body use="literal"/></wsdl:input>                            <!-- good -->
#   ```
# custom:
#   category: Operations
#   maturity: Baseline
#   severity: error
#   family: correctness
#   formats: [wsdl]
#   howToFix: |
#     Describe each message with an XML Schema element and bind it with
#     `use="literal"`, preferably document/literal wrapped: a request element
#     named like the operation, a response element named like it with
#     `Response`. The messages' XML changes: clients need regenerating.
package specgate.rules["wsdl-literal-use"]

violations contains {"path": o.source, "message": msg} if {
	some o in input.wsdl.bindingOperations
	o.file == ""
	places := [sprintf("%s's soap:%s", [b.in, b.element]) | some b in o.bodies; b.use == "encoded"]
	count(places) > 0
	msg := sprintf("operation %s of binding %s uses encoded in its %s; WS-I Basic Profile R2706 allows literal only", [o.name, o.binding, concat(", ", places)])
}
