package specgate.rules["tag-description_test"]

import data.specgate.rules["tag-description"] as rule

tag(name, description, i) := {"name": name, "description": description, "source": ["tags", i]}

test_described_tags if {
	count(rule.violations) == 0 with input as {"format": "openapi", "document": {}, "tags": [tag("pets", "Pets for adoption.", 0)]}
}

test_missing_or_blank_description if {
	vs := rule.violations with input as {"format": "openapi", "document": {}, "tags": [tag("pets", "", 0), tag("stores", "Shops.", 1), tag("users", " ", 2)]}
	vs == {
		{"path": ["tags", 0], "message": `tag "pets" has no description`},
		{"path": ["tags", 2], "message": `tag "users" has no description`},
	}
}

test_asyncapi3_info_tags if {
	doc := {
		"info": {"tags": [
			{"name": "user"},
			{"name": "signup", "description": "Sign-up events."},
			{"$ref": "#/components/tags/a~1b"},
			{"$ref": "#/components/tags/described"},
			{"$ref": "common.yaml#/tags/x"},
		]},
		"components": {"tags": {"a/b": {"name": "slashed"}, "described": {"name": "d", "description": "D."}}},
	}
	vs := rule.violations with input as {"format": "asyncapi", "document": doc, "tags": []}
	vs == {
		{"path": ["info", "tags", 0], "message": `tag "user" has no description`},
		{"path": ["info", "tags", 2], "message": `tag "slashed" has no description`},
	}
}

test_openapi_info_tags_are_not_tags if {
	count(rule.violations) == 0 with input as {"format": "openapi", "document": {"info": {"tags": [{"name": "x"}]}}, "tags": []}
}
