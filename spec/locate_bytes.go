package spec

import (
	"bytes"
	"errors"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// JSONLocator locates paths in the bytes of a JSON specification of one
// file, as Document.Locate does in the document loaded from them, without
// building the document's node tree: one pass over the bytes notes where
// each object and array opens and closes and where each line starts, and
// each path is then followed through the bytes, skipping whole values by
// that index. A large API's linter, which let its tree go while the rules
// ran, locates its findings this way for a fraction of a second load's
// time and memory.
//
// The bytes must be what a Loader parsed as JSON (File.JSON) into a
// document whose $refs all start with "#": a $ref to another file is
// taken as unresolved here. It is safe for concurrent use.
type JSONLocator struct {
	file *File
	data []byte
	root int // offset of the top-level value
	// The objects and arrays, numbered in the order they open: where each
	// opens, where it ends (just past its closing byte), and the number of
	// the first one that opens after it closes.
	open, end, after []uint32
	lines            []uint32 // offsets of the line feeds
	blocksOnce       sync.Once
	blockCol         []uint32 // characters since its line's start at each blockSize offset
	index            sync.Map // container number → *memberIndex, for large ones

	refMu sync.Mutex
	refs  map[uint32]*byteRef // object number → its $ref, when it is one
}

// blockSize is the spacing of the column checkpoints, which keep a column
// on a long line (a minified spec is one line) from costing the line.
const blockSize = 64

// errNotJSON is what NewJSONLocator says of bytes it cannot index.
var errNotJSON = errors.New("not a JSON value")

// NewJSONLocator indexes data, the bytes of the file name (as the loader
// names it in locations). It returns an error when data is not one JSON
// object or array, or is 4 GiB or more.
func NewJSONLocator(name string, data []byte) (*JSONLocator, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if int64(len(data)) >= 1<<32-1 {
		return nil, errors.New("JSON locator: file of 4 GiB or more")
	}
	j := &JSONLocator{file: &File{Name: name, Size: len(data), JSON: true}, data: data, refs: map[uint32]*byteRef{}}
	if err := j.scanStructure(); err != nil {
		return nil, err
	}
	return j, nil
}

// structural marks the bytes scanStructure stops at.
var structural = func() (t [256]bool) {
	for _, c := range []byte("\"{}[]\n") {
		t[c] = true
	}
	return t
}()

// scanStructure notes where every object and array opens and ends, and
// where every line feed is.
func (j *JSONLocator) scanStructure() error {
	d := j.data
	i := skipJSONSpace(d, 0)
	if i >= len(d) || (d[i] != '{' && d[i] != '[') {
		return errNotJSON
	}
	j.root = i
	for k := 0; k < i; k++ {
		if d[k] == '\n' {
			j.lines = append(j.lines, uint32(k))
		}
	}
	var stack []uint32
	for i < len(d) {
		for i < len(d) && !structural[d[i]] {
			i++
		}
		if i >= len(d) {
			break
		}
		switch c := d[i]; c {
		case '"':
			e := stringEnd(d, i)
			if e < 0 {
				return errNotJSON
			}
			i = e
			continue
		case '{', '[':
			stack = append(stack, uint32(len(j.open)))
			j.open = append(j.open, uint32(i))
			j.end = append(j.end, 0)
			j.after = append(j.after, 0)
		case '}', ']':
			if len(stack) == 0 {
				return errNotJSON
			}
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if (d[j.open[k]] == '{') != (c == '}') {
				return errNotJSON
			}
			j.end[k], j.after[k] = uint32(i+1), uint32(len(j.open))
			if len(stack) == 0 && skipJSONSpace(d, i+1) < len(d) {
				return errNotJSON
			}
		case '\n':
			j.lines = append(j.lines, uint32(i))
		}
		i++
	}
	if len(stack) != 0 {
		return errNotJSON
	}
	return nil
}

func skipJSONSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n') {
		i++
	}
	return i
}

// stringEnd is the offset just past the string whose opening quote is at
// d[i]; -1 when it does not end.
func stringEnd(d []byte, i int) int {
	from := i + 1
	for {
		k := bytes.IndexByte(d[from:], '"')
		if k < 0 {
			return -1
		}
		q := from + k
		escapes := 0
		for p := q - 1; p > i && d[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q + 1
		}
		from = q + 1
	}
}

