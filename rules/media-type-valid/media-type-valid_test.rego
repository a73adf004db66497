package specgate.rules["media-type-valid_test"]

import data.specgate.rules["media-type-valid"] as rule

doc(content) := {
	"format": "openapi",
	"operations": [{"source": ["paths", "/a", "get"], "node": {"responses": {"200": {"content": content}}}}],
	"webhooks": [], "callbacks": [], "parameters": [], "document": {},
}

test_valid_media_types_pass if {
	count(rule.violations) == 0 with input as doc({
		"application/json": {}, "application/problem+json": {}, "text/plain; charset=utf-8": {},
		"image/*": {}, "*/*": {}, "application/vnd.api+json; version=\"1.0\"": {},
	})
}

test_malformed_media_types if {
	vs := rule.violations with input as doc({"json": {}, "application/json/": {}, "application json": {}})
	{v.path[6] | some v in vs} == {"json", "application/json/", "application json"}
	some v in vs
	v.message == `"json" is not a media type; write type/subtype, such as application/json`
}

test_swagger_lists if {
	vs := rule.violations with input as {"format": "swagger", "operations": [{"source": ["paths", "/a", "get"], "node": {"produces": ["application/json", "xml"]}}], "document": {"consumes": ["form"]}}
	vs == {
		{"path": ["consumes", 0], "message": `"form" in consumes is not a media type; write type/subtype, such as application/json`},
		{"path": ["paths", "/a", "get", "produces", 1], "message": `"xml" in produces is not a media type; write type/subtype, such as application/json`},
	}
}

# Every place a content map is written is read: an operation's body and
# responses, a webhook's, the components' bodies, responses, parameters
# and headers, and a parameter written in place; a response written as a
# $ref is reported where it is written, once.
test_every_place if {
	vs := rule.violations with input as {
		"format": "openapi",
		"operations": [{"source": ["paths", "/a", "post"], "node": {
			"requestBody": {"content": {"body": {}}},
			"responses": {"200": {"content": {"resp": null}}, "400": {"$ref": "#/components/responses/R"}},
		}}],
		"webhooks": [{"source": ["webhooks", "w", "post"], "node": {"responses": {"200": {"content": {"hook": {}}}}}}],
		"callbacks": [],
		"parameters": [
			{"source": ["paths", "/a", "post", "parameters", 0], "component": "", "node": {"content": {"param": {}}}},
			{"source": ["components", "parameters", "P"], "component": "P", "node": {"content": {"cparam": {}}}},
		],
		"document": {"components": {
			"requestBodies": {"B": {"content": {"cbody": {}}}},
			"responses": {"R": {"content": {"cresp": {}}}},
			"parameters": {"P": {"content": {"cparam": {}}}},
			"headers": {"H": {"content": {"chead": {}}}},
		}},
	}
	{v.path | some v in vs} == {
		["paths", "/a", "post", "requestBody", "content", "body"],
		["paths", "/a", "post", "responses", "200", "content", "resp"],
		["webhooks", "w", "post", "responses", "200", "content", "hook"],
		["paths", "/a", "post", "parameters", 0, "content", "param"],
		["components", "parameters", "P", "content", "cparam"],
		["components", "requestBodies", "B", "content", "cbody"],
		["components", "responses", "R", "content", "cresp"],
		["components", "headers", "H", "content", "chead"],
	}
}
