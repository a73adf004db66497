package specgate.rules["discriminator-mapping-resolves_test"]

import data.specgate.rules["discriminator-mapping-resolves"] as rule

# doc(nodes) is the input lint builds (specgate.test_input) for a
# document whose named schemas are these.
doc(nodes) := specgate.test_input({"openapi": "3.2.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": nodes}})

test_existing_targets_pass if {
	count(rule.violations) == 0 with input as doc({
		"Pet": {"discriminator": {"propertyName": "t", "mapping": {"dog": "#/components/schemas/Dog", "cat": "Cat", "ext": "other.yaml#/Fox"}, "defaultMapping": "Dog"}},
		"Dog": {}, "Cat": {},
	})
}

test_unknown_name if {
	vs := rule.violations with input as doc({"Pet": {"discriminator": {"propertyName": "t", "mapping": {"cat": "Kat"}}}})
	vs == {{"path": ["components", "schemas", "Pet", "discriminator", "mapping", "cat"], "message": `discriminator mapping "cat" of schema "Pet" points at "Kat", which is not the name of a schema in components.schemas`}}
}

test_broken_reference if {
	vs := rule.violations with input as doc({"Pet": {"discriminator": {"propertyName": "t", "mapping": {"dog": "#/components/schemas/Dgo"}}}})
	count(vs) == 1
}

test_default_mapping if {
	vs := rule.violations with input as doc({"Pet": {"discriminator": {"propertyName": "t", "defaultMapping": "Nope"}}})
	vs == {{"path": ["components", "schemas", "Pet", "discriminator", "defaultMapping"], "message": `the defaultMapping of the discriminator of schema "Pet" points at "Nope", which is not the name of a schema in components.schemas`}}
}
