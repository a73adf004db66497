package contract_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/spec"
)

func loadFixture(t testing.TB, name string) *spec.Document {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func newContract(t testing.TB, doc *spec.Document, opts contract.Options) *contract.Contract {
	t.Helper()
	c, err := contract.New(doc, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// routeCase is one request to route: the operation it reaches (by its
// template and method, or operationId), the prefix taken and the variables
// bound, or the status and Allow list of a RouteError.
type routeCase struct {
	method, path string
	template     string // "" for an error
	opID         string
	prefix       string
	params       string // name=value,… in template order
	status       int
	allow        string
}

func runRoutes(t *testing.T, c *contract.Contract, cases []routeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r, err := c.Route(tc.method, tc.path)
			if tc.template == "" && tc.opID == "" {
				var re *contract.RouteError
				if !errors.As(err, &re) {
					t.Fatalf("routed to %s %s, want status %d", r.Op.Method, r.Template, tc.status)
				}
				if re.Status != tc.status || strings.Join(re.Allow, ",") != tc.allow {
					t.Errorf("status %d allow %q, want %d %q", re.Status, strings.Join(re.Allow, ","), tc.status, tc.allow)
				}
				return
			}
			if err != nil {
				t.Fatalf("no route: %v", err)
			}
			if tc.template != "" && r.Template != tc.template {
				t.Errorf("template %q, want %q", r.Template, tc.template)
			}
			if tc.opID != "" && r.Op.OperationID != tc.opID {
				t.Errorf("operation %q (%s), want %q", r.Op.OperationID, r.Template, tc.opID)
			}
			if !strings.EqualFold(r.Op.Method, tc.method) {
				t.Errorf("method %s, want %s", r.Op.Method, tc.method)
			}
			if r.Prefix != tc.prefix {
				t.Errorf("prefix %q, want %q", r.Prefix, tc.prefix)
			}
			var got []string
			for _, p := range r.PathParams {
				got = append(got, p.Name+"="+p.Value)
			}
			if strings.Join(got, ",") != tc.params {
				t.Errorf("params %q, want %q", strings.Join(got, ","), tc.params)
			}
		})
	}
}

func TestRouteOpenAPI30(t *testing.T) {
	c := newContract(t, loadFixture(t, "routing-3.0.yaml"), contract.Options{})
	runRoutes(t, c, []routeCase{
		// Server prefixes: an absolute URL's path, a relative URL, and a
		// templated one by its defaults and by its enum.
		{method: "GET", path: "/v1/pets", template: "/pets", prefix: "/v1"},
		{method: "get", path: "/v2/pets", template: "/pets", prefix: "/v2"},
		{method: "GET", path: "/api/svc/pets", template: "/pets", prefix: "/api/svc"},
		{method: "GET", path: "/beta/svc/pets", template: "/pets", prefix: "/beta/svc"},
		{method: "GET", path: "/gamma/svc/pets", status: 404},
		{method: "GET", path: "/pets", status: 404},
		{method: "GET", path: "/v1/nothing", status: 404},
		// Literal segments before templated ones, for the method asked.
		{method: "POST", path: "/v1/pets/mine", template: "/pets/mine", prefix: "/v1"},
		{method: "GET", path: "/v1/pets/mine", template: "/pets/{petId}", prefix: "/v1", params: "petId=mine"},
		{method: "PATCH", path: "/v1/pets/mine", status: 405, allow: "GET,POST,DELETE"},
		{method: "DELETE", path: "/v1/pets", status: 405, allow: "GET,POST"},
		// Path variables are percent-decoded after splitting.
		{method: "GET", path: "/v1/pets/a%20b%2Fc", template: "/pets/{petId}", prefix: "/v1", params: "petId=a b/c"},
		// Templates inside segments.
		{method: "GET", path: "/v1/files/report.json", opID: "fileJSON", prefix: "/v1", params: "name=report"},
		{method: "GET", path: "/v1/files/report.xml", opID: "file", prefix: "/v1", params: "name=report.xml"},
		{method: "GET", path: "/v1/files/a.b.json", opID: "fileJSON", prefix: "/v1", params: "name=a.b"},
		{method: "GET", path: "/v1/photos/a.b.png", template: "/photos/{id}.{ext}", prefix: "/v1", params: "id=a,ext=b.png"},
		{method: "GET", path: "/v1/items/x-y-z", template: "/items/{a}-{b}", prefix: "/v1", params: "a=x,b=y-z"},
		{method: "GET", path: "/v1/items/x-", status: 404},
		{method: "GET", path: "/v1/v3/x", template: "/v{version}/x", prefix: "/v1", params: "version=3"},
		{method: "GET", path: "/v2/v2/x", template: "/v{version}/x", prefix: "/v2", params: "version=2"},
		{method: "GET", path: "/v1/1,2", template: "/{a},{b}", prefix: "/v1", params: "a=1,b=2"},
		// A longer literal start wins.
		{method: "GET", path: "/v1/a/b/c", opID: "literalFirst", prefix: "/v1", params: "x=b"},
		{method: "GET", path: "/v1/z/b/c", opID: "templateFirst", prefix: "/v1", params: "y=z"},
		// Templates of one shape: source order, per method.
		{method: "GET", path: "/v1/users/ann", opID: "userById", prefix: "/v1", params: "id=ann"},
		{method: "PUT", path: "/v1/users/ann", opID: "putUser", prefix: "/v1", params: "name=ann"},
		{method: "DELETE", path: "/v1/users/ann", status: 405, allow: "GET,PUT"},
		// Trailing slashes.
		{method: "GET", path: "/v1/slash/", opID: "slashed", prefix: "/v1"},
		{method: "GET", path: "/v1/slash", status: 404},
		{method: "GET", path: "/v1/noslash/", opID: "unslashed", prefix: "/v1"},
		// A template's own query.
		{method: "GET", path: "/v1/search?mode=beta&q=x", opID: "searchBeta", prefix: "/v1"},
		{method: "GET", path: "/v1/search?mode=alpha", opID: "search", prefix: "/v1"},
		{method: "GET", path: "/v1/search", opID: "search", prefix: "/v1"},
		// Path-item servers replace the document's for their operations.
		{method: "GET", path: "/other/special/7", opID: "special", prefix: "/other", params: "id=7"},
		{method: "GET", path: "/v1/special/7", status: 404},
		// A literal written unencoded matches its encoding.
		{method: "GET", path: "/v1/caf%C3%A9/1", opID: "cafe", prefix: "/v1", params: "id=1"},
	})
}

