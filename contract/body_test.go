package contract_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
)

var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

// multipartBody writes parts: name, then either a value or a file.
func multipartBody(t *testing.T, parts ...[3]string) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disp := `form-data; name="` + p[0] + `"`
		if p[2] != "" && !strings.Contains(p[2], "/") {
			disp += `; filename="` + p[2] + `"`
			h.Set("Content-Type", "image/png")
		} else if p[2] != "" {
			h.Set("Content-Type", p[2])
		}
		h.Set("Content-Disposition", disp)
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write([]byte(p[1]))
	}
	w.Close()
	return b.Bytes(), w.FormDataContentType()
}

func post(path, contentType string, body []byte) *contract.Request {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &contract.Request{Method: "POST", Path: path, Header: h, Body: body}
}

// TestBodiesDecode reads a body of each media-type family into the value
// its schema validates.
func TestBodiesDecode(t *testing.T) {
	c := newContract(t, loadFixture(t, "bodies-3.0.yaml"), contract.Options{})
	mp, mpType := multipartBody(t,
		[3]string{"name", "Rex"}, [3]string{"count", "2"}, [3]string{"photo", string(pngBytes), "rex.png"},
		[3]string{"extra", "a", "a.png"}, [3]string{"extra", "b", "b.png"},
		[3]string{"meta", `{"color":"red"}`, "application/json"},
		[3]string{"labels", "x"}, [3]string{"labels", "y"}, [3]string{"other", "z"})
	cases := []struct {
		name, contentType, body string
		mediaType               string
		want                    any
	}{
		{"json", "application/json", `{"name":"Rex","tags":["a"],"n":1.50}`, "application/json",
			map[string]any{"name": "Rex", "tags": []any{"a"}, "n": json.Number("1.50")}},
		{"json with charset", "application/json; charset=utf-8", `{"name":"Rex"}`, "application/json",
			map[string]any{"name": "Rex"}},
		{"xml", "application/xml", `<?xml version="1.0"?>
<!-- a pet -->
<pet id="7" xmlns="urn:pets"><petName>Rex</petName><tags><tag>a</tag><tag>b</tag></tags>
  <photoUrl>u1</photoUrl><photoUrl>u2</photoUrl><alive>true</alive><color>red</color></pet>`, "application/xml",
			map[string]any{"id": json.Number("7"), "name": "Rex", "tags": []any{"a", "b"}, "photoUrls": []any{"u1", "u2"}, "alive": true, "color": "red"}},
		{"form", "application/x-www-form-urlencoded", "name=Rex+K&age=3&tags=a&tags=b&ids=1%7C2&meta=%7B%22color%22%3A%22red%22%7D&extra=x&extra=y",
			"application/x-www-form-urlencoded",
			map[string]any{"name": "Rex K", "age": json.Number("3"), "tags": []any{"a", "b"}, "ids": []any{json.Number("1"), json.Number("2")},
				"meta": map[string]any{"color": "red"}, "extra": []any{"x", "y"}}},
		{"multipart", mpType, string(mp), "multipart/form-data",
			map[string]any{"name": "Rex", "count": json.Number("2"), "photo": string(pngBytes), "extra": []any{"a", "b"},
				"meta": map[string]any{"color": "red"}, "labels": []any{"x", "y"}, "other": "z"}},
		{"text", "text/plain; charset=utf-8", "hello\nworld", "text/plain", "hello\nworld"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.CheckRequest(post("/pets", tc.contentType, []byte(tc.body)))
			if !res.OK() {
				t.Fatal(res.Problems)
			}
			if res.MediaType != tc.mediaType || !res.HasBody {
				t.Errorf("media type %q (has body %v), want %q", res.MediaType, res.HasBody, tc.mediaType)
			}
			if !reflect.DeepEqual(res.Body, tc.want) {
				t.Errorf("body\n  %#v\nwant\n  %#v", res.Body, tc.want)
			}
		})
	}
	res := c.CheckRequest(post("/pets", mpType, mp))
	var files []string
	for _, p := range res.Parts {
		if p.Filename != "" {
			files = append(files, p.Name+"="+p.Filename+" "+p.ContentType)
		}
	}
	if got := strings.Join(files, ", "); got != "photo=rex.png image/png, extra=a.png image/png, extra=b.png image/png" {
		t.Errorf("file parts: %s", got)
	}
}

