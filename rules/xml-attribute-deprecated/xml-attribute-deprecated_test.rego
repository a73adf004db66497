package specgate.rules["xml-attribute-deprecated_test"]

import data.specgate.lib.correctness
import data.specgate.rules["xml-attribute-deprecated"] as rule

named(name, node) := {"name": name, "node": node, "source": ["components", "schemas", name]}

doc(schemas) := {"format": "openapi", "version": "3.2.0", "schemas": schemas, "schemasWith": correctness.index(schemas), "document": {}}

test_node_type_passes if {
	count(rule.violations) == 0 with input as doc([named("A", {"xml": {"nodeType": "attribute"}})])
}

test_attribute if {
	vs := rule.violations with input as doc([named("A", {"xml": {"attribute": true}})])
	vs == {{"path": ["components", "schemas", "A", "xml", "attribute"], "message": `schema "A" uses xml.attribute, which OpenAPI 3.2 deprecates; write xml.nodeType: attribute`}}
}
