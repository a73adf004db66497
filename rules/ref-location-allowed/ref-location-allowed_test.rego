package specgate.rules["ref-location-allowed_test"]

import data.specgate.rules["ref-location-allowed"] as rule

ref(path) := {"file": "", "path": path, "ref": "x.yaml"}

run(paths, version) := vs if {
	vs := rule.violations with input as {"format": "openapi", "version": version, "refs": [ref(p) | some p in paths]}
}

msg(what) := sprintf("%s is written as $ref \"x.yaml\", but the specification does not allow a reference there", [what])

test_places_without_references if {
	vs := run([
		["info"],
		["info", "contact"],
		["components", "schemas"],
		["servers", 0],
		["paths", "/pets", "get"],
		["paths", "/pets", "get", "responses"],
		["paths", "/pets", "parameters"],
		["webhooks", "newPet", "post"],
		["components", "pathItems", "Pets", "put"],
		["paths", "/s", "post", "callbacks", "onEvent", "{$request.body#/url}", "post"],
		["paths", "/pets", "post", "requestBody", "content"],
		["paths", "/pets", "get", "responses", "200", "content", "application/json"],
		["components", "responses", "NotFound", "content", "application/json"],
	], "3.0.3")
	vs == {{"path": array.concat(p, ["$ref"]), "message": msg(what)} | some [p, what] in [
		[["info"], "the top-level info"],
		[["info", "contact"], "info.contact"],
		[["components", "schemas"], "the map components.schemas"],
		[["servers", 0], "server 0"],
		[["paths", "/pets", "get"], "the operation GET /pets"],
		[["paths", "/pets", "get", "responses"], "field responses of GET /pets"],
		[["paths", "/pets", "parameters"], "field parameters of path item /pets"],
		[["webhooks", "newPet", "post"], "the operation POST webhook newPet"],
		[["components", "pathItems", "Pets", "put"], "the operation PUT Pets"],
		[["paths", "/s", "post", "callbacks", "onEvent", "{$request.body#/url}", "post"], "the operation POST {$request.body#/url} (callback onEvent)"],
		[["paths", "/pets", "post", "requestBody", "content"], "field content of the request body of POST /pets"],
		[["paths", "/pets", "get", "responses", "200", "content", "application/json"], "media type application/json of response 200 of GET /pets"],
		[["components", "responses", "NotFound", "content", "application/json"], "media type application/json of response NotFound"],
	]}
}

test_places_with_references if {
	count(run([
		["paths", "/pets"],
		["paths", "/pets", "parameters", 0],
		["paths", "/pets", "get", "parameters", 0],
		["paths", "/pets", "post", "requestBody"],
		["paths", "/pets", "get", "responses", "200"],
		["paths", "/pets", "get", "responses", "200", "headers", "X-Rate"],
		["paths", "/pets", "get", "responses", "200", "content", "application/json", "schema"],
		["paths", "/pets", "get", "responses", "200", "content", "application/json", "examples", "one"],
		["paths", "/s", "post", "callbacks", "onEvent"],
		["components", "schemas", "Pet"],
		["components", "schemas", "Pet", "properties", "info"],
		["components", "schemas", "Pet", "properties", "content", "properties", "x"],
		["paths", "/pets", "get", "x-amazon", "get"],
		["webhooks", "newPet"],
	], "3.0.3")) == 0
}

test_media_types_are_referenceable_in_3_2 if {
	count(run([["paths", "/pets", "get", "responses", "200", "content", "application/json"]], "3.2.0")) == 0
}

test_other_files_are_not_judged if {
	count(rule.violations) == 0 with input as {"format": "openapi", "version": "3.1.0", "refs": [{"file": "paths.yaml", "path": ["get"], "ref": "op.yaml"}]}
}
