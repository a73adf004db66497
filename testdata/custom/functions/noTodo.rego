# A custom function: the Rego port of the ruleset's JavaScript noTodo
# function. It receives the target value, the functionOptions and a context
# ({path, file, given, rule}) and returns a list of {message, path?}.
package acme.functions

noTodo(value, options, _) := [{"message": sprintf("%q is still a draft", [value])}] if {
	is_string(value)
	startswith(value, options.marker)
} else := []
