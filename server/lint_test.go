package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
)

func TestLintInlineWithProfiles(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": twoProfiles})
	ts := start(t, Options{ConfigRepo: repo})

	// The default profile: recommended, plus the configuration's own rule.
	rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec}))
	if rep.Tool.Profile != "default" || rep.Tool.Name != "specgate" || rep.Tool.RuleCount == 0 {
		t.Errorf("tool = %+v", rep.Tool)
	}
	want := map[string]string{ // rule → severity at line:col
		"health-endpoint 5:1":   "error",
		"operation-summary 7:5": "warn",
		"title-short 3:3":       "warn",
	}
	got := map[string]string{}
	for _, d := range rep.Diagnostics {
		got[fmt.Sprintf("%s %d:%d", d.RuleID, d.Line, d.Column)] = d.Severity
		if d.File != inlineName {
			t.Errorf("diagnostic %s names file %q, want %q", d.RuleID, d.File, inlineName)
		}
	}
	for k, sev := range want {
		if got[k] != sev {
			t.Errorf("want %s at %s, got %q; all: %v", k, sev, got[k], findings(rep))
		}
	}
	if rep.Summary.Files != 1 || rep.Summary.PerFile[0].Format != "OpenAPI 3.1.0" || rep.Summary.PerFile[0].File != inlineName {
		t.Errorf("summary = %+v", rep.Summary)
	}

	// The strict profile turns operation-summary into an error.
	rep = report(t, ts.lint(t, map[string]string{"spec": smallSpec, "profile": "strict"}))
	if rep.Tool.Profile != "strict" {
		t.Errorf("tool.profile = %q, want strict", rep.Tool.Profile)
	}
	sev := ""
	for _, d := range rep.Diagnostics {
		if d.RuleID == "operation-summary" {
			sev = d.Severity
		}
	}
	if sev != "error" {
		t.Errorf("strict: operation-summary severity %q, want error; %v", sev, findings(rep))
	}

	// A misspelt profile is a 400 with a suggestion and the profiles.
	p := problem(t, ts.lint(t, map[string]string{"spec": smallSpec, "profile": "strikt"}), 400, kindBadRequest)
	if !strings.Contains(p.Detail, `did you mean "strict"`) || p.Field != "profile" || !slices.Equal(p.Allowed, []string{"default", "strict"}) {
		t.Errorf("problem = %+v", p)
	}
}

func TestLintWithoutProfiles(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"lint/config.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, ConfigPath: "lint/config.yaml"})
	rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec}))
	// The default ruleset (lenient) runs: everything at warn.
	if rep.Tool.Ruleset != "lenient" || rep.Tool.Profile != "" || !hasRule(rep, "health-endpoint") || rep.Summary.Errors != 0 {
		t.Errorf("report: tool %+v, findings %v, summary %+v", rep.Tool, findings(rep), rep.Summary)
	}
	p := problem(t, ts.lint(t, map[string]string{"spec": smallSpec, "profile": "strict"}), 400, kindBadRequest)
	if !strings.Contains(p.Detail, "defines no profiles") {
		t.Errorf("detail = %q", p.Detail)
	}
}

func TestLintSeveralProfilesWithoutDefault(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": "profiles:\n  a: {rules: {extends: [lenient]}}\n  b: {rules: {extends: [strict]}}\n"})
	ts := start(t, Options{ConfigRepo: repo})
	p := problem(t, ts.lint(t, map[string]string{"spec": smallSpec}), 400, kindBadRequest)
	if !strings.Contains(p.Detail, "several profiles") || !slices.Equal(p.Allowed, []string{"a", "b"}) {
		t.Errorf("problem = %+v", p)
	}
	if st := ts.status(t); st.DefaultProfile != nil {
		t.Errorf("defaultProfile = %q, want null", *st.DefaultProfile)
	}
	report(t, ts.lint(t, map[string]string{"spec": smallSpec, "profile": "b"}))
}

