# METADATA
# title: Operation names are camelCase, one case throughout
# description: |
#   Operation names are written in camel case, letters and digits only,
#   and every operation of the description starts with a letter of the same
#   case: all lowerCamelCase (`getBook`) or all UpperCamelCase (`GetBook`).
#
#   Operation names become method names in generated code and, in
#   document/literal wrapped style, the names of the request and response
#   elements. Java toolkits expect lowerCamelCase: Apache Axis and IBM
#   WebSphere's guides ask for operation names that start with a lower-case
#   letter, and JAX-WS maps names to Java identifiers by the JAXB rules,
#   which drop `_`, `-` and `.`; .NET services conventionally write
#   UpperCamelCase. Either works; a description that mixes them, or writes
#   `get_book`, gives every client names that follow neither.
#
#   The case of the description is the case most of its operations start
#   with (lowerCamelCase on a tie); the rule reports the others, and the
#   names that are not camel case at all, suggesting a spelling.
#
#   ```xml
#   <wsdl:operation name="getBook">      <!-- good -->
#   <wsdl:operation name="ListBooks">    <!-- bad: the others start lower-case -->
#   <wsdl:operation name="return_book">  <!-- bad: use returnBook -->
#   ```
# custom:
#   category: Naming
#   maturity: Silver
#   severity: warn
#   family: naming
#   formats: [wsdl]
#   howToFix: |
#     Rename the operation as the message suggests, in its port type and in
#     every binding of it. Renaming an operation breaks generated clients and
#     changes the wrapper elements of document/literal wrapped messages:
#     add the new operation beside the old one and retire the old one later.
package specgate.rules["wsdl-operation-camel-case"]

violations contains _violation(o, sprintf("operation %s of %s %s is not camel case (use %s)", [o.name, _kind, o.portType, _suggest(o.name)])) if {
	some o in input.wsdl.operations
	o.file == ""
	not _camel(o.name)
}

violations contains _violation(o, sprintf("operation %s of %s %s starts with %s letter while the description's operations are %s (%d of %d; use %s)", [o.name, _kind, o.portType, _other_letter, _case_name[_case], _counts[_case], _total, _suggest(o.name)])) if {
	some o in input.wsdl.operations
	o.file == ""
	_camel(o.name)
	_case_of(o.name) != _case
}

_violation(o, msg) := {"path": o.source, "message": msg}

_camel(name) if regex.match(`^[A-Za-z][A-Za-z0-9]*$`, name)

_case_of(name) := "upper" if regex.match(`^[A-Z]`, name)

else := "lower"

# _counts holds how many camel-case operations start each way.
_cases := [_case_of(o.name) | some o in input.wsdl.operations; _camel(o.name)]

_counts := {"lower": count(_cases) - n, "upper": n} if {
	n := count([c | some c in _cases; c == "upper"])
}

_total := _counts.lower + _counts.upper

_case := "upper" if _counts.upper > _counts.lower

else := "lower"

_kind := "interface" if input.wsdl.version == "2.0"

else := "port type"

_case_name := {"lower": "lowerCamelCase", "upper": "UpperCamelCase"}

_other_letter := "a lower-case" if _case == "upper"

else := "an upper-case"

_suggest(name) := specgate.respell(name, "pascal") if _case == "upper"

else := specgate.respell(name, "camel")
