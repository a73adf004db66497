package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

// The server's own description is valid and passes the strict ruleset
// without a single error or warning, with no rule silenced for the whole
// document: each x-lint-ignore is on the operation or property it
// excuses, is one of those listed here (each justified in the
// description), and silences something.
func TestOpenAPIPassesStrict(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(OpenAPI(), &root); err != nil {
		t.Fatal(err)
	}
	if ignored, ok := root["x-lint-ignore"]; ok {
		t.Errorf("the description silences %v for the whole document", ignored)
	}
	l := strictLinter(t)
	res := lintDescription(t, l, OpenAPI())
	for _, d := range res.Findings {
		t.Errorf("openapi.json:%d:%d %s %s: %s", d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Rule, d.Message)
	}
	if l.RuleCount() < 30 {
		t.Errorf("only %d strict rules ran", l.RuleCount())
	}

	// Where rules are silenced, and why (the description says so there).
	noAuth, noRateLimit := "safe-operation-protected", []string{"response-429-defined", "response-rate-limit-headers"}
	allowed := map[string][]string{
		// The server has no authentication; its description says so.
		"/paths/~1lint-reports/post":                         {"unsafe-operation-protected"},
		"/paths/~1config~1refresh/post":                      {"unsafe-operation-protected"},
		"/paths/~1config~1status/get":                        {noAuth},
		"/paths/~1api-docs/get":                              {noAuth},
		"/paths/~1api-docs~1openapi.json/get":                {noAuth},
		"/paths/~1health/get":                                append([]string{noAuth}, noRateLimit...), // and health checks are never rate-limited
		"/paths/~1health~1info/get":                          append([]string{noAuth}, noRateLimit...),
		"/paths/~1api-docs~1openapi.json":                    {"uri-names"},                // the conventional name
		"/components/schemas/LintRequest/properties/spec":    {"string-format-or-pattern"}, // free text
		"/components/schemas/LintRequest/properties/profile": {"string-format-or-pattern"}, // any profile name
	}
	found := map[string][]string{}
	stripIgnores(root, "", found)
	if !maps.EqualFunc(found, allowed, slices.Equal) {
		t.Errorf("x-lint-ignore lists:\n got %v\nwant %v", found, allowed)
	}
	// Without them, each silences at least one diagnostic, and nothing else fires.
	stripped, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	hit := map[string]bool{}
	for _, d := range lintDescription(t, l, stripped).Findings {
		covered := false
		for ptr, rules := range allowed {
			if (d.Pointer == ptr || strings.HasPrefix(d.Pointer, ptr+"/")) && slices.Contains(rules, d.Rule) {
				covered, hit[ptr+" "+d.Rule] = true, true
			}
		}
		if !covered {
			t.Errorf("%s %s at %s: %s", d.Severity, d.Rule, d.Pointer, d.Message)
		}
	}
	for ptr, rules := range allowed {
		for _, rule := range rules {
			if !hit[ptr+" "+rule] {
				t.Errorf("x-lint-ignore %s at %s silences nothing", rule, ptr)
			}
		}
	}
}

func strictLinter(t *testing.T) *linter.Linter {
	t.Helper()
	p, err := linter.Open(context.Background(), linter.Config{Rules: rulesets.Options{Ruleset: "strict", NoSearch: true}})
	if err != nil {
		t.Fatal(err)
	}
	return p.Linter
}

// lintDescription validates an OpenAPI 3.1 description and lints it.
func lintDescription(t *testing.T, l *linter.Linter, data []byte) linter.Result {
	t.Helper()
	ctx := context.Background()
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(ctx, "openapi.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if doc.String() != "OpenAPI 3.1.0" {
		t.Errorf("format = %s", doc.String())
	}
	for _, p := range validate.Validate(doc) {
		t.Errorf("invalid: %v", p)
	}
	res := l.LintDocument(ctx, doc)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	return res
}

