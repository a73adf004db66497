# METADATA
# description: |
#   Helpers of the pagination rules: the page and page-size query
#   parameters, how to name them in messages, what makes an integer
#   parameter positive, and which GET operations are paginated and what
#   their success body looks like. Response and schema helpers come from
#   specgate.lib.health.
package specgate.lib.pagination

import data.specgate.lib.health

# query_parameters(names) are the distinct query parameters, used by some
# operation under paths, whose lower-case name is in names. A parameter
# shared by several operations (a component, or one declared on a path
# item) is one element: the views give each written parameter one value,
# so the set keeps one copy.
query_parameters(names) := {p |
	some name in names
	some p in _query_parameters[name]
}

# _query_parameters groups the distinct query parameters of operations
# under paths by lower-case name: built once, from the input's index of
# them (a large API has thousands of operations and few distinct query
# parameters), or from the operations of an input without one (a test's).
# A lookup per name asked for reads the few parameters of that name, not
# every query parameter for each of the five sets of names.
_query_parameters := specgate.group([[lower(p.name), p] |
	some p in _distinct_query_parameters
	is_string(p.name)
])

_distinct_query_parameters := input.queryParameters if is_array(input.queryParameters)

else := [p | some op in input.operations; some p in op.parameters; p["in"] == "query"]

# size_names are the names (lower case) of the query parameters that set
# the size of a page wherever they appear; `limit` sets it too where the
# operation is paginated (see signals).
size_names := {"page_size", "pagesize", "per_page", "perpage"}

# size_parameters are the distinct page-size query parameters.
size_parameters := query_parameters(size_names) | _paginating_limits

_paginating_limits contains p if {
	count(_paginated_operations) > 0
	some p in query_parameters({"limit"})
	some i in object.get(_users, [p.source], [])
	paginated(input.operations[i])
}

# position_names are the names (lower case) of the query parameters that
# say where a page starts wherever they appear; after, before,
# starting_after and ending_before say it too where the operation is
# paginated.
position_names := {"page", "offset", "skip", "cursor", "page_token", "pagetoken"}

# position_parameters are the distinct page-position query parameters.
position_parameters := query_parameters(position_names) | _paginating_positions

# The parameters of those names are found through the index of query
# parameters by name, and kept when an operation that uses one is
# paginated: a walk over every parameter of every paginated operation
# costs most where hundreds of list operations take dozens of filters.
_paginating_positions contains p if {
	count(_paginated_operations) > 0
	some p in query_parameters(limit_partners - {"offset"})
	some i in object.get(_users, [p.source], [])
	paginated(input.operations[i])
}

# subject(p) names a parameter in messages with the first operation that
# uses it, in source order, and how many others share it. The message of a
# shared parameter is the same whichever operation led to it.
subject(p) := sprintf("query parameter %q of %s", [p.name, _where(users)]) if {
	users := {i | some i in _users[p.source]} # an operation may list it twice
}

# _users maps the source of each query parameter to the positions, in
# input.operations, of the operations that use it: built once, in one
# pass (specgate.group), rather than searched for each message. As a
# partial rule of sets it was slow to build where shared query parameters
# are used by a thousand operations each.
_users := specgate.group([[q.source, i] |
	some i, op in input.operations
	some q in op.parameters
	q["in"] == "query"
])

# _where(users) names the first of the operations at positions users, and
# how many others there are: only the first is spelled.
_where(users) := _operation(min(users)) if count(users) == 1

else := sprintf("%s and 1 other operation", [_operation(min(users))]) if count(users) == 2

else := sprintf("%s and %d other operations", [_operation(min(users)), count(users) - 1])

_operation(i) := sprintf("%s %s", [upper(op.method), op.path]) if op := input.operations[i]

# page_token(p) holds for a parameter typed as a string (or a 3.1 type list
# with "string" and no number type): an opaque page token, a cursor, as
# Stripe's and OpenAI's `page` parameters are. It has no natural default
# and is not a number, so the page-number rules leave it alone.
page_token(p) if p.schema.type == "string"

page_token(p) if {
	is_array(p.schema.type)
	"string" in p.schema.type
	count({"integer", "number"} & {t | some t in p.schema.type}) == 0
}

# schema_path(p) is where the parameter's schema is written: its schema
# (the parameter itself in Swagger 2.0), else the parameter.
schema_path(p) := p.schemaSource if p.schema != null

else := p.source

# is_integer(s) holds for `type: integer`, and for a 3.1 type list that
# contains "integer" (such as [integer, "null"]).
is_integer(s) if s.type == "integer"

