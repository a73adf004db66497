package specgate.rules["operation-id-casing_test"]

import data.specgate.rules["operation-id-casing"] as rule

op(i, id) := {"path": sprintf("/p%d", [i]), "method": "get", "operationId": id, "webhook": "", "callback": "", "source": ["paths", sprintf("/p%d", [i]), "get"]}

run(ids) := vs if vs := rule.violations with input as {"operations": [op(i, id) | some i, id in ids], "webhooks": [], "callbacks": []}

test_camel_majority if {
	vs := run(["listPets", "createPet", "getPet", "delete_pet", "DeletePets", "list", "beta_createResponse"])
	vs == {
		{"path": ["paths", "/p3", "get", "operationId"], "message": `operationId "delete_pet" of GET /p3 is not camelCase, the convention of most operation ids in this API (use "deletePet")`},
		{"path": ["paths", "/p4", "get", "operationId"], "message": `operationId "DeletePets" of GET /p4 is not camelCase, the convention of most operation ids in this API (use "deletePets")`},
		{"path": ["paths", "/p6", "get", "operationId"], "message": `operationId "beta_createResponse" of GET /p6 is not camelCase, the convention of most operation ids in this API (use "betaCreateResponse")`},
	}
}

test_snake_api_is_not_flagged_for_snake if {
	vs := run(["get_user", "list_guilds", "create_message", "getUser"])
	{v.message | some v in vs} == {`operationId "getUser" of GET /p3 is not snake_case, the convention of most operation ids in this API (use "get_user")`}
}

test_namespaced_kebab if {
	vs := run(["repos/get-content", "repos/list-for-org", "meta/root", "repos/getBranch"])
	{v.message | some v in vs} == {`operationId "repos/getBranch" of GET /p3 is not kebab-case, the convention of most operation ids in this API (use "repos/get-branch")`}
}

test_pascal_and_single_words if {
	vs := run(["ListAccount", "FetchAccount", "list"])
	{v.message | some v in vs} == {`operationId "list" of GET /p2 is not PascalCase, the convention of most operation ids in this API (use "List")`}
}

test_tie_reports_nothing if {
	count(run(["listPets", "create_pet", "list", "get"])) == 0
}

test_spaces_are_respelled if {
	vs := run(["listPets", "createPet", "find pet"])
	{v.message | some v in vs} == {`operationId "find pet" of GET /p2 is not camelCase, the convention of most operation ids in this API (use "findPet")`}
}

# Microsoft Graph's shape: PascalCase ids under lower-case namespaces. An
# id whose parts are PascalCase or single lower-case words is of the
# convention's class and passes whole; the parts of the others are judged
# and respelled one by one.
test_namespaced_pascal if {
	vs := run(["users.ListUsers", "users.GetUser", "Users.CreateUser", "users.list_users.Get", "Get.Count.users-51c2", "List"])
	{v.message | some v in vs} == {
		`operationId "users.list_users.Get" of GET /p3 is not PascalCase, the convention of most operation ids in this API (use "Users.ListUsers.Get")`,
		`operationId "Get.Count.users-51c2" of GET /p4 is not PascalCase, the convention of most operation ids in this API (use "Get.Count.Users51c2")`,
	}
}

# Empty parts are no parts: "//" and a trailing "." separate nothing, and a
# part whose respelling is empty is dropped from the hint, unless it is the
# whole id.
test_empty_parts if {
	vs := run(["listPets", "getPet", "createPet", "/repos//listAll", "repos.-", "-", "a/B", "/", "repos.get_x."])
	{v.message | some v in vs} == {
		`operationId "repos.-" of GET /p4 is not camelCase, the convention of most operation ids in this API (use "repos.")`,
		`operationId "-" of GET /p5 is not camelCase, the convention of most operation ids in this API`,
		`operationId "a/B" of GET /p6 is not camelCase, the convention of most operation ids in this API (use "a/b")`,
		`operationId "repos.get_x." of GET /p8 is not camelCase, the convention of most operation ids in this API (use "repos.getX.")`,
	}
}
