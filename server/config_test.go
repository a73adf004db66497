package server

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/internal/outputtest"
)

func TestStatus(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": twoProfiles})
	head := gittest.Run(t, repo, "rev-parse", "HEAD")
	before := time.Now().UTC()
	ts := start(t, Options{ConfigRepo: repo, RefreshInterval: time.Hour})
	st := ts.status(t)
	if st.Repository != repo || st.Branch != "main" || st.ConfigPath != "specgate-lint.yaml" || st.Commit != head {
		t.Errorf("status = %+v", st)
	}
	if len(st.Profiles) != 2 || st.Profiles[0].Name != "default" || st.Profiles[1].Name != "strict" ||
		st.Profiles[0].RuleCount == 0 || st.Profiles[1].RuleCount <= st.Profiles[0].RuleCount {
		t.Errorf("profiles = %+v", st.Profiles)
	}
	if st.DefaultProfile == nil || *st.DefaultProfile != "default" || st.RuleCount <= st.Profiles[1].RuleCount-1 {
		t.Errorf("defaultProfile %v, ruleCount %d", st.DefaultProfile, st.RuleCount)
	}
	if st.LastRefresh.Trigger != "startup" || st.LastRefresh.Result != refreshLoaded || st.LastRefresh.Commit != head || st.LoadedAt.Before(before) {
		t.Errorf("lastRefresh = %+v, loadedAt %v", st.LastRefresh, st.LoadedAt)
	}
	if st.RefreshInterval == nil || *st.RefreshInterval != "1h0m0s" || st.NextRefresh == nil || st.NextRefresh.Before(before.Add(59*time.Minute)) {
		t.Errorf("refreshInterval %v, nextRefresh %v", st.RefreshInterval, st.NextRefresh)
	}
}

// A new commit is loaded on request; a broken one keeps the last good
// configuration serving and /config/status says why; fixing it loads again.
func TestRefreshOnRequest(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	first := gittest.Run(t, repo, "rev-parse", "HEAD")
	ts := start(t, Options{ConfigRepo: repo, RefreshInterval: -1})
	if st := ts.status(t); st.NextRefresh != nil || st.RefreshInterval == nil || *st.RefreshInterval != "0s" {
		t.Errorf("refreshInterval %v, nextRefresh %v without a periodic refresh", st.RefreshInterval, st.NextRefresh)
	}
	r := ts.lint(t, map[string]string{"spec": smallSpec})
	if rep := report(t, r); rep.Summary.Errors != 0 || r.header.Get("X-Specgate-Config-Commit") != first {
		t.Fatalf("lenient: %d errors, commit %s", rep.Summary.Errors, r.header.Get("X-Specgate-Config-Commit"))
	}

	// Nothing new: unchanged.
	refresh(t, ts)
	st := ts.waitFor(t, "an unchanged refresh", func(st ConfigStatus) bool { return st.LastRefresh.Trigger == "request" })
	if st.LastRefresh.Result != refreshUnchanged || st.Commit != first {
		t.Errorf("lastRefresh = %+v", st.LastRefresh)
	}

	// A new commit with a profile that turns health-endpoint into an error.
	second := commit(t, repo, map[string]string{"specgate-lint.yaml": "profiles:\n  default:\n    rules:\n      extends: [lenient]\n      override: {health-endpoint: error}\n"})
	refresh(t, ts)
	st = ts.waitFor(t, "the second commit", func(st ConfigStatus) bool { return st.Commit == second })
	if st.LastRefresh.Result != refreshLoaded || st.LastRefresh.Commit != second || st.Profiles[0].Name != "default" {
		t.Errorf("status = %+v", st)
	}
	r = ts.lint(t, map[string]string{"spec": smallSpec})
	if rep := report(t, r); rep.Summary.Errors != 1 || r.header.Get("X-Specgate-Config-Commit") != second {
		t.Errorf("after refresh: %v, commit %s", findings(rep), r.header.Get("X-Specgate-Config-Commit"))
	}

	// A broken commit: an unknown rule id, reported with file:line:col.
	broken := commit(t, repo, map[string]string{"specgate-lint.yaml": "profiles:\n  default:\n    rules:\n      extends: [lenient]\n      override: {health-endpoit: error}\n"})
	refresh(t, ts)
	st = ts.waitFor(t, "the broken commit's refresh", func(st ConfigStatus) bool { return st.LastRefresh.Commit == broken })
	if st.LastRefresh.Result != refreshFailed || st.Commit != second {
		t.Errorf("status = %+v", st)
	}
	if want := `specgate-lint.yaml:5:18: unknown rule "health-endpoit"; did you mean "health-endpoint"?`; !strings.Contains(st.LastRefresh.Error, want) {
		t.Errorf("error %q does not contain %q", st.LastRefresh.Error, want)
	}
	if strings.Contains(st.LastRefresh.Error, os.TempDir()) {
		t.Errorf("error names the clone's temporary folder: %q", st.LastRefresh.Error)
	}
	r = ts.lint(t, map[string]string{"spec": smallSpec})
	if rep := report(t, r); rep.Summary.Errors != 1 || r.header.Get("X-Specgate-Config-Commit") != second {
		t.Errorf("the last good configuration must serve: %v, commit %s", findings(rep), r.header.Get("X-Specgate-Config-Commit"))
	}
	health := ts.get(t, "/health")
	if !strings.Contains(string(health.body), `"status": "warn"`) {
		t.Errorf("/health after a failed refresh: %s", health.body)
	}
	info := ts.get(t, "/health/info")
	if !strings.Contains(string(info.body), "health-endpoit") {
		t.Errorf("/health/info does not say why: %s", info.body)
	}

	// Fixed: loaded, and health passes again.
	fixed := commit(t, repo, map[string]string{"specgate-lint.yaml": noProfiles})
	refresh(t, ts)
	st = ts.waitFor(t, "the fixed commit", func(st ConfigStatus) bool { return st.Commit == fixed })
	if st.LastRefresh.Result != refreshLoaded || st.LastRefresh.Error != "" {
		t.Errorf("lastRefresh = %+v", st.LastRefresh)
	}
	if health := ts.get(t, "/health"); !strings.Contains(string(health.body), `"status": "pass"`) {
		t.Errorf("/health: %s", health.body)
	}
}

