# METADATA
# description: |
#   Helpers of the integrity rules: the references of a document that do
#   not resolve.
package specgate.lib.integrity

# unresolved_refs are the items of input.refs that do not resolve (target
# null), in order. An index of the input (input.index, private:
# docs/input.md) built in Go for no-unresolved-ref, which would otherwise
# test every reference of a large API, nearly always to find none.
unresolved_refs := input.index.unresolvedRefs
