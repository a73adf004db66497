package specgate.rules["oas2-formdata-consumes_test"]

import data.specgate.rules["oas2-formdata-consumes"] as rule

form(name, type) := {"name": name, "in": "formData", "node": {"name": name, "in": "formData", "type": type}, "source": ["paths", "/f", "post", "parameters", 0]}

op(consumes, params) := {
	"path": "/f", "method": "post", "webhook": "", "callback": "", "source": ["paths", "/f", "post"],
	"node": object.union({"parameters": []}, consumes),
	"requestBody": {"formData": params},
}

doc(ops, consumes) := {"format": "swagger", "operations": ops, "document": consumes}

test_form_media_types_pass if {
	count(rule.violations) == 0 with input as doc([op({"consumes": ["multipart/form-data"]}, [form("f", "file")])], {})
	count(rule.violations) == 0 with input as doc([op({}, [form("n", "string")])], {"consumes": ["application/x-www-form-urlencoded; charset=utf-8"]})
}

test_json_only if {
	vs := rule.violations with input as doc([op({"consumes": ["application/json"]}, [form("n", "string")])], {})
	vs == {{"path": ["paths", "/f", "post", "consumes"], "message": `POST /f has form parameters ("n") but consumes only application/json; add application/x-www-form-urlencoded or multipart/form-data`}}
}

test_no_consumes_reports_on_the_parameter if {
	vs := rule.violations with input as doc([op({}, [form("n", "string")])], {})
	vs == {{"path": ["paths", "/f", "post", "parameters", 0], "message": `POST /f has form parameters ("n") but consumes no media type; add application/x-www-form-urlencoded or multipart/form-data`}}
}

test_file_needs_multipart if {
	vs := rule.violations with input as doc([op({"consumes": ["application/x-www-form-urlencoded"]}, [form("f", "file")])], {})
	vs == {{"path": ["paths", "/f", "post", "consumes"], "message": `POST /f has the file parameter "f" but does not consume multipart/form-data, the only form encoding that carries files`}}
}
