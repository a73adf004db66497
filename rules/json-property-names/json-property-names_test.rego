package specgate.rules["json-property-names_test"]

import data.specgate.rules["json-property-names"] as rule

schema(name, source, props) := {"name": name, "source": source, "node": {"type": "object", "properties": {p: {"type": "string"} | some p in props}}}

test_named_schema_with_suggestion if {
	vs := rule.violations with input as doc([schema("User", ["components", "schemas", "User"], ["id", "first_name", "LastName", "birthDate", "zipCode"])])
	vs == {
		{"path": ["components", "schemas", "User", "properties", "first_name"], "message": `property "first_name" of schema User is not camelCase (use "firstName")`},
		{"path": ["components", "schemas", "User", "properties", "LastName"], "message": `property "LastName" of schema User is not camelCase (use "lastName")`},
	}
}

test_inline_schema_is_not_named if {
	src := ["paths", "/users", "get", "responses", "200", "content", "application/json", "schema"]
	vs := rule.violations with input as doc([schema("", src, ["page-size"])])
	vs == {{"path": array.concat(src, ["properties", "page-size"]), "message": `property "page-size" is not camelCase (use "pageSize")`}}
}

test_no_suggestion_when_none_is_camel if {
	vs := rule.violations with input as doc([schema("T", ["definitions", "T"], ["2fa_enabled"])])
	vs == {{"path": ["definitions", "T", "properties", "2fa_enabled"], "message": `property "2fa_enabled" of schema T is not camelCase`}}
}

test_exempt_names if {
	count(rule.violations) == 0 with input as doc([schema("Doc", ["components", "schemas", "Doc"], ["@id", "@odata.count", "$schema", "x-kubernetes-list-type", "_links", "_embedded", "userId", "url2", "0", "12"])])
}

test_other_underscore_names_are_not_exempt if {
	vs := rule.violations with input as doc([schema("Doc", ["components", "schemas", "Doc"], ["_id"])])
	vs == {{"path": ["components", "schemas", "Doc", "properties", "_id"], "message": `property "_id" of schema Doc is not camelCase (use "id")`}}
}

test_schemas_without_properties if {
	count(rule.violations) == 0 with input as doc([
		{"name": "A", "source": ["definitions", "A"], "node": {"type": "string"}},
		{"name": "B", "source": ["definitions", "B"], "node": {"properties": true}},
	])
}

test_form_and_xml_media_are_skipped if {
	body := ["paths", "/users", "post", "requestBody", "content"]
	count(rule.violations) == 0 with input as doc([
		schema("", array.concat(body, ["application/x-www-form-urlencoded", "schema"]), ["FriendlyName"]),
		schema("", array.concat(body, ["multipart/form-data; boundary=x", "schema", "properties", "file_meta"]), ["Content-Type"]),
		schema("", array.concat(body, ["application/atom+xml", "schema"]), ["Entry_Title"]),
		schema("", array.concat(body, ["text/xml", "schema"]), ["Entry_Title"]),
	])
}

test_json_media_and_other_content_keys_are_checked if {
	src := ["paths", "/users", "post", "requestBody", "content", "application/problem+json", "schema"]
	prop := ["components", "schemas", "Post", "properties", "content", "properties", "xml"]
	vs := rule.violations with input as doc([schema("", src, ["error_code", "errorDetail"]), schema("", prop, ["Body_Text", "createdAt"])])
	vs == {
		{"path": array.concat(src, ["properties", "error_code"]), "message": `property "error_code" is not camelCase (use "errorCode")`},
		{"path": array.concat(prop, ["properties", "Body_Text"]), "message": `property "Body_Text" is not camelCase (use "bodyText")`},
	}
}

