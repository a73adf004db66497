package spec

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Format is the kind of specification a document is.
type Format string

const (
	Swagger  Format = "swagger"  // OpenAPI 2.0
	OpenAPI  Format = "openapi"  // OpenAPI 3.x
	AsyncAPI Format = "asyncapi" // AsyncAPI 2.x and 3.x
	Arazzo   Format = "arazzo"   // Arazzo 1.0.x and 1.1.x
)

// File is one parsed file of a document: the entry file or a file a $ref
// names.
type File struct {
	Name string // as the user named it (a path, a URL, or "<stdin>")
	Root *Node
	Size int
	JSON bool
	key  string // absolute path or URL: the file's identity
}

// Document is a loaded specification: its entry file, the files its $refs
// reach, and the resolution of every $ref.
type Document struct {
	Root    *File
	Format  Format
	Version string // as written, e.g. "3.0.3"
	Major   int
	Minor   int

	// Refs lists every $ref in the order found, resolved or not.
	Refs []*Ref

	// Model is the format's own model of a document that a registered
	// Reader built (Protocol Buffers descriptors, a GraphQL schema, WSDL
	// definitions), for the packages of that format; nil otherwise.
	Model any

	files map[string]*File
	// refs holds the $refs of objects that another document numbered
	// first (see register); the others are found through Node.ref.
	refs   map[*Node]*Ref
	loader *Loader
	// views are built on first use under viewsMu, and may be dropped
	// (DropViews) and built again.
	views   atomic.Pointer[Views]
	viewsMu sync.Mutex
	// refRoot is the tree local $refs may read from (see Options.RefRoot).
	refRoot refRoot
	// keyIndex holds, for each large object that a path has stepped
	// through, the position of each key (see step).
	keyIndex sync.Map // *Node → map[string]int
}

