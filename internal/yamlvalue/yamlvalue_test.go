package yamlvalue

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestNode(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"scalars", map[string]any{"n": nil, "t": true, "f": false, "s": "x"}, "f: false\nn: null\ns: x\nt: true\n"},
		{"numbers as written", []any{json.Number("3"), json.Number("-0"), json.Number("1.50"), json.Number("2e3"), json.Number("12345678901234567890")},
			"- 3\n- -0\n- 1.50\n- 2e3\n- 12345678901234567890\n"},
		{"strings YAML would misread are quoted", []any{"true", "1.0", "null", "", "a: b"}, "- \"true\"\n- \"1.0\"\n- \"null\"\n- \"\"\n- 'a: b'\n"},
		{"keys sorted, nested", map[string]any{"b": []any{map[string]any{"y": json.Number("1"), "x": "<&>"}}, "a": map[string]any{}},
			"a: {}\nb:\n    - x: <&>\n      y: 1\n"},
		{"Go values through their JSON", map[string]any{"i": 3, "f": 1.5, "s": struct {
			A []int `json:"a"`
		}{[]int{1}}}, "f: 1.5\ni: 3\ns:\n    a:\n        - 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Node(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			enc := yaml.NewEncoder(&b)
			if err := enc.Encode(n); err != nil {
				t.Fatal(err)
			}
			enc.Close()
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
	if _, err := Node(map[string]any{"bad": math.Inf(1)}); err == nil || !strings.Contains(err.Error(), "unsupported value") {
		t.Errorf("an infinity: %v", err)
	}
}
