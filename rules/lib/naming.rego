# METADATA
# description: |
#   Helpers about names in API descriptions, shared by the built-in rules:
#   case conventions of identifiers (checks and suggested spellings), the
#   segments and templates of a path, and how a message names an operation.
package specgate.lib.naming

# Case conventions. Digits may follow the first letter everywhere; kebab
# case also allows a segment that starts with a digit ("2010-04-01").
is_kebab(s) if regex.match(`^[a-z0-9]+(-[a-z0-9]+)*$`, s)

is_snake(s) if regex.match(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`, s)

is_camel(s) if regex.match(`^[a-z][a-zA-Z0-9]*$`, s)

# is_camel_or_pascal accepts lower and upper camel case: letters and digits
# only, starting with a letter.
is_camel_or_pascal(s) if regex.match(`^[a-zA-Z][a-zA-Z0-9]*$`, s)

# words splits an identifier into its words at separators (anything but a
# letter or a digit) and at case changes: "userAccounts", "user_accounts"
# and "User-Accounts" all give two words. An acronym stays one word when a
# capitalized word follows it ("HTTPServer" is "HTTP", "Server"). Written
# in Go (specgate.words): the naming rules split every name of an API.
words(s) := specgate.words(s)

# Spellings of an identifier in each convention. They are suggestions: a
# caller checks the result (a name starting with a digit has no camelCase
# spelling, for instance).
kebab(s) := specgate.respell(s, "kebab")

snake(s) := specgate.respell(s, "snake")

camel(s) := specgate.respell(s, "camel")

pascal(s) := specgate.respell(s, "pascal")

# capitalize upper-cases the first letter and lower-cases the rest.
capitalize(w) := concat("", [upper(substring(w, 0, 1)), lower(substring(w, 1, -1))])

# path_items are input.pathItems, each with the non-empty segments of its
# path (up to any query string or fragment) as `segments` and its `shape`:
# the segments with every template written as "{}" (two paths of the same
# shape differ only in the names of their templates). segment_users indexes them by segment: {segment: [i]}, the
# positions of the items whose path has it (each once, in order). The
# rules about segments judge each spelling once, then report it on the
# paths that have it. Both are views of the input, built in Go.
path_items := input.pathItems

segment_users := input.pathSegments

# segments(path) are the segments of a path under paths, as its item of
# input.pathItems gives them: the non-empty ones, up to any query string
# or fragment written into the path. Cut from the path itself: a rule
# asks for a few paths, where an index of every path item by its path
# cost more than the rule on a large API.
segments(path) := [seg | some seg in split(regex.replace(path, `[?#].*$`, ""), "/"); seg != ""]

# path_templates are the names of the {templates} of a path, in order.
path_templates(path) := specgate.templates(path)

# operation names an HTTP operation for messages: "GET /pets/{id}",
# "POST webhook newPet", "POST {$request.body#/url} (callback onEvent)".
# Spelled in Go (policy/naming.go): messages name operations thousands of
# times on a large API.
operation(op) := specgate.operation_name(op)