// Files returns the entry file and every file reached through $refs, entry
// file first and the rest by name.
func (d *Document) Files() []*File {
	out := make([]*File, 0, len(d.files))
	for _, f := range d.files {
		if f != d.Root {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return append([]*File{d.Root}, out...)
}

// FormatTags are the names rule metadata uses for the document's format,
// from the most general to the most precise: "oas", "oas3", "oas3.1";
// "oas2"; "asyncapi", "asyncapi2"; "arazzo", "arazzo1".
func (d *Document) FormatTags() []string {
	switch d.Format {
	case Swagger:
		return []string{"oas", "oas2"}
	case OpenAPI:
		return []string{"oas", "oas3", fmt.Sprintf("oas3.%d", d.Minor)}
	case AsyncAPI:
		return []string{"asyncapi", fmt.Sprintf("asyncapi%d", d.Major)}
	case Arazzo:
		return []string{"arazzo", "arazzo1"}
	}
	return readerTags(d)
}

// String names the format and version, e.g. "OpenAPI 3.1.0".
func (d *Document) String() string {
	return FormatName(d.Format) + " " + d.Version
}

func (d *Document) errorAt(n *Node, format string, args ...any) *Error {
	e := &Error{File: d.Root.Name, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Pos = n.Range.Start
	}
	return e
}

// detect reads the format and version from the entry file's root.
func (d *Document) detect() error {
	root := d.Root.Root
	if root.Kind != Object {
		return d.errorAt(root, "not an API specification: the document is %s %s, expected an object with an openapi, swagger, asyncapi or arazzo field", article(root.Kind), root.Kind)
	}
	type family struct {
		key    string
		format Format
		ok     func(major, minor int) bool
		want   string
	}
	families := []family{
		{"openapi", OpenAPI, func(ma, mi int) bool { return ma == 3 && mi <= 2 }, "3.0.x, 3.1.x or 3.2.x"},
		{"swagger", Swagger, func(ma, mi int) bool { return ma == 2 && mi == 0 }, "2.0"},
		{"asyncapi", AsyncAPI, func(ma, mi int) bool { return ma == 2 || ma == 3 }, "2.x or 3.x"},
		{"arazzo", Arazzo, func(ma, mi int) bool { return ma == 1 && mi <= 1 }, "1.0.x or 1.1.x"},
	}
	for _, fam := range families {
		f := root.Field(fam.key)
		if f == nil {
			continue
		}
		v := f.Value
		if v.Kind != String && v.Kind != Number {
			return d.errorAt(v, "%s must be a version string such as %q, found %s %s", fam.key, exampleVersion(fam.format), article(v.Kind), v.Kind)
		}
		major, minor, ok := parseVersion(v.Value)
		if !ok || !fam.ok(major, minor) {
			return d.errorAt(v, "unsupported %s version %q: specgate reads %s %s", fam.key, v.Value, fam.key, fam.want)
		}
		d.Format, d.Version, d.Major, d.Minor = fam.format, v.Value, major, minor
		return nil
	}
	keys := make([]string, 0, 6)
	for i, f := range root.Fields {
		if i == 6 {
			keys = append(keys, "…")
			break
		}
		keys = append(keys, f.Key)
	}
	found := "no keys"
	if len(keys) > 0 {
		found = "top-level keys: " + strings.Join(keys, ", ")
	}
	return d.errorAt(root, "not an API specification: expected a top-level openapi, swagger, asyncapi or arazzo field (found %s)", found)
}

func exampleVersion(f Format) string {
	switch f {
	case Swagger:
		return "2.0"
	case AsyncAPI:
		return "3.0.0"
	case Arazzo:
		return "1.0.1"
	}
	return "3.1.0"
}

func article(k Kind) string {
	if k == Array || k == Object {
		return "an"
	}
	return "a"
}

// parseVersion reads "major.minor[.patch[-suffix]]".
func parseVersion(s string) (major, minor int, ok bool) {
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}

// Location is where a path into a document points.
type Location struct {
	File    *File
	Range   Range
	Pointer string // JSON pointer within File
	// Exact is false when the path could not be followed to its end; the
	// location is then that of the deepest node reached.
	Exact bool
}

// Locate resolves a path (object keys as strings, array indices as ints)
// from the entry file's root to a file and range, following $refs on the way
// so that a path through a reference lands where the referenced value is
// written. visit, when not nil, sees every node on the way (for inline
// ignores).
//
// A path ending in an object key points to the key (through its value when
// that is a scalar), except a $ref, which points to its value; a path
// ending in an index points to the whole item.
func (d *Document) Locate(path []any, visit func(*Node)) Location {
	return d.LocateIn(d.Root, path, visit)
}

// LocateIn is Locate from the root of one file of the document.
func (d *Document) LocateIn(start *File, path []any, visit func(*Node)) Location {
	file, cur := start, start.Root
	ptr := make([]string, 0, len(path))
	loc := Location{File: file, Range: rootRange(cur), Exact: true}
	var lastKey *Range
	var located []string
	if visit != nil {
		visit(cur)
	}
	for i, seg := range path {
		next, keyRange, ok := d.step(cur, seg)
		for hops := 0; !ok && hops < 64; hops++ {
			r := d.RefOf(cur)
			if r == nil || r.Target == nil {
				break
			}
			file, cur, ptr = r.TargetFile, r.Target, splitPointer(r.TargetPtr)
			if visit != nil {
				visit(cur)
			}
			next, keyRange, ok = d.step(cur, seg)
		}
		if !ok {
			// The path names something absent (a missing field): point at
			// its nearest ancestor from that ancestor's key, where a
			// reader looks for what is missing.
			loc.Exact = false
			if lastKey != nil {
				loc.Range = Range{Start: lastKey.Start, End: lastKey.End}
			}
			break
		}
		lastKey = keyRange
		ptr = append(ptr, segString(seg))
		cur = next
		if visit != nil {
			visit(cur)
		}
		// The pointer is joined once, after the walk: joining at every
		// step costs the square of the depth.
		loc.File, located = file, ptr
		switch {
		case seg == "$ref" && i == len(path)-1 && cur.Kind == String:
			// A reference is located where it is written, its value, as
			// an unresolvable one's Error is: lint and validate agree.
			loc.Range = cur.Range
		case keyRange != nil && i == len(path)-1:
			end := keyRange.End
			if cur.Kind != Object && cur.Kind != Array {
				end = cur.Range.End
			}
			loc.Range = Range{Start: keyRange.Start, End: end}
		default:
			loc.Range = cur.Range
		}
	}
	loc.Pointer = joinPointer(located)
	return loc
}

func rootRange(n *Node) Range {
	return Range{Start: n.Range.Start, End: n.Range.Start}
}

// step goes from a node to its child named by a path segment: the field
// of an object (its key's range too), or the item of an array.
func (d *Document) step(n *Node, seg any) (*Node, *Range, bool) {
	switch n.Kind {
	case Object:
		key, ok := seg.(string)
		if !ok {
			if i, isInt := seg.(int); isInt {
				key = strconv.Itoa(i)
			} else {
				return nil, nil, false
			}
		}
		if f := d.field(n, key); f != nil {
			return f.Value, &f.KeyRange, true
		}
	case Array:
		i, ok := indexSegment(seg)
		if ok && i >= 0 && i < len(n.Items) {
			return n.Items[i], nil, true
		}
	}
	return nil, nil, false
}

// indexSegment is a path segment as an array index: an int, or a string of
// digits as a JSON pointer writes one.
func indexSegment(seg any) (int, bool) {
	switch s := seg.(type) {
	case int:
		return s, true
	case string:
		i, err := strconv.Atoi(s)
		return i, err == nil
	}
	return 0, false
}

// indexedFields is the size from which an object's keys are found through
// an index rather than by a scan: the paths and the schemas of a large API
// have hundreds or thousands, and each of its ten thousand diagnostics and
// $refs steps through one.
const indexedFields = 32

// field is n.Field(key), through an index of n's keys (built on first use,
// safely for concurrent callers) when n is large.
func (d *Document) field(n *Node, key string) *Field {
	if len(n.Fields) < indexedFields {
		return n.Field(key)
	}
	index, ok := d.keyIndex.Load(n)
	if !ok {
		m := make(map[string]int, len(n.Fields))
		for i := range n.Fields {
			if _, dup := m[n.Fields[i].Key]; !dup { // the first of a repeated key, as Field
				m[n.Fields[i].Key] = i
			}
		}
		index, _ = d.keyIndex.LoadOrStore(n, m)
	}
	if i, ok := index.(map[string]int)[key]; ok {
		return &n.Fields[i]
	}
	return nil
}

func segString(seg any) string {
	switch s := seg.(type) {
	case string:
		return s
	case int:
		return strconv.Itoa(s)
	}
	return fmt.Sprint(seg)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// joinPointer joins path segments into a JSON pointer. Most segments need
// no escape, and are written as they are: a diagnostic's pointer is joined
// for each of the ten thousand findings of a large API.
func joinPointer(segs []string) string {
	if len(segs) == 0 {
		return ""
	}
	size := len(segs)
	for _, s := range segs {
		size += len(s)
	}
	var b strings.Builder
	b.Grow(size)
	for _, s := range segs {
		b.WriteByte('/')
		if strings.ContainsAny(s, "~/") {
			b.WriteString(pointerEscaper.Replace(s))
		} else {
			b.WriteString(s)
		}
	}
	return b.String()
}

// Pointer renders a path as a JSON pointer ("" for the root).
func Pointer(path []any) string {
	segs := make([]string, len(path))
	for i, s := range path {
		segs[i] = segString(s)
	}
	return joinPointer(segs)
}

// FileNamed returns the file of the document with the given name, or nil.
func (d *Document) FileNamed(name string) *File {
	for _, f := range d.files {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// PointerPath splits a JSON pointer into a path of keys.
func PointerPath(p string) Path {
	segs := splitPointer(p)
	out := make(Path, len(segs))
	for i, s := range segs {
		out[i] = s
	}
	return out
}

func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = pointerUnescaper.Replace(s)
	}
	return parts
}
