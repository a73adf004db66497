package mock

import (
	"testing"
)

// A browser's preflight is answered 204 allowing the origin, method and
// headers asked for, and every answer to a request with an Origin allows
// it and exposes its headers; --cors=false leaves both out.
func TestCORS(t *testing.T) {
	m := petsMock(t)
	pre := map[string]string{
		"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "content-type, x-tenant", "Access-Control-Request-Private-Network": "true",
	}
	for _, path := range []string{"/v1/pets", "/v1/pets/1", ReservedPrefix + "expectations"} {
		r := m.do(t, "OPTIONS", path, pre, "")
		want := map[string]string{
			"Access-Control-Allow-Origin": "http://localhost:5173", "Access-Control-Allow-Methods": "POST",
			"Access-Control-Allow-Headers": "content-type, x-tenant", "Access-Control-Allow-Credentials": "true",
			"Access-Control-Allow-Private-Network": "true", "Access-Control-Max-Age": "7200",
		}
		if r.status != 204 || len(r.body) != 0 {
			t.Errorf("preflight of %s: %d %s", path, r.status, r.body)
		}
		for k, v := range want {
			if got := r.header.Get(k); got != v {
				t.Errorf("preflight of %s: %s %q, want %q", path, k, got, v)
			}
		}
	}
	r := m.do(t, "POST", "/v1/pets", map[string]string{"Origin": "http://localhost:5173", "Content-Type": "application/json"}, `{"name": "Rex"}`)
	if r.status != 201 || r.header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" ||
		r.header.Get("Access-Control-Expose-Headers") != "Location, X-Request-Id" || r.header.Get("Vary") != "Origin" {
		t.Errorf("a request with an Origin: %d %v", r.status, r.header)
	}
	r = m.do(t, "POST", "/v1/pets", map[string]string{"Origin": "http://localhost:5173", "Content-Type": "application/json"}, `{}`)
	if r.status != 422 || r.header.Get("Access-Control-Expose-Headers") != "X-Request-Id, X-Specgate-Problem" {
		t.Errorf("a refusal with an Origin: %d %v", r.status, r.header)
	}
	// Without an Origin (not a browser), no CORS header; an OPTIONS that
	// is no preflight is the spec's to answer.
	if r := m.do(t, "GET", "/v1/pets", nil, ""); r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS headers without an Origin: %v", r.header)
	}
	m.do(t, "OPTIONS", "/v1/pets", map[string]string{"Origin": "http://localhost:5173"}, "").problem(t, 405, kindMethodNotAllowed)

	off := start(t, Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, DisableCORS: true})
	r = off.do(t, "OPTIONS", "/v1/pets", pre, "")
	r.problem(t, 405, kindMethodNotAllowed)
	if r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS headers with DisableCORS: %v", r.header)
	}
}
