package contract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// problemLine renders what a test asserts of a problem: where, the
// serialized key, the path, the keyword, the message and the place of the
// rule (file:line:col).
func problemLine(p contract.Problem) string {
	return fmt.Sprintf("%s %q %s %s: %s", p.In, p.Key, p.JSONPath(), p.Keyword, p.String())
}

func problemLines(ps []contract.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, problemLine(p))
	}
	return out
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestParameterProblems reads parameters that cannot be typed, are
// missing or are not declared, and requires each problem with its
// serialized key, path, keyword, message and the place of its rule.
func TestParameterProblems(t *testing.T) {
	c := newContract(t, loadFixture(t, "params-3.0.yaml"), contract.Options{RejectUnknownQuery: true})
	cases := []struct {
		name   string
		query  string
		header http.Header
		want   []string
		status int
	}{
		{name: "array item", query: "ids=1&ids=x&limit=1", want: []string{
			`query "ids" $[1] type: query parameter ids[1]: expected integer, got "x" (testdata/params-3.0.yaml:15:21)`,
		}},
		{name: "deepObject property", query: "filter%5Blimit%5D=abc&filter[status]=on&limit=2", want: []string{
			`query "filter[limit]" $.limit type: query parameter filter[limit]: expected integer, got "abc" (testdata/params-3.0.yaml:24:23)`,
		}},
		{name: "deepObject array item", query: "filter[tags]=a&filter[ids][0]=1&filter[ids][1]=x&limit=2", want: []string{
			`query "filter[ids]" $.ids[1] type: query parameter filter[ids][1]: expected integer, got "x" (testdata/params-3.0.yaml:26:42)`,
		}},
		{name: "missing", query: "", header: http.Header{}, want: []string{
			`query "limit" $ required: query parameter limit: missing, and required (testdata/params-3.0.yaml:27:11)`,
			`cookie "session" $ required: cookie session: missing, and required (testdata/params-3.0.yaml:51:11)`,
		}},
		{name: "empty value allowed", query: "limit=1&tag="},
		{name: "empty value of an integer", query: "limit=1&page=", want: []string{
			`query "page" $ type: query parameter page: expected integer, got an empty value (testdata/params-3.0.yaml:37:20)`,
		}},
		{name: "boolean", query: "limit=1&flag=yes", want: []string{
			`query "flag" $ type: query parameter flag: expected boolean, got "yes" (testdata/params-3.0.yaml:40:20)`,
		}},
		{name: "header", query: "limit=1", header: http.Header{"X-Rate-Limit": {"x5"}, "Cookie": {"session=a"}}, want: []string{
			`header "X-Rate-Limit" $ type: header X-Rate-Limit: expected integer, got "x5" (testdata/params-3.0.yaml:50:20)`,
		}},
		{name: "content", query: "limit=1&coords=%7Bbad", want: []string{
			`query "coords" $ syntax: query parameter coords: not application/json: line 1, column 2: invalid character 'b' looking for beginning of object key string (testdata/params-3.0.yaml:41:11)`,
		}},
		{name: "not declared", query: "limit=1&zzz=1", want: []string{
			`query "zzz" $ undeclared: query parameter zzz: not declared by GET /search/{id} (testdata/params-3.0.yaml:5:5)`,
		}},
		{name: "one of several types", query: "limit=1&either=all"},
		{name: "nullable", query: "limit=1&maybe="},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.header
			if h == nil {
				h = http.Header{"Cookie": {"session=abc"}}
			}
			res := c.CheckRequest(&contract.Request{Method: "GET", Path: "/search/12", RawQuery: tc.query, Header: h})
			sameLines(t, problemLines(res.Problems), tc.want)
			wantStatus := http.StatusOK
			if len(tc.want) > 0 {
				wantStatus = http.StatusBadRequest // neither 400 nor 422 declared
			}
			if res.Status != wantStatus {
				t.Errorf("status %d, want %d", res.Status, wantStatus)
			}
		})
	}
	res := c.CheckRequest(&contract.Request{Method: "GET", Path: "/search/x1", RawQuery: "limit=1", Header: http.Header{"Cookie": {"session=abc"}}})
	sameLines(t, problemLines(res.Problems), []string{
		`path "id" $ type: path parameter id: expected integer, got "x1" (testdata/params-3.0.yaml:10:20)`,
	})
}

