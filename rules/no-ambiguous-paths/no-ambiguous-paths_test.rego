package specgate.rules["no-ambiguous-paths_test"]

import data.specgate.rules["no-ambiguous-paths"] as rule

item(path, methods) := {"path": path, "methods": methods, "source": ["paths", path]}

pparam(name, schema) := {"name": name, "in": "path", "schema": schema}

# run lints, as lint does (specgate.test_input), a document with the
# path items (each with its methods) and the path parameters ops declare
# for their path and method; extra adds to the document. The document is
# given as JSON text, which keeps the paths in the order of items: of two
# ambiguous paths, the later one is reported.
run(items, ops) := run_with(items, ops, {})

run_with(items, ops, extra) := vs if {
	paths := [sprintf("%s:%s", [json.marshal(it.path), json.marshal({m: _operation(it.path, m, ops) | some m in it.methods})]) |
		some it in items
	]
	d := object.union({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}}, extra)
	text := sprintf(`%s,"paths":{%s}}`, [trim_suffix(json.marshal(d), "}"), concat(",", paths)])
	i := specgate.test_input(text)
	vs := rule.violations with input as i
}

_operation(path, method, ops) := {
	"parameters": [p | some o in ops; o.path == path; o.method == method; some p in o.parameters],
	"responses": {"200": {"description": "d"}},
}

test_crossing_paths_are_ambiguous if {
	vs := run([item("/orgs/{org}/members", ["get"]), item("/orgs/mine/{view}", ["get", "post"])], [])
	vs == {{"path": ["paths", "/orgs/mine/{view}"], "message": "path /orgs/mine/{view} is ambiguous with /orgs/{org}/members: a request to /orgs/mine/members matches both, and neither path is more specific"}}
}

test_one_sided_specificity_is_not_ambiguous if {
	count(run([item("/pets/{id}", ["get"]), item("/pets/mine", ["get"]), item("/pets/{id}/toys", ["get"]), item("/pets/mine/toys", ["get"])], [])) == 0
}

test_no_common_method if {
	count(run([item("/a/{x}/c", ["get"]), item("/a/b/{y}", ["post"])], [])) == 0
}

test_numeric_parameter_does_not_match_text if {
	ops := [
		{"path": "/roles/{role_id}/teams", "method": "get", "parameters": [pparam("role_id", {"type": "integer"})]},
		{"path": "/roles/teams/{team}", "method": "get", "parameters": [pparam("team", {"type": "string"})]},
	]
	count(run([item("/roles/{role_id}/teams", ["get"]), item("/roles/teams/{team}", ["get"])], ops)) == 0
}

test_numeric_parameter_matches_numbers if {
	ops := [{"path": "/v/{n}/x", "method": "get", "parameters": [pparam("n", {"type": ["integer", "null"]})]}]
	vs := run([item("/v/{n}/x", ["get"]), item("/v/2/{y}", ["get"])], ops)
	{v.message | some v in vs} == {"path /v/2/{y} is ambiguous with /v/{n}/x: a request to /v/2/x matches both, and neither path is more specific"}
}

test_enum_limits_matches if {
	ops := [
		{"path": "/a/{kind}/c", "method": "get", "parameters": [pparam("kind", {"type": "string", "enum": ["x", "y"]})]},
		{"path": "/a/b/{z}", "method": "get", "parameters": [pparam("z", {"type": "string"})]},
		{"path": "/a/x/{z}", "method": "get", "parameters": [pparam("z", {"type": "string"})]},
	]
	vs := run([item("/a/{kind}/c", ["get"]), item("/a/b/{z}", ["get"]), item("/a/x/{z}", ["get"])], ops)
	{v.path | some v in vs} == {["paths", "/a/x/{z}"]}
}

test_several_partners_are_listed_once if {
	items := [item("/g/{id}/bans", ["get"]), item("/g/{id}/roles", ["get"]), item("/g/{id}/emojis", ["get"]), item("/g/templates/{code}", ["get"])]
	vs := run(items, [])
	vs == {{"path": ["paths", "/g/templates/{code}"], "message": "path /g/templates/{code} is ambiguous with /g/{id}/bans, /g/{id}/roles and 1 other path: a request to /g/templates/bans matches both, and neither path is more specific"}}
}

test_identical_and_different_lengths_are_not_ambiguous if {
	count(run([item("/a/{x}", ["get"]), item("/a/{y}", ["get"]), item("/a/{x}/b", ["get"]), item("/{p}/c/d", ["get"])], [])) == 0
}

test_pattern_limits_matches if {
	snowflake := {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}
	ops := [
		{"path": "/guilds/{guild_id}/bans", "method": "get", "parameters": [pparam("guild_id", snowflake)]},
		{"path": "/guilds/templates/{code}", "method": "get", "parameters": [pparam("code", {"type": "string"})]},
	]
	count(run([item("/guilds/templates/{code}", ["get"]), item("/guilds/{guild_id}/bans", ["get"])], ops)) == 0
}

test_invalid_pattern_rules_nothing_out if {
	ops := [
		{"path": "/guilds/{guild_id}/bans", "method": "get", "parameters": [pparam("guild_id", {"type": "string", "pattern": "(?<=x)"})]},
		{"path": "/guilds/templates/{code}", "method": "get", "parameters": [pparam("code", {"type": "string"})]},
	]
	count(run([item("/guilds/templates/{code}", ["get"]), item("/guilds/{guild_id}/bans", ["get"])], ops)) == 1
}

test_every_declaration_must_allow_the_text if {
	ops := [
		{"path": "/a/{n}/c", "method": "get", "parameters": [pparam("n", {"type": "integer"})]},
		{"path": "/a/{n}/c", "method": "put", "parameters": [pparam("n", {"type": "string"})]},
	]
	count(run([item("/a/{n}/c", ["get", "put"]), item("/a/b/{z}", ["get"])], ops)) == 0
}

test_referenced_schema_is_followed if {
	doc := {"components": {"schemas": {"Id": {"type": "integer"}}}}
	ops := [{"path": "/a/{n}/c", "method": "get", "parameters": [pparam("n", {"$ref": "#/components/schemas/Id"})]}]
	count(run_with([item("/a/{n}/c", ["get"]), item("/a/b/{z}", ["get"])], ops, doc)) == 0
	count(run_with([item("/a/{n}/c", ["get"]), item("/a/b/{z}", ["get"])], ops, {"components": {"schemas": {"Id": {"type": "string"}}}})) == 1
}

test_template_facing_a_mixed_segment_is_ambiguous if {
	vs := run([item("/compare/{basehead}", ["get"]), item("/compare/{base}...{head}", ["get"]), item("/files/{name}.json", ["get"]), item("/files/{id}.xml", ["get"])], [])
	vs == {{"path": ["paths", "/compare/{base}...{head}"], "message": "path /compare/{base}...{head} is ambiguous with /compare/{basehead}: a request to /compare/{base}...{head} matches both, and neither path is more specific"}}
}
