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
