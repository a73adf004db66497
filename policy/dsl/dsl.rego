# METADATA
# description: |
#   The runtime of rules compiled from YAML/JSON definitions (package
#   policy/dsl): navigation with $ref resolution, the filter expression
#   helpers, Spectral's core functions and message formatting. Every
#   function is total: it never fails, so a rule never stops on odd input.
package specgate.dsl

# undefined stands for JavaScript's undefined: a set, which no JSON input
# value can be.
undefined := {"undefined"}

is_undefined(v) if is_set(v)

# roots are the files of the document, by name ("" is the entry file).
roots[""] := input.document

roots[name] := tree if some name, tree in input.files

# deref follows a $ref to the value it names: [file, path, value]. Values
# that are not references come back unchanged.
deref(f, p, v) := t if {
	is_object(v)
	t := input.refTargets[f][v["$ref"]]
} else := [f, p, v]

# get is lodash's get for one step: a member or an element, else undefined.
get(v, k) := x if {
	is_object(v)
	x := v[k]
} else := x if {
	is_array(v)
	x := v[to_number(k)]
} else := undefined

# member is a property access in a filter, with JavaScript's .length.
member(v, k) := count(v) if {
	k == "length"
	is_string(v)
} else := count(v) if {
	k == "length"
	is_array(v)
} else := get(v, k)

last(p) := p[count(p) - 1] if count(p) > 0

else := null

# JavaScript truthiness: false, 0, "", null and undefined are falsy.
falsy_value(false)

falsy_value(0)

falsy_value("")

falsy_value(null)

falsy_value(v) if is_undefined(v)

truthy_value(v) if not falsy_value(v)

nullish(v) if v == null

nullish(v) if is_undefined(v)

# loose_eq is ==: null and undefined equal each other, numbers equal their
# string forms.
loose_eq(a, b) if a == b

loose_eq(a, b) if {
	nullish(a)
	nullish(b)
}

loose_eq(a, b) if {
	is_number(a)
	is_string(b)
	to_number(b) == a
}

loose_eq(a, b) if {
	is_string(a)
	is_number(b)
	to_number(a) == b
}

strict_eq(a, b) if a == b

comparable(a, b) if {
	is_number(a)
	is_number(b)
}

comparable(a, b) if {
	is_string(a)
	is_string(b)
}

js_lt(a, b) if {
	comparable(a, b)
	a < b
}

js_le(a, b) if {
	comparable(a, b)
	a <= b
}

js_gt(a, b) if {
	comparable(a, b)
	a > b
}

js_ge(a, b) if {
	comparable(a, b)
	a >= b
}

js_match(v, re) if {
	is_string(v)
	regex.match(re, v)
}

# Method calls as values: each is total.
call_match(v, re) := true if js_match(v, re)

else := false

call_starts_with(v, s) := startswith(v, s) if {
	is_string(v)
	is_string(s)
} else := false

call_ends_with(v, s) := endswith(v, s) if {
	is_string(v)
	is_string(s)
} else := false

call_includes(v, s) := contains(v, s) if {
	is_string(v)
	is_string(s)
} else := true if {
	is_array(v)
	s in v
} else := false

call_index_of(v, s) := indexof(v, s) if {
	is_string(v)
	is_string(s)
} else := i if {
	is_array(v)
	i := min({j | some j, x in v; x == s})
} else := -1

call_lower(v) := lower(v) if is_string(v)

else := undefined

call_upper(v) := upper(v) if is_string(v)

else := undefined

call_trim(v) := trim_space(v) if is_string(v)

else := undefined

typeof(v) := "undefined" if is_undefined(v)

else := "string" if is_string(v)

else := "number" if is_number(v)

else := "boolean" if is_boolean(v)

else := "object"

is_obj(v) if is_object(v)

is_obj(v) if is_array(v)

# ---- field targets -------------------------------------------------------

# keys_of lists the members of an object or array as [path suffix, key]
# targets, for field: "@key".
keys_of(f, p, v) := {[f, array.concat(p, [k]), k] | some k, _ in v} if {
	is_obj(v)
	count(v) > 0
} else := {[f, p, v]}

# ---- core functions ------------------------------------------------------
# Each takes the target value and the options, and returns a set of
# {"message", "path"} errors; "path" is relative to the target.

err(msg) := {{"message": msg, "path": []}}

fn_truthy(v, _) := err(`#{{print("property")}}must be truthy`) if falsy_value(v)

else := set()