// TestParameterValues reads every kind of parameter into typed values.
func TestParameterValues(t *testing.T) {
	c := newContract(t, loadFixture(t, "params-3.0.yaml"), contract.Options{})
	res := c.CheckRequest(&contract.Request{
		Method: "GET", Path: "/search/12",
		RawQuery: "ids=1&ids=2&filter[status]=on&filter[tags]=a&filter[tags]=b&limit=3&tag=&flag=true" +
			"&coords=%7B%22lat%22%3A1.5%2C%22long%22%3A2%7D&maybe=&either=all&extra=1",
		Header: http.Header{"X-Rate-Limit": {"5"}, "Cookie": {`other=1; session="s 1"`}},
	})
	if !res.OK() {
		t.Fatal(res.Problems)
	}
	want := contract.Params{
		Path: map[string]any{"id": json.Number("12")},
		Query: map[string]any{
			"ids":    []any{json.Number("1"), json.Number("2")},
			"filter": map[string]any{"status": "on", "tags": []any{"a", "b"}},
			"limit":  json.Number("3"), "tag": "", "flag": true,
			"coords": map[string]any{"lat": json.Number("1.5"), "long": json.Number("2")},
			"maybe":  nil, "either": "all",
		},
		Header: map[string]any{"X-Rate-Limit": json.Number("5")},
		Cookie: map[string]any{"session": "s 1"},
	}
	if !reflect.DeepEqual(res.Params, want) {
		t.Errorf("params\n  %#v\nwant\n  %#v", res.Params, want)
	}
	// Header names are not case-sensitive.
	res = c.CheckRequest(&contract.Request{Method: "GET", Path: "/search/12", RawQuery: "limit=1",
		Header: http.Header{"x-rate-limit": {"7"}, "Cookie": {"session=a"}}})
	if got := res.Params.Header["X-Rate-Limit"]; got != json.Number("7") {
		t.Errorf("x-rate-limit read as %#v", got)
	}
}

// TestExplodedFormObject reads an exploded form object from the query keys
// that are its properties, leaving other parameters theirs.
func TestExplodedFormObject(t *testing.T) {
	doc := loadFixture(t, "params-3.0.yaml")
	c := newContract(t, doc, contract.Options{RejectUnknownQuery: true})
	res := c.CheckRequest(&contract.Request{Method: "GET", Path: "/point", RawQuery: "x=1&y=2&x2=b"})
	if !res.OK() {
		t.Fatal(res.Problems)
	}
	want := map[string]any{"point": map[string]any{"x": json.Number("1"), "y": json.Number("2")}, "x2": "b"}
	if !reflect.DeepEqual(res.Params.Query, want) {
		t.Errorf("query %#v, want %#v", res.Params.Query, want)
	}
	built, err := c.BuildRequest(findOp(t, doc, "get", "/point"), contract.Values{Query: want})
	if err != nil {
		t.Fatal(err)
	}
	if built.RawQuery != "x=1&y=2&x2=b" {
		t.Errorf("built %q", built.RawQuery)
	}
}

