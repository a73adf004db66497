package specgate.rules["asyncapi-unused-component_test"]

import data.specgate.rules["asyncapi-unused-component"] as rule

ref(r, path) := {"ref": r, "file": "", "path": path}

doc := {"channels": {"a": {}}, "components": {
	"schemas": {"used": {}, "part": {}, "self": {}, "unused": {}, "external": {}},
	"securitySchemes": {"named": {}, "idle": {}},
}}

refs := [
	ref("#/components/schemas/used", ["channels", "a", "x"]),
	ref("#/components/schemas/part/properties/id", ["channels", "a", "y"]),
	ref("#/components/schemas/self", ["components", "schemas", "self", "properties", "next"]),
	{"ref": "../main.yaml#/components/schemas/external", "file": "other.yaml", "path": ["x"]},
]

servers := [{"source": ["servers", "prod"], "node": {"security": [{"named": []}]}}]

test_asyncapi2 if {
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": doc, "refs": refs, "servers": servers, "asyncOperations": []}
	vs == {
		{"path": ["components", "schemas", "self"], "message": `schema "self" is not used: nothing refers to components.schemas.self`},
		{"path": ["components", "schemas", "unused"], "message": `schema "unused" is not used: nothing refers to components.schemas.unused`},
		{"path": ["components", "securitySchemes", "idle"], "message": `security scheme "idle" is not used: nothing refers to components.securitySchemes.idle`},
	}
}

test_asyncapi3_names_do_not_count if {
	vs := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": doc, "refs": refs, "servers": servers, "asyncOperations": []}
	count({v | some v in vs; v.path[1] == "securitySchemes"}) == 2
}

test_libraries_are_skipped if {
	count(rule.violations) == 0 with input as {"formats": ["asyncapi", "asyncapi3"], "document": {"components": doc.components}, "refs": [], "servers": [], "asyncOperations": []}
}