func TestLintSARIF(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": twoProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	r := ts.lint(t, map[string]string{"spec": smallSpec, "format": "sarif"})
	if r.status != 200 || r.header.Get("Content-Type") != "application/sarif+json" {
		t.Fatalf("%d %s: %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(r.body, &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, res := range log.Runs[0].Results {
		loc := res.Locations[0].PhysicalLocation
		if res.RuleID == "health-endpoint" && res.Level == "error" && loc.ArtifactLocation.URI == inlineName && loc.Region.StartLine == 5 {
			found = true
		}
	}
	if log.Version != "2.1.0" || !found {
		t.Errorf("SARIF %s has no health-endpoint error at spec:5: %s", log.Version, r.body)
	}
	p := problem(t, ts.lint(t, map[string]string{"spec": smallSpec, "format": "sarf"}), 400, kindBadRequest)
	if !strings.Contains(p.Detail, `did you mean "sarif"`) || p.Field != "format" {
		t.Errorf("problem = %+v", p)
	}
}

// An inline spec has no location: its $refs to files must not read the
// server's own files, whatever form they take.
func TestInlineSpecCannotReadServerFiles(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.yaml")
	if err := os.WriteFile(secret, []byte("Pet:\n  type: object\n  description: SECRET-CONTENT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, secret)
	if err != nil {
		t.Fatal(err)
	}
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	refs := []string{secret, rel, "file://" + secret, "secret.yaml"}
	spec := "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
	for i, ref := range refs {
		spec += fmt.Sprintf("    S%d: {$ref: '%s#/Pet'}\n", i, ref)
	}
	r := ts.lint(t, map[string]string{"spec": spec})
	if strings.Contains(string(r.body), "SECRET-CONTENT") {
		t.Fatalf("the report shows the content of a server file: %s", r.body)
	}
	rep := report(t, r)
	unresolved := map[int]string{}
	for _, d := range rep.Diagnostics {
		if d.RuleID == "no-unresolved-ref" {
			unresolved[d.Line] = d.Message
		}
	}
	for i := range refs {
		if _, ok := unresolved[6+i]; !ok {
			t.Errorf("$ref %q (line %d) resolved: %v", refs[i], 6+i, findings(rep))
		}
	}
	if msg := unresolved[9]; !strings.Contains(msg, "inline spec has no location") {
		t.Errorf("relative $ref message = %q", msg)
	}
}

func TestRequestErrors(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, MaxBodySize: 16 << 10})
	tests := []struct {
		name, contentType, body string
		status                  int
		kind                    string
		detail                  string
		line, col               int
		field                   string
	}{
		{"empty", "application/json", "", 400, kindBadRequest, "the body is empty", 1, 1, ""},
		{"not an object", "application/json", `["spec"]`, 400, kindBadRequest, "must be a JSON object, found an array", 1, 1, ""},
		{"syntax", "application/json", "{\n  \"spec\": \"x\",\n  oops\n}", 400, kindBadRequest, "invalid JSON", 3, 3, ""},
		{"bad literal", "application/json", `{"spec": tru}`, 400, kindBadRequest, "invalid JSON: invalid character '}' in literal true (expecting 'e')", 1, 13, ""},
		{"bad literal, nested", "application/json", `{"spec": {"a": fals }}`, 400, kindBadRequest, "invalid JSON: invalid character ' ' in literal false (expecting 'e')", 1, 20, ""},
		{"bad literal, later line", "application/json", "{\n  \"profile\": \"default\",\n  \"spec\": [1, tx]\n}", 400, kindBadRequest, "invalid JSON: invalid character 'x' in literal true (expecting 'r')", 3, 16, ""},
		{"bad number", "application/json", `{"spec": 1.e5}`, 400, kindBadRequest, "invalid JSON: invalid character 'e' after decimal point in numeric literal", 1, 12, ""},
		{"control character in a key", "application/json", "{\"sp\x01ec\": \"x\"}", 400, kindBadRequest, `invalid JSON: invalid character '\x01' in string literal`, 1, 5, ""},
		{"truncated", "application/json", `{"spec": "x"`, 400, kindBadRequest, "ends before", 1, 13, ""},
		{"unknown member", "application/json", `{"specurl": "https://example.com/a.yaml"}`, 400, kindBadRequest, `unknown member "specurl"; did you mean "specUrl"?`, 1, 2, "specurl"},
		{"twice", "application/json", `{"spec": "a", "spec": "b"}`, 400, kindBadRequest, `member "spec" is given twice`, 1, 15, "spec"},
		{"wrong type", "application/json", `{"spec": {"openapi": "3.1.0"}}`, 400, kindBadRequest, "spec must be a string, found object", 1, 10, "spec"},
		{"neither", "application/json", `{"profile": "default"}`, 400, kindBadRequest, `give the spec inline in "spec" or its URL in "specUrl"`, 0, 0, ""},
		{"both", "application/json", `{"spec": "a", "specUrl": "https://example.com/a"}`, 400, kindBadRequest, "not both", 0, 0, ""},
		{"trailing", "application/json", `{"spec": "a"} {}`, 400, kindBadRequest, "after the JSON object", 1, 16, ""},
		{"bad scheme", "application/json", `{"specUrl": "file:///etc/passwd"}`, 400, kindBadRequest, `only http and https URLs are fetched, not "file"`, 0, 0, "specUrl"},
		{"credentials in URL", "application/json", `{"specUrl": "https://u:p@example.com/a.yaml"}`, 400, kindBadRequest, "must not carry credentials", 0, 0, "specUrl"},
		{"no host", "application/json", `{"specUrl": "https:///a.yaml"}`, 400, kindBadRequest, "has no host", 0, 0, "specUrl"},
		{"long specUrl", "application/json", `{"specUrl": "https://example.com/` + strings.Repeat("a", 8200) + `"}`, 400, kindBadRequest, "specUrl is longer than 8192 characters", 0, 0, "specUrl"},
		{"long profile", "application/json", `{"spec": "x", "profile": "` + strings.Repeat("p", 257) + `"}`, 400, kindBadRequest, "profile is longer than 256 characters", 0, 0, "profile"},
		{"form body", "application/x-www-form-urlencoded", `spec=x`, 415, kindUnsupportedMedia, "application/json", 0, 0, ""},
		{"too large", "application/json", `{"spec": "` + strings.Repeat("a", 17000) + `"}`, 413, kindTooLarge, "16 KiB limit (--max-body-size)", 0, 0, ""},
		{"unparseable spec", "", `{"spec": "openapi: 3.1.0\ninfo: [unclosed\n"}`, 422, kindUnprocessableSpec, "spec:", 0, 0, ""},
		{"not a spec", "application/json; charset=utf-8", `{"spec": "hello: world\n"}`, 422, kindUnprocessableSpec, "spec", 0, 0, ""},
		{"empty spec", "application/json", `{"spec": "   "}`, 422, kindUnprocessableSpec, "spec: file is empty", 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(t, http.MethodPost, "/lint-reports", tt.contentType, tt.body)
			p := problem(t, r, tt.status, tt.kind)
			if !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("detail %q does not contain %q", p.Detail, tt.detail)
			}
			if tt.line != 0 && (p.Line != tt.line || p.Column != tt.col) {
				t.Errorf("at %d:%d, want %d:%d (%s)", p.Line, p.Column, tt.line, tt.col, p.Detail)
			}
			if p.Field != tt.field {
				t.Errorf("field %q, want %q", p.Field, tt.field)
			}
			if p.Instance != "/lint-reports" || p.RequestID == "" || p.RequestID != r.header.Get("X-Request-Id") {
				t.Errorf("instance %q, requestId %q (header %q)", p.Instance, p.RequestID, r.header.Get("X-Request-Id"))
			}
		})
	}
}

