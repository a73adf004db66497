# METADATA
# description: Helpers shared by the built-in rules.
package specgate.lib.util

# violation builds the object every rule returns: a path into the document
# and a message. Keeping it in one place lets the result format change once.
violation(path, message) := {"path": path, "message": message}

# normalize_path removes trailing slashes, keeping "/" for the root.
normalize_path(p) := "/" if trim_right(p, "/") == ""

else := trim_right(p, "/")

# http_operations are the operations under paths, webhooks and callbacks,
# in that order. An array: a set hashes every operation, nodes included, to
# build itself and sorts them to be iterated, which costs more than the
# rules that read it on a large document.
http_operations := array.concat(array.concat(input.operations, object.get(input, "webhooks", [])), object.get(input, "callbacks", []))

# is_oas2 holds for Swagger 2.0 documents.
is_oas2 if input.format == "swagger"
