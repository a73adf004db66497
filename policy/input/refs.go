package input

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// typedPath turns a JSON pointer within a file into a path whose array
// indices are numbers, as in the views' sources, so that a rule can look
// the place up in input.document.
func typedPath(root *spec.Node, ptr string) spec.Path {
	keys := pointerKeys(ptr)
	p := make(spec.Path, len(keys))
	n := root
	for i, key := range keys {
		p[i] = key
		switch {
		case n == nil:
		case n.Kind == spec.Array:
			k, err := strconv.Atoi(key)
			if err != nil || k < 0 || k >= len(n.Items) {
				n = nil
				continue
			}
			p[i], n = k, n.Items[k]
		default:
			n = n.Get(key)
		}
	}
	return p
}

// refs lists every $ref with where it is written: "file" names the file
// (empty for the entry file) and "path" is the path within that file;
// "targetFile" and "target" say the same of what it points at (target is
// null when it does not resolve: a "resolved" flag beside it would be a
// ninth key, and an object of more than eight keys takes a larger
// table), and "siblings" are the other
// keys of the object that holds the $ref. byTarget
// indexes the resolved ones by what they point at, as
// "<targetFile>#<JSON pointer>" ("#/components/schemas/Pet" in the entry
// file), so that a rule asks "what references this?" without a scan.
// unresolved and withSiblings are the items that do not resolve and those
// whose object has other keys: a large API has tens of thousands of
// references, a rule about these few need not test them all.
func (c *converter) refs(doc *spec.Document) (list, byTarget, unresolved, withSiblings *ast.Term) {
	fileName := func(f *spec.File) string {
		if f == nil || f == doc.Root {
			return ""
		}
		return f.Name
	}
	to := map[string][]*ast.Term{}
	targets := map[string]*ast.Term{}
	var bad, beside []*ast.Term
	var siblings []string
	items := make([]*ast.Term, len(doc.Refs))
	for i, r := range doc.Refs {
		errMsg := ""
		if r.Err != nil {
			errMsg = r.Err.Msg
		}
		resolved := r.Target != nil && r.Err == nil
		target := nullTerm
		key := fileName(r.TargetFile) + "#" + r.TargetPtr
		if resolved {
			// Many references name one target: one path for all.
			if target = targets[key]; target == nil {
				target = c.path(typedPath(r.TargetFile.Root, r.TargetPtr))
				targets[key] = target
			}
		}
		siblings = siblings[:0] // strs copies them
		for _, f := range r.Node.Fields {
			if f.Key != "$ref" {
				siblings = append(siblings, f.Key)
			}
		}
		items[i] = c.obj(c.kv("ref", c.str(r.Value)), c.kv("file", c.str(fileName(r.File))),
			c.kv("path", c.path(r.Path)),
			c.kv("error", c.str(errMsg)),
			c.kv("circular", boolTerm(r.Circular)),
			c.kv("targetFile", c.str(fileName(r.TargetFile))), c.kv("target", target),
			c.kv("siblings", c.strs(siblings)))
		if resolved {
			to[key] = append(to[key], items[i])
		} else {
			bad = append(bad, items[i])
		}
		if len(siblings) > 0 {
			beside = append(beside, items[i])
		}
	}
	return ast.ArrayTerm(items...), c.lists(to), ast.ArrayTerm(bad...), ast.ArrayTerm(beside...)
}

