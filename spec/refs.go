package spec

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Ref is one "$ref" of a document and what it resolves to.
type Ref struct {
	Node  *Node  // the object that holds "$ref"
	File  *File  // the file the $ref is written in
	Path  Path   // of Node within File: keys, and array indices as ints
	Value string // the $ref string as written

	Target     *Node // nil when unresolved
	TargetFile *File
	TargetPtr  string // JSON pointer of Target within TargetFile

	// Circular is true when the target contains, directly or through other
	// references, this reference again: a recursive schema. Such documents
	// are legal; anything that expands references must stop here.
	Circular bool
	Err      *Error // why the reference could not be resolved

	state uint8 // 0 pending, 1 resolving, 2 done
}

// Pointer is the JSON pointer of the $ref's object within its file. It is
// made when asked for (messages, tests), not for every $ref of a load.
func (r *Ref) Pointer() string { return Pointer(r.Path) }

// RefOf returns the resolution of n when n is an object holding "$ref".
func (d *Document) RefOf(n *Node) *Ref {
	if n == nil || n.ref == 0 {
		return nil
	}
	if i := int(n.ref - 1); i < len(d.Refs) && d.Refs[i].Node == n {
		return d.Refs[i]
	}
	return d.refs[n]
}

// register records r, the $ref held by the object r.Node: in the node
// itself (Node.ref), or in d.refs when another document's scan has
// already numbered that node, so that each document finds its own.
func (d *Document) register(r *Ref) {
	d.Refs = append(d.Refs, r)
	if r.Node.ref == 0 {
		r.Node.ref = uint32(len(d.Refs))
		return
	}
	if d.refs == nil {
		d.refs = map[*Node]*Ref{}
	}
	d.refs[r.Node] = r
}

// Deref follows references from n until it reaches a value that is not a
// reference, and returns that value with the file it is in. A broken or
// circular chain returns the last reference object reached.
func (d *Document) Deref(n *Node) *Node {
	for hops := 0; hops < 64; hops++ {
		r := d.RefOf(n)
		if r == nil || r.Target == nil || r.Err != nil {
			return n
		}
		n = r.Target
	}
	return n
}

// literalKeys hold example data, in which "$ref" is just a key; so do
// extensions. They are keywords only in objects that are not maps of
// names: "default" under responses is a status, and under properties a
// property name.
var literalKeys = map[string]bool{"example": true, "default": true, "enum": true, "const": true}

// nameMaps are the keys whose values map names (status codes, property
// names, component names, …) to objects.
var nameMaps = map[string]bool{
	"responses": true, "properties": true, "patternProperties": true, "definitions": true, "$defs": true,
	"dependentSchemas": true, "schemas": true, "parameters": true, "headers": true, "securitySchemes": true,
	"securityDefinitions": true, "requestBodies": true, "links": true, "callbacks": true, "pathItems": true,
	"examples": true, "messages": true, "channels": true, "servers": true, "content": true, "encoding": true,
	"variables": true, "operations": true, "serverVariables": true, "channelBindings": true, "mediaTypes": true,
	"webhooks": true, "paths": true,
}

// Resolve follows the $refs of a document that Open returned; call it
// once, before any other use of the document than its format.
func (d *Document) Resolve(ctx context.Context) {
	d.scan(d.Root)
	for i := 0; i < len(d.Refs); i++ {
		d.resolve(ctx, d.Refs[i])
	}
	for _, r := range d.Refs {
		d.checkChain(r)
	}
	d.markCycles()
}