// scalarEnd is the offset just past the scalar that starts at d[i].
func scalarEnd(d []byte, i int) int {
	if d[i] == '"' {
		if e := stringEnd(d, i); e >= 0 {
			return e
		}
		return len(d)
	}
	for i < len(d) {
		switch d[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// keyIs reports whether the string written between from and to decodes
// to key. An escape is longer than what it decodes to, so text of key's
// length is key only as it is, and shorter text never.
func keyIs(d []byte, from, to int, key string) bool {
	raw := d[from+1 : to-1]
	switch {
	case len(raw) == len(key):
		return string(raw) == key && bytes.IndexByte(raw, '\\') < 0
	case len(raw) < len(key) || bytes.IndexByte(raw, '\\') < 0:
		return false
	}
	return UnquoteJSON(d[from:to]) == key
}

// refScan is how Document.scan reaches a value: the key it is the value
// of, the kind of place it is in, and whether scan skips it (example data,
// extensions), in which case a "$ref" in it is only a key.
type refScan struct {
	key     string
	place   uint8
	skipped bool
}

// The places of refScan, as Document.scan tells them apart.
const (
	placePlain = iota
	placeExamplesMap
	placeExampleObject
	placeNamed
)

// field is how scan reaches the value of the field key of an object it
// reaches as s; array tells whether that value is an array.
func (s refScan) field(key string, array bool) refScan {
	if s.skipped {
		return s
	}
	names := nameMaps[s.key] && s.place != placeNamed
	if (!names && (literalKeys[key] || strings.HasPrefix(key, "x-"))) ||
		(s.place == placeExampleObject && key == "value") || (key == "examples" && array) {
		return refScan{skipped: true}
	}
	child := uint8(placePlain)
	switch {
	case s.place == placeExamplesMap:
		child = placeExampleObject
	case names:
		child = placeNamed
	case key == "examples":
		child = placeExamplesMap
	}
	return refScan{key: key, place: child}
}

// item is how scan reaches an item of an array it reaches as s.
func (s refScan) item() refScan {
	if s.skipped {
		return s
	}
	return refScan{}
}

// byteValue is a value of the file: where it starts, its container number
// when it is an object or array (else -1), and how scan reaches it.
type byteValue struct {
	off  int
	num  int32
	scan refScan
}

// member is a field of an object (key is the span of its quoted key) or
// an item of an array (key is zero).
type member struct {
	keyFrom, keyTo int
	val            int
	num            int32
}

// memberIndex is a large container's members, and an object's keys.
type memberIndex struct {
	members []member
	keys    map[string]int
}

// members reads the members of container num in order; visit returns
// false to stop.
func (j *JSONLocator) members(num int32, visit func(m member) bool) {
	d := j.data
	i := int(j.open[num]) + 1
	next := num + 1
	object := d[j.open[num]] == '{'
	for {
		i = skipJSONSpace(d, i)
		if i >= len(d) || d[i] == '}' || d[i] == ']' {
			return
		}
		var m member
		if object {
			if d[i] != '"' {
				return
			}
			m.keyFrom, m.keyTo = i, stringEnd(d, i)
			if m.keyTo < 0 {
				return
			}
			i = skipJSONSpace(d, m.keyTo)
			if i >= len(d) || d[i] != ':' {
				return
			}
			i = skipJSONSpace(d, i+1)
			if i >= len(d) {
				return
			}
		}
		m.val, m.num = i, -1
		if c := d[i]; c == '{' || c == '[' {
			if int(next) >= len(j.open) || int(j.open[next]) != i {
				return
			}
			m.num = next
			i, next = int(j.end[next]), int32(j.after[next])
		} else {
			i = scalarEnd(d, i)
		}
		if !visit(m) {
			return
		}
		i = skipJSONSpace(d, i)
		if i >= len(d) || d[i] != ',' {
			return
		}
		i++
	}
}

// indexedMembers is the size from which a container's members are found
// through an index (built on first use) rather than by a scan, as
// Document.field finds an object's.
const indexedMembers = 32

// indexOf builds the index of container num, once.
func (j *JSONLocator) indexOf(num int32) *memberIndex {
	if x, ok := j.index.Load(num); ok {
		return x.(*memberIndex)
	}
	x := &memberIndex{}
	j.members(num, func(m member) bool { x.members = append(x.members, m); return true })
	if j.data[j.open[num]] == '{' {
		x.keys = make(map[string]int, len(x.members))
		for i, m := range x.members {
			k := UnquoteJSON(j.data[m.keyFrom:m.keyTo])
			if _, dup := x.keys[k]; !dup { // the first of a repeated key, as Node.Field
				x.keys[k] = i
			}
		}
	}
	got, _ := j.index.LoadOrStore(num, x)
	return got.(*memberIndex)
}

// member finds the member of container num that match accepts, given
// its position, by a scan of the members; indexed finds it in the
// container's index instead, which is built once a scan has gone past
// indexedMembers members.
func (j *JSONLocator) member(num int32, match func(i int, m member) bool, indexed func(x *memberIndex) (member, bool)) (member, bool) {
	if x, ok := j.index.Load(num); ok {
		return indexed(x.(*memberIndex))
	}
	var found member
	ok, n := false, 0
	j.members(num, func(m member) bool {
		if match(n, m) {
			found, ok = m, true
			return false
		}
		n++
		return n < indexedMembers
	})
	if ok || n < indexedMembers {
		return found, ok
	}
	return indexed(j.indexOf(num))
}

// valueEnd is the offset just past the value v.
func (j *JSONLocator) valueEnd(v byteValue) int {
	if v.num >= 0 {
		return int(j.end[v.num])
	}
	return scalarEnd(j.data, v.off)
}

// step is Document.step in the bytes: the field of an object named by a
// path segment (with its quoted key's span) or the item of an array.
func (j *JSONLocator) step(v byteValue, seg any) (next byteValue, keyFrom, keyTo int, ok bool) {
	if v.num < 0 {
		return byteValue{}, 0, 0, false
	}
	var found member
	if j.data[v.off] == '{' {
		key, isStr := seg.(string)
		if !isStr {
			i, isInt := seg.(int)
			if !isInt {
				return byteValue{}, 0, 0, false
			}
			key = strconv.Itoa(i)
		}
		found, ok = j.member(v.num, func(_ int, m member) bool { return keyIs(j.data, m.keyFrom, m.keyTo, key) },
			func(x *memberIndex) (member, bool) {
				i, in := x.keys[key]
				if !in {
					return member{}, false
				}
				return x.members[i], true
			})
		if !ok {
			return byteValue{}, 0, 0, false
		}
		next = byteValue{off: found.val, num: found.num, scan: v.scan.field(key, j.data[found.val] == '[')}
		return next, found.keyFrom, found.keyTo, true
	}
	i, ok := indexSegment(seg)
	if !ok || i < 0 {
		return byteValue{}, 0, 0, false
	}
	found, ok = j.member(v.num, func(n int, _ member) bool { return n == i },
		func(x *memberIndex) (member, bool) {
			if i >= len(x.members) {
				return member{}, false
			}
			return x.members[i], true
		})
	if !ok {
		return byteValue{}, 0, 0, false
	}
	return byteValue{off: found.val, num: found.num, scan: v.scan.item()}, 0, 0, true
}

// byteRef is a $ref of the file and its resolution, as Ref.
type byteRef struct {
	value  string
	state  uint8 // 0 pending, 1 resolving, 2 done
	ok     bool
	target byteValue
	ptr    string // JSON pointer of target
}

// refOf is the $ref that the object v is, when scan registers it (a
// "$ref" of a string, outside example data); nil otherwise. The caller
// holds refMu.
func (j *JSONLocator) refOf(v byteValue) *byteRef {
	if v.num < 0 || v.scan.skipped || j.data[v.off] != '{' {
		return nil
	}
	num := uint32(v.num)
	if r, seen := j.refs[num]; seen {
		return r
	}
	var r *byteRef
	if at, _, _, ok := j.step(byteValue{off: v.off, num: v.num}, "$ref"); ok && j.data[at.off] == '"' {
		r = &byteRef{value: UnquoteJSON(j.data[at.off:scalarEnd(j.data, at.off)])}
	}
	j.refs[num] = r
	return r
}

// resolve is Document.resolve for a $ref within the file. The caller
// holds refMu.
func (j *JSONLocator) resolve(r *byteRef) {
	if r.state != 0 {
		return
	}
	r.state = 1
	defer func() { r.state = 2 }()
	loc, frag, _ := strings.Cut(r.value, "#")
	if loc != "" {
		return // another file: not read here
	}
	frag, err := url.PathUnescape(frag)
	if err != nil || (frag != "" && !strings.HasPrefix(frag, "/")) {
		return
	}
	cur := j.rootValue()
	segs := splitPointer(frag)
	ptr := make([]string, 0, len(segs))
	for _, seg := range segs {
		next, _, _, ok := j.step(cur, seg)
		// A pointer may pass through another reference.
		for hops := 0; !ok && hops < 64; hops++ {
			inner := j.refOf(cur)
			if inner == nil {
				break
			}
			j.resolve(inner)
			if !inner.ok {
				break
			}
			cur, ptr = inner.target, splitPointer(inner.ptr)
			next, _, _, ok = j.step(cur, seg)
		}
		if !ok {
			return
		}
		ptr = append(ptr, seg)
		cur = next
	}
	r.ok, r.target, r.ptr = true, cur, joinPointer(ptr)
}

// resolved is the target of the $ref that v is, resolved on first use;
// false when v is no $ref or its $ref does not resolve.
func (j *JSONLocator) resolved(v byteValue) (byteValue, string, bool) {
	j.refMu.Lock()
	defer j.refMu.Unlock()
	r := j.refOf(v)
	if r == nil {
		return byteValue{}, "", false
	}
	j.resolve(r)
	return r.target, r.ptr, r.ok
}

func (j *JSONLocator) rootValue() byteValue {
	return byteValue{off: j.root, num: 0}
}

// Locate is Document.Locate(path, nil) on the document loaded from the
// bytes, but for the File of the Location: its name, size and kind, with
// no node tree (Root is nil).
func (j *JSONLocator) Locate(path []any) Location {
	cur := j.rootValue()
	ptr := make([]string, 0, len(path))
	loc := Location{File: j.file, Exact: true}
	// The located span in offsets: from, and to or the end of endOf.
	from, to := j.root, j.root
	var endOf byteValue
	toEnd := false
	lastFrom, lastTo := 0, 0 // the last key stepped through; lastTo is 0 after an item
	var located []string
	for i, seg := range path {
		next, kf, kt, ok := j.step(cur, seg)
		for hops := 0; !ok && hops < 64; hops++ {
			target, tptr, isRef := j.resolved(cur)
			if !isRef {
				break
			}
			cur, ptr = target, splitPointer(tptr)
			next, kf, kt, ok = j.step(cur, seg)
		}
		if !ok {
			// The nearest ancestor, from its key, as Locate.
			loc.Exact = false
			if lastTo > 0 {
				from, to, toEnd = lastFrom, lastTo, false
			}
			break
		}
		lastFrom, lastTo = kf, kt
		ptr = append(ptr, segString(seg))
		cur = next
		located = ptr
		switch last := i == len(path)-1; {
		case seg == "$ref" && last && j.data[cur.off] == '"':
			from, endOf, toEnd = cur.off, cur, true
		case kt > 0 && last:
			from, to, toEnd = kf, kt, false
			if cur.num < 0 {
				endOf, toEnd = cur, true
			}
		default:
			from, endOf, toEnd = cur.off, cur, true
		}
	}
	if toEnd {
		to = j.valueEnd(endOf)
	}
	loc.Range = Range{Start: j.pos(from), End: j.pos(to)}
	loc.Pointer = joinPointer(located)
	return loc
}

// pos is the position of offset off, as the JSON parser counts it: lines
// end at line feeds, columns count characters.
func (j *JSONLocator) pos(off int) Pos {
	line := sort.Search(len(j.lines), func(i int) bool { return int(j.lines[i]) >= off })
	start := 0
	if line > 0 {
		start = int(j.lines[line-1]) + 1
	}
	col := 0
	if off-start > blockSize {
		j.blocksOnce.Do(j.countBlocks)
		b := off / blockSize
		col, start = int(j.blockCol[b]), b*blockSize
	}
	col += characters(j.data[start:off])
	return Pos{Line: int32(line + 1), Col: int32(col + 1)}
}

// countBlocks notes, at every blockSize offset, the characters from its
// line's start.
func (j *JSONLocator) countBlocks() {
	d := j.data
	j.blockCol = make([]uint32, len(d)/blockSize+1)
	n := 0
	for b := range j.blockCol {
		j.blockCol[b] = uint32(n)
		chunk := d[b*blockSize : min((b+1)*blockSize, len(d))]
		if nl := bytes.LastIndexByte(chunk, '\n'); nl >= 0 {
			n = characters(chunk[nl+1:])
		} else {
			n += characters(chunk)
		}
	}
}

// characters counts the characters of UTF-8 text: its bytes but those
// that continue a character.
func characters(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}
