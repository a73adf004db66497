package specgate.lib.style_test

import data.specgate.lib.style

test_case_of if {
	style.case_of("list_pets") == "snake"
	style.case_of("list-pets") == "kebab"
	style.case_of("listPets") == "camel"
	style.case_of("ListPets") == "pascal"
	style.case_of("List") == "pascal"
	style.case_of("beta_createResponse") == "other"
	style.case_of("find pet") == "other"
	not style.case_of("list")
}

test_fits if {
	style.fits("list", "snake")
	style.fits("list", "camel")
	style.fits("list", "kebab")
	not style.fits("list", "pascal")
	style.fits("getV2", "camel")
}

test_dominant if {
	style.dominant({"camel": 3, "snake": 1, "kebab": 0, "pascal": 0}) == "camel"
	not style.dominant({"camel": 2, "snake": 2})
	not style.dominant({"camel": 0, "snake": 0})
}

test_respell if {
	style.respell("list_pets", "camel") == "listPets"
	style.respell("listPets", "kebab") == "list-pets"
	style.respell("list-pets", "pascal") == "ListPets"
}

test_host if {
	style.host("https://user@Api.Example.com:8443/v1") == "api.example.com"
	style.host("{scheme}://{env}.acme.dev") == "{env}.acme.dev"
	style.host("//cdn.acme.dev/x") == "cdn.acme.dev"
	not style.host("/v1")
}

test_characters_outside if {
	style.characters_outside("a b\tc b:", "^[a-z]$") == ["a space", "a tab", "\":\""]
}

test_is_template if {
	style.is_template("{id}")
	not style.is_template("{id}.json")
	not style.is_template("{a}{b}x")
}

test_where_a_shared_response_is_written if {
	op := {"node": {"responses": {"404": {"$ref": "#/components/responses/NotFound"}, "200": {"description": "OK"}}}}
	style.response_at(op, {"status": "404", "source": ["paths", "/p", "get", "responses", "404"]}) == ["components", "responses", "NotFound"]
	style.response_at(op, {"status": "200", "source": ["paths", "/p", "get", "responses", "200"]}) == ["paths", "/p", "get", "responses", "200"]
}
