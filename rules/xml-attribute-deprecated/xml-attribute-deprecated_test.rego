package specgate.rules["xml-attribute-deprecated_test"]

import data.specgate.rules["xml-attribute-deprecated"] as rule

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"openapi": "3.2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {s.name: s.node | some s in schemas}}})

test_node_type_passes if {
	count(rule.violations) == 0 with input as doc([named("A", {"xml": {"nodeType": "attribute"}})])
}

test_attribute if {
	vs := rule.violations with input as doc([named("A", {"xml": {"attribute": true}})])
	vs == {{"path": ["components", "schemas", "A", "xml", "attribute"], "message": `schema "A" uses xml.attribute, which OpenAPI 3.2 deprecates; write xml.nodeType: attribute`}}
}
