package contract_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
)

func TestCheckSecurity(t *testing.T) {
	doc := loadFixture(t, "security-3.0.yaml")
	c := newContract(t, doc, contract.Options{})
	basic := "Basic dXNlcjpwYXNz" // user:pass
	cases := []struct {
		path, query string
		header      http.Header
		problem     string // "" when the request passes
		challenges  string
	}{
		{path: "/open"},
		{path: "/default", header: http.Header{"Authorization": {"Bearer abc"}}},
		{path: "/default", header: http.Header{"Authorization": {"bearer abc"}}},
		{path: "/default", header: http.Header{"Authorization": {"Bearer "}},
			problem: `security: malformed credentials: Authorization: Bearer has no token; the operation accepts a bearer token (Authorization: Bearer <token>) (bearer) (testdata/security-3.0.yaml:3:1)`, challenges: "Bearer"},
		{path: "/default", header: http.Header{"Authorization": {basic}},
			problem: "security: no credentials; the operation accepts a bearer token (Authorization: Bearer <token>) (bearer) (testdata/security-3.0.yaml:3:1)", challenges: "Bearer"},
		{path: "/either", header: http.Header{"X-Api-Key": {"k"}}},
		{path: "/either", header: http.Header{"Authorization": {basic}}},
		{path: "/either", header: http.Header{"Authorization": {"Basic not-base64"}},
			problem:    `security: malformed credentials: the credentials of Authorization: Basic are not base64 of user:password; the operation accepts an API key in header X-API-Key (apiKeyHeader), or HTTP basic credentials (Authorization: Basic base64(user:password)) (basic) (testdata/security-3.0.yaml:15:7)`,
			challenges: `Basic realm="specgate"`},
		{path: "/either", header: http.Header{"Authorization": {"Basic !!!"}},
			problem:    `security: malformed credentials: the credentials of Authorization: Basic are not base64 of user:password; the operation accepts an API key in header X-API-Key (apiKeyHeader), or HTTP basic credentials (Authorization: Basic base64(user:password)) (basic) (testdata/security-3.0.yaml:15:7)`,
			challenges: `Basic realm="specgate"`},
		{path: "/either", header: http.Header{"Authorization": {"Basic dXNlcnBhc3M="}}, // "userpass": no colon
			problem:    `security: malformed credentials: the credentials of Authorization: Basic are not base64 of user:password; the operation accepts an API key in header X-API-Key (apiKeyHeader), or HTTP basic credentials (Authorization: Basic base64(user:password)) (basic) (testdata/security-3.0.yaml:15:7)`,
			challenges: `Basic realm="specgate"`},
		{path: "/both", query: "api_key=k", header: http.Header{"Cookie": {"a=1; sid=s"}}},
		{path: "/both", query: "api_key=k",
			problem: "security: no credentials; the operation accepts an API key in cookie sid (apiKeyCookie) (testdata/security-3.0.yaml:19:7)"},
		{path: "/optional"},
		{path: "/tls"},
		{path: "/oidc", header: http.Header{"Authorization": {"Bearer t"}}},
		{path: "/oidc",
			problem: "security: no credentials; the operation accepts a bearer token (Authorization: Bearer <token>) (oidc) (testdata/security-3.0.yaml:28:11)", challenges: "Bearer"},
		{path: "/digest", header: http.Header{"Authorization": {`Digest username="u"`}}},
		{path: "/digest", header: http.Header{"Authorization": {basic}},
			problem: "security: no credentials; the operation accepts an Authorization header of scheme digest (digest) (testdata/security-3.0.yaml:30:11)", challenges: "Digest"},
		{path: "/undeclared"},
	}
	for _, tc := range cases {
		h := tc.header
		if h == nil {
			h = http.Header{}
		}
		op := findOp(t, doc, "get", tc.path)
		probs, challenges := c.CheckSecurity(op, &contract.Request{Method: "GET", Path: tc.path, RawQuery: tc.query, Header: h})
		got := strings.Join(problemStrings(probs), "\n")
		if got != tc.problem || strings.Join(challenges, ", ") != tc.challenges {
			t.Errorf("%s %v:\n  %q %q\nwant\n  %q %q", tc.path, h, got, challenges, tc.problem, tc.challenges)
		}
		if len(probs) == 1 && (probs[0].In != contract.InSecurity || probs[0].Keyword != "unauthenticated") {
			t.Errorf("%s: %s %s", tc.path, probs[0].In, probs[0].Keyword)
		}
	}
}

