package input

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// TestDocumentConvertsAsWritten converts the entry file of every rule
// fixture and corpus spec (those of 1 MB or more only with
// SPECGATE_CORPUS=1) member by member, with no sharing and no scratch
// space, and checks that input.document is that value: the converter
// builds each container's members on a stack it shares with the
// containers inside them.
func TestDocumentConvertsAsWritten(t *testing.T) {
	built, nested := 0, 0
	eachTestDocument(func(f string, doc *spec.Document) {
		got := Build(doc).(ast.Object).Get(ast.StringTerm("document"))
		if want := plainNode(doc.Root.Root); got.Value.Compare(want) != 0 {
			t.Errorf("%s: input.document differs from the tree as written", f)
		}
		built++
		if depth(doc.Root.Root) > 5 {
			nested++
		}
	})
	if built < 100 || nested == 0 {
		t.Errorf("converted %d documents, %d of them nested more than 5 deep: want 100 or more, and some", built, nested)
	}
}

// plainNode converts a node as the input states it, one new value per
// node.
func plainNode(n *spec.Node) ast.Value {
	switch n.Kind {
	case spec.Null:
		return ast.Null{}
	case spec.Bool:
		return ast.Boolean(n.Value == "true")
	case spec.Number:
		return ast.Number(n.Value)
	case spec.String:
		return ast.String(n.Value)
	case spec.Object:
		obj := ast.NewObject()
		for _, f := range n.Fields {
			obj.Insert(ast.StringTerm(f.Key), ast.NewTerm(plainNode(f.Value)))
		}
		return obj
	}
	items := make([]*ast.Term, len(n.Items))
	for i, it := range n.Items {
		items[i] = ast.NewTerm(plainNode(it))
	}
	return ast.NewArray(items...)
}

func depth(n *spec.Node) int {
	d := 0
	for _, f := range n.Fields {
		d = max(d, depth(f.Value))
	}
	for _, it := range n.Items {
		d = max(d, depth(it))
	}
	return d + 1
}

// TestComponentPointer reads the component of a JSON pointer in place as
// componentOf did by splitting it: the pointer of the reusable object up
// to its name, "" for a pointer in none.
func TestComponentPointer(t *testing.T) {
	tests := []struct {
		format spec.Format
		ptr    string
		want   string
	}{
		{spec.OpenAPI, "/components/schemas/Pet", "#/components/schemas/Pet"},
		{spec.OpenAPI, "/components/schemas/Pet/properties/id", "#/components/schemas/Pet"},
		{spec.OpenAPI, "/components/schemas/a~1b/items", "#/components/schemas/a~1b"},
		{spec.OpenAPI, "/components/schemas/", "#/components/schemas/"},
		{spec.OpenAPI, "components/responses/Error", "#/components/responses/Error"},
		{spec.OpenAPI, "/components/schemas", ""},
		{spec.OpenAPI, "/components", ""},
		{spec.OpenAPI, "/paths/~1pets/get", ""},
		{spec.OpenAPI, "", ""},
		{spec.OpenAPI, "/definitions/Pet", ""},
		{spec.Swagger, "/definitions/Pet", "#/definitions/Pet"},
		{spec.Swagger, "/definitions/Pet/properties/id", "#/definitions/Pet"},
		{spec.Swagger, "/parameters/limit", "#/parameters/limit"},
		{spec.Swagger, "/responses/Error/schema", "#/responses/Error"},
		{spec.Swagger, "/definitions/", "#/definitions/"},
		{spec.Swagger, "/definitions", ""},
		{spec.Swagger, "/components/schemas/Pet", ""},
		{spec.AsyncAPI, "/components/schemas/Pet", ""},
	}
	for _, tt := range tests {
		if got := componentOf(tt.format, tt.ptr); got != tt.want {
			t.Errorf("componentOf(%s, %q) = %q, want %q", tt.format, tt.ptr, got, tt.want)
		}
		if got, want := componentOf(tt.format, tt.ptr), splitComponent(tt.format, tt.ptr); got != want {
			t.Errorf("componentOf(%s, %q) = %q, split %q", tt.format, tt.ptr, got, want)
		}
		var c components
		c.format = tt.format
		if got, again := c.of(tt.ptr), c.of(tt.ptr); got != tt.want || again != tt.want {
			t.Errorf("components.of(%s, %q) = %q then %q, want %q", tt.format, tt.ptr, got, again, tt.want)
		}
	}
}

// TestPlaceTable finds values by path, telling keys from indices and
// paths from their starts.
func TestPlaceTable(t *testing.T) {
	table := placeTable[string]{}
	paths := []spec.Path{
		{"paths", "/pets", "get", "parameters", 0, "schema"},
		{"paths", "/pets", "get", "parameters", "0", "schema"},
		{"paths", "/pets", "get", "parameters", 0},
		{"paths", "/pets", "get", "parameters", 1, "schema"},
		{},
	}
	for i, p := range paths {
		table.put(p, string(rune('a'+i)))
	}
	for i, p := range paths {
		if got, want := table.get(p), string(rune('a'+i)); got != want {
			t.Errorf("get(%v) = %q, want %q", p, got, want)
		}
	}
	if got := table.get(spec.Path{"paths", "/pets", "get"}); got != "" {
		t.Errorf("get of a path never put = %q, want \"\"", got)
	}
	table.put(paths[0], "again")
	if got := table.get(paths[0]); got != "again" {
		t.Errorf("get after a second put = %q, want %q", got, "again")
	}
}