is_integer(s) if {
	is_array(s.type)
	"integer" in s.type
}

# lower_bound(s) is the least integer value the schema allows, from
# minimum, exclusiveMinimum: true (OpenAPI 3.0, Swagger 2.0) or a numeric
# exclusiveMinimum (OpenAPI 3.1). Undefined when there is no bound.
lower_bound(s) := max(_bounds(s)) if count(_bounds(s)) > 0

_bounds(s) := _minimum_bound(s) | _exclusive_bound(s)

_minimum_bound(s) := {floor(s.minimum) + 1} if {
	is_number(s.minimum)
	s.exclusiveMinimum == true
} else := {s.minimum} if {
	is_number(s.minimum)
} else := set()

_exclusive_bound(s) := {floor(s.exclusiveMinimum) + 1} if {
	is_number(s.exclusiveMinimum)
} else := set()

# positive_int_problems(p) are [path, text] pairs saying how a parameter's
# schema falls short of a positive integer: type integer, a minimum of at
# least 1, and a default (when there is one) of at least 1. A schema that
# is not an integer gets only that problem.
positive_int_problems(p) := int_problems(p, 1)

# int_problems(p, least) are the same for an integer of at least least.
int_problems(p, least) := {[_key_path(p, "type"), _type_problem(p.schema)]} if {
	not is_integer(p.schema)
} else := _minimum_problems(p, least) | _default_problems(p, least)

_minimum_problems(p, least) := {[schema_path(p), sprintf("must declare a minimum of %d", [least])]} if {
	not lower_bound(p.schema)
} else := {[_key_path(p, _bound_key(p.schema)), text]} if {
	lower_bound(p.schema) < least
	text := sprintf("must not allow values below %d, found a minimum of %v", [least, lower_bound(p.schema)])
} else := set()

_default_problems(p, least) := {[_key_path(p, "default"), text]} if {
	"default" in object.keys(p.schema)
	not _at_least(p.schema["default"], least)
	text := sprintf("must have a default of at least %d, found %s", [least, json.marshal(p.schema["default"])])
} else := set()

# _bound_key is the key that sets the lower bound: minimum, else a numeric
# exclusiveMinimum.
_bound_key(s) := "minimum" if is_number(s.minimum)

else := "exclusiveMinimum"

_type_problem(s) := sprintf("must be of type integer, found %s", [json.marshal(s.type)]) if {
	is_object(s)
	"type" in object.keys(s)
} else := "must declare type: integer"

_at_least(x, least) if {
	is_number(x)
	x >= least
}

_key_path(p, key) := array.concat(p.schemaSource, [key]) if {
	p.schema != null
	key in object.keys(p.schema)
} else := schema_path(p)

# page_parameters are the query parameters (lower case) whose presence
# alone makes a GET operation paginated.
page_parameters := {"page", "page_size", "pagesize", "per_page", "perpage", "page_token", "pagetoken", "cursor"}

# limit_partners make a GET operation paginated together with `limit`:
# `limit` alone often just caps a result, and `starting_after` alone also
# names the event to resume a stream after (OpenAI's GET /responses/{id}).
# (Kubernetes' `continue` is left out: its watch operations take it with
# `limit` and answer with an event stream, not pages.)
limit_partners := {"offset", "after", "before", "starting_after", "ending_before"}

# signals(op) are the names, as written, of the query parameters that make
# an operation paginated, which messages quote (paginated(op) tells
# whether there are any).
signals(op) := {p.name |
	some p in op.parameters
	p["in"] == "query"
	lower(p.name) in names
} if names := _signal_names(_query_names(op))

_query_names(op) := {lower(p.name) | some p in op.parameters; p["in"] == "query"}

# _signal_names(names) are those of an operation's query parameter names
# (lower case) that make it paginated.
_signal_names(names) := (names & page_parameters) | _limit_names(names)

_limit_names(names) := names & (limit_partners | {"limit"}) if {
	"limit" in names
	count(names & limit_partners) > 0
} else := set()

# paginated(op) holds for a GET operation under paths with pagination
# parameters.
paginated(op) if _paginated[op.source]

# _paginated is the set of the sources of the paginated operations: the
# whole value of a rule, built once for every rule that asks rather than
# once per operation and rule, with one pass over each GET operation's
# parameters.
_paginated := {op.source | some op in _paginated_operations}

