package examples

import (
	"encoding/json"
	"testing"

	"github.com/specgate/specgate/spec"
)

// The notation parser never panics, locates every error inside the string,
// and keeps what it parsed as written; evaluating and checking what it
// parsed never panics either.
func FuzzParseString(f *testing.F) {
	for _, s := range []string{
		"plain", "$(a.b[0][\"c\"][ROLE])", "Bearer ${A|B:{\"x\":[1]}} $(t)", "(id:integer)", "(uuid)",
		"$match(contains: [(integer), $(data.x), {\"k\": \"$match(dataType: string)\"}], atLeast: 1, atMost: 3)",
		"$match(pattern: a,b{1,2}, dataType: string, times: 2, value: each)", "$$( $${ $$match(",
		"$match(exact: {\"a\": )", "${", "$(", "$([", "$(a['b''c'])", "(x:strng)", "$match(contains: $(data.items), order: exact, contiguous: true)",
	} {
		f.Add(s)
	}
	ctx := &Context{
		Getenv:   func(string) (string, bool) { return "", false },
		Store:    map[string]any{"t": "T", "a": map[string]any{"b": []any{"x"}}},
		Generate: func(Unresolved) (any, error) { return nil, nil },
	}
	f.Fuzz(func(t *testing.T, s string) {
		quoted, _ := json.Marshal(s)
		data := append(append([]byte(`{"v": `), quoted...), '}')
		root, err := spec.Parse("f.json", data, spec.Limits{})
		if err != nil {
			return // not valid UTF-8: json.Marshal replaced bytes
		}
		n := root.Fields[0].Value
		r := &reader{file: "f.json", src: newSource("f.json", data)}
		v, perr := parseString(n.Value, r.strAt(n))
		if perr != nil {
			if perr.Pos.Line != 1 || perr.Pos.Col < 7 || int(perr.Pos.Col) > len([]rune(string(data))) {
				t.Fatalf("error %v placed outside the string", perr)
			}
			return
		}
		switch v := v.(type) {
		case *Literal:
		case *Template, *Capture, *TypeOf, *Match:
			if Literalize(v) != n.Value {
				t.Fatalf("%T keeps %q, written %q", v, Literalize(v), n.Value)
			}
		default:
			t.Fatalf("parsed into %T", v)
		}
		_, _ = ctx.Eval(v)
		ctx.Check(v, map[string]any{"a": []any{json.Number("1"), "x"}}, Equal)
		ctx.Check(v, []any{json.Number("1"), "x", nil}, Assertions)
	})
}

// Reading any file as an example never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"http-request": {"method": "GET", "path": "/a?b=1"}, "http-response": {"status": 200, "body": {"id": "(id:integer)"}}}`,
		"partial:\n  http-request: {method: GET, path: /x}\nbefore:\n  - http-request: {method: GET, path: /t, baseUrl: 'http://a'}\n    http-response: {body: {t: '(t:string)'}}\n",
		`{"http-request": {"method": "POST", "path": "/", "multipart-formdata": [{"name": "f", "filename": "@x"}]}, "http-response": {"status": 201}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Parse("f.json", []byte(s), Options{})
	})
}