func refresh(t *testing.T, ts *testServer) {
	t.Helper()
	r := ts.do(t, http.MethodPost, "/config/refresh", "", "")
	if r.status != http.StatusAccepted || r.header.Get("Location") != "status" || !strings.Contains(string(r.body), `"statusUrl": "/config/status"`) {
		t.Fatalf("POST /config/refresh: %d %v %s", r.status, r.header, r.body)
	}
}

func TestPeriodicRefresh(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, RefreshInterval: 50 * time.Millisecond})
	next := commit(t, repo, map[string]string{"specgate-lint.yaml": "profiles:\n  team: {rules: {extends: [strict]}}\n"})
	st := ts.waitFor(t, "the periodic refresh", func(st ConfigStatus) bool { return st.Commit == next })
	if st.LastRefresh.Trigger != "interval" || len(st.Profiles) != 1 || st.Profiles[0].Name != "team" {
		t.Errorf("status = %+v", st)
	}
	rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec}))
	if rep.Tool.Profile != "team" {
		t.Errorf("profile = %q", rep.Tool.Profile)
	}
	// A broken commit fails, and the last good configuration serves.
	broken := commit(t, repo, map[string]string{"specgate-lint.yaml": "profiles: [oops\n"})
	st = ts.waitFor(t, "the broken commit", func(st ConfigStatus) bool { return st.LastRefresh.Commit == broken })
	if st.LastRefresh.Result != refreshFailed || st.Commit != next || !strings.Contains(st.LastRefresh.Error, "specgate-lint.yaml:2:1: invalid YAML") {
		t.Errorf("status = %+v", st)
	}
	if rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec})); rep.Tool.Profile != "team" {
		t.Errorf("profile = %q after a failed refresh", rep.Tool.Profile)
	}
	// Later periodic refreshes do not load the failing commit again.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(ts.logs.String(), `"msg":"configuration unchanged since it failed to load","trigger":"interval","result":"failed","commit":"`+broken); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no periodic refresh after the failure: %s", ts.logs.String())
		}
	}
	if n := strings.Count(ts.logs.String(), `"msg":"configuration refresh failed; the last good configuration keeps serving","trigger":"interval","result":"failed","commit":"`+broken); n != 1 {
		t.Errorf("the failing commit was loaded %d times", n)
	}
	if st := ts.status(t); st.LastRefresh.Result != refreshFailed || !strings.Contains(st.LastRefresh.Error, "invalid YAML") {
		t.Errorf("lastRefresh = %+v", st.LastRefresh)
	}
}

