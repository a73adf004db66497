package validate

import (
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestFirstVisit: a node is checked once as each shape, whichever order
// the shapes come in.
func TestFirstVisit(t *testing.T) {
	w := newWalker(&spec.Document{})
	a, b := &spec.Node{Kind: spec.Object}, &spec.Node{Kind: spec.Object}
	s1, s2 := ref(str), ref(str)
	steps := []struct {
		n    *spec.Node
		s    shape
		want bool
	}{
		{a, s1, true}, {a, s1, false}, {a, s2, true}, {a, s2, false}, {a, s1, false},
		{b, s2, true}, {b, s1, true}, {b, s1, false}, {b, s2, false},
	}
	for i, st := range steps {
		if got := w.firstVisit(st.n, st.s); got != st.want {
			t.Errorf("step %d: firstVisit = %v, want %v", i, got, st.want)
		}
	}
}
