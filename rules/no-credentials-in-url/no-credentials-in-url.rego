# METADATA
# title: No credentials in URL parameters
# description: |
#   No query or path parameter carries a password, a secret, an API key or
#   a token. URLs are written to server and proxy logs, browser history and
#   `Referer` headers, and are cached and shared: a credential in one
#   leaks to everyone who sees those (OWASP API2:2023 Broken
#   Authentication). Send credentials in a header (`Authorization`) or in
#   the request body instead.
#
#   A parameter is a credential when the last word of its name (words split
#   at `_`, `-` and case changes) is `password`, `passwd`, `passphrase`,
#   `secret`, `token`, `jwt`, `apikey` or `credentials`, when its last two
#   words are `api key`, `secret key` or `private key`, or when it is a
#   session id (`sessionid`, `jsessionid`, `phpsessid`). These are not:
#   names where the word only qualifies another (`secret_name`,
#   `token_type_hint`, `api_key_id`), pagination cursors (`page_token`,
#   `nextPageToken`, `continuation_token`, `sync_token`, `batch_token`),
#   idempotency keys (`idempotency_token`, and a `ClientToken` described as
#   ensuring the idempotency of the request, as Amazon's APIs have it),
#   tokens of a blockchain (`erc20_token`), parameters whose
#   schema is not a string (a boolean `hide_secret`), and a path parameter
#   that identifies an item of the collection before it (`/tokens/{token}`,
#   `/shipping_rates/{shipping_rate_token}`).
#   Every parameter is checked once; the rule reports on its `name`.
#
#   ```yaml
#   parameters:
#     - name: api_key        # bad: the key ends up in access logs
#       in: query
#     - name: Authorization  # good
#       in: header
#   ```
# custom:
#   category: Parameters
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:owasp-no-credentials-in-url"]
#   howToFix: |
#     Move the credential to a header: describe it as a security scheme
#     (`type: http` with `scheme: bearer`, or `type: apiKey` with
#     `in: header`) and remove the parameter. One-time secrets sent by a
#     client belong in the request body of a POST.
package specgate.rules["no-credentials-in-url"]

import data.specgate.lib.naming
import data.specgate.lib.security
import data.specgate.lib.util

violations contains util.violation(array.concat(p.source, ["name"]), msg) if {
	some p in specgate.matching(input.parameters, ["name"], _hint)
	p["in"] in {"query", "path"}
	_credential(p.name)
	_string_valued(p)
	not _idempotency_key(p)
	not _only_resource_ids(p)
	msg := sprintf("%s parameter %q sends a credential in the URL", [p["in"], p.name])
}

# _only_resource_ids holds for a path parameter that, in every operation
# using it, identifies an item of the collection before it.
_only_resource_ids(p) if {
	p["in"] == "path"
	uses := object.get(_path_parameter_users, [p.source], [])
	count(uses) > 0
	every op in uses {
		_names_resource(op, p)
	}
}

# _hint matches every name that _credential may accept (and many more):
# the few parameters so named are found in one call (specgate.matching),
# not tested one by one.
_hint := `(?i)pass|secret|token|jwt|key|cred|sess`

# _path_parameter_users maps the source of each path parameter whose name
# matches _hint to the operations that take it, in order: built once, in
# one pass (specgate.group), over the operations with a parameter so named
# (a parameter taken from a path item or a $ref keeps its name).
_path_parameter_users := specgate.group([[q.source, op] |
	some op in specgate.matching(input.operations, ["parameters", null, "name"], _hint)
	some q in op.parameters
	q["in"] == "path"
])

_credential(name) if {
	words := [lower(w) | some w in naming.words(name)]
	_credential_words(words)
}

_credential_words(words) if {
	words[count(words) - 1] in {"password", "passwd", "passphrase", "secret", "token", "jwt", "apikey", "credentials", "sessionid", "jsessionid", "phpsessid"}
	not _cursor(words)
}

_credential_words(words) if {
	n := count(words)
	n > 1
	words[n - 1] == "key"
	words[n - 2] in {"api", "secret", "private"}
}

# _cursor holds for pagination tokens: page_token, nextPageToken, …
_cursor(words) if {
	count(words) > 1
	words[count(words) - 2] in {"page", "next", "prev", "previous", "continuation", "pagination", "cursor", "sync", "delta", "resume", "start", "end", "skip", "batch", "idempotency", "erc20", "erc721", "erc1155"}
}

# _idempotency_key(p) holds for a token that makes a request idempotent
# by its description: Amazon's ClientToken, "a unique, case-sensitive
# identifier that you provide to ensure the idempotency of the request".
_idempotency_key(p) if regex.match(`(?i)idempoten`, object.get(p.node, "description", ""))

_string_valued(p) if p.schema == null

_string_valued(p) if not p.schema.type

_string_valued(p) if security.has_type(p.schema, "string")

# _names_resource holds for a path parameter that identifies an item of
# the collection just before it: /tokens/{token},
# /shipping_rates/{shipping_rate_token}. Its name, with or without its last
# word, is the collection's name without its plural ending.
_names_resource(op, p) if {
	p["in"] == "path"
	segments := naming.segments(op.path)
	some i, seg in segments
	seg == sprintf("{%s}", [p.name])
	i > 0
	collection := _joined(segments[i - 1])
	words := [lower(w) | some w in naming.words(p.name)]
	some n in {count(words), count(words) - 1}
	n > 0
	item := concat("_", array.slice(words, 0, n))
	collection in {concat("", [item, "s"]), concat("", [item, "es"])}
}

_joined(name) := concat("_", [lower(w) | some w in naming.words(name)])
