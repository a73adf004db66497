package specgate.rules["component-name-unique_test"]

import data.specgate.rules["component-name-unique"] as rule

ref(path, ref, file, target) := {"path": path, "ref": ref, "file": "", "targetFile": file, "target": target, "resolved": true}

# refs_input is an input with refs and, as input.Build builds it, refsTo:
# the references to each target in document order.
refs_input(document, refs) := {
	"format": "openapi",
	"document": document,
	"refs": refs,
	"refsTo": {k: [r | some r in refs; _key(r) == k] | some r in refs; k := _key(r)},
}

_key(r) := concat("#", [r.targetFile, concat("/", r.target)])

test_clashes_across_files if {
	vs := rule.violations with input as refs_input(
		{"components": {"schemas": {"Pet": {}, "Owner": {}}, "parameters": {"limit": {}}}},
		[
			ref(["paths", "/a", "get", "responses", "200", "content", "application/json", "schema"], "Pet.yaml", "/api/Pet.yaml", []),
			ref(["paths", "/b", "get", "responses", "200", "content", "application/json", "schema"], "old/Pet.yaml", "/api/old/Pet.yaml", []),
			ref(["paths", "/c", "get", "responses", "200", "content", "application/json", "schema"], "Pet.yaml", "/api/Pet.yaml", []),
			ref(["paths", "/a", "get", "parameters", 0], "p.yaml#/limit", "/api/p.yaml", ["limit"]),
			ref(["paths", "/a", "get", "responses", "404"], "r.yaml#/Owner", "/api/r.yaml", ["Owner"]),
			ref(["components", "schemas", "Owner", "properties", "pet"], "#/components/schemas/Pet", "", ["components", "schemas", "Pet"]),
		],
	)
	vs == {
		{"path": ["components", "schemas", "Pet"], "message": "schema name \"Pet\" is also the name of Pet.yaml, old/Pet.yaml; bundling must rename one of them"},
		{"path": ["paths", "/a", "get", "responses", "200", "content", "application/json", "schema"], "message": "schema name \"Pet\" is also the name of #/components/schemas/Pet, old/Pet.yaml; bundling must rename one of them"},
		{"path": ["paths", "/b", "get", "responses", "200", "content", "application/json", "schema"], "message": "schema name \"Pet\" is also the name of #/components/schemas/Pet, Pet.yaml; bundling must rename one of them"},
		{"path": ["components", "parameters", "limit"], "message": "parameter name \"limit\" is also the name of p.yaml#/limit; bundling must rename one of them"},
		{"path": ["paths", "/a", "get", "parameters", 0], "message": "parameter name \"limit\" is also the name of #/components/parameters/limit; bundling must rename one of them"},
	}
}