// Many lint requests run while refreshes swap the configuration back and
// forth: every request answers 200 with a report of one configuration or
// the other, never a mix (run under -race).
func TestConcurrentLintDuringRefresh(t *testing.T) {
	lenient := "profiles:\n  default: {rules: {extends: [lenient]}}\n"
	strict := "profiles:\n  default: {rules: {extends: [strict]}}\n"
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": lenient})
	ts := start(t, Options{ConfigRepo: repo, RefreshInterval: 10 * time.Millisecond, MaxConcurrent: 8, QueueTimeout: time.Minute})
	kindOf := map[string]string{gittest.Run(t, repo, "rev-parse", "HEAD"): "lenient"} // commit → its ruleset
	reportOf := map[string]string{}                                                   // ruleset → the findings of smallSpec

	var mu sync.Mutex
	commitsSeen := map[string]bool{}
	stop := make(chan struct{})
	var committer sync.WaitGroup
	committer.Add(1)
	go func() {
		defer committer.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
			}
			cfg, kind := strict, "strict"
			if i%2 == 1 {
				cfg, kind = lenient, "lenient"
			}
			c := commit(t, repo, map[string]string{"specgate-lint.yaml": cfg + fmt.Sprintf("# %d\n", i)})
			mu.Lock()
			kindOf[c] = kind
			mu.Unlock()
		}
	}()

	// Workers lint until they have made 100 requests and seen three
	// configurations, or for 3 minutes: compiling every profile of ~185
	// rules under -race on two cores takes seconds per refresh.
	const workers = 8
	var requests int
	deadline := time.Now().Add(3 * time.Minute)
	enough := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return (requests >= 100 && len(commitsSeen) >= 3) || time.Now().After(deadline)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !enough() {
				r := ts.lint(t, map[string]string{"spec": smallSpec})
				rep := report(t, r)
				c := r.header.Get("X-Specgate-Config-Commit")
				got := fmt.Sprint(findings(rep))
				mu.Lock()
				requests++
				kind, ok := kindOf[c]
				commitsSeen[c] = true
				if _, seen := reportOf[kind]; !seen {
					reportOf[kind] = got
				}
				want := reportOf[kind]
				mu.Unlock()
				if !ok || got != want || (kind == "lenient") != (rep.Summary.Errors == 0) {
					t.Errorf("worker %d: commit %s (%s) gave %s, want %s", w, c, kind, got, want)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	committer.Wait()
	if len(commitsSeen) < 3 {
		t.Errorf("%d requests saw %d configurations; the test did not exercise swaps", requests, len(commitsSeen))
	}
}

func TestStartupFailures(t *testing.T) {
	good := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	bad := gittest.Repo(t, map[string]string{"specgate-lint.yaml": "profiles:\n  default:\n    rules:\n      extends: [strictt]\n"})
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"unknown built-in ruleset", Options{Ruleset: "strictt"}, `--ruleset "strictt" is not a built-in ruleset (lenient, recommended, strict); did you mean "strict"?`},
		{"branch of a plain folder", Options{ConfigRepo: t.TempDir(), ConfigBranch: "main"}, "is a plain folder, not a git repository"},
		{"missing repository", Options{ConfigRepo: filepath.Join(t.TempDir(), "nope")}, "cloning"},
		{"missing branch", Options{ConfigRepo: good, ConfigBranch: "release"}, "release"},
		{"missing file", Options{ConfigRepo: good, ConfigPath: "lint.yaml"}, "lint.yaml: no configuration file at this path of the repository (--config-path)"},
		{"escaping path", Options{ConfigRepo: good, ConfigPath: "../secret.yaml"}, "must be a relative path inside the repository"},
		{"bad configuration", Options{ConfigRepo: bad}, `specgate-lint.yaml:4:17: unknown ruleset "strictt"; did you mean "strict"?`},
		{"token over file", Options{ConfigRepo: good, Token: "t0ken"}, "is not an https URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestConfigBranchAndPath(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"README.md": "main branch\n"})
	gittest.Run(t, repo, "checkout", "--quiet", "-b", "lint")
	commit(t, repo, map[string]string{"governance/lint.yaml": "profiles:\n  api: {rules: {extends: [recommended]}}\n"})
	gittest.Run(t, repo, "checkout", "--quiet", "main")
	ts := start(t, Options{ConfigRepo: "file://" + repo, ConfigBranch: "lint", ConfigPath: "governance/lint.yaml"})
	st := ts.status(t)
	if st.Branch != "lint" || st.Profiles[0].Name != "api" {
		t.Errorf("status = %+v", st)
	}
}

func TestGitToken(t *testing.T) {
	const token = "s3cr3t-t0ken"
	g, err := newGitRepo("https://git.example.com/org/lint-config.git", "", token, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"GIT_CONFIG_COUNT":   "1",
		"GIT_CONFIG_KEY_0":   "http.https://git.example.com/org/lint-config.git.extraHeader",
		"GIT_CONFIG_VALUE_0": "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:"+token)),
	}
	env := func(g *gitRepo) []string { return g.git.Command(context.Background(), "version").Env }
	got := map[string]string{}
	for _, kv := range env(g) {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if got["GIT_TERMINAL_PROMPT"] != "0" {
		t.Errorf("GIT_TERMINAL_PROMPT = %q", got["GIT_TERMINAL_PROMPT"])
	}
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
	if s := g.git.Scrub("fatal: header Authorization " + token + " (Basic " + basic + ")"); strings.Contains(s, token) || strings.Contains(s, basic) {
		t.Errorf("scrub left the token: %q", s)
	}
	g, err = newGitRepo("https://git.example.com/org/lint-config.git", "", token, "ci-bot")
	if err != nil || !strings.Contains(strings.Join(env(g), "\n"), base64.StdEncoding.EncodeToString([]byte("ci-bot:"+token))) {
		t.Errorf("SPECGATE_CONFIG_REPO_USER is not used: %v", err)
	}
	for _, repo := range []string{"http://git.example.com/org/c.git", "git@git.example.com:org/c.git", "/srv/c"} {
		if _, err := newGitRepo(repo, "", token, ""); err == nil || !strings.Contains(err.Error(), "only sent over https") {
			t.Errorf("%s: token accepted (%v)", repo, err)
		}
	}
	if _, err := newGitRepo("https://bot:pass@git.example.com/org/c.git", "", "", ""); err == nil {
		t.Error("a password in --config-repo is accepted")
	}
	g, err = newGitRepo("https://bot@git.example.com/org/c.git", "", "", "")
	if err != nil || g.shown != "https://git.example.com/org/c.git" {
		t.Errorf("shown = %q (%v)", g.shown, err)
	}
}

