# METADATA
# title: Message parts match the binding's style
# description: |
#   The parts a WSDL 1.1 SOAP binding carries in a `soap:body` are declared
#   the way its style needs, as the WS-I Basic Profile 1.1 requires:
#
#   - document-literal: each part names a schema `element` (R2204), and the
#     body carries at most one part (R2201 when `soap:body` lists `parts`,
#     R2210 when it does not: the message then has zero or one part). The
#     body's child is that element, so several parts, or a part that is only
#     a type, leave the message's XML undefined;
#   - rpc-literal: each part names a schema `type` (R2203), the type of the
#     accessor element the part becomes under the operation's wrapper.
#
#   Toolkits refuse such descriptions: wsimport rejects a document-literal
#   operation whose part names a type. The rule reports on the part (on
#   the message for too many parts), naming the operation that sends it;
#   when the message is in a file the description imports, it reports on
#   the binding operation, naming the file. Bodies with encoded use are
#   left to `wsdl-literal-use`.
#
#   ```xml
#   <wsdl:message name="GetBookRequest">
#     <wsdl:part name="isbn" type="xsd:string"/>              <!-- bad in a document binding -->
#     <wsdl:part name="parameters" element="tns:getBook"/>    <!-- good -->
#   </wsdl:message>
#   ```
# custom:
#   category: Messages
#   maturity: Bronze
#   severity: error
#   family: correctness
#   formats: [wsdl]
#   howToFix: |
#     For document style, declare one schema element wrapping the message's
#     content and give the message one part naming it (`element=`); for rpc
#     style, give each part a `type=`. Or bind the operation in the style its
#     messages are written for.
package specgate.rules["wsdl-parts-match-style"]

violations contains _at(p, o, msg) if {
	some [o, dir, body] in _bodies
	o.style == "document"
	some p in body.parts
	p.element == ""
	msg := sprintf("%s names a type, not an element, but the document-literal operation %s carries it in its %s's soap:body (WS-I Basic Profile R2204)", [_part(p), o.name, dir])
}

violations contains _at(p, o, msg) if {
	some [o, dir, body] in _bodies
	o.style == "rpc"
	some p in body.parts
	p.type == ""
	msg := sprintf("%s names an element, not a type, but the rpc-literal operation %s carries it in its %s's soap:body (WS-I Basic Profile R2203)", [_part(p), o.name, dir])
}

violations contains _at(m, o, msg) if {
	some [o, dir, body] in _bodies
	o.style == "document"
	count(body.parts) > 1
	some m in input.wsdl.messages
	m.name == body.message
	req := {true: "R2201", false: "R2210"}[body.partsWritten]
	msg := sprintf("the document-literal operation %s carries %d parts of message %s%s (%s) in its %s's soap:body, which holds at most one (WS-I Basic Profile %s)", [o.name, count(body.parts), m.name, _in(m), concat(", ", [p.name | some p in body.parts]), dir, req])
}

# _at places a finding on the part or message when the linted file writes
# it, else on the binding operation that carries it: an imported file is
# linted as an entry of its own, where no binding makes its parts wrong.
_at(x, o, msg) := {"path": x.source, "message": msg} if x.file == ""

else := {"path": o.source, "message": msg}

_part(p) := sprintf("part %s of message %s%s", [p.name, p.message, _in(p)])

_in(x) := "" if x.file == ""

else := sprintf(" (%s)", [x.file])

# _bodies are the literal soap:bodies of the operations: [operation,
# direction, what input.wsdl.bindingOperations says of the body].
_bodies contains [o, dir, o[dir]] if {
	some o in input.wsdl.bindingOperations
	o.file == ""
	some dir in ["input", "output"]
	o[dir]
	not _encoded(o, dir)
}

_encoded(o, dir) if {
	some b in o.bodies
	b.in == dir
	b.element == "body"
	b.use == "encoded"
}