fn_falsy(v, _) := err(`#{{print("property")}}must be falsy`) if truthy_value(v)

else := set()

fn_defined(v, _) := err(`#{{print("property")}}must be defined`) if is_undefined(v)

else := set()

fn_undefined(v, _) := err(`#{{print("property")}}must be undefined`) if not is_undefined(v)

else := set()

fn_pattern(v, o) := {e |
	is_string(v)
	some e in pattern_errors(v, o)
}

pattern_errors(v, o) := {{"message": sprintf(`#{{print("value")}} must match the pattern %s`, [json.marshal(o.matchSource)]), "path": []} |
	o.match != null
	not regex.match(o.match, v)
} | {{"message": sprintf(`#{{print("value")}} must not match the pattern %s`, [json.marshal(o.notMatchSource)]), "path": []} |
	o.notMatch != null
	regex.match(o.notMatch, v)
}

fn_casing(v, o) := err(sprintf("must be %s case", [o.type])) if {
	is_string(v)
	v != ""
	not v == o.leadingAlone
	not regex.match(o.regex, v)
} else := set()

fn_enumeration(v, o) := err(sprintf(`#{{print("value")}} must be equal to one of the allowed values: %s`, [o.printed])) if {
	scalar(v)
	not v in o.values
} else := set()

scalar(v) if is_string(v)

scalar(v) if is_number(v)

scalar(v) if is_boolean(v)

scalar(v) if is_null(v)

fn_length(v, o) := {e |
	n := measure(v)
	some e in length_errors(n, o)
}

measure(v) := count(v) if is_object(v)

else := count(v) if is_array(v)

else := count(v) if is_string(v)

else := v if is_number(v)

length_errors(n, o) := {{"message": sprintf(`#{{print("property")}}must be longer than %v`, [o.min]), "path": []} |
	o.min != null
	n < o.min
} | {{"message": sprintf(`#{{print("property")}}must be shorter than %v`, [o.max]), "path": []} |
	o.max != null
	n > o.max
}

fn_xor(v, o) := {e |
	is_object(v)
	some e in xor_errors(v, o.properties)
}

present(v, props) := [p | some p in props; p in object.keys(v)]

xor_errors(v, props) := err(at_least_one(props)) if count(present(v, props)) == 0

else := err(sprintf(`Just one of "%s" must be defined`, [concat(`" and "`, present(v, props))])) if count(present(v, props)) > 1

else := set()

fn_or(v, o) := err(at_least_one(o.properties)) if {
	is_object(v)
	count(present(v, o.properties)) == 0
} else := set()

at_least_one(props) := sprintf(`At least one of "%s" or %d other properties must be defined`, [concat(`" or "`, array.slice(props, 0, 3)), count(props) - 3]) if count(props) > 4

else := sprintf(`At least one of "%s" must be defined`, [concat(`" or "`, props)])

# alphabetical needs the order of an object's keys, which OPA's objects do
# not keep: specgate.object_keys reads it from the source.
fn_alphabetical(f, p, v, o) := {e |
	items := alpha_items(f, p, v)
	count(items) > 1
	some e in alpha_check(v, items, o.keyedBy)
}

alpha_items(f, p, v) := v if is_array(v)

else := specgate.object_keys(f, p) if is_object(v)

else := []

alpha_check(v, items, keyed_by) := err(`#{{print("property")}}must be an object`) if {
	keyed_by != null
	some it in items
	not is_object(it)
} else := err(`#{{print("property")}}must be one of the allowed types: number, string`) if {
	not all_sortable(alpha_values(items, keyed_by))
} else := {e |
	vals := alpha_values(items, keyed_by)
	i := min({j | some j in numbers.range(0, count(vals) - 2); alpha_after(vals[j], vals[j + 1])})
	e := alpha_error(v, items, vals, i, keyed_by)
}

alpha_values(items, keyed_by) := items if keyed_by == null

else := [object.get(it, keyed_by, null) | some it in items]

all_sortable(vals) if every x in vals {
	sortable(x)
}

sortable(x) if is_string(x)

sortable(x) if is_number(x)

alpha_after(a, b) if {
	is_number(a)
	is_number(b)
	a > b
}

# Strings compare as JavaScript's localeCompare does for ASCII names:
# letters case-insensitively first, lower case before upper case on a tie.
alpha_after(a, b) if {
	is_string(a)
	is_string(b)
	lower(a) > lower(b)
}

alpha_after(a, b) if {
	is_string(a)
	is_string(b)
	lower(a) == lower(b)
	a < b
}

