package specgate.rules["oas2-schema-keywords_test"]

import data.specgate.rules["oas2-schema-keywords"] as rule

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(schemas) := specgate.test_input({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "definitions": {s.name: s.node | some s in schemas}})

named(name, node) := {"name": name, "node": node, "source": ["definitions", name]}

test_swagger_keywords_pass if {
	count(rule.violations) == 0 with input as doc([named("A", {"allOf": [{}], "x-nullable": true, "readOnly": true, "enum": [1]})])
}

test_one_of if {
	vs := rule.violations with input as doc([named("Payment", {"oneOf": [{}, {}]})])
	vs == {{"path": ["definitions", "Payment", "oneOf"], "message": `schema "Payment" uses oneOf, which Swagger 2.0 does not have and its tools ignore; Swagger 2.0 has allOf only; describe alternatives with allOf and a discriminator, or use OpenAPI 3`}}
}

test_each_keyword_is_reported if {
	vs := rule.violations with input as doc([named("A", {"nullable": true, "const": 1, "writeOnly": true, "not": {}, "anyOf": []})])
	{v.path[2] | some v in vs} == {"nullable", "const", "writeOnly", "not", "anyOf"}
}
