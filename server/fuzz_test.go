package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/reports"
)

// noNetwork stands in for the network while fuzzing: no fetch leaves the
// machine.
type noNetwork struct{}

func (noNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network while fuzzing")
}

// FuzzLintRequest posts arbitrary bodies to /lint-reports. Whatever the
// body, the server answers with a report or a problem of a documented
// status, never a panic (a 500) or anything else; a body it accepts is
// JSON.
func FuzzLintRequest(f *testing.F) {
	seeds := []string{
		`{"spec": "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n"}`,
		lintBody(map[string]string{"spec": smallSpec, "profile": "strict", "format": "sarif"}),
		`{"spec": "{\"swagger\": \"2.0\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": {}}"}`,
		`{"spec": "asyncapi: 3.0.0\ninfo: {title: t, version: '1'}\n"}`,
		`{"spec": "openapi: 3.1.0\ncomponents:\n  schemas:\n    A: {$ref: 'b.yaml#/B'}\n"}`,
		`{"specUrl": "https://example.com/openapi.yaml"}`,
		`{"specUrl": "http://169.254.169.254/latest/meta-data/"}`,
		`{"specUrl": "file:///etc/passwd"}`,
		`{"specurl": "x"}`,
		`{"spec": "a", "spec": "b"}`,
		`{"spec": null, "specUrl": null}`,
		`{"spec": 1}`,
		`{"spec": "x", "format": "xml"}`,
		`{"spec": "x"} trailing`,
		`[]`,
		`{`,
		``,
		"{\"spec\": \"\\u0000\"}",
		`{"spec": "a: &a [*a, *a]\nb: *a\n"}`,
	}
	if data, err := os.ReadFile(filepath.Join(corpustest.Dir, "petstore-expanded.yaml")); err == nil {
		seeds = append(seeds, lintBody(map[string]string{"spec": string(data)}))
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	repo := gittest.Repo(f, map[string]string{"specgate-lint.yaml": twoProfiles})
	srv, err := New(context.Background(), Options{ConfigRepo: repo, MaxBodySize: 64 << 10})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(srv.Close)
	srv.client.Transport = noNetwork{}
	handler := srv.Handler()

	documented := map[int]bool{200: true, 400: true, 413: true, 422: true, 502: true, 504: true}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/lint-reports", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if !documented[rec.Code] {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if rec.Code != http.StatusOK {
			var p Problem
			if rec.Header().Get("Content-Type") != "application/problem+json" || json.Unmarshal(rec.Body.Bytes(), &p) != nil || p.Status != rec.Code || p.Detail == "" {
				t.Fatalf("status %d with a bad problem for %q: %s", rec.Code, body, rec.Body)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted a body that is not JSON: %q", body)
		}
		if rec.Header().Get("Content-Type") == "application/json" {
			var rep reports.JSONReport
			if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil || rep.Summary.Files != 1 {
				t.Fatalf("bad report (%v) for %q: %s", err, body, rec.Body)
			}
		}
	})
}
