# METADATA
# title: Paths do not name HTTP methods
# description: |
#   No literal path segment contains an HTTP method as a word: `get`,
#   `post`, `put`, `patch` or `delete` (`/users/get`, `/getUsers`,
#   `/delete-request`). The method of the operation already says what it
#   does; a method in the path duplicates it, or contradicts it
#   (`POST /users/{id}/delete`), and marks an RPC-style API where a
#   resource-oriented one was meant.
#
#   Segments are split into words at separators and case changes, so
#   `posts`, `output` and `budget` are not methods. `head`, `options` and
#   `trace` are left out: as words they are usually nouns (`/git/head`).
#   Templates are not checked. Only `paths` keys are checked. The rule
#   reports once per path and method word, on the path's key.
#
#   ```yaml
#   paths:
#     /users/{id}/delete:   # bad
#       post: …
#     /users/{id}:          # good
#       delete: …
#   ```
# custom:
#   category: Structure
#   maturity: Silver
#   severity: warn
#   family: structure
#   formats: [oas2, oas3]
#   peers: ["vacuum:no-http-verbs-in-path", "redocly:no-http-verbs-in-paths"]
#   howToFix: |
#     Name the resource in the path and let the HTTP method carry the
#     action: `POST /users/{id}/delete` becomes `DELETE /users/{id}`,
#     `GET /getUsers` becomes `GET /users`. For an action that is not
#     create, read, update or delete, name it with a noun or a verb that is
#     not an HTTP method (`POST /payments/{id}/capture`).
package specgate.rules["no-http-verbs-in-paths"]

import data.specgate.lib.naming
import data.specgate.lib.util

_methods := {"get", "post", "put", "patch", "delete"}

# Each spelling of a segment is judged once, then reported on every path
# that has it.
violations contains util.violation(item.source, msg) if {
	some seg, users in naming.segment_users
	regex.match(`(?i)get|post|put|patch|delete`, seg) # most segments name no method at all
	some word in naming.words(regex.replace(seg, `\{[^{}]*\}`, " "))
	method := lower(word)
	method in _methods
	some i in users
	item := naming.path_items[i]
	msg := sprintf("path %s names the HTTP method %q in its segment %q; let the operation's method say what it does", [item.path, method, seg])
}
