package studio

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// at walks keys from a file's root.
func at(t *testing.T, n *spec.Node, keys ...string) *spec.Node {
	t.Helper()
	for _, k := range keys {
		n = n.Get(k)
		if n == nil {
			t.Fatalf("no %q", k)
		}
	}
	return n
}

func TestTextEdits(t *testing.T) {
	value := omap{{"value", omap{{"id", json.Number("1")}, {"tags", []any{"a", "b: c"}}}}}
	for _, tc := range []struct {
		name, in string
		edit     func(t *testing.T, f *textFile) error
		want     string
	}{
		{
			name: "YAML: a key at the end of a block mapping, comments and quotes kept",
			in:   "a:\n  b: 'x'   # keep me\n  c: \"y\"\n# trailing\nd: 1\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "ex", value) },
			want: "a:\n  b: 'x'   # keep me\n  c: \"y\"\n  ex:\n    value:\n      id: 1\n      tags:\n        - a\n        - 'b: c'\n# trailing\nd: 1\n",
		},
		{
			name: "YAML: a key after a block scalar",
			in:   "a:\n  d: |\n    text\n    more\nz: 2\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "e", "yes") },
			want: "a:\n  d: |\n    text\n    more\n  e: yes\nz: 2\n",
		},
		{
			name: "YAML: an empty flow mapping becomes a block",
			in:   "a:\n  examples: {}\nb: 1\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a", "examples"), "one", "1") },
			want: "a:\n  examples:\n    one: \"1\"\nb: 1\n",
		},
		{
			name: "YAML: the keys of a list item",
			in:   "list:\n  - name: x\n    in: query\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(f.root.Get("list").Items[0], "example", 5) },
			want: "list:\n  - name: x\n    in: query\n    example: 5\n",
		},
		{
			name: "YAML: a file without a final line break",
			in:   "a:\n  b: 1",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "c", 2) },
			want: "a:\n  b: 1\n  c: 2",
		},
		{
			name: "YAML: keys removed, the next key's comment kept",
			in:   "m:\n  a: 1\n  b:\n    deep: 2\n  # about c\n  c: 3\n",
			edit: func(t *testing.T, f *textFile) error { return f.removeFields(at(t, f.root, "m"), []string{"a", "b"}) },
			want: "m:\n  # about c\n  c: 3\n",
		},
		{
			name: "YAML: every key removed leaves an empty mapping",
			in:   "m:\n  a: 1\n  b: 2\nn: 3\n",
			edit: func(t *testing.T, f *textFile) error { return f.removeFields(at(t, f.root, "m"), []string{"a", "b"}) },
			want: "m: {}\nn: 3\n",
		},
		{
			name: "JSON: a key in the siblings' indentation",
			in:   "{\n    \"a\": {\n        \"b\": 1\n    }\n}\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "ex", value) },
			want: "{\n    \"a\": {\n        \"b\": 1,\n        \"ex\": {\n            \"value\": {\n                \"id\": 1,\n                \"tags\": [\n                    \"a\",\n                    \"b: c\"\n                ]\n            }\n        }\n    }\n}\n",
		},
		{
			name: "JSON: an object on one line stays on one line",
			in:   "{\"a\": {\"b\": 1}}",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "c", []any{true, nil}) },
			want: "{\"a\": {\"b\": 1, \"c\": [true, null]}}",
		},
		{
			name: "JSON: <, > and & written as is, in keys and values",
			in:   "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n",
			edit: func(t *testing.T, f *textFile) error {
				return f.addField(at(t, f.root, "a"), "<k&>", omap{{"v<", []any{"<a&b>"}}})
			},
			want: "{\n  \"a\": {\n    \"b\": 1,\n    \"<k&>\": {\n      \"v<\": [\n        \"<a&b>\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name: "JSON: <, > and & written as is on one line",
			in:   "{\"a\": {\"b\": 1}}",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "c&", "<a&b>") },
			want: "{\"a\": {\"b\": 1, \"c&\": \"<a&b>\"}}",
		},
		{
			name: "YAML: a multi-line string with <, > and & written as is",
			in:   "a:\n  b: 1\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "c", "<a>\n&b") },
			want: "a:\n  b: 1\n  c: \"<a>\\n&b\"\n",
		},
		{
			name: "JSON: an empty object",
			in:   "{\n  \"a\": {}\n}",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "a"), "c", 1) },
			want: "{\n  \"a\": {\n    \"c\": 1\n  }\n}",
		},
		{
			name: "JSON: runs of keys removed with their commas",
			in:   "{\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4, \"e\": 5}",
			edit: func(t *testing.T, f *textFile) error { return f.removeFields(f.root, []string{"a", "b", "d"}) },
			want: "{\"c\": 3, \"e\": 5}",
		},
		{
			name: "JSON: the last key removed",
			in:   "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
			edit: func(t *testing.T, f *textFile) error { return f.removeFields(f.root, []string{"b"}) },
			want: "{\n  \"a\": 1\n}\n",
		},
		{
			name: "a scalar replaced in its own quoting",
			in:   "a: 'it''s'\nb: \"x\"\nc: plain\n",
			edit: func(t *testing.T, f *textFile) error {
				for _, k := range []string{"a", "b", "c"} {
					n := f.root.Get(k)
					f.replace(n, f.quoteLike(n, "new's"))
				}
				return nil
			},
			want: "a: 'new''s'\nb: \"new's\"\nc: new's\n",
		},
		{
			name: "columns count characters, not bytes",
			in:   "é: {ü: 1}\nm:\n  k: ☃\n",
			edit: func(t *testing.T, f *textFile) error { return f.addField(at(t, f.root, "m"), "l", "☃☃") },
			want: "é: {ü: 1}\nm:\n  k: ☃\n  l: ☃☃\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "f.yaml"
			if strings.HasPrefix(strings.TrimSpace(tc.in), "{") {
				name = "f.json"
			}
			f, err := parseTextFile(name, []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.edit(t, f); err != nil {
				t.Fatal(err)
			}
			got, err := f.result()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if _, err := spec.Parse(name, got, spec.DefaultLimits()); err != nil {
				t.Errorf("the result does not parse: %v", err)
			}
		})
	}
}

func TestTextEditRefusals(t *testing.T) {
	f, err := parseTextFile("f.yaml", []byte("a: {b: 1}\nlist:\n  - k: 1\n    j: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.addField(f.root.Get("a"), "c", 1); err == nil || !strings.Contains(err.Error(), "flow") {
		t.Errorf("adding to a flow mapping: %v", err)
	}
	if err := f.addField(f.root, "a", 1); err == nil || !strings.Contains(err.Error(), "there already") {
		t.Errorf("adding a key that exists: %v", err)
	}
	if err := f.removeFields(f.root.Get("list").Items[0], []string{"k"}); err == nil {
		t.Error("removing the first key of a list item alone was allowed")
	}
	f.add(0, 3, "x")
	f.add(2, 4, "y")
	if _, err := f.result(); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping edits: %v", err)
	}
}