// scan registers every $ref of a file. It skips example data, where
// "$ref" is only a key: literal keys, extensions, JSON Schema examples
// arrays and the value of OpenAPI Example Objects.
func (d *Document) scan(f *File) {
	const (
		plain = iota
		examplesMap
		exampleObject
		named // the value of an entry of a map of names: a schema, a response, …
	)
	// at is the path to the current node. A step is made a Path segment
	// (an interface value, which costs an allocation for a key) only when
	// a $ref below it needs its path; the refs below share it.
	var at scanPath
	var walk func(n *Node, key string, ctx int)
	walk = func(n *Node, key string, ctx int) {
		switch n.Kind {
		case Object:
			if v := n.Get("$ref"); v != nil && v.Kind == String {
				if d.RefOf(n) == nil {
					d.register(&Ref{Node: n, File: f, Path: at.path(), Value: v.Value})
				}
			}
			// A property named "headers" is a schema, not a map of names.
			names := nameMaps[key] && ctx != named
			for _, fl := range n.Fields {
				if (!names && (literalKeys[fl.Key] || strings.HasPrefix(fl.Key, "x-"))) ||
					(ctx == exampleObject && fl.Key == "value") ||
					(fl.Key == "examples" && fl.Value.Kind == Array) {
					continue
				}
				child := plain
				switch {
				case ctx == examplesMap:
					child = exampleObject
				case names:
					child = named
				case fl.Key == "examples":
					child = examplesMap
				}
				at = append(at, scanStep{key: fl.Key})
				walk(fl.Value, fl.Key, child)
				at = at[:len(at)-1]
			}
		case Array:
			for i, it := range n.Items {
				at = append(at, scanStep{index: i, isIndex: true})
				walk(it, "", plain)
				at = at[:len(at)-1]
			}
		}
	}
	walk(f.Root, "", plain)
}

// scanStep is one step of scan's path: a key or an array index, and the
// Path segment made of it once a $ref below needs it.
type scanStep struct {
	key     string
	index   int
	isIndex bool
	seg     any
}

type scanPath []scanStep

// path is a copy of the path as a Path, whose segments are made once per
// step and shared by every $ref below that step.
func (at scanPath) path() Path {
	if len(at) == 0 {
		return nil
	}
	out := make(Path, len(at))
	for i := range at {
		st := &at[i]
		if st.seg == nil {
			if st.isIndex {
				st.seg = st.index
			} else {
				st.seg = st.key
			}
		}
		out[i] = st.seg
	}
	return out
}

func (d *Document) refError(r *Ref, format string, args ...any) {
	pos := r.Node.Range.Start
	if v := r.Node.Field("$ref"); v != nil {
		pos = v.Value.Range.Start
	}
	r.Err = &Error{File: r.File.Name, Pos: pos, Pointer: r.Pointer() + "/$ref", Msg: fmt.Sprintf(format, args...)}
}

func (d *Document) resolve(ctx context.Context, r *Ref) {
	if r.state != 0 {
		return
	}
	r.state = 1
	defer func() { r.state = 2 }()

	loc, frag, _ := strings.Cut(r.Value, "#")
	tf := r.File
	if loc != "" {
		key, err := resolveLocation(r.File.key, loc)
		if err != nil {
			d.refError(r, "invalid $ref %q: %v", r.Value, err)
			return
		}
		if isURL(key) && !isURL(d.Root.key) && !d.loader.opts.AllowRemoteRefs {
			d.refError(r, "remote $ref %q is not fetched; pass --allow-remote-refs to allow it", r.Value)
			return
		}
		if !isURL(key) {
			if msg := d.refRoot.check(r.File.key, key); msg != "" {
				d.refError(r, "$ref %q %s", r.Value, msg)
				return
			}
		}
		if tf = d.files[key]; tf == nil {
			// A device or a FIFO would be read up to the size limit, or block.
			if st, err := os.Stat(key); !isURL(key) && err == nil && !st.Mode().IsRegular() {
				d.refError(r, "cannot resolve $ref %q: %s is not a regular file", r.Value, displayName(d.Root, key))
				return
			}
			f, err := d.loader.readFile(ctx, key)
			if err != nil {
				msg := err.Error()
				var le *Error
				if errors.As(err, &le) {
					le.File = displayName(d.Root, key)
					msg = strings.TrimPrefix(le.Error(), le.File+": ")
				}
				d.refError(r, "cannot resolve $ref %q: %s", r.Value, msg)
				return
			}
			f.Name = displayName(d.Root, key)
			d.files[key] = f
			d.scan(f)
			tf = f
		}
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		d.refError(r, "invalid $ref %q: %v", r.Value, err)
		return
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		d.refError(r, "$ref %q uses a plain-name fragment; only JSON pointers (#/...) are supported", r.Value)
		return
	}
	cur, curFile := tf.Root, tf
	segs := splitPointer(frag)
	ptr := make([]string, 0, len(segs))
	for _, seg := range segs {
		next, _, ok := d.step(cur, seg)
		// A pointer may pass through another reference.
		for hops := 0; !ok && hops < 64; hops++ {
			inner := d.RefOf(cur)
			if inner == nil {
				break
			}
			d.resolve(ctx, inner)
			if inner.Target == nil {
				break
			}
			cur, curFile, ptr = inner.Target, inner.TargetFile, splitPointer(inner.TargetPtr)
			next, _, ok = d.step(cur, seg)
		}
		if !ok {
			d.refError(r, "$ref %q does not resolve: %s has no %q", r.Value, describeTarget(curFile, ptr), seg)
			return
		}
		ptr = append(ptr, seg)
		cur = next
	}
	r.Target, r.TargetFile, r.TargetPtr = cur, curFile, joinPointer(ptr)
}

