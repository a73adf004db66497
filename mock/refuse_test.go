package mock

import (
	"strings"
	"testing"
)

// A refusal is the response the operation declares for its status (the
// status, its range, then default): in a media type it declares, with its
// example or a generated body saying why, no body where it declares no
// content, the problem document where it declares problem+json and the
// schema takes it. Every answer is valid against the spec, and the
// X-Specgate-Problem header says why.
func TestDeclaredRefusals(t *testing.T) {
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/refusals.yaml"}}, MaxBodySize: 64})
	k := newChecker(t, "testdata/refusals.yaml")
	key := map[string]string{"X-Key": "k"}
	with := func(h map[string]string) map[string]string {
		out := map[string]string{"X-Key": "k"}
		for n, v := range h {
			out[n] = v
		}
		return out
	}
	jsonBody := with(map[string]string{"Content-Type": "application/json"})
	tests := []struct {
		name         string
		method, path string
		header       map[string]string
		body         string
		status       int
		contentType  string
		want         string // the body compacted, or a part of it after "…"
		why          string // the start of X-Specgate-Problem
	}{
		{"default, generated and saying why", "POST", "/api/default", jsonBody, `{"nickname": "x"}`, 400, "application/json",
			`{"code":400,"message":"POST /default: request body $: missing required property \"name\""}`, "bad-request: POST /default: request body"},
		{"no content, no body", "GET", "/api/empty?n=x", key, "", 400, "", "", "bad-request: GET /empty: query parameter n"},
		{"problem+json that the schema takes", "GET", "/api/problem", key, "", 400, "application/problem+json",
			`…"detail":"GET /problem: query parameter n: missing, and required","errors":[{"in":"query"`, "bad-request: "},
		{"problem+json that the schema does not take", "GET", "/api/strict-problem", key, "", 400, "application/problem+json", `…"traceId":`, "bad-request: "},
		{"a range's example", "GET", "/api/ranged", key, "", 400, "application/json", `{"code":4000,"message":"the request is wrong"}`, "bad-request: "},
		{"a range in XML", "GET", "/api/ranged", with(map[string]string{"Accept": "application/xml"}), "", 400, "application/xml", "…<message>GET /ranged: query parameter n", "bad-request: "},
		{"a nested error object", "GET", "/api/nested?n=1.5", key, "", 400, "application/json", `…{"error":{"code":400,"message":"GET /nested: query parameter n`, "bad-request: "},
		{"401 with its required header", "POST", "/api/upload", map[string]string{"Content-Type": "application/json"}, "{}", 401, "application/json", `…"code":401`, "unauthorized: "},
		{"406", "POST", "/api/upload", with(map[string]string{"Content-Type": "application/json", "Accept": "text/csv"}), "{}", 406, "application/json", `…"code":406`, "not-acceptable: "},
		{"413", "POST", "/api/upload", jsonBody, `{"a": "` + strings.Repeat("x", 100) + `"}`, 413, "text/plain", "…", "request-too-large: "},
		{"415", "POST", "/api/upload", with(map[string]string{"Content-Type": "text/plain"}), "x", 415, "application/json", `…"code":415`, "unsupported-media-type: "},
		{"405 declared by GET", "PUT", "/api/things", key, "", 405, "application/json", `…"code":405`, "method-not-allowed: /api/things does not declare PUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.do(t, tt.method, tt.path, tt.header, tt.body)
			if r.status != tt.status || r.header.Get("Content-Type") != tt.contentType {
				t.Fatalf("%d %q %s, want %d %q", r.status, r.header.Get("Content-Type"), r.body, tt.status, tt.contentType)
			}
			body := string(r.body)
			if tt.contentType != "" && strings.HasSuffix(tt.contentType, "json") {
				body = compact(r.json(t))
			}
			if part, ok := strings.CutPrefix(tt.want, "…"); ok {
				if !strings.Contains(body, part) {
					t.Errorf("body %s, want it to hold %s", body, part)
				}
			} else if body != tt.want {
				t.Errorf("body %s, want %s", body, tt.want)
			}
			if got := r.header.Get(ProblemHeader); !strings.HasPrefix(got, tt.why) {
				t.Errorf("%s %q, want %q…", ProblemHeader, got, tt.why)
			}
			if tt.method != "PUT" {
				k.valid(t, tt.method, tt.path, r)
			}
		})
	}
	if r := m.do(t, "PUT", "/api/things", key, ""); r.header.Get("Allow") != "GET, HEAD, POST" {
		t.Errorf("Allow %q", r.header.Get("Allow"))
	}
	if r := m.do(t, "HEAD", "/api/upload", key, ""); r.status != 405 || r.header.Get("Allow") != "POST" {
		t.Errorf("HEAD where GET is not declared: %d, Allow %q", r.status, r.header.Get("Allow"))
	}
	if r := m.do(t, "POST", "/api/upload", nil, "{}"); r.header.Get("X-Reason") == "" {
		t.Errorf("401 without its required header: %v", r.header)
	}
}
