package contract_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// csvCodec reads text/csv as rows of fields, for TestCustomCodec.
type csvCodec struct{}

func (csvCodec) Decode(body []byte, _ *contract.BodyType) (any, error) {
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, r := range rows {
		row := []any{}
		for _, f := range r {
			row = append(row, f)
		}
		out = append(out, row)
	}
	return out, nil
}

func (csvCodec) Encode(v any, t *contract.BodyType) ([]byte, string, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for _, r := range v.([]any) {
		var rec []string
		for _, f := range r.([]any) {
			rec = append(rec, f.(string))
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes(), t.ContentType, nil
}

// TestCustomCodec reads a media type through a codec of Options.Codecs,
// validates what it decodes, and writes it back; without the codec the
// body is not read, and never fails.
func TestCustomCodec(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "csv.yaml", []byte(`openapi: 3.0.3
info: {title: csv, version: "1"}
paths:
  /rows:
    post:
      requestBody:
        content:
          text/csv:
            schema: {type: array, items: {type: array, maxItems: 2}}
      responses: {"204": {description: stored}}
`))
	if err != nil {
		t.Fatal(err)
	}
	op := findOp(t, doc, "post", "/rows")
	csvReq := func(body string) *contract.Request {
		return &contract.Request{Method: "POST", Path: "/rows", Header: http.Header{"Content-Type": {"text/csv"}}, Body: []byte(body)}
	}
	plain := newContract(t, doc, contract.Options{})
	if res := plain.CheckRequest(csvReq("a,b,c\n")); !res.OK() || res.Body != nil || !res.HasBody {
		t.Errorf("without a codec: %v %#v", res.Problems, res.Body)
	}
	c := newContract(t, doc, contract.Options{Codecs: map[string]contract.Codec{"text/csv": csvCodec{}}})
	res := c.CheckRequest(csvReq("a,b\nc,d\n"))
	if want := []any{[]any{"a", "b"}, []any{"c", "d"}}; !res.OK() || !reflect.DeepEqual(res.Body, want) {
		t.Errorf("%v %#v", res.Problems, res.Body)
	}
	needValidation(t)
	res = c.CheckRequest(csvReq("a,b,c\n"))
	if len(res.Problems) != 1 || res.Problems[0].Keyword != "maxItems" || res.Problems[0].JSONPath() != "$[0]" {
		t.Errorf("%v", res.Problems)
	}
	built, err := c.BuildRequest(op, contract.Values{Body: []any{[]any{"x", "y"}}})
	if err != nil || string(built.Body) != "x,y\n" || built.Header.Get("Content-Type") != "text/csv" {
		t.Errorf("%q %v %v", built.Body, built.Header, err)
	}
}

// TestTextBodies reads text/plain by its schema's type: a string, or the
// primitive the schema declares.
func TestTextBodies(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "text.yaml", []byte(`openapi: 3.0.3
info: {title: text, version: "1"}
paths:
  /count:
    put:
      requestBody:
        content:
          text/plain:
            schema: {type: integer}
      responses: {"204": {description: stored}}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := newContract(t, doc, contract.Options{})
	req := func(body string) *contract.RequestResult {
		return c.CheckRequest(&contract.Request{Method: "PUT", Path: "/count", Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(body)})
	}
	if res := req("42\n"); !res.OK() || res.Body != json.Number("42") {
		t.Errorf("%v %#v", res.Problems, res.Body)
	}
	needValidation(t)
	if res := req("many"); len(res.Problems) != 1 || res.Problems[0].Keyword != "type" || res.Problems[0].In != contract.InBody {
		t.Errorf("%v", res.Problems)
	}
}

// InlineText writes values as a template or a runtime expression puts them
// inside a string: objects and arrays as compact JSON, <, > and & as they are.
func TestInlineText(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{"a <b> & c", "a <b> & c"}, {json.Number("1.50"), "1.50"}, {nil, "null"}, {true, "true"}, {false, "false"},
		{map[string]any{"b": json.Number("2"), "a": "<x>&"}, `{"a":"<x>&","b":2}`},
		{[]any{"x", nil, []any{}}, `["x",null,[]]`}, {map[string]any{}, "{}"},
	} {
		if got := contract.InlineText(tt.v); got != tt.want {
			t.Errorf("InlineText(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{nil, "null"}, {true, "a boolean"}, {json.Number("1.5"), "a number"}, {"x", "a string"},
		{[]any{}, "an array"}, {map[string]any{}, "an object"}, {struct{}{}, "struct {}"},
		// Go numbers a caller built rather than decoded name the JSON type too.
		{int32(3), "a number"}, {float32(1.5), "a number"}, {uint64(7), "a number"},
	} {
		if got := contract.KindOf(tt.v); got != tt.want {
			t.Errorf("KindOf(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// DecodeJSON reads one JSON value with numbers as json.Number; what is not
// one value is an error placed by line and column (in characters).
func TestDecodeJSON(t *testing.T) {
	v, err := contract.DecodeJSON([]byte(" {\"n\": 12345678901234567890, \"s\": \"é\"}\n"))
	if m, ok := v.(map[string]any); err != nil || !ok || m["n"] != json.Number("12345678901234567890") || m["s"] != "é" {
		t.Errorf("DecodeJSON = %#v, %v", v, err)
	}
	for _, tc := range []struct{ body, err string }{
		{"", "empty JSON document"},
		{"  \n", "empty JSON document"},
		{"{\"a\": 1,\n \"é\": }", "line 2, column 7: invalid character '}' looking for beginning of value"},
		{"[1, 2", "line 1, column 6: unexpected end of JSON input"},
		{"{}\n\n  ]", "line 3, column 3: data after the JSON value"},
		{"1 2", "line 1, column 3: data after the JSON value"},
	} {
		if _, err := contract.DecodeJSON([]byte(tc.body)); err == nil || err.Error() != tc.err {
			t.Errorf("DecodeJSON(%q): %v, want %q", tc.body, err, tc.err)
		}
	}
}