alpha_error(v, items, vals, i, keyed_by) := {"message": "properties must follow the alphabetical order", "path": []} if keyed_by != null

else := {"message": sprintf("%s must be placed after %s", [print_value(vals[i]), print_value(vals[i + 1])]), "path": [i]} if is_array(v)

else := {"message": sprintf("%s must be placed after %s", [print_value(vals[i]), print_value(vals[i + 1])]), "path": [items[i]]}

# typed_enum reports enum values that do not have the schema's type.
fn_typedEnum(v, _) := {{"message": sprintf(`Enum value %s must be "%s".`, [print_value(x), concat(`" or "`, types)]), "path": ["enum", i]} |
	is_object(v)
	is_array(v.enum)
	types := schema_types(v)
	count(types) > 0
	some i, x in v.enum
	not typed(x, types, v)
}

schema_types(v) := [v.type] if is_string(v.type)

else := [t | some t in v.type] if is_array(v.type)

else := []

typed(x, types, _) if {
	some t in types
	json_type(x, t)
}

typed(null, _, v) if v.nullable == true

json_type(x, "string") if is_string(x)

json_type(x, "number") if is_number(x)

json_type(x, "integer") if {
	is_number(x)
	x == round(x)
}

json_type(x, "boolean") if is_boolean(x)

json_type(x, "object") if is_object(x)

json_type(x, "array") if is_array(x)

json_type(x, "null") if is_null(x)

# unreferenced reports members of a reusable-objects map that no $ref in
# the document points to.
fn_unreferencedReusableObject(f, p, v, _) := {{"message": "Potential orphaned reusable object has been detected", "path": [k]} |
	is_object(v)
	some k, _ in v
	not [f, array.concat(p, [k])] in referenced
}

referenced contains [r.targetFile, r.target] if {
	some r in input.refs
	r.target != null
}

fn_schema(v, o) := err(`#{{print("property")}}must exist`) if is_undefined(v)

else := {e |
	some x in specgate.json_schema(v, o.schema, o.dialect, o.allErrors)
	e := {"message": x.message, "path": x.path}
}

# ---- results -------------------------------------------------------------

print_value(v) := "undefined" if is_undefined(v)

else := "Array[]" if is_array(v)

else := "Object{}" if is_object(v)

else := json.marshal(v)

# message fills the rule's message template (Spectral's placeholders) for
# one error at path p, where the target value is v.
message(template, e, p, v, description) := trim_space(strings.replace_n({
	"{{error}}": error_text(e.message, p, v),
	"{{property}}": property_name(p),
	"{{value}}": value_text(v),
	"{{path}}": pointer(p),
	"{{description}}": description,
}, template))

error_text(msg, p, v) := strings.replace_n({
	`#{{print("property")}}`: print_property(p),
	`#{{print("value")}}`: print_value(v),
}, msg)

print_property(p) := sprintf(`"%v" property `, [last(p)]) if count(p) > 0

else := "The document "

property_name(p) := sprintf("%v", [last(p)]) if count(p) > 0

else := ""

value_text(v) := v if is_string(v)

else := "" if is_undefined(v)

else := print_value(v)

pointer(p) := concat("/", array.concat(["#"], [escape(s) | some s in p]))

escape(s) := replace(replace(s, "~", "~0"), "/", "~1") if is_string(s)

else := sprintf("%v", [s])

# violation is the result every rule returns; "file" names another file of
# the document when the path starts there.
violation(f, p, msg) := {"path": p, "message": msg} if f == ""

else := {"path": p, "message": msg, "file": f}

# last_key is the key of a node reached by walk: the last element of the
# walked path q, or k when q is empty (the node the walk started from).
last_key(q, k) := q[count(q) - 1] if count(q) > 0

else := k

# custom_results normalizes what a ruleset's own function returns: a set
# or array of {"message", "path"?} objects or of strings.
custom_results(rs) := {normalize_result(r) | some r in rs}

# A function's result path is absolute, as in Spectral (functions build it
# from ctx.path); without one the finding is at the target.
normalize_result(r) := {"message": r, "path": []} if is_string(r)

else := {"message": object.get(r, "message", ""), "path": [], "abs": r.path} if is_array(r.path)

else := {"message": object.get(r, "message", ""), "path": []}

# full_path is where a function's error lands: its absolute path, or the
# target's path extended by the relative one.
full_path(tp, e) := e.abs if is_array(e.abs)

else := array.concat(tp, e.path)
