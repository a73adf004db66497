# METADATA
# title: SOAP bindings are document style
# description: |
#   WSDL 1.1 SOAP bindings use `style="document"` (document/literal, best
#   wrapped), not `rpc`, and one binding never mixes the two.
#
#   The WS-I Basic Profile 1.1 allows rpc/literal beside document/literal
#   but not both in one binding (R2705: a binding MUST be either an
#   rpc-literal binding or a document-literal binding). Document style
#   describes the whole body by schema elements, so a message can be
#   validated against the description's schema; rpc style builds wrapper
#   elements from the operation's name and the parts that no schema
#   declares. JAX-WS and WCF generate document/literal wrapped by default,
#   and WSDL 2.0 has document style only.
#
#   The style of an operation is its `soap:operation`'s, else its
#   binding's, else document. The rule reports on the binding: a binding
#   whose operations are all rpc, or one that mixes styles.
#
#   ```xml
#   <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>       <!-- bad -->
#   <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>  <!-- good -->
#   ```
# custom:
#   category: Operations
#   maturity: Gold
#   severity: warn
#   family: correctness
#   formats: [wsdl]
#   howToFix: |
#     Declare a schema element for each operation's request and response
#     (named like the operation, and like it with `Response`), give each
#     message one part naming that element, and bind the operations with
#     `style="document"` and `use="literal"`. The messages stay as they were
#     on the wire when the elements mirror the rpc wrappers.
package specgate.rules["wsdl-document-style"]

violations contains {"path": b.source, "message": msg} if {
	some b in input.wsdl.bindings
	b.file == ""
	ops := _operations[b.name]
	styles := {o.style | some o in ops}
	styles == {"rpc"}
	msg := sprintf("binding %s is rpc style (%s); prefer document/literal, whose messages the description's schema validates", [b.name, _names(ops, "rpc")])
}

violations contains {"path": b.source, "message": msg} if {
	some b in input.wsdl.bindings
	b.file == ""
	ops := _operations[b.name]
	styles := {o.style | some o in ops}
	count(styles) > 1
	msg := sprintf("binding %s mixes document operations (%s) and rpc operations (%s); WS-I Basic Profile R2705 requires one style per binding", [b.name, _names(ops, "document"), _names(ops, "rpc")])
}

# _operations are the SOAP operations of each binding, by its name.
_operations := specgate.group([[o.binding, o] | some o in input.wsdl.bindingOperations; o.style != ""])

_names(ops, style) := concat(", ", sort([o.name | some o in ops; o.style == style]))
