package specgate.rules["example-value-exclusive_test"]

import data.specgate.rules["example-value-exclusive"] as rule

# doc(version, examples, media) is the input lint builds
# (specgate.test_input) for a document of the OpenAPI version with the
# examples under components and a response of GET /a with the media type
# application/json.
doc(version, examples, media) := specgate.test_input({
	"openapi": version, "info": {"title": "t", "version": "1"},
	"paths": {"/a": {"get": {"responses": {"200": {"description": "d", "content": {"application/json": media}}}}}},
	"components": {"examples": examples},
})

test_one_value_passes if {
	count(rule.violations) == 0 with input as doc("3.1.0", {"a": {"value": 1}, "b": {"externalValue": "x"}}, {"examples": {"c": {"value": 2}}})
}

test_value_and_external_value if {
	vs := rule.violations with input as doc("3.0.3", {"pet": {"value": 1, "externalValue": "x"}}, {})
	vs == {{"path": ["components", "examples", "pet", "externalValue"], "message": `example "pet" has both value and externalValue; give the example one way`}}
}

test_inline_examples if {
	vs := rule.violations with input as doc("3.0.3", {}, {"examples": {"c": {"value": 2, "externalValue": "x"}, "d": {"$ref": "#/components/examples/x"}}})
	vs == {{"path": ["paths", "/a", "get", "responses", "200", "content", "application/json", "examples", "c", "externalValue"], "message": `example "c" has both value and externalValue; give the example one way`}}
}

test_data_value_conflicts_only_in_3_2 if {
	ex := {"pet": {"value": 1, "dataValue": 1}}
	count(rule.violations) == 0 with input as doc("3.1.0", ex, {})
	count(rule.violations) == 1 with input as doc("3.2.0", ex, {})
}
