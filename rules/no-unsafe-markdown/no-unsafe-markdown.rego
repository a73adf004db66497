# METADATA
# title: Descriptions contain no executable HTML
# description: |
#   No description or summary contains HTML that runs code when
#   documentation renders it: a `<script>` tag, an event handler attribute
#   (`<img src=x onerror=…>`), or a `javascript:` URL in a link
#   (`[docs](javascript:…)`, `href="javascript:…"`). Documentation portals
#   render Markdown with HTML; such text runs in the browser of every
#   reader, with their session on the portal: a stored cross-site
#   scripting hole, often planted through a description copied from
#   elsewhere.
#
#   The descriptions (and summaries where they exist) of `info`,
#   operations, path items, parameters, request bodies, responses, response
#   headers, schemas (named and inline), tags, servers and security schemes
#   are checked; titles are not, since documentation shows them as plain
#   text. `eval(` on its own is not reported: it runs only inside a script
#   or an event handler, which are. The rule reports on the text, once per
#   kind of problem.
#
#   ```yaml
#   description: |
#     Returns the pet. <script>track()</script>          # bad
#     Returns the pet. See [the guide](https://docs.acme.dev/pets).  # good
#   ```
# custom:
#   category: Documentation
#   maturity: Baseline
#   severity: warn
#   family: documentation
#   formats: [oas2, oas3]
#   peers: ["redocly:no-unsafe-markdown", "spectral:no-script-tags-in-markdown", "spectral:no-eval-in-markdown", "vacuum:no-script-tags-in-markdown", "vacuum:no-eval-in-markdown"]
#   howToFix: |
#     Remove the script, the event handler or the `javascript:` link. Link
#     to an `https` page instead, and leave interactive content to the
#     documentation site's own code.
package specgate.rules["no-unsafe-markdown"]

import data.specgate.lib.naming
import data.specgate.lib.style
import data.specgate.lib.util

violations contains util.violation(path, sprintf("%s contains %s; documentation that renders it runs it in readers' browsers", [what, problem])) if {
	some [path, what, text] in _texts
	some [pattern, problem] in _unsafe
	regex.match(pattern, text)
}

_unsafe := [
	[`(?i)<script\b`, "a <script> tag"],
	[`(?i)<[a-z][^>]*\son[a-z]+\s*=`, "an HTML event handler attribute"],
	[`(?i)(\]\(\s*|\b(href|src|action)\s*=\s*["']?\s*)javascript:`, "a javascript: URL"],
]

# _suspicious is a cheap test that keeps the regular expressions for the
# few texts that could match them: every pattern needs a "<", or a ":"
# after the letters "javascript" in some case.
_suspicious(text) if contains(text, "<")

_suspicious(text) if {
	contains(text, ":")
	regex.match(`(?i)javascript:`, text)
}

# _texts are [path, what, text] for every checked text that is unsafe
# (their names, which can cost an index of shared responses, are built for
# those only).
_texts contains [["info", key], sprintf("info.%s", [key]), text] if {
	some key in ["summary", "description"]
	text := input.document.info[key]
	_checked(text)
}

_texts contains [array.concat(op.source, [key]), sprintf("the %s of %s", [key, naming.operation(op)]), op[key]] if {
	some op in style.operations
	some key in ["summary", "description"]
	_checked(op[key])
}

_texts contains [array.concat(item.source, [key]), sprintf("the %s of path %s", [key, item.path]), item.node[key]] if {
	some item in input.pathItems
	some key in ["summary", "description"]
	_checked(item.node[key])
}

_texts contains [array.concat(p.source, ["description"]), sprintf("the description of %s parameter %q", [p["in"], p.name]), p.node.description] if {
	some p in input.parameters
	_checked(p.node.description)
}

_texts contains [array.concat(op.requestBody.source, ["description"]), sprintf("the description of %s", [style.request_body_name(op)]), op.requestBody.description] if {
	some op in style.operations
	op.requestBody != null
	_checked(op.requestBody.description)
}

_texts contains [array.concat(style.response_at(use.op, use.response), ["description"]), sprintf("the description of %s", [style.response_name(use.op, use.response)]), use.response.description] if {
	some use in style.response_uses
	_checked(use.response.description)
}

_texts contains [array.concat(style.header_at(item.response, item.header), ["description"]), sprintf("the description of response header %q", [item.header.name]), item.header.node.description] if {
	some item in style.response_headers
	_checked(item.header.node.description)
}

_texts contains [array.concat(s.source, ["description"]), sprintf("the description of %s", [_schema_name(s)]), s.node.description] if {
	some s in input.schemas
	_checked(s.node.description)
}

_texts contains [array.concat(t.source, ["description"]), sprintf("the description of tag %q", [t.name]), t.description] if {
	some t in input.tags
	_checked(t.description)
}

_texts contains [array.concat(s.source, ["description"]), sprintf("the description of server %s", [s.url]), s.description] if {
	some s in style.servers
	_checked(s.description)
}

_texts contains [array.concat(s.source, ["description"]), sprintf("the description of security scheme %s", [s.name]), s.node.description] if {
	some s in input.securitySchemes
	_checked(s.node.description)
}

_checked(text) if {
	is_string(text)
	_suspicious(text)
	some [pattern, _] in _unsafe
	regex.match(pattern, text)
}

_schema_name(s) := sprintf("schema %s", [s.name]) if s.name != ""

else := sprintf("a schema in %s", [owner]) if {
	owner := style.schema_owner(s.source)
	owner != ""
} else := "a schema"
