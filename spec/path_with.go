package spec

import "strconv"

// With returns a new path: p followed by segs. The receiver is never
// aliased, so paths extended from one parent stay independent.
func (p Path) With(segs ...any) Path { return p.with(segs...) }

// ObjectFields returns the fields of an object node; none for a nil node
// or a node of any other kind.
func (n *Node) ObjectFields() []Field {
	if n == nil || n.Kind != Object {
		return nil
	}
	return n.Fields
}

// At returns the node that path names below n without following $refs:
// at each segment, the field of an object (an int segment is its key
// spelled in digits) or the item of an array (a string segment that
// spells its index names it too, as JSON pointers do). It returns nil when
// a segment names nothing.
func (n *Node) At(path Path) *Node {
	for _, seg := range path {
		if n == nil {
			return nil
		}
		switch n.Kind {
		case Object:
			key, ok := seg.(string)
			if i, isInt := seg.(int); isInt {
				key, ok = strconv.Itoa(i), true
			}
			if !ok {
				return nil
			}
			n = n.Get(key)
		case Array:
			i, ok := seg.(int)
			if s, isStr := seg.(string); isStr {
				var err error
				i, err = strconv.Atoi(s)
				ok = err == nil
			}
			if !ok || i < 0 || i >= len(n.Items) {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
	}
	return n
}

// AnyField reports whether an object of any of the document's files, at
// any depth, has a field that match accepts; it stops at the first.
func (d *Document) AnyField(match func(Field) bool) bool {
	var walk func(n *Node) bool
	walk = func(n *Node) bool {
		for _, f := range n.Fields {
			if match(f) || walk(f.Value) {
				return true
			}
		}
		for _, it := range n.Items {
			if walk(it) {
				return true
			}
		}
		return false
	}
	for _, f := range d.Files() {
		if walk(f.Root) {
			return true
		}
	}
	return false
}