// A spec that cannot be parsed is a 422 that says where.
func TestUnparseableSpecLocation(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true})
	spec := "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\"title\": \"t\" \"version\": \"1\"}\n}\n"
	p := problem(t, ts.lint(t, map[string]string{"spec": spec}), 422, kindUnprocessableSpec)
	if p.File != inlineName || p.Line != 3 || p.Column != 25 || !strings.HasPrefix(p.Detail, "spec:3:25: ") {
		t.Errorf("problem = %+v", p)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	served := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer served.Close()
	u := served.URL + "/bad.json"
	p = problem(t, ts.lint(t, map[string]string{"specUrl": u}), 422, kindUnprocessableSpec)
	if p.File != u || p.Line != 3 || p.Column != 25 || !strings.HasPrefix(p.Detail, u+":3:25: ") {
		t.Errorf("problem = %+v", p)
	}
}

func TestFetchFailures(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true, MaxSpecSize: 1024, FetchTimeout: 300 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing.yaml":
			http.NotFound(w, r)
		case "/large.yaml":
			body := fmt.Sprintf("openapi: 3.1.0\n# %s\n", strings.Repeat("x", 2048))
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			fmt.Fprint(w, body)
		case "/large-chunked.yaml":
			w.(http.Flusher).Flush() // no Content-Length
			fmt.Fprintf(w, "openapi: 3.1.0\n# %s\n", strings.Repeat("x", 2048))
		case "/slow.yaml":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/ok.yaml":
			fmt.Fprint(w, smallSpec)
		}
	}))
	defer origin.Close()
	tests := []struct{ path, detail string }{
		{"/missing.yaml", "HTTP 404 Not Found"},
		{"/large.yaml", "more than the 1 KiB limit (--max-spec-size)"},
		{"/large-chunked.yaml", "larger than the 1 KiB limit (--max-spec-size)"},
		{"/slow.yaml", "timed out (--fetch-timeout)"},
	}
	for _, tt := range tests {
		p := problem(t, ts.lint(t, map[string]string{"specUrl": origin.URL + tt.path}), 502, kindFetchFailed)
		if !strings.Contains(p.Detail, tt.detail) || !strings.Contains(p.Detail, origin.URL+tt.path) {
			t.Errorf("%s: detail %q does not contain %q", tt.path, p.Detail, tt.detail)
		}
	}
	rep := report(t, ts.lint(t, map[string]string{"specUrl": origin.URL + "/ok.yaml"}))
	if rep.Summary.PerFile[0].File != origin.URL+"/ok.yaml" || !hasRule(rep, "health-endpoint") {
		t.Errorf("report of a fetched spec: %+v %v", rep.Summary, findings(rep))
	}
	unreachable := httptest.NewServer(http.NotFoundHandler())
	unreachable.Close()
	p := problem(t, ts.lint(t, map[string]string{"specUrl": unreachable.URL + "/a.yaml"}), 502, kindFetchFailed)
	if !strings.Contains(p.Detail, "connection refused") {
		t.Errorf("detail = %q", p.Detail)
	}
}

