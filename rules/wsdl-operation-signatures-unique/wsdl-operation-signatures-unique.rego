# METADATA
# title: Operations of a document-literal binding send different body elements
# description: |
#   No two operations of a document-literal SOAP binding send a request
#   whose `soap:Body` holds the same element (or nothing at all). The WS-I
#   Basic Profile 1.1 requires the operations of a binding to have different
#   signatures on the wire (R2710); in document-literal style the signature
#   is the qualified name of the body's child element. A service dispatches
#   a request to an operation by that element: with two operations sharing
#   it, the service cannot tell which one a client calls, and JAX-WS refuses
#   to deploy the port ("Non unique body parts!"). The SOAP action does not
#   help: WS-I does not let a service rely on it, and SOAP 1.2 clients need
#   not send one.
#
#   rpc-style operations are told apart by the wrapper element named like
#   the operation, so only document-style operations are compared. The rule
#   reports each operation whose body element an earlier operation of the
#   binding already sends.
#
#   ```xml
#   <wsdl:message name="GetBook"><wsdl:part name="parameters" element="tns:isbn"/></wsdl:message>
#   <wsdl:message name="LendBook"><wsdl:part name="parameters" element="tns:isbn"/></wsdl:message>  <!-- bad: the same element -->
#   ```
# custom:
#   category: Operations
#   maturity: Bronze
#   severity: error
#   family: correctness
#   formats: [wsdl]
#   howToFix: |
#     Give each operation a request element of its own, named like the
#     operation (document/literal wrapped), whose content is the former
#     element's.
package specgate.rules["wsdl-operation-signatures-unique"]

violations contains {"path": o.source, "message": msg} if {
	some binding, ops in _by_binding
	some i, o in ops
	o.file == ""
	some j, earlier in ops
	j < i
	_signature(earlier) == _signature(o)
	not _earlier_match(ops, i, j)
	msg := sprintf("operation %s of binding %s sends %s in its soap:Body, as operation %s does: a service cannot tell them apart (WS-I Basic Profile R2710)", [o.name, binding, _describe(o), earlier.name])
}

# _by_binding lists the document-style operations of each binding whose
# request has a soap:body, in order.
_by_binding := specgate.group([[o.binding, o] |
	some o in input.wsdl.bindingOperations
	o.style == "document"
	o.input
])

# _signature is the qualified names of the elements the body carries.
_signature(o) := [sprintf("{%s}%s", [p.elementNamespace, p.element]) | some p in o.input.parts]

# _earlier_match holds when an operation before j already matches i: each
# operation is reported once, against the first that shares its signature.
_earlier_match(ops, i, j) if {
	some k, other in ops
	k < j
	_signature(other) == _signature(ops[i])
}

_describe(o) := "no element" if count(o.input.parts) == 0

else := sprintf("the element %s", [concat(", ", [p.element | some p in o.input.parts])])