// TestBodyProblems checks bodies that cannot be read, of the wrong type, or
// missing, and the status a server answers.
func TestBodyProblems(t *testing.T) {
	c := newContract(t, loadFixture(t, "bodies-3.0.yaml"), contract.Options{})
	mp, mpType := multipartBody(t, [3]string{"count", "x"}, [3]string{"meta", "{", "application/json"})
	cases := []struct {
		name   string
		req    *contract.Request
		status int
		want   []string
	}{
		{"malformed JSON", post("/pets", "application/json", []byte("{\"name\": \"x\",\n}")), 400, []string{
			`body "" $ syntax: request body: not application/json: line 2, column 1: invalid character '}' looking for beginning of object key string (testdata/bodies-3.0.yaml:9:11)`,
		}},
		{"data after JSON", post("/pets", "application/json", []byte(`{"name":"x"} {}`)), 400, []string{
			`body "" $ syntax: request body: not application/json: line 1, column 14: data after the JSON value (testdata/bodies-3.0.yaml:9:11)`,
		}},
		{"truncated JSON", post("/pets", "application/json", []byte(`{"name":`)), 400, []string{
			`body "" $ syntax: request body: not application/json: line 1, column 9: unexpected end of JSON input (testdata/bodies-3.0.yaml:9:11)`,
		}},
		{"XML not well-formed", post("/pets", "application/xml", []byte(`<pet><name>x</pet>`)), 400, []string{
			`body "" $ syntax: request body: not application/xml: XML syntax error on line 1: element <name> closed by </pet> (testdata/bodies-3.0.yaml:11:11)`,
		}},
		{"two XML roots", post("/pets", "application/xml", []byte(`<pet/><pet/>`)), 400, []string{
			`body "" $ syntax: request body: not application/xml: line 1: a second root element <pet> (testdata/bodies-3.0.yaml:11:11)`,
		}},
		{"form field type", post("/pets", "application/x-www-form-urlencoded", []byte("age=x&ids=1%7Cy")), 400, []string{
			`body "age" $.age type: form field age: expected integer, got "x" (testdata/bodies-3.0.yaml:82:15)`,
			`body "ids" $.ids[1] type: form field ids[1]: expected integer, got "y" (testdata/bodies-3.0.yaml:84:36)`,
		}},
		{"multipart part type and JSON", post("/pets", mpType, mp), 400, []string{
			`body "count" $.count type: part count: expected integer, got "x" (testdata/bodies-3.0.yaml:90:17)`,
			`body "meta" $.meta syntax: part meta: not JSON: line 1, column 2: unexpected end of JSON input`,
		}},
		{"multipart without boundary", post("/pets", "multipart/form-data", []byte("x")), 400, []string{
			`body "" $ syntax: request body: not multipart/form-data: content type "multipart/form-data" has no boundary (testdata/bodies-3.0.yaml:18:11)`,
		}},
		{"unsupported content type", post("/pets", "text/csv", []byte("a,b")), 415, []string{
			`content-type "" $ unsupported: content-type: "text/csv" is not accepted; the operation accepts application/json, application/xml, application/x-www-form-urlencoded, multipart/form-data, text/plain (testdata/bodies-3.0.yaml:6:7)`,
		}},
		{"no content type", post("/notes", "", []byte("hi")), 415, []string{
			`content-type "" $ unsupported: content-type: the request has a body but no Content-Type; the operation accepts text/plain (testdata/bodies-3.0.yaml:39:7)`,
		}},
		{"missing required body", post("/pets", "application/json", nil), 400, []string{
			`body "" $ required: request body is required (application/json, application/xml, application/x-www-form-urlencoded, multipart/form-data, text/plain) (testdata/bodies-3.0.yaml:6:7)`,
		}},
		{"optional body absent", post("/notes", "", nil), 200, nil},
		{"binary body", &contract.Request{Method: "PUT", Path: "/images/1", Header: http.Header{"Content-Type": {"image/png"}}, Body: pngBytes}, 200, nil},
		{"binary body of another type", &contract.Request{Method: "PUT", Path: "/images/1", Header: http.Header{"Content-Type": {"image/gif"}}, Body: pngBytes}, 415, []string{
			`content-type "" $ unsupported: content-type: "image/gif" is not accepted; the operation accepts image/png, application/octet-stream (testdata/bodies-3.0.yaml:49:7)`,
		}},
		{"body without type taken as octet-stream", &contract.Request{Method: "PUT", Path: "/images/1", Body: pngBytes}, 200, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.CheckRequest(tc.req)
			sameLines(t, problemLines(res.Problems), tc.want)
			if res.Status != tc.status {
				t.Errorf("status %d, want %d", res.Status, tc.status)
			}
		})
	}
}

