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
	// recent holds strings of m by a cheap hash of their length and ends,
	// one per slot: the strings a file repeats most (its keys, "string",
	// the $refs of its common schemas) are found there without a lookup
	// in m, whose table outgrows the processor's caches on a large file.
	recent [1 << recentBits]string
}

// recentBits sizes stringTable.recent: 4,096 strings, 64 KiB of headers.
const recentBits = 12

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
	slot := recentSlot(b)
	if s := t.recent[slot]; len(b) > 0 && s == string(b) {
		t.hits++
		return s
	}
	if s, ok := t.m[string(b)]; ok {
		t.hits++
		t.recent[slot] = s
		return s
	}
	s := string(b)
	t.add(s, slot)
	return s
}

// string is s, or the table's equal copy of it.
func (t *stringTable) string(s string) string {
	if t == nil {
		return s
	}
	slot := recentSlot(s)
	if c := t.recent[slot]; len(s) > 0 && c == s {
		t.hits++
		return c
	}
	if c, ok := t.m[s]; ok {
		t.hits++
		t.recent[slot] = c
		return c
	}
	t.add(s, slot)
	return s
}

// recentSlot is the slot of stringTable.recent for s: a hash of its
// length, its first eight bytes and its last eight. Strings that share
// them share a slot, and only the last one met is found there.
func recentSlot[T string | []byte](s T) uint32 {
	n := len(s)
	h := uint64(n)
	if n >= 8 {
		h ^= load64(s, 0) ^ load64(s, n-8)<<1
	} else {
		for i := 0; i < n; i++ {
			h = h<<8 | uint64(s[i])
		}
	}
	h *= 0x9e3779b97f4a7c15
	return uint32(h >> (64 - recentBits))
}

// load64 reads the eight bytes of s from i, little-endian.
func load64[T string | []byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func (t *stringTable) add(s string, slot uint32) {
	if t.closed {
		return
	}
	t.m[s] = s
	t.recent[slot] = s
	t.adds++
	if t.adds == sampleInterned && 2*t.hits < t.adds || len(t.m) >= maxInterned {
		t.closed = true
	}
}
