package policy

import (
	"context"

	"github.com/specgate/specgate/policy/builtins"
	"github.com/specgate/specgate/spec"
)

// WithDocument attaches the document being evaluated to ctx, for the
// builtins that read its source (specgate.object_keys,
// specgate.prose_matching).
func WithDocument(ctx context.Context, doc *spec.Document) context.Context {
	return builtins.WithDocument(ctx, doc)
}