// stripIgnores removes every x-lint-ignore under v (at JSON pointer ptr),
// recording its rules by pointer.
func stripIgnores(v any, ptr string, found map[string][]string) {
	switch v := v.(type) {
	case map[string]any:
		if list, ok := v["x-lint-ignore"].([]any); ok {
			for _, r := range list {
				found[ptr] = append(found[ptr], fmt.Sprint(r))
			}
			delete(v, "x-lint-ignore")
		}
		for k, child := range v {
			stripIgnores(child, ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k), found)
		}
	case []any:
		for i, child := range v {
			stripIgnores(child, ptr+"/"+strconv.Itoa(i), found)
		}
	}
}

// Every endpoint the server routes is in its description, with the
// methods it answers, and the other way round.
func TestOpenAPIDescribesEveryEndpoint(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for path, item := range doc.Paths {
		for method := range item {
			if !strings.HasPrefix(method, "x-") {
				described[strings.ToUpper(method)+" "+path] = true
			}
		}
	}
	routed := map[string]bool{}
	for _, e := range Endpoints {
		routed[e[0]+" "+e[1]] = true
	}
	for k := range routed {
		if !described[k] {
			t.Errorf("%s is routed but not described", k)
		}
	}
	for k := range described {
		if !routed[k] {
			t.Errorf("%s is described but not routed", k)
		}
	}
}

func TestDocsAndHealth(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, Version: "1.2.3"})

	page := ts.get(t, "/api-docs")
	if page.status != 200 || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") {
		t.Fatalf("/api-docs: %d %s", page.status, page.header.Get("Content-Type"))
	}
	csp := page.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	// Every script and stylesheet of the page is served by the server.
	assets := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(page.body), -1)
	if len(assets) != 3 {
		t.Errorf("assets = %v", assets)
	}
	for _, a := range assets {
		if strings.Contains(a[1], "//") {
			t.Errorf("the page loads %s from elsewhere", a[1])
			continue
		}
		r := ts.get(t, "/"+a[1])
		if r.status != 200 || len(r.body) == 0 {
			t.Errorf("%s: %d", a[1], r.status)
		}
	}
	init := ts.get(t, "/api-docs/init.js")
	if !strings.Contains(string(init.body), `url: "api-docs/openapi.json"`) || !strings.Contains(string(init.body), "validatorUrl: null") {
		t.Errorf("init.js: %s", init.body)
	}
	bundle := ts.get(t, "/api-docs/swagger-ui-bundle.js")
	if bundle.header.Get("Content-Type") != "text/javascript; charset=utf-8" || !strings.Contains(string(bundle.body), "SwaggerUIBundle") {
		t.Errorf("bundle: %s, %d bytes", bundle.header.Get("Content-Type"), len(bundle.body))
	}
	desc := ts.get(t, "/api-docs/openapi.json")
	if desc.status != 200 || desc.header.Get("Content-Type") != "application/json" || string(desc.body) != string(OpenAPI()) {
		t.Errorf("openapi.json: %d %s", desc.status, desc.header.Get("Content-Type"))
	}
	// Conditional requests are answered from the entity tag.
	req, _ := http.NewRequest(http.MethodGet, ts.url+"/api-docs/swagger-ui.css", nil)
	req.Header.Set("If-None-Match", ts.get(t, "/api-docs/swagger-ui.css").header.Get("ETag"))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	problem(t, ts.get(t, "/api-docs/swagger-ui.css.map"), 404, kindNotFound)
	problem(t, ts.get(t, "/api-docs/../server.go"), 404, kindNotFound)
	if r := ts.get(t, "/"); r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("/ does not lead to the documentation: %d", r.status)
	}

	health := ts.get(t, "/health")
	if health.status != 200 || health.header.Get("Content-Type") != "application/health+json" || !strings.Contains(string(health.body), `"status": "pass"`) {
		t.Errorf("/health: %d %s %s", health.status, health.header.Get("Content-Type"), health.body)
	}
	info := ts.get(t, "/health/info")
	var hi HealthInfo
	if err := json.Unmarshal(info.body, &hi); err != nil || info.header.Get("Content-Type") != "application/health+json" {
		t.Fatalf("/health/info: %v %s", err, info.body)
	}
	cfg := hi.Checks["configuration:refresh"]
	if hi.Status != "pass" || hi.ReleaseID != "1.2.3" || len(cfg) != 1 || cfg[0].ObservedValue != gittest.Run(t, repo, "rev-parse", "HEAD") || len(hi.Checks["lint:slots"]) != 1 {
		t.Errorf("/health/info = %+v", hi)
	}
}