// The token travels only in git's environment: a failed clone of an
// unreachable https repository does not show it, in the error or the log.
func TestGitTokenNotShown(t *testing.T) {
	const token = "s3cr3t-t0ken"
	logs := &outputtest.Buffer{}
	srvLogs := Options{ConfigRepo: "https://127.0.0.1:1/org/c.git", Token: token}
	srvLogs.Logger = newTestLogger(logs)
	_, err := New(context.Background(), srvLogs)
	if err == nil {
		t.Fatal("cloning an unreachable repository succeeded")
	}
	if strings.Contains(err.Error(), token) || strings.Contains(logs.String(), token) {
		t.Errorf("the token is shown: %v\n%s", err, logs.String())
	}
}

// A private https repository: the server sends the token as basic
// credentials to the repository, and to nothing else. A TLS server on
// loopback runs git's own smart-HTTP backend.
func TestGitTokenOverHTTPS(t *testing.T) {
	const token = "s3cr3t-t0ken"
	execPath := strings.TrimSpace(gittest.Run(t, t.TempDir(), "--exec-path"))
	backend := filepath.Join(execPath, "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skipf("no git-http-backend: %v", err)
	}
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	gittest.Run(t, repo, "config", "http.receivepack", "false")
	root := filepath.Dir(repo)
	var authorized, refused atomic.Int32
	origin := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte("x-access-token:"+token)) {
			refused.Add(1)
			w.Header().Set("WWW-Authenticate", `Basic realm="config"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		authorized.Add(1)
		(&cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}).ServeHTTP(w, r)
	}))
	defer origin.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: origin.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_SSL_CAINFO", ca)
	url := origin.URL + "/" + filepath.Base(repo)

	if _, err := New(context.Background(), Options{ConfigRepo: url}); err == nil || refused.Load() == 0 {
		t.Fatalf("cloning without the token: %v (refused %d)", err, refused.Load())
	}
	ts := start(t, Options{ConfigRepo: url, Token: token, RefreshInterval: -1})
	if authorized.Load() == 0 || ts.status(t).Commit != gittest.Run(t, repo, "rev-parse", "HEAD") {
		t.Fatalf("clone with the token: authorized %d, status %+v", authorized.Load(), ts.status(t))
	}
	next := commit(t, repo, map[string]string{"specgate-lint.yaml": "profiles:\n  team: {rules: {extends: [strict]}}\n"})
	refresh(t, ts)
	ts.waitFor(t, "the fetched commit", func(st ConfigStatus) bool { return st.Commit == next })
	if strings.Contains(ts.logs.String(), token) {
		t.Errorf("the log shows the token: %s", ts.logs.String())
	}
}

// Without a repository the server serves the built-in rulesets, one
// profile each, the default one given by Ruleset; nothing refreshes them,
// so /config/status has no refresh interval and no next refresh, whatever
// RefreshInterval says.
func TestBuiltinRulesets(t *testing.T) {
	ts := start(t, Options{Ruleset: "recommended", RefreshInterval: 5 * time.Millisecond})
	st := ts.status(t)
	if st.Repository != "(built-in rulesets)" || st.Commit != builtinVersion || st.DefaultProfile == nil || *st.DefaultProfile != "recommended" {
		t.Errorf("status = %+v", st)
	}
	time.Sleep(50 * time.Millisecond) // ten periods, had there been any
	raw := string(ts.get(t, "/config/status").body)
	for _, want := range []string{`"refreshInterval": null`, `"nextRefresh": null`, `"trigger": "startup"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("/config/status lacks %s:\n%s", want, raw)
		}
	}
	logs := ts.logs.String()
	compiling, loaded := strings.Index(logs, `"msg":"compiling the rules of every profile"`), strings.Index(logs, `"msg":"configuration loaded"`)
	if compiling < 0 || loaded < compiling || !strings.Contains(logs[loaded:], `"compiled":`) {
		t.Errorf("the log does not say the rules are compiled, then how long it took:\n%s", logs)
	}
	var names []string
	for _, p := range st.Profiles {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "lenient,recommended,strict" {
		t.Errorf("profiles = %v", names)
	}
	// smallSpec has no health endpoint: an error in recommended, a
	// warning in lenient.
	if rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec})); rep.Summary.Errors == 0 || rep.Tool.Ruleset != "recommended" {
		t.Errorf("default profile: %d errors, ruleset %q", rep.Summary.Errors, rep.Tool.Ruleset)
	}
	if rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec, "profile": "lenient"})); rep.Summary.Errors != 0 || rep.Summary.Warnings == 0 {
		t.Errorf("lenient: %d errors, %d warnings", rep.Summary.Errors, rep.Summary.Warnings)
	}
}

