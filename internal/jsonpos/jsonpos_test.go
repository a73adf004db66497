package jsonpos

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestValueStart: the value an UnmarshalTypeError is about is found at
// its first byte, whatever its kind, depth and the strings before it.
func TestValueStart(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type doc struct {
		A int      `json:"a"`
		B []string `json:"b"`
		C inner    `json:"c"`
	}
	for _, tc := range []struct {
		in   string
		want string // the text from the wanted offset on
	}{
		{`{"a": "x"}`, `"x"}`},
		{`{"a": "a \"}\" é"}`, `"a \"}\" é"}`},
		{`{"a": [1, 2]}`, `[1, 2]}`},
		{`{"a": {"x": 1}}`, `{"x": 1}}`},
		{`{"a": true}`, `true}`},
		{"{\"b\": [\"ok\",\n  7]}", "7]}"},
		{`{"b": ["ok", {"x": ["y"]}]}`, `{"x": ["y"]}]}`},
		{`{"c": {"n": -12.5e3}}`, `-12.5e3}}`},
		{`{"b": ["", ""], "c": {"n": "1"}}`, `"1"}}`},
	} {
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(tc.in), new(doc)); !errors.As(err, &te) {
			t.Fatalf("%s: %v, want a type error", tc.in, err)
		}
		if got := tc.in[ValueStart([]byte(tc.in), te.Offset):]; got != tc.want {
			t.Errorf("%s: the value starts at %q, want %q", tc.in, got, tc.want)
		}
	}
}