func TestMethodsAndUnknownPaths(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	r := ts.get(t, "/lint-reports")
	p := problem(t, r, 405, kindMethodNotAllowed)
	if r.header.Get("Allow") != "POST, OPTIONS" || !strings.Contains(p.Detail, "does not answer GET") {
		t.Errorf("Allow %q, detail %q", r.header.Get("Allow"), p.Detail)
	}
	r = ts.do(t, http.MethodDelete, "/config/status", "", "")
	problem(t, r, 405, kindMethodNotAllowed)
	if r.header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
	if r := ts.do(t, http.MethodOptions, "/config/refresh", "", ""); r.status != 204 || r.header.Get("Allow") != "POST, OPTIONS" {
		t.Errorf("OPTIONS: %d %q", r.status, r.header.Get("Allow"))
	}
	if r := ts.do(t, http.MethodHead, "/health", "", ""); r.status != 200 || len(r.body) != 0 {
		t.Errorf("HEAD /health: %d, %d bytes", r.status, len(r.body))
	}
	p = problem(t, ts.get(t, "/lint"), 404, kindNotFound)
	if !strings.Contains(p.Detail, "/api-docs") {
		t.Errorf("detail = %q", p.Detail)
	}
	if r := ts.get(t, "/health"); r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", r.header.Get("X-Content-Type-Options"))
	}
}

// Every request is logged once, as structured attributes.
func TestRequestLog(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	req, _ := http.NewRequest(http.MethodPost, ts.url+"/lint-reports", strings.NewReader(lintBody(map[string]string{"spec": smallSpec})))
	req.Header.Set("X-Request-Id", "trace-42")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("X-Request-Id") != "trace-42" {
		t.Errorf("X-Request-Id = %q", resp.Header.Get("X-Request-Id"))
	}
	// The request is logged after the response is written: wait for it.
	var line map[string]any
	for deadline := time.Now().Add(30 * time.Second); line == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, l := range strings.Split(ts.logs.String(), "\n") {
			if strings.Contains(l, `"requestId":"trace-42"`) {
				if err := json.Unmarshal([]byte(l), &line); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	want := map[string]any{"msg": "request", "method": "POST", "path": "/lint-reports", "status": 200.0, "profile": "", "format": "json", "errors": 0.0, "specBytes": float64(len(smallSpec))}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log %s = %v, want %v (line %v)", k, line[k], v, line)
		}
	}
	if w, _ := line["warnings"].(float64); w == 0 || line["duration"] == nil {
		t.Errorf("log line = %v", line)
	}
}

// On shutdown the server stops accepting connections and finishes the
// requests in flight.
func TestGracefulShutdown(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true})
	inFlight, release := ts.lintHeld(t) // the request holds its slot
	stopped := make(chan error, 1)
	go func() { stopped <- ts.stop() }()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	default:
	}
	if _, err := http.Get(ts.url + "/health"); err == nil {
		t.Error("a new connection was accepted during shutdown")
	}
	close(release)
	if rep := report(t, <-inFlight); !hasRule(rep, "health-endpoint") {
		t.Errorf("the request in flight: %v", findings(rep))
	}
	if err := <-stopped; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if !strings.Contains(ts.logs.String(), "shutting down") {
		t.Errorf("no shutdown log: %s", ts.logs.String())
	}
}
