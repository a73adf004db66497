package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// walker applies a model to a document. It keeps where it is (file and the
// path of keys and indices from that file's root) as a stack, so positions
// and pointers are only rendered when a problem is found.
type walker struct {
	doc      *spec.Document
	file     *spec.File
	path     []frame
	problems []Problem

	// seenAs and seen hold the nodes already checked as a given shape, so
	// a shared component is checked once and a recursive schema ends:
	// seenAs the first shape a node was checked as (most are checked as
	// one), seen the others.
	seenAs map[*spec.Node]shape
	seen   map[seenKey]bool
	// operationIDs remembers the first operation using each operationId.
	operationIDs map[string]firstUse
	// tolerateUnknown accepts fields the model does not know.
	tolerateUnknown bool
}

// frame is one step of the path: an object key (with the key's range) or
// an array index.
type frame struct {
	seg      string
	index    bool
	keyRange spec.Range
	hasKey   bool
}

type seenKey struct {
	node  *spec.Node
	shape shape
}

type firstUse struct {
	node *spec.Node
	file string
	line int32
}

func newWalker(doc *spec.Document) *walker {
	return &walker{
		doc:          doc,
		file:         doc.Root,
		seenAs:       map[*spec.Node]shape{},
		seen:         map[seenKey]bool{},
		operationIDs: map[string]firstUse{},
	}
}

// enterField checks the value of an object field as s.
func (w *walker) enterField(f *spec.Field, s shape) {
	w.path = append(w.path, frame{seg: f.Key, keyRange: f.KeyRange, hasKey: true})
	s.check(w, f.Value)
	w.path = w.path[:len(w.path)-1]
}

// enterItem checks item i of an array as s.
func (w *walker) enterItem(i int, n *spec.Node, s shape) {
	w.path = append(w.path, frame{seg: strconv.Itoa(i), index: true})
	s.check(w, n)
	w.path = w.path[:len(w.path)-1]
}

// firstVisit reports whether n has not been checked as s yet, and marks it.
func (w *walker) firstVisit(n *spec.Node, s shape) bool {
	first, ok := w.seenAs[n]
	if !ok {
		w.seenAs[n] = s
		return true
	}
	if first == s {
		return false
	}
	k := seenKey{n, s}
	if w.seen[k] {
		return false
	}
	w.seen[k] = true
	return true
}

// follow checks the target of the reference object n as s, once per target,
// with positions in the target's file. A broken reference is left to
// reportBrokenRefs.
func (w *walker) follow(n *spec.Node, s shape) {
	r := w.doc.RefOf(n)
	if r == nil {
		if v := n.Get("$ref"); v != nil && v.Kind != spec.String {
			w.atField(n, "$ref", fmt.Sprintf("\"$ref\" must be a string, found %s", v.Kind))
		}
		return
	}
	if r.Target == nil || r.Err != nil || !w.firstVisit(r.Target, s) {
		return
	}
	savedFile, savedPath := w.file, w.path
	w.file, w.path = r.TargetFile, framesTo(r.TargetFile.Root, r.TargetPtr)
	s.check(w, r.Target)
	w.file, w.path = savedFile, savedPath
}

// framesTo rebuilds the path frames of a JSON pointer within a file, with
// the ranges of the keys on the way.
func framesTo(root *spec.Node, ptr string) []frame {
	if ptr == "" {
		return nil
	}
	segs := strings.Split(ptr[1:], "/")
	frames := make([]frame, 0, len(segs))
	cur := root
	for _, raw := range segs {
		seg := unescapePointer(raw)
		fr := frame{seg: seg}
		switch {
		case cur == nil:
		case cur.Kind == spec.Object:
			if f := cur.Field(seg); f != nil {
				fr.keyRange, fr.hasKey, cur = f.KeyRange, true, f.Value
			} else {
				cur = nil
			}
		case cur.Kind == spec.Array:
			i, err := strconv.Atoi(seg)
			fr.index = true
			if err == nil && i >= 0 && i < len(cur.Items) {
				cur = cur.Items[i]
			} else {
				cur = nil
			}
		}
		frames = append(frames, fr)
	}
	return frames
}