func describeTarget(f *File, ptr []string) string {
	if len(ptr) == 0 {
		return "the document root of " + f.Name
	}
	return fmt.Sprintf("%s#%s", f.Name, joinPointer(ptr))
}

// displayName names a referenced file relative to the entry file's folder
// when it can, as users wrote it.
func displayName(root *File, key string) string {
	if isURL(key) || root.key == "-" || isURL(root.key) {
		return key
	}
	if rel, err := relPath(root, key); err == nil {
		return rel
	}
	return key
}

// checkChain reports a chain of references that leads back to itself
// without reaching a value (a: {$ref: b}, b: {$ref: a}).
func (d *Document) checkChain(r *Ref) {
	if r.Err != nil || r.Target == nil {
		return
	}
	seen := map[*Node]bool{r.Node: true}
	chain := []string{r.Value}
	for n := r.Target; ; {
		next := d.RefOf(n)
		if next == nil || next.Target == nil {
			return
		}
		if seen[n] {
			d.refError(r, "circular $ref chain never reaches a value: %s", strings.Join(chain, " → "))
			r.Circular = true
			return
		}
		seen[n] = true
		chain = append(chain, next.Value)
		n = next.Target
	}
}

// markCycles marks the references that close a cycle: a depth-first walk
// over "target contains reference" edges, where an edge back to a target
// still on the stack is circular.
func (d *Document) markCycles() {
	const (
		white = iota
		grey
		black
	)
	color := map[*Node]uint8{}
	var visit func(n *Node)
	var inner []*Ref
	visit = func(n *Node) {
		color[n] = grey
		start := len(inner)
		d.collectRefs(n, &inner)
		mine := append([]*Ref(nil), inner[start:]...)
		inner = inner[:start]
		for _, r := range mine {
			if r.Target == nil || r.Err != nil {
				continue
			}
			switch color[r.Target] {
			case grey:
				r.Circular = true
			case white:
				visit(r.Target)
			}
		}
		color[n] = black
	}
	visit(d.Root.Root)
}

// collectRefs appends the references inside n, not descending into them.
func (d *Document) collectRefs(n *Node, out *[]*Ref) {
	switch n.Kind {
	case Object:
		if r := d.RefOf(n); r != nil {
			*out = append(*out, r)
			return
		}
		for _, f := range n.Fields {
			d.collectRefs(f.Value, out)
		}
	case Array:
		for _, it := range n.Items {
			d.collectRefs(it, out)
		}
	}
}

func relPath(root *File, key string) (string, error) {
	rel, err := filepath.Rel(filepath.Dir(root.key), key)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(root.Name), rel), nil
}