func TestOverloaded(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true, MaxConcurrent: 1, QueueTimeout: -1})
	first, release := ts.lintHeld(t) // the request holds its slot

	r := ts.lint(t, map[string]string{"spec": smallSpec})
	p := problem(t, r, 503, kindOverloaded)
	if r.header.Get("Retry-After") != "1" || !strings.Contains(p.Detail, "all 1 lint slots are busy") {
		t.Errorf("Retry-After %q, detail %q", r.header.Get("Retry-After"), p.Detail)
	}
	info := ts.get(t, "/health/info")
	if !strings.Contains(string(info.body), `"status": "warn"`) || !strings.Contains(string(info.body), "all 1 lint slots are busy") {
		t.Errorf("/health/info while full: %s", info.body)
	}
	close(release)
	report(t, <-first)
	report(t, ts.lint(t, map[string]string{"spec": smallSpec})) // the slot is free again
}

func TestQueueWaitsForASlot(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true, MaxConcurrent: 1, QueueTimeout: 20 * time.Second})
	first, release := ts.lintHeld(t) // the request holds its slot
	second := make(chan response, 1)
	go func() { second <- ts.lint(t, map[string]string{"spec": smallSpec}) }()
	time.Sleep(100 * time.Millisecond)
	close(release)
	report(t, <-first)
	report(t, <-second) // waited for the slot instead of failing
}

func TestRequestTimeout(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true, RequestTimeout: 300 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer origin.Close()
	p := problem(t, ts.lint(t, map[string]string{"specUrl": origin.URL + "/spec.yaml"}), 504, kindTimeout)
	if !strings.Contains(p.Detail, "more than 300ms (--request-timeout)") {
		t.Errorf("detail = %q", p.Detail)
	}
}
