# METADATA
# description: |
#   Helpers of the integrity rules: the references of a document that do
#   not resolve.
package specgate.lib.integrity

# unresolved_refs are the items of input.refs that do not resolve (target
# null), in order. An index of the input (input.index, private:
# docs/input.md) built in Go for no-unresolved-ref: a scan of every
# reference costs Microsoft Graph tens of milliseconds for none.
unresolved_refs := input.index.unresolvedRefs
