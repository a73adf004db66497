package specgate.rules["querystring-parameters_test"]

import data.specgate.rules["querystring-parameters"] as rule

p(name, loc, i) := {"name": name, "in": loc, "source": ["paths", "/a", "get", "parameters", i]}

doc(params) := {"operations": [{"path": "/a", "method": "get", "webhook": "", "callback": "", "parameters": params}], "webhooks": [], "callbacks": []}

test_one_querystring_passes if {
	count(rule.violations) == 0 with input as doc([p("q", "querystring", 0), p("id", "header", 1)])
	count(rule.violations) == 0 with input as doc([p("a", "query", 0), p("b", "query", 1)])
}

test_two_querystrings if {
	vs := rule.violations with input as doc([p("a", "querystring", 0), p("b", "querystring", 1)])
	vs == {{"path": ["paths", "/a", "get", "parameters", 1], "message": `GET /a has 2 querystring parameters ("a", "b"); it may have one`}}
}

test_querystring_with_query if {
	vs := rule.violations with input as doc([p("limit", "query", 0), p("filter", "querystring", 1)])
	vs == {{"path": ["paths", "/a", "get", "parameters", 1], "message": `GET /a has the querystring parameter "filter" and query parameters ("limit"); describe the query string one way`}}
}
