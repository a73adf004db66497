# METADATA
# title: Document-literal requests are wrapped in an element named like the operation
# description: |
#   The request of a document-literal operation is one element named like
#   the operation: its message has one part, naming a global element whose
#   local name is the operation's name (`getBook` for the operation
#   `getBook`). This is the document/literal *wrapped* convention, one of
#   the conditions of the JAX-WS specification's wrapper style (section
#   2.3.1.2) and what .NET and JAX-WS services publish: code generators then
#   turn the element's children into the parameters of a method named like
#   the operation, and the body's element tells the service which operation
#   is called even without a SOAP action. Named otherwise, the operation is
#   generated as a method taking one document object, and two operations
#   whose requests are the same element cannot be told apart.
#
#   The response is conventionally the element named like the operation
#   with `Response` (`getBookResponse`); the rule judges the request only.
#   It reports on the message part, or on the binding operation when the
#   message is in a file the description imports. Messages with several
#   parts or type parts are left to `wsdl-parts-match-style`.
#
#   ```xml
#   <wsdl:message name="GetBookRequest">
#     <wsdl:part name="parameters" element="tns:bookQuery"/>   <!-- bad for operation getBook -->
#     <wsdl:part name="parameters" element="tns:getBook"/>     <!-- good -->
#   </wsdl:message>
#   ```
# custom:
#   category: Messages
#   maturity: Gold
#   severity: warn
#   family: naming
#   formats: [wsdl]
#   howToFix: |
#     Declare a request element named like the operation whose sequence
#     holds the operation's parameters, and name it in the message's single
#     part. The message's XML changes: clients need regenerating.
package specgate.rules["wsdl-document-literal-wrapped"]

violations contains _at(p, o, msg) if {
	some o in input.wsdl.bindingOperations
	o.file == ""
	o.style == "document"
	not _encoded(o)
	count(o.input.parts) == 1
	p := o.input.parts[0]
	p.element != ""
	p.element != o.name
	msg := sprintf("the request of the document-literal operation %s is the element %s (part %s of message %s%s); an element named %s makes the operation document/literal wrapped", [o.name, p.element, p.name, p.message, _in(p), o.name])
}

_at(x, o, msg) := {"path": x.source, "message": msg} if x.file == ""

else := {"path": o.source, "message": msg}

_in(x) := "" if x.file == ""

else := sprintf(", %s", [x.file])

_encoded(o) if {
	some b in o.bodies
	b.in == "input"
	b.element == "body"
	b.use == "encoded"
}
