package input

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// path converts a source path; indices stay numbers. A path converted
// lately is that term again (a Swagger 2.0 response and each media type
// it produces share theirs), and one that is the start of a path
// converted lately is a slice of it, sharing its segments: an item's
// members are converted just before its own source, which they extend
// (a media type's schema, the media type, its response). OPA never
// changes an array in place (its array.slice shares the same way), so
// sharing changes no value.
func (c *converter) path(p spec.Path) *ast.Term {
	segs := c.segs[:0]
	for _, s := range p {
		switch s := s.(type) {
		case int:
			segs = append(segs, c.index(s))
		case string:
			segs = append(segs, c.key(s))
		}
	}
	c.segs = segs
	var t *ast.Term
	for i := range len(c.recent) {
		if !sharePaths {
			break
		}
		r := c.recent[(c.next-1-i+len(c.recent))%len(c.recent)]
		if r == nil {
			break
		}
		arr := r.Value.(*ast.Array)
		if !startsWith(arr, segs) {
			continue
		}
		if arr.Len() == len(segs) {
			return r
		}
		t = ast.NewTerm(arr.Slice(0, len(segs)))
		break
	}
	if t == nil {
		t = ast.ArrayTerm(slices.Clone(segs)...)
	}
	c.recent[c.next%len(c.recent)] = t
	c.next++
	return t
}

// sharePaths is false only in the test that builds inputs both ways.
var sharePaths = true

// startsWith tells whether arr starts with the segments of a path, whose
// keys are interned as arr's are.
func startsWith(arr *ast.Array, segs []*ast.Term) bool {
	if arr.Len() < len(segs) {
		return false
	}
	for i, s := range segs {
		if e := arr.Elem(i); e != s {
			// Keys are one term each; indices above the interned ones
			// are equal numbers.
			n, ok := s.Value.(ast.Number)
			if m, ok2 := e.Value.(ast.Number); !ok || !ok2 || n != m {
				return false
			}
		}
	}
	return true
}

// placeTable maps paths to values, keyed by a hash of the path's
// segments: the labels of a large API look up a parameter for tens of
// thousands of sources, and a string key built for each was most of the
// garbage the labels made.
type placeTable[V any] map[uint64][]placed[V]

type placed[V any] struct {
	path  spec.Path
	value V
}

// put sets p's value; a path put again keeps its last value.
func (t placeTable[V]) put(p spec.Path, v V) {
	h := pathHash(p)
	for i, e := range t[h] {
		if samePath(e.path, p) {
			t[h][i].value = v
			return
		}
	}
	t[h] = append(t[h], placed[V]{p, v})
}

// get returns p's value, or V's zero value.
func (t placeTable[V]) get(p spec.Path) V {
	for _, e := range t[pathHash(p)] {
		if samePath(e.path, p) {
			return e.value
		}
	}
	var zero V
	return zero
}

// pathHash hashes a path's segments, keys and indices told apart.
func pathHash(p spec.Path) uint64 {
	var h maphash.Hash
	h.SetSeed(shapeSeed)
	var buf [8]byte
	for _, seg := range p {
		switch s := seg.(type) {
		case string:
			binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
			h.WriteByte('s')
			h.Write(buf[:])
			h.WriteString(s)
		case int:
			binary.LittleEndian.PutUint64(buf[:], uint64(s))
			h.WriteByte('i')
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}

// samePath tells whether two paths have the same segments.
func samePath(a, b spec.Path) bool {
	return slices.Equal(a, b)
}

// pathKey is a map key for a path.
func pathKey(p spec.Path) string {
	var b strings.Builder
	for _, seg := range p {
		switch s := seg.(type) {
		case string:
			b.WriteString(strconv.Itoa(len(s)))
			b.WriteByte(':')
			b.WriteString(s)
		case int:
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(s))
			b.WriteByte(';')
		}
	}
	return b.String()
}
