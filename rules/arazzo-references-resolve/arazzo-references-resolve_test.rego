package specgate.rules["arazzo-references-resolve_test"]

import data.specgate.rules["arazzo-references-resolve"] as rule

test_each_broken_reference_is_reported_where_it_is_written if {
	vs := rule.violations with input as {"arazzo": {"broken": [
		{"message": `step "find": no operation of pets.openapi.yaml has operationId "findPet"; did you mean "getPet"?`, "source": ["workflows", 0, "steps", 0, "operationId"]},
		{"message": `source description "pets" does not load: no such file`, "source": ["sourceDescriptions", 0, "url"]},
	]}}
	vs == {
		{"path": ["workflows", 0, "steps", 0, "operationId"], "message": `step "find": no operation of pets.openapi.yaml has operationId "findPet"; did you mean "getPet"?`},
		{"path": ["sourceDescriptions", 0, "url"], "message": `source description "pets" does not load: no such file`},
	}
}

test_a_document_that_resolves_passes if {
	count(rule.violations) == 0 with input as {"arazzo": {"broken": []}}
}

test_no_arazzo_input_passes if {
	count(rule.violations) == 0 with input as {}
}