func problemStrings(ps []contract.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// TestUnauthenticatedComesFirst answers 401 to a request that also has an
// invalid parameter, with the challenge to send.
func TestUnauthenticatedComesFirst(t *testing.T) {
	c := newContract(t, loadFixture(t, "security-3.0.yaml"), contract.Options{})
	res := c.CheckRequest(&contract.Request{Method: "GET", Path: "/default", RawQuery: "n=x"})
	if res.Status != http.StatusUnauthorized || strings.Join(res.Challenges, ",") != "Bearer" || len(res.Problems) != 2 {
		t.Errorf("status %d challenges %q problems %v", res.Status, res.Challenges, res.Problems)
	}
	res = c.CheckRequest(&contract.Request{Method: "GET", Path: "/default", RawQuery: "n=x", Header: http.Header{"Authorization": {"Bearer t"}}})
	if res.Status != http.StatusBadRequest || len(res.Problems) != 1 {
		t.Errorf("status %d problems %v", res.Status, res.Problems)
	}
}

func TestAuthorize(t *testing.T) {
	doc := loadFixture(t, "security-3.0.yaml")
	c := newContract(t, doc, contract.Options{})
	cases := []struct {
		path  string
		creds map[string]string
		want  string // the request's credentials, or the error
	}{
		{"/default", map[string]string{"bearer": "abc"}, "Authorization: Bearer abc"},
		{"/default", map[string]string{"bearer": "Bearer abc"}, "Authorization: Bearer abc"},
		{"/default", map[string]string{}, "error: no credentials for GET /default: it needs bearer"},
		{"/open", map[string]string{"bearer": "abc"}, ""},
		{"/either", map[string]string{"basic": "dXNlcjpwYXNz"}, "Authorization: Basic dXNlcjpwYXNz"},
		{"/either", map[string]string{"basic": "user:pass"}, "Authorization: Basic dXNlcjpwYXNz"},
		{"/either", map[string]string{"apiKeyHeader": "k", "basic": "user:pass"}, "X-Api-Key: k"},
		{"/both", map[string]string{"apiKeyQuery": "k 1", "apiKeyCookie": "s;1"}, "?api_key=k%201 Cookie: sid=s%3B1"},
		{"/both", map[string]string{"apiKeyQuery": "k"}, "error: no credentials for GET /both: it needs apiKeyCookie"},
		{"/optional", nil, ""},
		{"/optional", map[string]string{"oauth": "tok"}, "Authorization: Bearer tok"},
		{"/oidc", map[string]string{"oidc": "tok"}, "Authorization: Bearer tok"},
		{"/digest", map[string]string{"digest": `username="u"`}, `Authorization: Digest username="u"`},
		{"/tls", nil, ""},
	}
	for _, tc := range cases {
		op := findOp(t, doc, "get", tc.path)
		r, err := c.BuildRequest(op, contract.Values{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := c.Authorize(op, r, tc.creds); err != nil {
			got = append(got, "error: "+err.Error())
		}
		if r.RawQuery != "" {
			got = append(got, "?"+r.RawQuery)
		}
		for _, k := range []string{"Authorization", "X-Api-Key", "Cookie"} {
			if v := r.Header.Get(k); v != "" {
				got = append(got, k+": "+v)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.path, tc.creds, strings.Join(got, " "), tc.want)
		}
		if err := c.Authorize(op, r, tc.creds); err == nil {
			// What Authorize writes, CheckSecurity accepts.
			if probs, _ := c.CheckSecurity(op, r.Request("")); probs != nil && tc.path != "/tls" {
				t.Errorf("%s: authorized request refused: %v", tc.path, probs)
			}
		}
	}
	// Values.Credentials authorizes while building.
	r, err := c.BuildRequest(findOp(t, doc, "get", "/default"), contract.Values{Credentials: map[string]string{"bearer": "x"}})
	if err != nil || r.Header.Get("Authorization") != "Bearer x" {
		t.Errorf("built with credentials: %v %v", r, err)
	}
}
