package contract_test

import (
	"net/http"
	"testing"

	"github.com/specgate/specgate/contract"
)

// FuzzCheckRequest sends arbitrary methods, paths, queries, headers and
// bodies to the contracts of the fixtures: a request is never a panic, and
// its status is one a server can answer.
func FuzzCheckRequest(f *testing.F) {
	var cs []*contract.Contract
	for _, name := range []string{"bodies-3.0.yaml", "params-3.0.yaml", "routing-3.0.yaml", "bodies-2.0.yaml", "security-3.0.yaml"} {
		cs = append(cs, newContract(f, loadFixture(f, name), contract.Options{RejectUnknownQuery: true}))
	}
	cs = append(cs, newContract(f, styleDoc(f), contract.Options{}))
	seeds := []struct{ method, path, query, header, ct, body string }{
		{"POST", "/pets", "", "", "application/json", `{"name":"Rex"}`},
		{"POST", "/pets", "", "", "application/xml", `<pet id="1"><petName>x</petName><tags><tag>a</tag></tags></pet>`},
		{"POST", "/pets", "", "", "application/x-www-form-urlencoded", "name=a&ids=1%7C2&meta=%7B%7D&a[b][0][c]=1"},
		{"POST", "/pets", "", "", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n1\r\n--x--\r\n"},
		{"GET", "/search/1", "ids=1&filter[a][b]=2&filter[]=3&limit=%ZZ", "session=a", "", ""},
		{"GET", "/path-matrix-true-object/;R=1;G=2", "", "", "", ""},
		{"GET", "/path-label-false-array/.a,b", "", "", "", ""},
		{"GET", "/v1/items/a-b-c", "", "", "", ""},
		{"PATCH", "//%2e%2e/", "&&==", "=;;=", "*/*", "\x00"},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.query, s.header, s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, method, path, query, cookie, ct string, body []byte) {
		h := http.Header{}
		if cookie != "" {
			h.Set("Cookie", cookie)
			h.Set("X-Rate-Limit", cookie)
			h.Set("Authorization", cookie)
		}
		if ct != "" {
			h.Set("Content-Type", ct)
			h.Set("Accept", ct)
		}
		for _, c := range cs {
			res := c.CheckRequest(&contract.Request{Method: method, Path: path, RawQuery: query, Header: h, Body: body})
			switch res.Status {
			case 200, 400, 401, 404, 405, 406, 415, 422:
			default:
				t.Fatalf("status %d", res.Status)
			}
			if (res.Status == 200) != res.OK() {
				t.Fatalf("status %d with problems %v", res.Status, res.Problems)
			}
		}
	})
}