// TestComponentGraphsAsSplit builds input.componentRefs and
// input.index.referencedComponents of every rule fixture and corpus spec
// (those of 1 MB or more only with SPECGATE_CORPUS=1) as they were built
// by splitting each pointer, and checks that the two are the same.
func TestComponentGraphsAsSplit(t *testing.T) {
	graph := func(doc *spec.Document) ast.Value {
		edges := map[string]map[string]bool{}
		for _, r := range doc.Refs {
			if r.Target == nil || r.Err != nil || r.File != doc.Root || r.TargetFile != doc.Root {
				continue
			}
			from, to := splitComponent(doc.Format, spec.Pointer(r.Path[:min(len(r.Path), 3)])), splitComponent(doc.Format, r.TargetPtr)
			if from == "" || to == "" {
				continue
			}
			if edges[from] == nil {
				edges[from] = map[string]bool{}
			}
			edges[from][to] = true
		}
		obj := ast.NewObject()
		for from, tos := range edges {
			arr := ast.NewArray()
			for _, to := range slices.Sorted(maps.Keys(tos)) {
				arr = arr.Append(ast.StringTerm(to))
			}
			obj.Insert(ast.StringTerm(from), ast.NewTerm(arr))
		}
		return obj
	}
	used := func(doc *spec.Document) ast.Value {
		obj := ast.NewObject()
		for _, r := range doc.Refs {
			if r.Target == nil || r.Err != nil || r.TargetFile != doc.Root {
				continue
			}
			key := splitComponent(doc.Format, r.TargetPtr)
			if key == "" {
				continue
			}
			keys := pointerKeys(key[1:])
			if r.File == doc.Root && within(r.Path, keys) {
				continue
			}
			container := ast.StringTerm(key[:strings.LastIndexByte(key, '/')])
			if obj.Get(container) == nil {
				obj.Insert(container, ast.ObjectTerm())
			}
			obj.Get(container).Value.(ast.Object).Insert(ast.StringTerm(keys[len(keys)-1]), ast.BooleanTerm(true))
		}
		return obj
	}
	edges, uses := 0, 0
	eachTestDocument(func(f string, doc *spec.Document) {
		if got, want := componentRefs(doc).Value, graph(doc); got.Compare(want) != 0 {
			t.Errorf("%s: componentRefs = %v, want %v", f, got, want)
		}
		if got, want := referencedComponents(doc).Value, used(doc); got.Compare(want) != 0 {
			t.Errorf("%s: referencedComponents = %v, want %v", f, got, want)
		}
		edges += componentRefs(doc).Value.(ast.Object).Len()
		uses += referencedComponents(doc).Value.(ast.Object).Len()
	})
	if edges == 0 || uses == 0 {
		t.Errorf("%d components with references, %d maps of components used: want some of each", edges, uses)
	}
}

// TestStringListsShared converts lists of strings: a list converted
// before is the same term, and lists that differ in a string, in order or
// in length are not.
func TestStringListsShared(t *testing.T) {
	c := newConverter()
	tags := c.strs([]string{"users.user", "users.actions"})
	if again := c.strs([]string{"users.user", "users.actions"}); again != tags {
		t.Errorf("a list converted again is a new term")
	}
	for _, other := range [][]string{
		{"users.actions", "users.user"},
		{"users.user"},
		{"users.user", "users.actions", ""},
		{"users.user", "users.action"},
		{"users.useru", "sers.actions"},
	} {
		got := c.strs(other)
		if got == tags {
			t.Errorf("strs(%q) is the term of another list", other)
		}
		want := make([]*ast.Term, len(other))
		for i, s := range other {
			want[i] = ast.StringTerm(s)
		}
		if got.Value.Compare(ast.NewArray(want...)) != 0 {
			t.Errorf("strs(%q) = %v", other, got)
		}
	}
	if c.strs(nil) != ast.InternedEmptyArray {
		t.Errorf("an empty list is not OPA's one empty array")
	}
}

// splitComponent is the component of a JSON pointer as the input found it
// before it read pointers in place: by splitting the pointer, the pointer
// of the reusable object up to its name, "" for a pointer in none.
func splitComponent(format spec.Format, ptr string) string {
	segs := strings.SplitN(strings.TrimPrefix(ptr, "/"), "/", 4)
	switch {
	case format == spec.OpenAPI && len(segs) >= 3 && segs[0] == "components":
		return "#/" + strings.Join(segs[:3], "/")
	case format == spec.Swagger && len(segs) >= 2 && (segs[0] == "definitions" || segs[0] == "parameters" || segs[0] == "responses"):
		return "#/" + strings.Join(segs[:2], "/")
	}
	return ""
}
