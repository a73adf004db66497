// Package srctree builds the node trees (spec.Node) of the formats whose
// readers live beside package spec: positions from byte or rune offsets
// (1-based lines, columns in characters, as spec.Pos counts them), and
// objects whose keys carry the range of the name they stand for.
package srctree

import (
	"sort"
	"unicode/utf8"

	"github.com/specgate/specgate/spec"
)

// Lines maps offsets of one text to positions.
type Lines struct {
	data   []byte
	starts []int // byte offset of each line's first byte
}

// NewLines indexes the lines of data. A line ends at "\n"; a "\r" before it
// belongs to the line.
func NewLines(data []byte) *Lines {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Lines{data: data, starts: starts}
}

// Pos is the position of a byte offset (clamped to the text).
func (l *Lines) Pos(offset int) spec.Pos {
	offset = max(0, min(offset, len(l.data)))
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
	col := utf8.RuneCount(l.data[l.starts[line]:offset]) + 1
	return spec.Pos{Line: int32(line + 1), Col: int32(col)}
}

// Range is the range of the bytes [start, end).
func (l *Lines) Range(start, end int) spec.Range {
	return spec.Range{Start: l.Pos(start), End: l.Pos(max(start, end))}
}

// ByteOffset is the byte offset of a rune offset.
func (l *Lines) ByteOffset(runes int) int {
	if runes <= 0 {
		return 0
	}
	n := 0
	for i := range string(l.data) {
		if n == runes {
			return i
		}
		n++
	}
	return len(l.data)
}

// Runes maps rune offsets of the text to positions, for parsers that count
// in runes (gqlparser).
type Runes struct {
	lines *Lines
	// byteAt[i] is the byte offset of rune i, for i up to the rune count.
	byteAt []int
}

// NewRunes indexes the runes of data.
func NewRunes(data []byte) *Runes {
	r := &Runes{lines: NewLines(data), byteAt: make([]int, 0, len(data)+1)}
	for i := range string(data) {
		r.byteAt = append(r.byteAt, i)
	}
	r.byteAt = append(r.byteAt, len(data))
	return r
}

// Pos is the position of a rune offset.
func (r *Runes) Pos(runes int) spec.Pos {
	runes = max(0, min(runes, len(r.byteAt)-1))
	return r.lines.Pos(r.byteAt[runes])
}

// Range is the range of the runes [start, end).
func (r *Runes) Range(start, end int) spec.Range {
	return spec.Range{Start: r.Pos(start), End: r.Pos(max(start, end))}
}

// Object makes an empty object spanning rng.
func Object(rng spec.Range) *spec.Node { return &spec.Node{Kind: spec.Object, Range: rng} }

// Array makes an empty array spanning rng.
func Array(rng spec.Range) *spec.Node { return &spec.Node{Kind: spec.Array, Range: rng} }

// String makes a string node.
func String(v string, rng spec.Range) *spec.Node {
	return &spec.Node{Kind: spec.String, Value: v, Range: rng}
}

// Number makes a number node from its literal.
func Number(v string, rng spec.Range) *spec.Node {
	return &spec.Node{Kind: spec.Number, Value: v, Range: rng}
}

// Bool makes a boolean node.
func Bool(v bool, rng spec.Range) *spec.Node {
	s := "false"
	if v {
		s = "true"
	}
	return &spec.Node{Kind: spec.Bool, Value: s, Range: rng}
}

// Set adds key to an object, its key standing at keyRange (where a path
// ending in the key points); a key set twice keeps its first value, as
// spec.Node.Field reads it.
func Set(obj *spec.Node, key string, keyRange spec.Range, v *spec.Node) {
	obj.Fields = append(obj.Fields, spec.Field{Key: key, KeyRange: keyRange, Value: v})
}

// Put adds key to an object with the value's own range as the key's.
func Put(obj *spec.Node, key string, v *spec.Node) { Set(obj, key, v.Range, v) }

// Child returns the object under key, adding an empty one spanning rng
// when there is none.
func Child(obj *spec.Node, key string, rng spec.Range) *spec.Node {
	if v := obj.Get(key); v != nil {
		return v
	}
	v := Object(rng)
	Set(obj, key, rng, v)
	return v
}

// Append adds an item to an array.
func Append(arr *spec.Node, v *spec.Node) { arr.Items = append(arr.Items, v) }

// At is the range a path names in a tree: the key of its last object
// field, or the item of its last index; the deepest node reached when the
// path goes further than the tree.
func At(root *spec.Node, path spec.Path) spec.Range {
	n := root
	r := spec.Range{Start: n.Range.Start, End: n.Range.Start}
	for _, seg := range path {
		switch s := seg.(type) {
		case string:
			f := n.Field(s)
			if f == nil {
				return r
			}
			r, n = f.KeyRange, f.Value
		case int:
			if s < 0 || s >= len(n.Items) {
				return r
			}
			n = n.Items[s]
			r = n.Range
		}
	}
	return r
}