// TestBodiesRoundTrip builds a request body in each media type and reads
// it back: the tester writes what the mock reads.
func TestBodiesRoundTrip(t *testing.T) {
	doc := loadFixture(t, "bodies-3.0.yaml")
	c := newContract(t, doc, contract.Options{})
	op := findOp(t, doc, "post", "/pets")
	pet := map[string]any{"name": "Rex & <Co>", "tags": []any{"a", "b"}, "photoUrls": []any{"u1"}, "alive": false}
	cases := []struct {
		mediaType string
		value     any
		wantBody  string // "" when not compared
		readBack  any
	}{
		{"application/json", pet, `{"alive":false,"name":"Rex & <Co>","photoUrls":["u1"],"tags":["a","b"]}`, pet},
		{"application/xml", map[string]any{"id": json.Number("7"), "name": "Rex & <Co>", "tags": []any{"a", "b"}, "photoUrls": []any{"u1"}, "alive": false},
			`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<pet id="7"><petName>Rex &amp; &lt;Co&gt;</petName><tags><tag>a</tag><tag>b</tag></tags><photoUrl>u1</photoUrl><alive>false</alive></pet>`,
			map[string]any{"id": json.Number("7"), "name": "Rex & <Co>", "tags": []any{"a", "b"}, "photoUrls": []any{"u1"}, "alive": false}},
		{"application/x-www-form-urlencoded",
			map[string]any{"name": "Rex K", "age": json.Number("3"), "tags": []any{"a", "b"}, "ids": []any{json.Number("1"), json.Number("2")}, "meta": map[string]any{"color": "red"}},
			"name=Rex%20K&age=3&tags=a&tags=b&ids=1%7C2&meta=%7B%22color%22%3A%22red%22%7D",
			map[string]any{"name": "Rex K", "age": json.Number("3"), "tags": []any{"a", "b"}, "ids": []any{json.Number("1"), json.Number("2")}, "meta": map[string]any{"color": "red"}}},
		{"multipart/form-data",
			map[string]any{"name": "Rex", "count": json.Number("2"), "photo": contract.File{Filename: "rex.png", Data: pngBytes},
				"extra": []any{[]byte("a"), []byte("b")}, "meta": map[string]any{"color": "red"}, "labels": []any{"x", "y"}},
			"",
			map[string]any{"name": "Rex", "count": json.Number("2"), "photo": string(pngBytes), "extra": []any{"a", "b"},
				"meta": map[string]any{"color": "red"}, "labels": []any{"x", "y"}}},
		{"text/plain", "hello", "hello", "hello"},
	}
	for _, tc := range cases {
		t.Run(tc.mediaType, func(t *testing.T) {
			built, err := c.BuildRequest(op, contract.Values{Body: tc.value, MediaType: tc.mediaType})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantBody != "" && string(built.Body) != tc.wantBody {
				t.Errorf("body\n  %s\nwant\n  %s", built.Body, tc.wantBody)
			}
			if built.MediaType != tc.mediaType {
				t.Errorf("media type %q", built.MediaType)
			}
			res := c.CheckRequest(built.Request(""))
			if !res.OK() {
				t.Fatalf("%s: %v", built.Header.Get("Content-Type"), res.Problems)
			}
			if !reflect.DeepEqual(res.Body, tc.readBack) {
				t.Errorf("read back\n  %#v\nwant\n  %#v", res.Body, tc.readBack)
			}
			if tc.mediaType == "multipart/form-data" {
				var got []string
				for _, p := range res.Parts {
					got = append(got, p.Name+":"+p.Filename+":"+p.ContentType)
				}
				want := "name::,count::,photo:rex.png:image/png,extra:extra:application/octet-stream,extra:extra:application/octet-stream,meta::application/json,labels::,labels::"
				if strings.Join(got, ",") != want {
					t.Errorf("parts %s\nwant  %s", strings.Join(got, ","), want)
				}
			}
		})
	}
	// No media type asked: the first declared.
	built, err := c.BuildRequest(op, contract.Values{Body: pet})
	if err != nil {
		t.Fatal(err)
	}
	if ct := built.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("default content type %q", ct)
	}
	if _, err := c.BuildRequest(op, contract.Values{Body: pet, MediaType: "text/csv"}); err == nil ||
		err.Error() != "POST /pets does not accept a body of text/csv (it accepts application/json, application/xml, application/x-www-form-urlencoded, multipart/form-data, text/plain)" {
		t.Errorf("err = %v", err)
	}
}

