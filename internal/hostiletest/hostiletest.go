// Package hostiletest builds hostile specifications, whose text is small
// but whose loading would be costly without the loader's bounds, for the
// tests of the loader, the CLI and the lint server. Only tests import it.
package hostiletest

import (
	"fmt"
	"strings"
)

// MergeBomb is an OpenAPI 3.0 spec of about 5n lines whose x-copies merge
// (<<) a mapping of n keys n times: n×n fields once loaded. The mapping's
// keys start on line 5 and the merges on line n+6.
func MergeBomb(n int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Generated, version: '1'}\npaths: {}\nx-base: &a\n")
	for i := range n {
		fmt.Fprintf(&b, "  k%d: %d\n", i, i)
	}
	b.WriteString("x-copies:\n")
	for range n {
		b.WriteString("  - <<: *a\n")
	}
	return []byte(b.String())
}