// A plain folder (not a git work tree) is read in place, and loaded again
// when its files change.
func TestPlainFolder(t *testing.T) {
	dir := t.TempDir()
	write := func(content string, mtime time.Time) {
		p := filepath.Join(dir, "specgate-lint.yaml")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write(noProfiles, time.Now().Add(-time.Hour))
	ts := start(t, Options{ConfigRepo: dir, RefreshInterval: -1})
	st := ts.status(t)
	first := st.Commit
	if st.Repository != dir || st.Branch != "" || first == "" {
		t.Errorf("status = %+v", st)
	}
	if rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec})); rep.Summary.Errors != 0 {
		t.Errorf("lenient: %v", findings(rep))
	}
	refresh(t, ts)
	if st := ts.waitFor(t, "an unchanged refresh", func(st ConfigStatus) bool { return st.LastRefresh.Trigger == "request" }); st.LastRefresh.Result != refreshUnchanged {
		t.Errorf("lastRefresh = %+v", st.LastRefresh)
	}
	write("profiles:\n  default:\n    rules:\n      extends: [lenient]\n      override: {health-endpoint: error}\n", time.Now())
	refresh(t, ts)
	st = ts.waitFor(t, "the edited folder", func(st ConfigStatus) bool { return st.Commit != first })
	if st.LastRefresh.Result != refreshLoaded {
		t.Errorf("lastRefresh = %+v", st.LastRefresh)
	}
	if rep := report(t, ts.lint(t, map[string]string{"spec": smallSpec})); rep.Summary.Errors != 1 {
		t.Errorf("after the edit: %v", findings(rep))
	}
}
