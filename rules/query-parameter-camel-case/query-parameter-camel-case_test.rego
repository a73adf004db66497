package specgate.rules["query-parameter-camel-case_test"]

import data.specgate.rules["query-parameter-camel-case"] as rule

param(name, loc, source) := {"name": name, "in": loc, "source": source}

messages(ps) := {v.message | some v in vs} if vs := rule.violations with input as {"parameters": ps}

test_snake_case_query_parameter if {
	vs := rule.violations with input as {"parameters": [param("page_size", "query", ["paths", "/users", "get", "parameters", 1])]}
	vs == {{"path": ["paths", "/users", "get", "parameters", 1, "name"], "message": `query parameter "page_size" is not camelCase (use "pageSize")`}}
}

test_other_spellings if {
	messages([
		param("Limit", "query", ["p", 0]),
		param("sort-by", "query", ["p", 1]),
	]) == {
		`query parameter "Limit" is not camelCase (use "limit")`,
		`query parameter "sort-by" is not camelCase (use "sortBy")`,
	}
}

# Azure's and Google's specs take parameters their platform or a protocol
# names: renaming $top to top, or api-version to apiVersion, breaks the
# protocol, so they are not reported; an API's own names still are.
test_protocol_names_are_left_alone if {
	messages([
		param("$top", "query", ["p", 0]),
		param("$filter", "query", ["p", 1]),
		param("$.xgafv", "query", ["p", 2]),
		param("access_token", "query", ["p", 3]),
		param("oauth_token", "query", ["p", 4]),
		param("api-version", "query", ["p", 5]),
		param("upload_protocol", "query", ["p", 6]),
	]) == {`query parameter "upload_protocol" is not camelCase (use "uploadProtocol")`}
}

test_bracket_notation if {
	messages([
		param("filter[createdAt]", "query", ["p", 0]),
		param("ids[]", "query", ["p", 1]),
		param("page[size]", "query", ["p", 2]),
		param("filter[created_at]", "query", ["p", 3]),
		param("[x]", "query", ["p", 4]),
	]) == {
		`query parameter "filter[created_at]" is not camelCase`,
		`query parameter "[x]" is not camelCase`,
	}
}

test_camel_case_and_other_locations_pass if {
	count(rule.violations) == 0 with input as {"parameters": [
		param("pageSize", "query", ["p", 0]),
		param("q", "query", ["p", 1]),
		param("utf8", "query", ["p", 2]),
		param("user_id", "path", ["p", 3]),
		param("X-Request-Id", "header", ["p", 4]),
		param("session_id", "cookie", ["p", 5]),
	]}
}