# _paginated_operations are the paginated operations, in order: rules
# about the parameters of paginated operations iterate them rather than
# every operation (many APIs have none paginated).
_paginated_operations := [] if {
	not _may_paginate
} else := [op |
	some op in input.operations
	op.method == "get"
	count(_signal_names(_query_names(op))) > 0
]

# _may_paginate holds when the query parameters of the whole API have
# names that make an operation paginated: without them none is, and no
# operation's parameters need reading.
_may_paginate if count(_signal_names({name | some name, _ in _query_parameters})) > 0

# list_pages are [operation, list_body(operation)] of the paginated
# operations that have a list body: the rules about list bodies iterate
# these, built once, rather than every operation.
list_pages := [[op, page] | some op in _paginated_operations; page := list_body(op)]

# list_body(op) is the JSON media type of a paginated operation's first 2xx
# response that has a schema: application/json or any +json type. Undefined
# when there is none (no body, or only other formats).
list_body(op) := {"response": resp, "body": body} if {
	paginated(op)
	resp := health.first_success(op)
	body := [m |
		some m in resp.content
		_is_json(health.base_media_type(m.mediaType))
		m.schema != null
	][0]
}

_is_json(t) if t == "application/json"

_is_json(t) if endswith(t, "+json")

# describe(op, resp, body) names an operation, its pagination parameters
# and its response in messages.
describe(op, resp, body) := sprintf("%s %s takes pagination parameters (%s) but its %s response (%s)", [
	upper(op.method), op.path, concat(", ", sort(signals(op))), resp.status, body.mediaType,
])

# object_page(s) holds when a body schema can be read as an object: it
# declares properties (itself or through allOf), every allOf member can be
# resolved, it has no anyOf/oneOf (either branch could be the list) and
# nothing says it may be an array.
object_page(s) if {
	count(health.properties(s)) > 0
	health.complete(s)
	not _has_alternatives(s)
	not maybe_array(s)
}

_has_alternatives(s) if count(object.get(s, "anyOf", [])) > 0

_has_alternatives(s) if count(object.get(s, "oneOf", [])) > 0

# array_page(s) holds when a body schema is certainly a bare array.
array_page(s) if {
	health.resolved(s)
	_array(health.deref(s))
}

# maybe_array(s) holds when s is, or may be, an array: type array (or a type
# list with "array"), items without a type, an allOf/anyOf/oneOf member
# that is an array (a nullable array of OpenAPI 3.1), or a $ref that cannot
# be followed.
maybe_array(s) if not health.resolved(s)

maybe_array(s) if _array(health.deref(s))

maybe_array(s) if {
	some k in ["allOf", "anyOf", "oneOf"]
	some m in object.get(health.deref(s), k, [])
	_maybe_array_member(m)
}

_maybe_array_member(m) if not health.resolved(m)

_maybe_array_member(m) if _array(health.deref(m))

_array(s) if s.type == "array"

_array(s) if {
	is_array(s.type)
	"array" in s.type
}

_array(s) if {
	is_object(s)
	not "type" in object.keys(s)
	is_object(s.items)
}

# has_array_property(s) holds when a property of s (or of its allOf
# members) is, or may be, an array: the list of the page's items.
has_array_property(s) if {
	some [_, prop] in health.property_schemas(s)
	maybe_array(prop)
}

# has_next_hint(s) holds when the body says how to reach the next page: a
# property whose name, lower case without `_ - . @ $`, contains "next" or is
# links, link, hasmore, cursor, cursors, continue or continuationtoken, at
# the top level or inside a top-level object property (meta, pagination,
# response_metadata, …). A property that cannot be read counts, so as not
# to guess.
has_next_hint(s) if {
	some [name, _] in health.property_schemas(s)
	_next_name(name)
}

has_next_hint(s) if {
	some [_, prop] in health.property_schemas(s)
	not health.resolved(prop)
}

has_next_hint(s) if {
	some [_, prop] in health.property_schemas(s)
	not health.complete(health.deref(prop))
}

has_next_hint(s) if {
	some [_, prop] in health.property_schemas(s)
	some [name, _] in health.property_schemas(health.deref(prop))
	_next_name(name)
}

_next_names := {"links", "link", "hasmore", "cursor", "cursors", "continue", "continuationtoken"}

_next_name(name) if contains(_squash(name), "next")

_next_name(name) if _squash(name) in _next_names

_squash(name) := lower(regex.replace(name, `[-_.@$]`, ""))

# has_link_header(resp) holds when the response declares a Link header
# (RFC 8288), the other way to point at the next page.
has_link_header(resp) if {
	some h in resp.headers
	lower(h.name) == "link"
}
