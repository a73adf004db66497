# METADATA
# title: The document declares its tags
# description: |
#   An AsyncAPI document declares a non-empty list of tags: `tags` at the
#   top level in AsyncAPI 2, `info.tags` in AsyncAPI 3. Documentation tools
#   group channels, operations and messages by tag, and the declared list
#   gives each group its description and its order; API catalogues use the
#   tags to classify the application.
#
#   The rule reports on the document root (2.x) or on `info` (3.x) when
#   the list is missing, and on the list when it is empty.
#
#   ```yaml
#   asyncapi: 3.0.0
#   info:                           # bad: no tags
#     title: Account service
#     version: 1.0.0
#   ---
#   asyncapi: 3.0.0
#   info:
#     title: Account service
#     version: 1.0.0
#     tags:                         # good
#       - name: users
#         description: Events about user accounts.
#   ```
# custom:
#   category: Documentation
#   maturity: Silver
#   severity: warn
#   family: documentation
#   formats: [asyncapi2, asyncapi3]
#   peers: ["spectral:asyncapi-tags", "spectral:asyncapi-3-tags", "vacuum:asyncapi-3-tags"]
#   howToFix: |
#     Add the tags your operations and messages use, each with a
#     description, under `tags` (AsyncAPI 2) or `info.tags` (AsyncAPI 3).
package specgate.rules["asyncapi-tags"]

import data.specgate.lib.asyncapi
import data.specgate.lib.util

violations contains util.violation(_holder, sprintf("the document declares no tags; list them under %s", [_where])) if {
	object.get(input.document, _path, null) == null
}

violations contains util.violation(_path, sprintf("%s is empty; list the tags the document uses", [_where])) if {
	count(object.get(input.document, _path, null)) == 0
}

_path := ["tags"] if asyncapi.v2

_path := ["info", "tags"] if asyncapi.v3

_holder := [] if asyncapi.v2

_holder := ["info"] if {
	asyncapi.v3
	is_object(input.document.info)
}

_holder := [] if {
	asyncapi.v3
	not is_object(object.get(input.document, "info", null))
}

_where := concat(".", _path)
