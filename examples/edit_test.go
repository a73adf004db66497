package examples

import (
	"encoding/json"
	"testing"
)

// Edits of a JSON file change the bytes of the edited values only; edits
// of a YAML file keep its comments, styles and indentation.
func TestApplyEdits(t *testing.T) {
	num := json.Number("5")
	tests := []struct {
		name, file, text string
		edits            []edit
		want             string
	}{
		{"set a scalar", "a.json", `{"a": "5", "b": 1}`,
			[]edit{{kind: editSet, segs: []any{"a"}, value: num}},
			`{"a": 5, "b": 1}`},
		{"remove the first member", "a.json", "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
			[]edit{{kind: editRemove, segs: []any{"a"}}},
			"{\n  \"b\": 2\n}\n"},
		{"remove the last member", "a.json", "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
			[]edit{{kind: editRemove, segs: []any{"b"}}},
			"{\n  \"a\": 1\n}\n"},
		{"remove the only member", "a.json", `{"x": {"a": 1}}`,
			[]edit{{kind: editRemove, segs: []any{"x", "a"}}},
			`{"x": {}}`},
		{"remove two neighbours in one round", "a.json", `{"a": 1, "b": 2, "c": 3}`,
			[]edit{{kind: editRemove, segs: []any{"a"}}, {kind: editRemove, segs: []any{"b"}}},
			`{"c": 3}`},
		{"add to a one-line object", "a.json", `{"x": {"a": 1}}`,
			[]edit{{kind: editAdd, segs: []any{"x"}, key: "b", value: map[string]any{"c": true}}, {kind: editAdd, segs: []any{"x"}, key: "d", value: "e"}},
			`{"x": {"a": 1, "b": {"c": true}, "d": "e"}}`},
		{"add to an indented object", "a.json", "{\n    \"x\": {\n        \"a\": 1\n    }\n}\n",
			[]edit{{kind: editAdd, segs: []any{"x"}, key: "b", value: map[string]any{"c": []any{num}}}},
			"{\n    \"x\": {\n        \"a\": 1,\n        \"b\": {\n            \"c\": [\n                5\n            ]\n        }\n    }\n}\n"},
		{"add to an empty object", "a.json", `{"x": {}}`,
			[]edit{{kind: editAdd, segs: []any{"x"}, key: "k", value: "<v>"}},
			`{"x": {"k": "<v>"}}`},
		{"a tab-indented file", "a.json", "{\n\t\"a\": 1\n}",
			[]edit{{kind: editAdd, segs: nil, key: "b", value: map[string]any{"c": num}}},
			"{\n\t\"a\": 1,\n\t\"b\": {\n\t\t\"c\": 5\n\t}\n}"},
		{"an edit inside a removed member waits", "a.json", `{"a": {"b": 1}}`,
			[]edit{{kind: editRemove, segs: []any{"a"}}, {kind: editSet, segs: []any{"a", "b"}, value: num}},
			`{}`},
		{"YAML keeps comments and flow style", "a.yaml", "# head\na:\n  b: x  # why\n  c: {d: 1}\n",
			[]edit{{kind: editSet, segs: []any{"a", "b"}, value: num}, {kind: editAdd, segs: []any{"a", "c"}, key: "e", value: "true"}},
			"# head\na:\n  b: 5 # why\n  c: {d: 1, e: \"true\"}\n"},
		{"YAML at four spaces", "a.yml", "a:\n    b: 1\n    c: 2\n",
			[]edit{{kind: editRemove, segs: []any{"a", "b"}}, {kind: editAdd, segs: []any{"a"}, key: "d", value: []any{"x"}}},
			"a:\n    c: 2\n    d:\n        - x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyEdits(tt.file, []byte(tt.text), tt.edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// Credentials keep their token when their form is repaired.
func TestRepairCredential(t *testing.T) {
	k := NewChecker(newContract(t, "testdata/check/api.yaml"), nil)
	bearer, basic := k.schemes["bearerAuth"], k.schemes["basicAuth"]
	for _, tt := range []struct {
		scheme   string
		in, want string
	}{
		{"bearer", "Token abc", "Bearer abc"},
		{"bearer", "abc", "Bearer abc"},
		{"bearer", "Bearer", "Bearer ${bearerAuth:specgate-token}"},
		{"bearer", "JWT $(token)", "Bearer $(token)"},
		{"basic", "Basic user:secret", "Basic dXNlcjpzZWNyZXQ="},
		{"basic", "user:secret", "Basic dXNlcjpzZWNyZXQ="},
		{"basic", "Bearer abc", "Basic ${basicAuth:c3BlY2dhdGU6c3BlY2dhdGU=}"},
	} {
		s := bearer
		if tt.scheme == "basic" {
			s = basic
		}
		if got := repairCredential(s, tt.in); got != tt.want {
			t.Errorf("%s %q: got %q, want %q", tt.scheme, tt.in, got, tt.want)
		}
	}
}

// A value is converted only when its text reads as the wanted type; a
// placeholder takes the schema's type.
func TestCoerceAndRetype(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want []string
		out  any
		ok   bool
	}{
		{"5", []string{"integer"}, json.Number("5"), true},
		{" 07 ", []string{"integer"}, json.Number("7"), true},
		{"5.5", []string{"integer"}, nil, false},
		{"5.5", []string{"number"}, json.Number("5.5"), true},
		{"NaN", []string{"number"}, nil, false},
		{"TRUE", []string{"boolean"}, true, true},
		{"yes", []string{"boolean"}, nil, false},
		{json.Number("42"), []string{"string"}, "42", true},
		{true, []string{"string"}, "true", true},
		{map[string]any{}, []string{"string"}, nil, false},
		{"x", []string{"null", "integer"}, nil, false},
	} {
		out, ok := coerce(tt.in, tt.want)
		if ok != tt.ok || ok && out != tt.out {
			t.Errorf("coerce(%#v, %v) = %#v, %v; want %#v, %v", tt.in, tt.want, out, ok, tt.out, tt.ok)
		}
	}
	for in, want := range map[string]string{
		"(string)":                           "(integer)",
		"(id:string)":                        "(id:integer)",
		"$match(dataType: string)":           "$match(dataType: integer)",
		"$match(dataType: string, times: 2)": "$match(dataType: integer, times: 2)",
	} {
		if got := retype(in, []string{"null", "integer"}); got != want {
			t.Errorf("retype(%q) = %q, want %q", in, got, want)
		}
	}
}
