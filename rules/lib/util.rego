# METADATA
# description: Helpers shared by the built-in rules.
package specgate.lib.util

# violation builds the object every rule returns: a path into the document
# and a message. Keeping it in one place lets the result format change once.
violation(path, message) := {"path": path, "message": message}

# normalize_path removes trailing slashes, keeping "/" for the root.
normalize_path(p) := "/" if trim_right(p, "/") == ""

else := trim_right(p, "/")

# http_operations are operations under paths, webhooks and callbacks.
http_operations contains op if some op in input.operations

http_operations contains op if some op in input.webhooks

http_operations contains op if some op in input.callbacks

# is_oas2 holds for Swagger 2.0 documents.
is_oas2 if input.format == "swagger"
