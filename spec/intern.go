package spec

// stringTable keeps one copy of each string a file repeats (keys, types,
// $refs, descriptions), so that the tree holds each once. A file whose
// strings are mostly distinct (a huge enum, generated data) would only
// grow the table, so it stops taking new strings when its first
// sampleInterned additions met fewer than half as many repeats, or once
// it holds maxInterned strings; strings already in it are still shared.
type stringTable struct {
	m          map[string]string
	hits, adds int
	closed     bool
}

const (
	// maxInterned bounds the strings a parse interns.
	maxInterned = 1 << 20
	// sampleInterned is how many additions the table makes before it
	// judges whether the file repeats its strings.
	sampleInterned = 1 << 14
)

func newStringTable() *stringTable { return &stringTable{m: make(map[string]string, 1024)} }

// bytes is the string of b: the table's copy when it holds one (nothing is
// allocated), else a new string, which the table may keep.
func (t *stringTable) bytes(b []byte) string {
	if t == nil {
		return string(b)
	}
	if s, ok := t.m[string(b)]; ok {
		t.hits++
		return s
	}
	s := string(b)
	t.add(s)
	return s
}

// string is s, or the table's equal copy of it.
func (t *stringTable) string(s string) string {
	if t == nil {
		return s
	}
	if c, ok := t.m[s]; ok {
		t.hits++
		return c
	}
	t.add(s)
	return s
}

func (t *stringTable) add(s string) {
	if t.closed {
		return
	}
	t.m[s] = s
	t.adds++
	if t.adds == sampleInterned && 2*t.hits < t.adds || len(t.m) >= maxInterned {
		t.closed = true
	}
}