// TestSwaggerFormData reads and writes Swagger 2.0 formData parameters as
// the fields of a multipart or form body.
func TestSwaggerFormData(t *testing.T) {
	doc := loadFixture(t, "bodies-2.0.yaml")
	c := newContract(t, doc, contract.Options{})
	op := findOp(t, doc, "post", "/upload")
	for _, mt := range []string{"multipart/form-data", "application/x-www-form-urlencoded"} {
		value := map[string]any{"file": contract.File{Filename: "a.txt", ContentType: "text/plain", Data: []byte("data")},
			"name": "n", "count": json.Number("4"), "tags": []any{"x", "y"}}
		built, err := c.BuildRequest(op, contract.Values{Body: value, MediaType: mt})
		if err != nil {
			t.Fatal(err)
		}
		res := c.CheckRequest(built.Request(""))
		if !res.OK() {
			t.Fatalf("%s: %v", mt, res.Problems)
		}
		want := map[string]any{"file": "data", "name": "n", "count": json.Number("4"), "tags": []any{"x", "y"}}
		if !reflect.DeepEqual(res.Body, want) {
			t.Errorf("%s: read back %#v", mt, res.Body)
		}
	}
	body, ct := multipartBody(t, [3]string{"count", "many"})
	res := c.CheckRequest(post("/upload", ct, body))
	sameLines(t, problemLines(res.Problems), []string{
		`body "count" $.count type: part count: expected integer, got "many" (testdata/bodies-2.0.yaml:10:39)`,
		`body "file" $.file required: form field file: missing, and required (testdata/bodies-2.0.yaml:8:11)`,
		`body "name" $.name required: form field name: missing, and required (testdata/bodies-2.0.yaml:9:11)`,
	})
}

// TestMultipartBoundary builds the same multipart body each time, and
// picks another boundary when a part holds the first.
func TestMultipartBoundary(t *testing.T) {
	doc := loadFixture(t, "bodies-3.0.yaml")
	c := newContract(t, doc, contract.Options{})
	op := findOp(t, doc, "post", "/pets")
	build := func(data string) *contract.BuiltRequest {
		t.Helper()
		r, err := c.BuildRequest(op, contract.Values{MediaType: "multipart/form-data",
			Body: map[string]any{"name": "Rex", "photo": contract.File{Filename: "a.txt", Data: []byte(data)}}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := build("x"), build("x")
	if !bytes.Equal(a.Body, b.Body) || a.Header.Get("Content-Type") != "multipart/form-data; boundary=specgate-boundary-0" {
		t.Errorf("not the same body twice, or boundary %q", a.Header.Get("Content-Type"))
	}
	tricky := build("a line\r\n--specgate-boundary-0\r\nin the file")
	if got := tricky.Header.Get("Content-Type"); got != "multipart/form-data; boundary=specgate-boundary-1" {
		t.Errorf("Content-Type %q", got)
	}
	res := c.CheckRequest(tricky.Request(""))
	if !res.OK() || res.Body.(map[string]any)["photo"] != "a line\r\n--specgate-boundary-0\r\nin the file" {
		t.Errorf("%v %#v", res.Problems, res.Body)
	}
}
