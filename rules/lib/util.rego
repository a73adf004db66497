# METADATA
# description: Helpers shared by the built-in rules.
package specgate.lib.util

# violation builds the object every rule returns: a path into the document
# and a message. Keeping it in one place lets the result format change once.
violation(path, message) := {"path": path, "message": message}

# unescape decodes one segment of a JSON pointer ("~1" is "/", "~0" is
# "~"), and escape encodes a key as one. Most segments hold neither
# character and are returned as they are: OPA's replace builds a
# strings.Replacer of a few KiB on every call, and references are
# followed segment by segment.
unescape(seg) := replace(replace(seg, "~1", "/"), "~0", "~") if contains(seg, "~")

else := seg

# ref_path(ref) is the path a local $ref names: "#/components/x~1y" is
# ["components", "x/y"]; undefined for a reference to another file.
ref_path(ref) := [unescape(seg) | some seg in array.slice(segs, 1, count(segs))] if {
	startswith(ref, "#/")
	segs := split(ref, "/")
}

escape(key) := replace(replace(key, "~", "~0"), "/", "~1") if _escaped(key)

else := key

_escaped(key) if contains(key, "~")

_escaped(key) if contains(key, "/")

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
