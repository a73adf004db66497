package specgate.rules["security-schemes-defined_test"]

import data.specgate.rules["security-schemes-defined"] as rule

requirement(source, alternatives) := {"source": source, "alternatives": [
{"source": array.concat(source, [i]), "schemes": [{"name": n, "scopes": []} | some n in names]} |
	some i, names in alternatives
]}

scheme(name) := {"name": name, "type": "apiKey"}

op(path, method, security) := {"path": path, "method": method, "security": security, "source": ["paths", path, method]}

doc(security, ops, schemes) := {"format": "openapi", "security": security, "operations": ops, "webhooks": [], "callbacks": [], "securitySchemes": schemes}

test_defined_schemes_pass if {
	count(rule.violations) == 0 with input as doc(
		requirement(["security"], [["apiKey"], ["oauth", "apiKey"]]),
		[op("/a", "get", requirement(["paths", "/a", "get", "security"], [[]])), op("/b", "get", null)],
		[scheme("apiKey"), scheme("oauth")],
	)
}

test_undefined_scheme_in_document_security if {
	vs := rule.violations with input as doc(requirement(["security"], [["apiKey"], ["oauth"]]), [], [scheme("apiKey")])
	vs == {{"path": ["security", 1, "oauth"], "message": `security scheme "oauth" is not defined in components.securitySchemes`}}
}

test_inherited_requirement_is_reported_once if {
	sec := requirement(["security"], [["oauth"]])
	vs := rule.violations with input as doc(sec, [op("/a", "get", sec), op("/b", "get", sec)], [])
	vs == {{"path": ["security", 0, "oauth"], "message": `security scheme "oauth" is not defined in components.securitySchemes`}}
}

test_operation_security_with_case_hint if {
	vs := rule.violations with input as doc(null, [op("/a", "get", requirement(["paths", "/a", "get", "security"], [["OAuth2"]]))], [scheme("oauth2")])
	vs == {{"path": ["paths", "/a", "get", "security", 0, "OAuth2"], "message": `security scheme "OAuth2" is not defined in components.securitySchemes (did you mean "oauth2"?)`}}
}

test_webhooks_are_checked if {
	hook := op("newPet", "post", requirement(["webhooks", "newPet", "post", "security"], [["hmac"]]))
	vs := rule.violations with input as object.union(doc(null, [], []), {"webhooks": [hook]})
	vs == {{"path": ["webhooks", "newPet", "post", "security", 0, "hmac"], "message": `security scheme "hmac" is not defined in components.securitySchemes`}}
}

test_swagger_names_security_definitions if {
	vs := rule.violations with input as object.union(doc(requirement(["security"], [["basic"]]), [], []), {"format": "swagger"})
	vs == {{"path": ["security", 0, "basic"], "message": `security scheme "basic" is not defined in securityDefinitions`}}
}

test_uri_references_are_not_checked if {
	count(rule.violations) == 0 with input as doc(requirement(["security"], [["https://example.com/api.yaml#/components/securitySchemes/oauth"]]), [], [])
}

test_one_hint_when_several_schemes_differ_only_in_case if {
	vs := rule.violations with input as doc(requirement(["security"], [["OAUTH"]]), [], [scheme("oauth"), scheme("OAuth")])
	vs == {{"path": ["security", 0, "OAUTH"], "message": `security scheme "OAUTH" is not defined in components.securitySchemes (did you mean "OAuth"?)`}}
}
