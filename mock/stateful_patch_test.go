package mock

import (
	"strings"
	"testing"
)

// TestStatefulPatchThatBreaksTheResource: a merge patch that the request
// schema takes but that leaves the stored resource breaking its schema
// (a null that removes a required member) is an invalid request, refused
// as the mock refuses others: 400 bad-request as a problem document where
// the operation declares neither 400 nor 422 (never its 404, which would
// tell the client the resource is gone), the declared 422 where that is
// all it declares; nothing is stored either way.
func TestStatefulPatchThatBreaksTheResource(t *testing.T) {
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/stateful/patch.yaml"}}, Stateful: true})
	k := newChecker(t, "testdata/stateful/patch.yaml")
	patch := map[string]string{"Content-Type": "application/merge-patch+json"}
	for _, tc := range []struct {
		collection         string
		status             int
		contentType, about string
	}{
		{"notes", 400, "application/problem+json", `{"detail":"PATCH /notes/{id}: the patch makes a notes resource that breaks its schema: $: missing required property \"title\"; nothing was stored","instance":"/api/notes/`},
		{"tasks", 422, "application/json", `"message":"PATCH /tasks/{id}: the patch makes a tasks resource that breaks its schema`},
	} {
		t.Run(tc.collection, func(t *testing.T) {
			created := obj(t, m.call(t, k, "POST", "/api/"+tc.collection, `{"title": "first"}`, 201))
			id, _ := created["id"].(string)
			if id == "" {
				t.Fatalf("created %v, want an id", created)
			}
			r := m.do(t, "PATCH", "/api/"+tc.collection+"/"+id, patch, `{"title": null}`)
			if r.status != tc.status || r.header.Get("Content-Type") != tc.contentType {
				t.Fatalf("PATCH that removes the title: %d %q %s, want %d %q", r.status, r.header.Get("Content-Type"), r.body, tc.status, tc.contentType)
			}
			body := compact(r.json(t))
			if !strings.Contains(body, tc.about) {
				t.Errorf("body %s, want it to hold %s", body, tc.about)
			}
			if kind := `"type":"` + ProblemTypes + `bad-request"`; tc.status == 400 && !strings.Contains(body, kind) {
				t.Errorf("body %s, want it to hold %s", body, kind)
			}
			// A problem document says why itself; a declared answer says
			// it in the header.
			if tc.status == 422 {
				k.valid(t, "PATCH", "/api/"+tc.collection+"/"+id, r)
				if got := r.header.Get(ProblemHeader); !strings.HasPrefix(got, "unprocessable-entity: PATCH /tasks/{id}: the patch makes") || !strings.HasSuffix(got, "nothing was stored") {
					t.Errorf("%s %q", ProblemHeader, got)
				}
			}
			again := m.do(t, "PATCH", "/api/"+tc.collection+"/"+id, patch, `{}`)
			if again.status != 200 {
				t.Fatalf("an empty patch: %d %s", again.status, again.body)
			}
			if got := obj(t, again); got["title"] != "first" {
				t.Errorf("after the refused patch the resource is %v, want its title kept", got)
			}
		})
	}
}
