package policy

import (
	"context"

	"github.com/specgate/specgate/policy/builtins"
	"github.com/specgate/specgate/spec"
)

// The input names operations and finds prose as the builtins do, with the
// builtins' own definitions, so that the two cannot drift apart. When the
// input builder becomes a package of its own, it imports these from
// package builtins directly.
var proseKeys = builtins.ProseKeys

func nameOperation(method, path, webhook, callback string) string {
	return builtins.NameOperation(method, path, webhook, callback)
}

// WithDocument attaches the document being evaluated to ctx, for the
// builtins that read its source (specgate.object_keys,
// specgate.prose_matching).
func WithDocument(ctx context.Context, doc *spec.Document) context.Context {
	return builtins.WithDocument(ctx, doc)
}