// componentRefs maps each reusable object of the entry file that holds
// references ("#/components/schemas/Pet"; Swagger: "#/definitions/Pet",
// "#/parameters/limit", "#/responses/Error") to the reusable objects of
// the entry file its references point at or into, directly. It is a graph
// for graph.reachable: which named schemas does a schema need, which
// components does an operation lead to.
func componentRefs(doc *spec.Document) *ast.Term {
	edges := map[string]map[string]bool{}
	names := components{format: doc.Format}
	from := map[[3]any]string{} // a path's first three segments → their component
	for _, r := range doc.Refs {
		if r.Target == nil || r.Err != nil || r.File != doc.Root || r.TargetFile != doc.Root {
			continue
		}
		// The first three keys name the component an entry-file $ref is
		// in: many $refs are written in one, whose name is found once.
		// Only a path under a map of reusable objects can be in one.
		if !underComponents(doc.Format, r.Path) {
			continue
		}
		var head [3]any
		copy(head[:], r.Path)
		f, ok := from[head]
		if !ok {
			f = componentOf(doc.Format, spec.Pointer(r.Path[:min(len(r.Path), 3)]))
			from[head] = f
		}
		to := names.of(r.TargetPtr)
		if f == "" || to == "" {
			continue
		}
		if edges[f] == nil {
			edges[f] = map[string]bool{}
		}
		edges[f][to] = true
	}
	keys := slices.Sorted(maps.Keys(edges))
	pairs := make([][2]*ast.Term, len(keys))
	for i, k := range keys {
		tos := slices.Sorted(maps.Keys(edges[k]))
		items := make([]*ast.Term, len(tos))
		for j, t := range tos {
			items[j] = ast.StringTerm(t)
		}
		pairs[i] = [2]*ast.Term{ast.StringTerm(k), ast.ArrayTerm(items...)}
	}
	return ast.ObjectTerm(pairs...)
}

// referencedComponents are the entry file's reusable objects that a
// resolved $ref from outside them points at or into (one written in
// another file, or anywhere in the entry file but in the object itself),
// by the pointer of their map and their name: {"#/components/schemas":
// {"Pet": true}}, {"#/definitions": {"Pet": true}} in Swagger 2.0. A
// reusable object missing from it is used by nothing but itself;
// unused-components reads it instead of each object's references, which
// outnumber the components several times.
func referencedComponents(doc *spec.Document) *ast.Term {
	used := map[string]map[string]bool{}
	names := components{format: doc.Format}
	keysOf := map[string][]string{} // a component → the keys of its pointer
	for _, r := range doc.Refs {
		if r.Target == nil || r.Err != nil || r.TargetFile != doc.Root {
			continue
		}
		key := names.of(r.TargetPtr)
		if key == "" {
			continue
		}
		keys, ok := keysOf[key]
		if !ok {
			keys = pointerKeys(key[1:])
			keysOf[key] = keys
		}
		if r.File == doc.Root && within(r.Path, keys) {
			continue
		}
		container, name := key[:strings.LastIndexByte(key, '/')], keys[len(keys)-1]
		if used[container] == nil {
			used[container] = map[string]bool{}
		}
		used[container][name] = true
	}
	pairs := make([][2]*ast.Term, 0, len(used))
	for _, c := range slices.Sorted(maps.Keys(used)) {
		names := slices.Sorted(maps.Keys(used[c]))
		inner := make([][2]*ast.Term, len(names))
		for i, n := range names {
			inner[i] = [2]*ast.Term{ast.StringTerm(n), trueTerm}
		}
		pairs = append(pairs, [2]*ast.Term{ast.StringTerm(c), ast.ObjectTerm(inner...)})
	}
	return ast.ObjectTerm(pairs...)
}

// within tells whether a path starts with the keys of another.
func within(path spec.Path, keys []string) bool {
	if len(path) < len(keys) {
		return false
	}
	for i, k := range keys {
		if s, ok := path[i].(string); !ok || s != k {
			return false
		}
	}
	return true
}

// componentOf returns "#" and the pointer of the reusable object a JSON
// pointer lies in, or "" when it lies in none.
func componentOf(format spec.Format, ptr string) string {
	if p, ok := componentPointer(format, ptr); ok {
		return "#/" + p
	}
	return ""
}

// underComponents tells whether a path starts with the key of a map of
// reusable objects, which componentOf asks of its pointer first.
func underComponents(format spec.Format, path spec.Path) bool {
	if len(path) == 0 {
		return false
	}
	first, ok := path[0].(string)
	switch {
	case !ok:
		return false
	case format == spec.OpenAPI:
		return first == "components"
	case format == spec.Swagger:
		return first == "definitions" || first == "parameters" || first == "responses"
	}
	return false
}

