package specgate.rules["ref-location-allowed_test"]

import data.specgate.rules["ref-location-allowed"] as rule

ref := {"$ref": "x.yaml"}

msg(what) := sprintf("%s is written as $ref \"x.yaml\", but the specification does not allow a reference there", [what])

op(path, method, node) := {"path": path, "method": method, "webhook": "", "callback": "", "node": node, "source": ["paths", path, method]}

run(doc, items, ops, version) := vs if {
	vs := rule.violations with input as {"format": "openapi", "version": version, "document": doc, "pathItems": items, "operations": ops, "webhooks": [], "callbacks": []}
}

test_top_level_places if {
	vs := run({"info": {"contact": ref}, "externalDocs": ref, "components": {"schemas": ref, "responses": {}}, "servers": [{"url": "/"}, ref]}, [], [], "3.1.0")
	vs == {
		{"path": ["info", "contact", "$ref"], "message": msg("info.contact")},
		{"path": ["externalDocs", "$ref"], "message": msg("the top-level externalDocs")},
		{"path": ["components", "schemas", "$ref"], "message": msg("the map components.schemas")},
		{"path": ["servers", 1, "$ref"], "message": msg("server 1")},
	}
}

test_operations_and_their_fields if {
	item := {"path": "/pets", "node": {"get": ref, "parameters": ref, "post": {}}, "source": ["paths", "/pets"]}
	post := op("/pets", "post", {"responses": ref, "requestBody": {"$ref": "#/components/requestBodies/Pet"}, "tags": ["pets"]})
	vs := run({"components": {"pathItems": {"Pets": {"put": ref}}}}, [item], [post], "3.1.0")
	vs == {
		{"path": ["paths", "/pets", "get", "$ref"], "message": msg("the operation GET /pets")},
		{"path": ["paths", "/pets", "parameters", "$ref"], "message": msg("field parameters of path item /pets")},
		{"path": ["components", "pathItems", "Pets", "put", "$ref"], "message": msg("the operation PUT of path item Pets")},
		{"path": ["paths", "/pets", "post", "responses", "$ref"], "message": msg("field responses of POST /pets")},
	}
}

test_content_and_media_types if {
	get := op("/pets", "get", {"responses": {"200": {"content": {"application/json": ref, "text/plain": {"schema": {"$ref": "#/s"}}}}, "404": {"$ref": "#/components/responses/NotFound"}}})
	doc := {"components": {"requestBodies": {"Pet": {"content": ref}}}}
	vs := run(doc, [], [get], "3.0.3")
	vs == {
		{"path": ["paths", "/pets", "get", "responses", "200", "content", "application/json", "$ref"], "message": msg("media type application/json of response 200 of GET /pets")},
		{"path": ["components", "requestBodies", "Pet", "content", "$ref"], "message": msg("field content of request body Pet")},
	}
	count(run(doc, [], [get], "3.2.0")) == 0
}
