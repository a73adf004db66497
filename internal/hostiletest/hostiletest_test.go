package hostiletest

import (
	"strings"
	"testing"
)

// MergeBomb's lines stand where its comment says: the first key on line
// 5, the first merge on line n+6, n merges in all.
func TestMergeBomb(t *testing.T) {
	const n = 3
	lines := strings.Split(strings.TrimSuffix(string(MergeBomb(n)), "\n"), "\n")
	if len(lines) != 4+n+1+n || lines[5-1] != "  k0: 0" || lines[n+6-1] != "  - <<: *a" || lines[n+5-1] != "x-copies:" {
		t.Errorf("MergeBomb(3):\n%s", strings.Join(lines, "\n"))
	}
}