// componentPointer returns the part of a JSON pointer, without its
// leading "/", that names the reusable object it lies in
// ("components/schemas/Pet"; Swagger: "definitions/Pet"), and false when
// it lies in none. It reads the pointer in place: tens of thousands of
// $refs are asked.
func componentPointer(format spec.Format, ptr string) (string, bool) {
	p := strings.TrimPrefix(ptr, "/")
	first, _, _ := strings.Cut(p, "/")
	var segs int
	switch {
	case format == spec.OpenAPI && first == "components":
		segs = 3
	case format == spec.Swagger && (first == "definitions" || first == "parameters" || first == "responses"):
		segs = 2
	default:
		return "", false
	}
	// The end of the first segs segments: p up to its segs-th "/", or the
	// whole of p when it has exactly segs segments.
	end := 0
	for i := range segs {
		j := strings.IndexByte(p[end:], '/')
		if j < 0 {
			if i < segs-1 {
				return "", false // fewer segments
			}
			return p, true
		}
		if i == segs-1 {
			return p[:end+j], true
		}
		end += j + 1
	}
	return p, true
}

// components finds the component of many pointers, each spelled once.
type components struct {
	format spec.Format
	names  map[string]string // a component's pointer without "/" → with "#/"
}

// of is componentOf(c.format, ptr).
func (c *components) of(ptr string) string {
	p, ok := componentPointer(c.format, ptr)
	if !ok {
		return ""
	}
	name, ok := c.names[p]
	if !ok {
		if c.names == nil {
			c.names = map[string]string{}
		}
		name = "#/" + p
		c.names[p] = name
	}
	return name
}

func (c *converter) fileName(doc *spec.Document, f *spec.File) string {
	if f == doc.Root {
		return ""
	}
	return f.Name
}

// files holds the trees of the document's other files, by name; the entry
// file is input.document.
func (c *converter) files(doc *spec.Document) *ast.Term {
	var pairs [][2]*ast.Term
	for _, f := range doc.Files() {
		if f != doc.Root {
			pairs = append(pairs, c.kv(f.Name, c.node(f.Root)))
		}
	}
	return ast.ObjectTerm(pairs...)
}

// refTargets maps, per file, each $ref string to what it finally names:
// [file, path, value], following chains of references. Rules compiled from
// YAML/JSON definitions navigate the resolved document through it.
func (c *converter) refTargets(doc *spec.Document) *ast.Term {
	byFile := map[string]map[string]*ast.Term{}
	var order []string
	for _, r := range doc.Refs {
		if r.Target == nil || r.Err != nil {
			continue
		}
		from := c.fileName(doc, r.File)
		m := byFile[from]
		if m == nil {
			m = map[string]*ast.Term{}
			byFile[from] = m
			order = append(order, from)
		}
		if m[r.Value] != nil {
			continue
		}
		file, ptr, target := r.TargetFile, r.TargetPtr, r.Target
		for hops := 0; hops < 64; hops++ {
			next := doc.RefOf(target)
			if next == nil || next.Target == nil || next.Err != nil || next.Target == target {
				break
			}
			file, ptr, target = next.TargetFile, next.TargetPtr, next.Target
		}
		m[r.Value] = ast.ArrayTerm(c.str(c.fileName(doc, file)), c.path(spec.PointerPath(ptr)), c.node(target))
	}
	pairs := make([][2]*ast.Term, 0, len(order))
	for _, from := range order {
		inner := make([][2]*ast.Term, 0, len(byFile[from]))
		for ref, t := range byFile[from] {
			inner = append(inner, [2]*ast.Term{c.str(ref), t})
		}
		pairs = append(pairs, [2]*ast.Term{c.str(from), ast.ObjectTerm(inner...)})
	}
	return ast.ObjectTerm(pairs...)
}
