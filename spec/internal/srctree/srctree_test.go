package srctree

import (
	"testing"

	"github.com/specgate/specgate/spec"
)

// Positions count characters, a tab as one, from byte and rune offsets
// alike.
func TestPositions(t *testing.T) {
	data := []byte("a\tb\r\nçé x\n\nz")
	lines, runes := NewLines(data), NewRunes(data)
	tests := []struct {
		byteOff, runeOff int
		want             spec.Pos
	}{
		{0, 0, spec.Pos{Line: 1, Col: 1}},
		{2, 2, spec.Pos{Line: 1, Col: 3}},   // after the tab
		{5, 5, spec.Pos{Line: 2, Col: 1}},   // after \r\n
		{9, 7, spec.Pos{Line: 2, Col: 3}},   // after ç and é (two bytes each)
		{10, 8, spec.Pos{Line: 2, Col: 4}},  // x
		{12, 10, spec.Pos{Line: 3, Col: 1}}, // the empty line
		{13, 11, spec.Pos{Line: 4, Col: 1}}, // z
		{99, 99, spec.Pos{Line: 4, Col: 2}}, // past the end: clamped
	}
	for _, tt := range tests {
		if got := lines.Pos(tt.byteOff); got != tt.want {
			t.Errorf("byte %d: %+v, want %+v", tt.byteOff, got, tt.want)
		}
		if got := runes.Pos(tt.runeOff); got != tt.want {
			t.Errorf("rune %d: %+v, want %+v", tt.runeOff, got, tt.want)
		}
	}
	if got := lines.ByteOffset(7); got != 9 {
		t.Errorf("ByteOffset(7) = %d, want 9", got)
	}
}

func TestAt(t *testing.T) {
	root := Object(spec.Range{Start: spec.Pos{Line: 1, Col: 1}})
	msgs := Child(root, "messages", spec.Range{Start: spec.Pos{Line: 2, Col: 1}})
	book := Object(spec.Range{Start: spec.Pos{Line: 3, Col: 1}})
	Set(msgs, "Book", spec.Range{Start: spec.Pos{Line: 3, Col: 9}}, book)
	list := Array(spec.Range{})
	Append(list, String("x", spec.Range{Start: spec.Pos{Line: 4, Col: 2}}))
	Put(book, "tags", list)
	for _, tt := range []struct {
		path spec.Path
		want spec.Pos
	}{
		{spec.Path{"messages", "Book"}, spec.Pos{Line: 3, Col: 9}},
		{spec.Path{"messages", "Book", "tags", 0}, spec.Pos{Line: 4, Col: 2}},
		{spec.Path{"messages", "Gone"}, spec.Pos{Line: 2, Col: 1}}, // the deepest node reached
	} {
		if got := At(root, tt.path).Start; got != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.path, got, tt.want)
		}
	}
}