// TestSwaggerCollectionFormats writes and reads Swagger 2.0's
// collectionFormat (csv, ssv, tsv, pipes, multi) in path, query and
// header.
func TestSwaggerCollectionFormats(t *testing.T) {
	doc := loadFixture(t, "params-2.0.yaml")
	c := newContract(t, doc, contract.Options{})
	op := findOp(t, doc, "get", "/c/{ids}")
	list := []any{json.Number("1"), json.Number("2"), json.Number("3")}
	v := contract.Values{
		Path:   map[string]any{"ids": list},
		Query:  map[string]any{"csv": list, "ssv": list, "tsv": list, "pipes": list, "multi": list, "n": json.Number("1.5")},
		Header: map[string]any{"X-Ids": list},
	}
	built, err := c.BuildRequest(op, v)
	if err != nil {
		t.Fatal(err)
	}
	if built.Path != "/c/1,2,3" {
		t.Errorf("path %q", built.Path)
	}
	if want := "csv=1,2,3&ssv=1%202%203&tsv=1%092%093&pipes=1%7C2%7C3&multi=1&multi=2&multi=3&n=1.5"; built.RawQuery != want {
		t.Errorf("query %q, want %q", built.RawQuery, want)
	}
	if got := built.Header.Get("X-Ids"); got != "1,2,3" {
		t.Errorf("header %q", got)
	}
	res := c.CheckRequest(built.Request(""))
	if !res.OK() {
		t.Fatal(res.Problems)
	}
	for name, got := range res.Params.Query {
		if want := v.Query[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s read back as %#v, want %#v", name, got, want)
		}
	}
	// Other spellings of the delimiters read alike.
	res = c.CheckRequest(&contract.Request{Method: "GET", Path: "/c/1,2", RawQuery: "ssv=1+2 3&pipes=1|2&tsv=1%092&X-Ids=1",
		Header: http.Header{"X-Ids": {"1, 2", "3"}}})
	want := map[string]any{"ssv": list, "pipes": list[:2], "tsv": list[:2]}
	for name, w := range want {
		if got := res.Params.Query[name]; !reflect.DeepEqual(got, w) {
			t.Errorf("%s read as %#v, want %#v", name, got, w)
		}
	}
	if got := res.Params.Header["X-Ids"]; !reflect.DeepEqual(got, list) {
		t.Errorf("X-Ids over two lines read as %#v", got)
	}
}

// TestAllowReserved leaves reserved characters of a query value
// unencoded where allowReserved says so, except those that would end it.
func TestAllowReserved(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "reserved.yaml", []byte(`openapi: 3.0.3
info: {title: reserved, version: "1"}
paths:
  /r:
    get:
      parameters:
        - {name: path, in: query, allowReserved: true, schema: {type: string}}
        - {name: plain, in: query, schema: {type: string}}
      responses: {"200": {description: ok}}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := newContract(t, doc, contract.Options{})
	v := "/a/b:c?d[e]@f!$'()*,;g&h=i#j+k l"
	built, err := c.BuildRequest(findOp(t, doc, "get", "/r"), contract.Values{Query: map[string]any{"path": v, "plain": v}})
	if err != nil {
		t.Fatal(err)
	}
	want := "path=/a/b:c?d[e]@f!$'()*,;g%26h%3Di%23j%2Bk%20l&plain=%2Fa%2Fb%3Ac%3Fd%5Be%5D%40f%21%24%27%28%29%2A%2C%3Bg%26h%3Di%23j%2Bk%20l"
	if built.RawQuery != want {
		t.Errorf("query\n  %s\nwant\n  %s", built.RawQuery, want)
	}
	res := c.CheckRequest(built.Request(""))
	if res.Params.Query["path"] != v || res.Params.Query["plain"] != v {
		t.Errorf("read back %#v", res.Params.Query)
	}
}

// TestListOrSingleValue reads several values of a parameter whose schema
// admits a list or a single value as the list, and one as itself.
func TestListOrSingleValue(t *testing.T) {
	c := newContract(t, loadFixture(t, "params-3.0.yaml"), contract.Options{})
	for query, want := range map[string]any{
		"ids=1&ids=2": []any{json.Number("1"), json.Number("2")},
		"ids=all":     "all",
	} {
		res := c.CheckRequest(&contract.Request{Method: "GET", Path: "/either-list", RawQuery: query})
		if !res.OK() || !reflect.DeepEqual(res.Params.Query["ids"], want) {
			t.Errorf("%s: %#v %v", query, res.Params.Query["ids"], res.Problems)
		}
	}
}