func TestRouteSwagger20BasePath(t *testing.T) {
	c := newContract(t, loadFixture(t, "routing-2.0.yaml"), contract.Options{})
	runRoutes(t, c, []routeCase{
		{method: "GET", path: "/api/v2/pets", template: "/pets", prefix: "/api/v2"},
		{method: "GET", path: "/api/v2/pets/5", template: "/pets/{petId}", prefix: "/api/v2", params: "petId=5"},
		{method: "HEAD", path: "/api/v2/pets/5", template: "/pets/{petId}", prefix: "/api/v2", params: "petId=5"},
		{method: "POST", path: "/api/v2/pets/5", status: 405, allow: "GET,HEAD"},
		{method: "GET", path: "/pets", status: 404},
	})
}

func TestRouteOpenAPI31(t *testing.T) {
	c := newContract(t, loadFixture(t, "routing-3.1.yaml"), contract.Options{})
	runRoutes(t, c, []routeCase{
		{method: "GET", path: "/", opID: "root"},
		{method: "GET", path: "", opID: "root"},
		{method: "GET", path: "/reports/latest/05", opID: "latest", params: "month=05"},
		{method: "GET", path: "/reports/2024/05", opID: "report", params: "year=2024,month=05"},
		{method: "GET", path: "/reports/2024", status: 404},
	})
}

func TestRoutePrefixOption(t *testing.T) {
	doc := loadFixture(t, "routing-3.0.yaml")
	root := newContract(t, doc, contract.Options{Prefixes: []string{""}})
	runRoutes(t, root, []routeCase{
		{method: "GET", path: "/pets", template: "/pets"},
		{method: "GET", path: "/v1/pets", status: 404},
		// Servers ignored: path-item servers too.
		{method: "GET", path: "/special/7", opID: "special", params: "id=7"},
	})
	mock := newContract(t, doc, contract.Options{Prefixes: []string{"/mock/"}})
	runRoutes(t, mock, []routeCase{
		{method: "GET", path: "/mock/pets", template: "/pets", prefix: "/mock"},
		{method: "GET", path: "/pets", status: 404},
	})
	if got := mock.Prefix(doc.Views().Operations[0]); got != "/mock" {
		t.Errorf("Prefix = %q, want /mock", got)
	}
	if got := newContract(t, doc, contract.Options{}).Prefix(doc.Views().Operations[0]); got != "/v1" {
		t.Errorf("Prefix = %q, want /v1 (the first server's)", got)
	}
}

func TestRouteErrorMessages(t *testing.T) {
	c := newContract(t, loadFixture(t, "routing-2.0.yaml"), contract.Options{})
	_, err := c.Route("post", "/api/v2/pets/5")
	if got, want := err.Error(), "method POST is not declared for /api/v2/pets/5 (allowed: GET, HEAD)"; got != want {
		t.Errorf("405: %q, want %q", got, want)
	}
	_, err = c.Route("GET", "/nope")
	if got, want := err.Error(), "no operation matches GET /nope"; got != want {
		t.Errorf("404: %q, want %q", got, want)
	}
	var re *contract.RouteError
	if !errors.As(err, &re) || re.Status != http.StatusNotFound || re.Allow != nil {
		t.Errorf("404 error = %#v", err)
	}
}

