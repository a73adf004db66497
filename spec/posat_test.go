package spec

import "testing"

func TestPosAt(t *testing.T) {
	text := []byte("ab\né—x\n\nlast")
	for _, tc := range []struct {
		offset int
		want   Pos
	}{
		{0, Pos{1, 1}}, {2, Pos{1, 3}}, {3, Pos{2, 1}},
		{5, Pos{2, 2}},  // after é (2 bytes)
		{8, Pos{2, 3}},  // after — (3 bytes)
		{10, Pos{3, 1}}, // the empty line
		{11, Pos{4, 1}}, {15, Pos{4, 5}},
		{-4, Pos{1, 1}}, {99, Pos{4, 5}},
	} {
		if got := PosAt(text, tc.offset); got != tc.want {
			t.Errorf("PosAt(%d) = %v, want %v", tc.offset, got, tc.want)
		}
	}
}
