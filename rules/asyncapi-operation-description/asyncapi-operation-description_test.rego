package specgate.rules["asyncapi-operation-description_test"]

import data.specgate.rules["asyncapi-operation-description"] as rule

op(id, node) := {"id": id, "action": "send", "channel": "c", "source": ["operations", id], "node": node}

test_missing_blank_and_traits if {
	ops := [
		op("a", {}),
		op("b", {"description": " "}),
		op("c", {"description": "Sent on sign-up."}),
		op("d", {"traits": [{"$ref": "#/components/operationTraits/described"}]}),
		op("e", {"traits": [{"$ref": "other.yaml#/t"}]}),
		op("f", {"traits": [{"bindings": {}}]}),
	]
	doc := {"components": {"operationTraits": {"described": {"description": "Common."}}}}
	vs1 := rule.violations with input as {"formats": ["asyncapi", "asyncapi3"], "document": doc, "asyncOperations": ops}
	vs1 == {
		{"path": ["operations", "a"], "message": `operation "a" has no description`},
		{"path": ["operations", "b"], "message": `operation "b" has no description`},
		{"path": ["operations", "f"], "message": `operation "f" has no description`},
	}
}

test_asyncapi2_without_operation_id if {
	ops := [{"id": "", "action": "publish", "channel": "users/signedup", "source": ["channels", "users/signedup", "publish"], "node": {}}]
	vs2 := rule.violations with input as {"formats": ["asyncapi", "asyncapi2"], "document": {}, "asyncOperations": ops}
	vs2 == {{
		"path": ["channels", "users/signedup", "publish"],
		"message": `the publish operation of channel "users/signedup" has no description`,
	}}
}