// TestRouteDoesNotAllocateMuch keeps routing on the mock's hot path to the
// Route it returns and its parameters.
func TestRouteDoesNotAllocateMuch(t *testing.T) {
	c := newContract(t, loadFixture(t, "routing-3.0.yaml"), contract.Options{})
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := c.Route("GET", "/v1/items/x-y"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("Route allocates %v times, want at most 2 (the Route and its parameters)", allocs)
	}
}

func TestNewRefusesAsyncAPI(t *testing.T) {
	doc := corpustest.Load(t, "asyncapi-slack-rtm.yml")
	_, err := contract.New(doc, nil, contract.Options{})
	if err == nil || !strings.Contains(err.Error(), "is AsyncAPI 3.1.0, not an OpenAPI document") {
		t.Errorf("err = %v", err)
	}
}

// A path key's fragment ("#X-Amz-Target=…", "#Action=…", "#tagKeys") is
// no part of the path a request carries: it names the header or query
// parameter, or the value of one, that tells operations of one path
// apart.
func TestRouteFragments(t *testing.T) {
	c := newContract(t, loadFixture(t, "fragments-3.0.yaml"), contract.Options{})
	target := func(v string) http.Header { return http.Header{"X-Amz-Target": {v}} }
	for _, tc := range []struct {
		method, path string
		header       http.Header
		want         string // the operationId, or the status of a RouteError
	}{
		{"POST", "/", target("CertificateManager.DeleteCertificate"), "DeleteCertificate"},
		{"POST", "/", target("CertificateManager.AddTagsToCertificate"), "AddTagsToCertificate"},
		// Without what any fragment asks for, the first template that
		// declares the method: its check says what is wrong.
		{"POST", "/", target("Other.Thing"), "AddTagsToCertificate"},
		{"POST", "/", nil, "AddTagsToCertificate"},
		{"GET", "/?Action=AddPartner&Version=1", nil, "AddPartner"},
		{"GET", "/?Version=1&Action=AcceptReservedNodeExchange", nil, "AcceptReservedNodeExchange"},
		{"GET", "/?Action=Nothing", nil, "AcceptReservedNodeExchange"},
		{"DELETE", "/tags/arn:1?tagKeys=a&tagKeys=b", nil, "UntagResource"},
		{"GET", "/tags/arn:1", nil, "ListTagsForResource"},
		{"DELETE", "/tags/arn:1", nil, "UntagResource"},
		{"PATCH", "/tags/arn:1", nil, "405"},
		{"PUT", "/", target("CertificateManager.DeleteCertificate"), "405"},
	} {
		r, err := c.RouteRequest(&contract.Request{Method: tc.method, Path: strings.SplitN(tc.path, "?", 2)[0], RawQuery: strings.TrimPrefix(tc.path[len(strings.SplitN(tc.path, "?", 2)[0]):], "?"), Header: tc.header})
		got := ""
		var re *contract.RouteError
		switch {
		case err == nil:
			got = r.Op.OperationID
		case errors.As(err, &re):
			got = strconv.Itoa(re.Status)
		}
		if got != tc.want {
			t.Errorf("%s %s %v: %s (%v), want %s", tc.method, tc.path, tc.header, got, err, tc.want)
		}
	}
	// CheckRequest routes the same way.
	res := c.CheckRequest(&contract.Request{Method: "POST", Path: "/", Header: target("CertificateManager.DeleteCertificate")})
	if !res.OK() || res.Route.Op.OperationID != "DeleteCertificate" {
		t.Errorf("CheckRequest: %v %+v", res.Problems, res.Route)
	}
	res = c.CheckRequest(&contract.Request{Method: "DELETE", Path: "/tags/arn:1"})
	if res.Status != 400 || res.Route == nil || res.Route.Op.OperationID != "UntagResource" || !strings.Contains(res.Problems[0].Message, "tagKeys") {
		t.Errorf("CheckRequest without tagKeys: %d %v", res.Status, res.Problems)
	}
	// A request built for a template with a fragment leaves it out.
	built, err := c.BuildRequest(res.Route.Op, contract.Values{Path: map[string]any{"resourceArn": "arn:1"}, Query: map[string]any{"tagKeys": []any{"a"}}})
	if err != nil || built.URL("") != "/tags/arn%3A1?tagKeys=a" {
		t.Errorf("BuildRequest: %v %v", built, err)
	}
	// Route, without headers, drops a fragment as a client does.
	if r, err := c.Route("GET", "/#Action=AddPartner?Action=AddPartner"); err != nil || r.Op.OperationID != "AcceptReservedNodeExchange" {
		t.Errorf("Route with a fragment: %v %v", r, err)
	}
}