var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func unescapePointer(s string) string { return pointerUnescaper.Replace(s) }

// pointer renders the current path as a JSON pointer.
func (w *walker) pointer() string {
	var b strings.Builder
	for _, f := range w.path {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(f.seg))
	}
	return b.String()
}

// name names the current node in messages: its key, or its parent's key
// and its index for an array item.
func (w *walker) name() string {
	n := len(w.path)
	if n == 0 {
		return "the document"
	}
	last := w.path[n-1]
	if !last.index {
		return strconv.Quote(last.seg)
	}
	if n >= 2 {
		return fmt.Sprintf("%q[%s]", w.path[n-2].seg, last.seg)
	}
	return "item " + last.seg
}

// report records a problem about the current node n. It starts at the key
// naming n when there is one, so a wrong multi-line value is reported on
// the line of its key.
func (w *walker) report(n *spec.Node, msg string) {
	rng := n.Range
	if k := len(w.path); k > 0 && w.path[k-1].hasKey {
		rng.Start = w.path[k-1].keyRange.Start
	}
	w.add(rng, msg)
}

// reportUnreadable is report for a problem that leaves the document
// unreadable as written (Problem.Unreadable).
func (w *walker) reportUnreadable(n *spec.Node, msg string) {
	w.report(n, msg)
	w.problems[len(w.problems)-1].Unreadable = true
}

// reportKey records a problem about the key of field f of the current
// object.
func (w *walker) reportKey(f *spec.Field, msg string) {
	w.path = append(w.path, frame{seg: f.Key, keyRange: f.KeyRange, hasKey: true})
	w.add(f.KeyRange, msg)
	w.path = w.path[:len(w.path)-1]
}

// atField records a problem about the value of key in the current object
// n, or about n itself when the key is absent.
func (w *walker) atField(n *spec.Node, key, msg string) {
	f := n.Field(key)
	if f == nil {
		w.report(n, msg)
		return
	}
	w.path = append(w.path, frame{seg: f.Key, keyRange: f.KeyRange, hasKey: true})
	w.report(f.Value, msg)
	w.path = w.path[:len(w.path)-1]
}

func (w *walker) add(rng spec.Range, msg string) {
	w.problems = append(w.problems, Problem{File: w.file.Name, Range: rng, Pointer: w.pointer(), Message: msg})
}

// place is a position saved for a later problem: rules that look across
// objects (path templates) report on nodes other than the current one.
type place struct {
	file *spec.File
	path []frame
}

func (w *walker) here() place {
	return place{file: w.file, path: append([]frame(nil), w.path...)}
}

// at runs fn with the walker positioned at p.
func (w *walker) at(p place, fn func()) {
	savedFile, savedPath := w.file, w.path
	w.file, w.path = p.file, p.path
	fn()
	w.file, w.path = savedFile, savedPath
}

// child returns the place of field f below p.
func (p place) child(f *spec.Field) place {
	path := append(append([]frame(nil), p.path...), frame{seg: f.Key, keyRange: f.KeyRange, hasKey: true})
	return place{file: p.file, path: path}
}

// item returns the place of array item i below p.
func (p place) item(i int) place {
	path := append(append([]frame(nil), p.path...), frame{seg: strconv.Itoa(i), index: true})
	return place{file: p.file, path: path}
}

// deref follows references from n at p to the value they name and its
// place; a broken reference returns n itself.
func (w *walker) deref(n *spec.Node, p place) (*spec.Node, place) {
	for hops := 0; hops < 64; hops++ {
		r := w.doc.RefOf(n)
		if r == nil || r.Target == nil || r.Err != nil {
			break
		}
		n, p = r.Target, place{file: r.TargetFile, path: framesTo(r.TargetFile.Root, r.TargetPtr)}
	}
	return n, p
}
