package spec

import "testing"

// Node.At steps through objects by key and arrays by index, written as
// an int or as the digits a JSON pointer has, and finds nothing past a
// scalar, outside an array or at a missing key; it follows no $ref.
func TestNodeAt(t *testing.T) {
	root, err := Parse("at.yaml", []byte(`a:
  "0": zero
  list: [x, {b: y}]
  ref: {$ref: '#/a/list'}
`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path Path
		want string // the node's string value; "<object>", "<array>" or "<nil>"
	}{
		{nil, "<object>"},
		{Path{"a", "list"}, "<array>"},
		{Path{"a", "list", 0}, "x"},
		{Path{"a", "list", "1", "b"}, "y"},
		{PointerPath("/a/list/1/b"), "y"},
		{Path{"a", 0}, "zero"}, // an int key of an object
		{Path{"a", "list", 2}, "<nil>"},
		{Path{"a", "list", -1}, "<nil>"},
		{Path{"a", "list", "one"}, "<nil>"},
		{Path{"a", "list", 0, "b"}, "<nil>"}, // below a scalar
		{Path{"a", "missing", "b"}, "<nil>"},
		{Path{"a", "ref", 0}, "<nil>"}, // the $ref is not followed
		{Path{"a", 1.5}, "<nil>"},
	} {
		n := root.At(tc.path)
		got := "<nil>"
		switch {
		case n == nil:
		case n.Kind == Object:
			got = "<object>"
		case n.Kind == Array:
			got = "<array>"
		default:
			got = n.Value
		}
		if got != tc.want {
			t.Errorf("At(%v) = %s, want %s", tc.path, got, tc.want)
		}
	}
}

// AnyField finds a field at any depth, in objects inside arrays too, and
// in each file of the document.
func TestAnyField(t *testing.T) {
	doc := &Document{files: map[string]*File{}}
	for name, text := range map[string]string{"a.yaml": "a: [{b: {readOnly: true}}]\n", "c.yaml": "c: {writeOnly: false}\n"} {
		root, err := Parse(name, []byte(text), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		doc.files[name] = &File{Name: name, Root: root}
	}
	doc.Root = doc.files["a.yaml"]
	for key, want := range map[string]bool{"readOnly": true, "writeOnly": true, "b": true, "c": true, "d": false} {
		if got := doc.AnyField(func(f Field) bool { return f.Key == key }); got != want {
			t.Errorf("AnyField(key %s) = %v, want %v", key, got, want)
		}
	}
	if doc.AnyField(func(f Field) bool { return f.Key == "writeOnly" && f.Value.IsTrue() }) {
		t.Error("AnyField matched writeOnly: false")
	}
}
