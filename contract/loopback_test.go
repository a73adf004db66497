package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/spec"
)

// checker is a server that checks every request against a contract, as
// the mock does, and answers the status CheckRequest gives with the
// decoded parameters and body (or the problems) as JSON.
func checker(t *testing.T, c *contract.Contract, limit int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := contract.NewRequest(r, limit)
		var tooLarge *contract.TooLargeError
		if errors.As(err, &tooLarge) {
			http.Error(w, err.Error(), tooLarge.Status())
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res := c.CheckRequest(req)
		if len(res.Allow) > 0 {
			w.Header().Set("Allow", strings.Join(res.Allow, ", "))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(res.Status)
		out := map[string]any{"params": res.Params, "body": res.Body}
		if !res.OK() {
			out = map[string]any{"problems": problemStrings(res.Problems)}
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func send(t *testing.T, srv *httptest.Server, r *contract.BuiltRequest, prefix string) (int, map[string]any) {
	t.Helper()
	req, err := r.HTTPRequest(context.Background(), srv.URL+prefix)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if resp.Header.Get("Content-Type") != "application/json" {
		return resp.StatusCode, nil
	}
	d := json.NewDecoder(resp.Body)
	d.UseNumber()
	if err := d.Decode(&out); err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	return resp.StatusCode, out
}

// TestLoopbackStyles sends every row of the style table, with awkward
// text, through a real HTTP client and server: what the contract writes
// survives net/http's handling of paths, queries, headers and cookies, and
// reads back as it was.
func TestLoopbackStyles(t *testing.T) {
	doc := styleDoc(t)
	c := newContract(t, doc, contract.Options{})
	srv := checker(t, c, 1<<20)
	for _, row := range styleTable {
		for kind, value := range map[string]any{"string": "a b/ü?#%", "array": []any{"x;y", "ü", "1"}, "object": styleObject} {
			if map[string]string{"string": row.str, "array": row.array, "object": row.object}[kind] == "" {
				continue
			}
			path := fmt.Sprintf("/%s-%s-%v-%s", row.in, row.style, row.explode, kind)
			if row.in == "path" {
				path += "/{color}"
			}
			name := "color"
			if row.in == "header" {
				name = "X-Color"
			}
			if row.in == "header" && kind == "string" {
				value = "a b/ü?#%"
			}
			v := valuesIn(row.in, name, value)
			built, err := c.BuildRequest(findOp(t, doc, "get", path), v)
			if err != nil {
				t.Fatal(err)
			}
			status, out := send(t, srv, built, "")
			if status != http.StatusOK {
				t.Errorf("%s: %d %v", path, status, out["problems"])
				continue
			}
			params := out["params"].(map[string]any)
			in := map[string]string{"path": "Path", "query": "Query", "header": "Header", "cookie": "Cookie"}[row.in]
			got := params[in].(map[string]any)[name]
			if !reflect.DeepEqual(got, value) {
				t.Errorf("%s: sent %#v (%s %s?%s), server read %#v", path, value, built.Method, built.Path, built.RawQuery, got)
			}
		}
	}
}

// TestLoopbackBodies sends bodies of each family over HTTP and reads back
// what the server decoded; a body over the server's limit gets 413.
func TestLoopbackBodies(t *testing.T) {
	doc := loadFixture(t, "bodies-3.0.yaml")
	c := newContract(t, doc, contract.Options{})
	srv := checker(t, c, 4096)
	op := findOp(t, doc, "post", "/pets")
	for mt, value := range map[string]any{
		"application/json":                  map[string]any{"name": "Rex"},
		"application/xml":                   map[string]any{"name": "Rex", "tags": []any{"a"}},
		"application/x-www-form-urlencoded": map[string]any{"name": "Rex K", "tags": []any{"a", "b"}},
		"multipart/form-data":               map[string]any{"name": "Rex", "photo": contract.File{Filename: "r.txt", Data: []byte("file\r\ntext")}},
		"text/plain":                        "plain text",
	} {
		built, err := c.BuildRequest(op, contract.Values{Body: value, MediaType: mt})
		if err != nil {
			t.Fatal(err)
		}
		status, out := send(t, srv, built, "")
		if status != http.StatusOK {
			t.Errorf("%s: %d %v", mt, status, out["problems"])
			continue
		}
		want := value
		if mt == "multipart/form-data" {
			want = map[string]any{"name": "Rex", "photo": "file\r\ntext"}
		}
		if got := out["body"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: server read %#v, want %#v", mt, got, want)
		}
	}
	big, err := c.BuildRequest(op, contract.Values{Body: map[string]any{"name": strings.Repeat("x", 5000)}})
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := send(t, srv, big, ""); status != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the limit: %d, want 413", status)
	}
}

// TestLoopbackCorpus builds a request of every operation of a corpus
// document, with its security's credentials, sends it under the
// operation's server prefix, and requires the server to route it to that
// operation without a problem of parameters, content type or security.
func TestLoopbackCorpus(t *testing.T) {
	for _, name := range []string{"petstore-expanded.yaml", "uspto.yaml", "uber-v2.json", "petstore-separate-v2/spec/swagger.yaml"} {
		t.Run(name, func(t *testing.T) {
			doc := corpustest.Load(t, name)
			c := newContract(t, doc, contract.Options{})
			var routed *spec.Operation
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				req, _ := contract.NewRequest(r, 1<<20)
				res := c.CheckRequest(req)
				if res.Route != nil {
					routed = res.Route.Op
				}
				for _, p := range res.Problems {
					if p.In != contract.InBody {
						http.Error(w, p.String(), res.Status)
						return
					}
				}
			}))
			defer srv.Close()
			for _, op := range c.Operations() {
				v := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Credentials: map[string]string{}}
				for _, p := range op.Parameters {
					if p.In == "path" || p.Required && p.In == "query" {
						map[string]map[string]any{"path": v.Path, "query": v.Query}[p.In][p.Name] = valueFor(doc, p.Schema, 0)
					}
				}
				for _, s := range doc.Views().SecuritySchemes {
					v.Credentials[s.Name] = "user:secret"
				}
				built, err := c.BuildRequest(op, v)
				if err != nil {
					t.Fatalf("%s %s: %v", op.Method, op.Path, err)
				}
				routed = nil
				req, _ := built.HTTPRequest(context.Background(), srv.URL+c.Prefix(op))
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				msg, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || routed != op {
					t.Errorf("%s %s sent as %s: %d %s", op.Method, op.Path, built.URL(c.Prefix(op)), resp.StatusCode, bytes.TrimSpace(msg))
				}
			}
		})
	}
}