test_snake_case_api_expects_snake_case if {
	vs := rule.violations with input as doc([
		schema("Repo", ["components", "schemas", "Repo"], ["full_name", "html_url", "id", "createdAt", "Owner"]),
		schema("", ["components", "schemas", "Repo", "properties", "owner"], ["avatar_url", "login"]),
	])
	vs == {
		{"path": ["components", "schemas", "Repo", "properties", "createdAt"], "message": `property "createdAt" of schema Repo is not snake_case, the convention of most property names in this API (use "created_at")`},
		{"path": ["components", "schemas", "Repo", "properties", "Owner"], "message": `property "Owner" of schema Repo is not snake_case, the convention of most property names in this API (use "owner")`},
	}
}

test_ties_expect_camel_case if {
	vs := rule.violations with input as doc([schema("T", ["definitions", "T"], ["user_id", "userName"])])
	vs == {{"path": ["definitions", "T", "properties", "user_id"], "message": `property "user_id" of schema T is not camelCase (use "userId")`}}
}

# doc(schemas) is the input lint builds (specgate.test_input) for a
# document that holds each of schemas ({name, source, node}) at its
# source, in objects made on the way there: Swagger 2.0 when one sits
# under definitions, else OpenAPI 3.1.
doc(schemas) := specgate.test_input(json.patch(_base(schemas), ordered)) if {
	sources := {s.source | some s in schemas}
	made := {array.slice(src, 0, n) | some src in sources; some n in numbers.range(1, count(src) - 1)}
	ops := {{"op": "add", "path": p, "value": {}} | some p in made; not p in sources; p != ["paths"]; not _within(p, sources)} | {{"op": "add", "path": s.source, "value": s.node} | some s in schemas}
	ordered := [op | some n in numbers.range(1, max({count(p) | some p in sources})); some op in ops; count(op.path) == n]
}

_base(schemas) := {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}} if {
	some s in schemas
	s.source[0] == "definitions"
} else := {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}

# _within tells whether path lies in one of the given nodes, which holds it.
_within(path, sources) if {
	some src in sources
	count(src) < count(path)
	array.slice(path, 0, count(src)) == src
}

# billbee.io and letmc.com write every property in PascalCase, as .NET
# serializers did: one convention, not one finding per property; the
# camelCase stragglers are reported.
test_pascal_case_api if {
	vs := rule.violations with input as doc([schema("Order", ["definitions", "Order"], ["OrderId", "CreatedAt", "TotalGross", "Net", "vatRate", "ship_to"])])
	vs == {
		{"path": ["definitions", "Order", "properties", "vatRate"], "message": `property "vatRate" of schema Order is not PascalCase, the convention of most property names in this API (use "VatRate")`},
		{"path": ["definitions", "Order", "properties", "ship_to"], "message": `property "ship_to" of schema Order is not PascalCase, the convention of most property names in this API (use "ShipTo")`},
	}
}

# A few PascalCase names in a camelCase API are still stragglers.
test_pascal_minority_is_reported if {
	vs := rule.violations with input as doc([schema("T", ["definitions", "T"], ["userId", "createdAt", "LastName"])])
	{v.path | some v in vs} == {["definitions", "T", "properties", "LastName"]}
}

# OData 3's annotations (odata.nextLink, Azure's graphrbac) are exempt; other
# dotted names are keys of another namespace, judged part by part
# (DigitalOcean's PostgreSQL settings and host names); a part that breaks
# the convention is still reported.
test_dotted_names_are_judged_by_part if {
	vs := rule.violations with input as doc([schema("T", ["definitions", "T"], ["odata.nextLink", "odata.type", "pg_partman_bgw.role", "registry.digitalocean.com", "pageSize", "airline.agency_invoice_number"])])
	vs == {
		{"path": ["definitions", "T", "properties", "pg_partman_bgw.role"], "message": `property "pg_partman_bgw.role" of schema T is not camelCase (use "pgPartmanBgw.role")`},
		{"path": ["definitions", "T", "properties", "airline.agency_invoice_number"], "message": `property "airline.agency_invoice_number" of schema T is not camelCase (use "airline.agencyInvoiceNumber")`},
	}
}
