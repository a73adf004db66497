package spec

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
