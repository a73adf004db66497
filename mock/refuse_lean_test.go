package mock

import (
	"slices"
	"strings"
	"testing"
)

// TestLeanRefusals: a refusal generated from an error schema that holds
// every object an error may concern (as Stripe's does) carries what the
// schema requires and the fields that say why, not a generated copy of
// each optional object: a body a person reads. A schema that needs more
// than that (minProperties) gets its whole generated body. Every answer
// is valid against the spec.
func TestLeanRefusals(t *testing.T) {
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/lean_refusals.yaml"}}})
	k := newChecker(t, "testdata/lean_refusals.yaml")
	for _, tc := range []struct {
		name, path, contentType, body string
		status                        int
		members                       []string // of the error object, sorted
		why                           string
	}{
		{"415", "/api/charges", "text/plain", "x", 415, []string{"code", "message", "type"},
			`POST /charges: content-type: "text/plain" is not accepted; the operation accepts application/json`},
		{"400", "/api/charges", "application/json", `{"amount": 0}`, 400, []string{"code", "message", "type"},
			"POST /charges: request body $.amount: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := m.do(t, "POST", tc.path, map[string]string{"Content-Type": tc.contentType}, tc.body)
			if r.status != tc.status {
				t.Fatalf("%d %s, want %d", r.status, r.body, tc.status)
			}
			k.valid(t, "POST", tc.path, r)
			if len(r.body) > 512 {
				t.Errorf("the refusal is %d bytes: %s", len(r.body), r.body)
			}
			doc, _ := r.json(t).(map[string]any)
			if len(doc) != 1 {
				t.Fatalf("body %s, want the error object alone", r.body)
			}
			e, _ := doc["error"].(map[string]any)
			var members []string
			for k := range e {
				members = append(members, k)
			}
			slices.Sort(members)
			if !slices.Equal(members, tc.members) {
				t.Errorf("error members %q, want %q (body %s)", members, tc.members, r.body)
			}
			if msg, _ := e["message"].(string); !strings.HasPrefix(msg, tc.why) {
				t.Errorf("message %q, want %q…", msg, tc.why)
			}
		})
	}
	r := m.do(t, "POST", "/api/strict", map[string]string{"Content-Type": "text/plain"}, "x")
	if r.status != 415 {
		t.Fatalf("%d %s, want 415", r.status, r.body)
	}
	k.valid(t, "POST", "/api/strict", r)
	if doc, _ := r.json(t).(map[string]any); len(doc) < 2 {
		t.Errorf("body %s, want at least two members", r.body)
	}
}
