package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/cli"
	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/insightsd"
	"github.com/specgate/specgate/internal/envtest"
	"github.com/specgate/specgate/internal/insightstest"
	"github.com/specgate/specgate/internal/outputtest"
)

// insightsService is specgate's insights service on loopback, with a
// count of the requests it received and a hook in front of it.
type insightsService struct {
	srv      *insightsd.Server
	ts       *httptest.Server
	requests atomic.Int32
	down     atomic.Int32 // answer this many requests 503 first
}

func newInsights(t *testing.T) *insightsService {
	t.Helper()
	s := &insightsService{}
	s.srv, s.ts = insightstest.Serve(t, insightsd.Options{Dir: t.TempDir()}, func(w http.ResponseWriter, r *http.Request) bool {
		s.requests.Add(1)
		if s.down.Add(-1) >= 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	return s
}

type cliRun struct {
	code           int
	stdout, stderr string
}

// runCLI runs specgate in this process with the environment vars.
func runCLI(t *testing.T, vars map[string]string, args ...string) cliRun {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }}
	code := cli.Main(context.Background(), append([]string{"specgate"}, args...), env)
	return cliRun{code, out.String(), errb.String()}
}

const petsSpec = "../insights/testdata/pets-base.yaml"

// TestCIMetadataEndToEnd: spec-metadata-report --ci submits to a real
// service the CI metadata of each provider's variables, and each higher
// source overrides them; a repository or build id of another repository
// or build leaves out the provider's URLs, which point at its own.
func TestCIMetadataEndToEnd(t *testing.T) {
	svc := newInsights(t)
	github := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/orders", "GITHUB_REF": "refs/pull/7/merge", "GITHUB_HEAD_REF": "feature/x",
		"GITHUB_SHA": "abc123", "GITHUB_RUN_ID": "555", "GITHUB_RUN_ATTEMPT": "2",
	}
	with := func(base map[string]string, kv ...string) map[string]string {
		return envtest.Vars(base, append([]string{insights.URLEnv, svc.ts.URL}, kv...)...)
	}
	for _, tc := range []struct {
		name  string
		vars  map[string]string
		args  []string
		want  insights.CI
		from  map[string]string
		extra map[string]string
	}{
		{name: "github-actions", vars: with(github),
			want: insights.CI{Provider: "github-actions", RepoID: "acme/orders", RepoURL: "https://github.com/acme/orders", Branch: "feature/x", Commit: "abc123",
				BuildID: "555", BuildURL: "https://github.com/acme/orders/actions/runs/555", RunAttempt: 2, PullRequest: "7"}},
		{name: "gitlab-ci", vars: with(map[string]string{"GITLAB_CI": "true", "CI_PROJECT_PATH": "acme/g", "CI_PROJECT_URL": "https://gitlab.com/acme/g",
			"CI_COMMIT_BRANCH": "main", "CI_COMMIT_SHA": "g1", "CI_PIPELINE_ID": "9", "CI_PIPELINE_URL": "https://gitlab.com/acme/g/-/pipelines/9"}),
			want: insights.CI{Provider: "gitlab-ci", RepoID: "acme/g", RepoURL: "https://gitlab.com/acme/g", Branch: "main", Commit: "g1", BuildID: "9", BuildURL: "https://gitlab.com/acme/g/-/pipelines/9"}},
		{name: "jenkins", vars: with(map[string]string{"JENKINS_URL": "https://ci/", "GIT_URL": "https://github.com/acme/j.git", "GIT_BRANCH": "origin/main",
			"GIT_COMMIT": "j1", "BUILD_NUMBER": "4", "BUILD_URL": "https://ci/job/j/4/"}),
			want: insights.CI{Provider: "jenkins", RepoID: "acme/j", RepoURL: "https://github.com/acme/j.git", Branch: "main", Commit: "j1", BuildID: "4", BuildURL: "https://ci/job/j/4/"}},
		{name: "circleci", vars: with(map[string]string{"CIRCLECI": "true", "CIRCLE_PROJECT_USERNAME": "acme", "CIRCLE_PROJECT_REPONAME": "c",
			"CIRCLE_REPOSITORY_URL": "git@github.com:acme/c.git", "CIRCLE_BRANCH": "main", "CIRCLE_SHA1": "c1", "CIRCLE_BUILD_NUM": "12", "CIRCLE_BUILD_URL": "https://circleci.com/gh/acme/c/12"}),
			want: insights.CI{Provider: "circleci", RepoID: "acme/c", RepoURL: "git@github.com:acme/c.git", Branch: "main", Commit: "c1", BuildID: "12", BuildURL: "https://circleci.com/gh/acme/c/12"}},
		{name: "azure-pipelines", vars: with(map[string]string{"TF_BUILD": "True", "BUILD_REPOSITORY_NAME": "acme/a", "BUILD_REPOSITORY_URI": "https://dev.azure.com/acme/_git/a",
			"BUILD_SOURCEBRANCH": "refs/heads/main", "BUILD_SOURCEVERSION": "a1", "BUILD_BUILDID": "77", "SYSTEM_COLLECTIONURI": "https://dev.azure.com/acme/",
			"SYSTEM_TEAMPROJECT": "p", "SYSTEM_JOBATTEMPT": "3"}),
			want: insights.CI{Provider: "azure-pipelines", RepoID: "acme/a", RepoURL: "https://dev.azure.com/acme/_git/a", Branch: "main", Commit: "a1", BuildID: "77",
				BuildURL: "https://dev.azure.com/acme/p/_build/results?buildId=77", RunAttempt: 3}},
		{name: "bitbucket-pipelines", vars: with(map[string]string{"BITBUCKET_BUILD_NUMBER": "8", "BITBUCKET_REPO_FULL_NAME": "acme/b",
			"BITBUCKET_GIT_HTTP_ORIGIN": "http://bitbucket.org/acme/b", "BITBUCKET_BRANCH": "main", "BITBUCKET_COMMIT": "b1", "BITBUCKET_PR_ID": "5"}),
			want: insights.CI{Provider: "bitbucket-pipelines", RepoID: "acme/b", RepoURL: "http://bitbucket.org/acme/b", Branch: "main", Commit: "b1", BuildID: "8",
				BuildURL: "http://bitbucket.org/acme/b/addon/pipelines/home#!/results/8", PullRequest: "5"}},
		{name: "buildkite", vars: with(map[string]string{"BUILDKITE": "true", "BUILDKITE_REPO": "git@github.com:acme/k.git", "BUILDKITE_BRANCH": "main",
			"BUILDKITE_COMMIT": "k1", "BUILDKITE_BUILD_NUMBER": "31", "BUILDKITE_BUILD_URL": "https://buildkite.com/acme/k/builds/31", "BUILDKITE_RETRY_COUNT": "0", "BUILDKITE_PULL_REQUEST": "false"}),
			want: insights.CI{Provider: "buildkite", RepoID: "acme/k", RepoURL: "git@github.com:acme/k.git", Branch: "main", Commit: "k1", BuildID: "31",
				BuildURL: "https://buildkite.com/acme/k/builds/31", RunAttempt: 1}},
		{name: "SPECGATE_* over the provider", vars: with(github, "SPECGATE_REPO_ID", "env/repo", "SPECGATE_BUILD_ID", "env-build", "SPECGATE_RUN_ATTEMPT", "4"),
			want: insights.CI{Provider: "github-actions", RepoID: "env/repo", Branch: "feature/x", Commit: "abc123",
				BuildID: "env-build", RunAttempt: 4, PullRequest: "7"},
			from: map[string]string{"repoId": "SPECGATE_REPO_ID", "buildId": "SPECGATE_BUILD_ID", "runAttempt": "SPECGATE_RUN_ATTEMPT", "commit": "GITHUB_SHA"}},
		{name: "-D over SPECGATE_*", vars: with(github, "SPECGATE_REPO_ID", "env/repo", "SPECGATE_BUILD_ID", "env-build"),
			args: []string{"-Dspecgate.repo.id=prop/repo", "-Dspecgate.build.id=prop-build", "-Dspecgate.run.attempt=5"},
			want: insights.CI{Provider: "github-actions", RepoID: "prop/repo", Branch: "feature/x", Commit: "abc123",
				BuildID: "prop-build", RunAttempt: 5, PullRequest: "7"},
			from: map[string]string{"repoId": "-Dspecgate.repo.id", "buildId": "-Dspecgate.build.id", "runAttempt": "-Dspecgate.run.attempt"}},
		{name: "options over -D", vars: with(github, "SPECGATE_REPO_ID", "env/repo"),
			args: []string{"-Dspecgate.repo.id=prop/repo", "--repo-id", "opt/repo", "--build-id=opt-build", "--run-attempt", "6", "--metadata", "team=pay,ments", "--metadata", "tier=1"},
			want: insights.CI{Provider: "github-actions", RepoID: "opt/repo", Branch: "feature/x", Commit: "abc123",
				BuildID: "opt-build", RunAttempt: 6, PullRequest: "7"},
			from:  map[string]string{"repoId": "--repo-id", "buildId": "--build-id", "runAttempt": "--run-attempt"},
			extra: map[string]string{"team": "pay,ments", "tier": "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := svc.srv.Store().Count()
			args := append([]string{"spec-metadata-report", petsSpec, "--report-dir", t.TempDir(), "--ci"}, tc.args...)
			r := runCLI(t, tc.vars, args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "reports submitted to the insights service at "+svc.ts.URL) {
				t.Errorf("stderr %q", r.stderr)
			}
			if svc.srv.Store().Count() != before+1 {
				t.Fatal("not submitted")
			}
			got := latestSubmission(t, svc)
			for field, from := range tc.from {
				if got.Sources[field] != from {
					t.Errorf("%s from %q, want %q", field, got.Sources[field], from)
				}
			}
			got.Sources = nil
			if tc.extra != nil {
				tc.want.Metadata = tc.extra
			}
			if !ciEqual(got, tc.want) {
				t.Errorf("ci\n got  %+v\n want %+v", got, tc.want)
			}
		})
	}
}

// latestSubmission reads the CI metadata of the last submission stored.
func latestSubmission(t *testing.T, svc *insightsService) insights.CI {
	t.Helper()
	rs := svc.srv.Store().History(insightsd.Filter{}, 1)
	if len(rs) == 0 {
		t.Fatal("no result")
	}
	data, err := svc.srv.Store().Submission(rs[0].SubmissionID)
	if err != nil {
		t.Fatal(err)
	}
	var s insights.Submission
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s.CI
}

func ciEqual(a, b insights.CI) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// TestCIBadInput: a malformed --metadata or run attempt, and --ci without
// a service, stop the command before it runs (exit 2).
func TestCIBadInput(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{insights.URLEnv: "http://127.0.0.1:1"}
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"metadata without =", vars, []string{"--ci", "--metadata", "team"}, `specgate: --metadata "team" is not KEY=VALUE`},
		{"metadata without --ci", vars, []string{"--metadata", "=x"}, `specgate: --metadata "=x": the key "" must be`},
		{"run attempt", vars, []string{"--ci", "--run-attempt", "first"}, `specgate: --run-attempt="first": the run attempt must be a whole number from 1`},
		{"run attempt from the environment", map[string]string{insights.URLEnv: "http://127.0.0.1:1", "SPECGATE_RUN_ATTEMPT": "-1"}, []string{"--ci"}, `SPECGATE_RUN_ATTEMPT="-1"`},
		{"no service", map[string]string{}, []string{"--ci"}, "specgate: --ci needs the insights service's URL: --insights-url, -Dspecgate.insights.url, SPECGATE_INSIGHTS_URL, or specgate.yaml's specgate.insights.url"},
		{"not a URL", vars, []string{"--ci", "--insights-url", "insights.example.com"}, `specgate: --insights-url "insights.example.com" is not an http:// or https:// URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, tc.vars, append([]string{"spec-metadata-report", petsSpec, "--report-dir", dir}, tc.args...)...)
			if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, insights.SpecMetadataFile)); err == nil {
				t.Error("the command ran")
			}
		})
	}
}

// TestCIOutage: a submission during an outage is retried; when the
// service stays down it is reported, the local report stays, and only
// --ci-strict changes the exit code.
func TestCIOutage(t *testing.T) {
	svc := newInsights(t)
	vars := map[string]string{insights.URLEnv: svc.ts.URL, "SPECGATE_REPO_ID": "acme/contracts"}

	svc.down.Store(2)
	dir := t.TempDir()
	r := runCLI(t, vars, "spec-metadata-report", petsSpec, "--report-dir", dir, "--ci")
	if r.code != 0 || !strings.Contains(r.stderr, "reports submitted") || svc.requests.Load() != 3 {
		t.Errorf("after 2 failures: exit %d, %d requests, stderr %q", r.code, svc.requests.Load(), r.stderr)
	}

	// Down for good: the retries stop at the time limit.
	svc.down.Store(1 << 20)
	svc.requests.Store(0)
	for _, strict := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"spec-metadata-report", petsSpec, "--report-dir", dir, "--ci", "--ci-timeout", "1500ms"}
		if strict {
			args = append(args, "--ci-strict")
		}
		start := time.Now()
		r := runCLI(t, vars, args...)
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("strict=%v: took %s with --ci-timeout 1500ms", strict, took)
		}
		want := 0
		if strict {
			want = cli.ExitFindings
		}
		if r.code != want {
			t.Errorf("strict=%v: exit %d, want %d", strict, r.code, want)
		}
		msg := "specgate: --ci: submitting the reports to the insights service at " + svc.ts.URL + " failed: 503 Service Unavailable ("
		if !strings.Contains(r.stderr, msg) || !strings.Contains(r.stderr, "the reports stay in "+dir+" (submit them later with 'specgate send-report --dir "+dir+"')") {
			t.Errorf("stderr %q", r.stderr)
		}
		if strict && !strings.Contains(r.stderr, "specgate: --ci-strict: the reports were not submitted") {
			t.Errorf("stderr %q", r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, insights.SpecMetadataFile)); err != nil {
			t.Errorf("the local report is lost: %v", err)
		}
	}
	if n := svc.requests.Load(); n < 4 {
		t.Errorf("%d requests in two runs: the submissions were not retried", n)
	}
}

// TestCIProxy: the submission goes through HTTP_PROXY (a proxy on
// loopback sees it), and NO_PROXY sends it direct.
func TestCIProxy(t *testing.T) {
	svc := newInsights(t)
	target, _ := url.Parse(svc.ts.URL)
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		mu.Lock()
		seen = append(seen, r.In.Method+" "+r.In.URL.String())
		mu.Unlock()
		r.SetURL(target)
	}})
	defer proxy.Close()
	_, port, _ := net.SplitHostPort(target.Host)
	// Loopback addresses never go through a proxy: the service is named by
	// a host only the proxy can reach.
	insightsURL := "http://insights.specgate.invalid:" + port
	vars := map[string]string{"HTTP_PROXY": proxy.URL, "SPECGATE_REPO_ID": "acme/contracts"}

	r := runCLI(t, vars, "spec-metadata-report", petsSpec, "--report-dir", t.TempDir(), "--ci", "--insights-url", insightsURL)
	if r.code != 0 || !strings.Contains(r.stderr, "reports submitted") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	mu.Lock()
	if len(seen) != 1 || seen[0] != "POST "+insightsURL+"/v1/submissions" {
		t.Errorf("the proxy saw %v", seen)
	}
	mu.Unlock()

	// Java's proxy properties on the command line do the same.
	r = runCLI(t, map[string]string{"SPECGATE_REPO_ID": "acme/contracts"}, "spec-metadata-report", petsSpec, "--report-dir", t.TempDir(), "--ci", "--insights-url", insightsURL,
		"-Dhttp.proxyHost=127.0.0.1", "-Dhttp.proxyPort="+strings.TrimPrefix(proxy.URL, "http://127.0.0.1:"))
	if r.code != 0 || !strings.Contains(r.stderr, "reports submitted") {
		t.Fatalf("-Dhttp.proxyHost: exit %d: %s", r.code, r.stderr)
	}
	mu.Lock()
	if len(seen) != 2 {
		t.Errorf("the proxy saw %v", seen)
	}
	seen = seen[:1]
	mu.Unlock()
	r = runCLI(t, vars, "spec-metadata-report", petsSpec, "--report-dir", t.TempDir(), "--ci", "--insights-url", insightsURL, "--ci-timeout", "1s",
		"-Dhttp.nonProxyHosts=localhost|*.specgate.invalid")
	if r.code != 0 || !strings.Contains(r.stderr, "failed") {
		t.Errorf("-Dhttp.nonProxyHosts: exit %d: %s", r.code, r.stderr)
	}

	vars["NO_PROXY"] = "specgate.invalid"
	r = runCLI(t, vars, "spec-metadata-report", petsSpec, "--report-dir", t.TempDir(), "--ci", "--insights-url", insightsURL, "--ci-timeout", "1s")
	if r.code != 0 || !strings.Contains(r.stderr, "insights.specgate.invalid") || !strings.Contains(r.stderr, "failed") {
		t.Errorf("with NO_PROXY: exit %d: %s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 {
		t.Errorf("the proxy saw %v after NO_PROXY", seen)
	}
}

// TestCommonOptions: --spec-file and --dir are resolved against the
// working directory before the command runs, and a missing one is named
// by the path it was looked for at.
func TestCommonOptions(t *testing.T) {
	abs, _ := filepath.Abs("nothere.yaml")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"validate", "--spec-file", petsSpec}, 0, "valid OpenAPI 3.0.3"},
		{[]string{"validate", "--spec-file=nothere.yaml"}, 2, "specgate: --spec-file nothere.yaml: " + abs + " does not exist"},
		{[]string{"validate", "--spec-file", "../insights"}, 2, "is a folder; give it with --dir"},
		{[]string{"validate", "--dir", petsSpec}, 2, "is not a folder"},
		{[]string{"spec-metadata-report", "--dir", "../insights/testdata", "--report-dir", t.TempDir()}, 0, "Pets 2.0"},
		{[]string{"test", "--dir", "../insights/testdata"}, 2, "flag provided but not defined: -dir"},
		{[]string{"validate", petsSpec, "--log-level", "loud"}, 2, `--log-level must be debug, info, warn or error, found "loud"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runCLI(t, nil, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Errorf("exit %d, output %q %q; want %d and %q", r.code, r.stdout, r.stderr, tc.code, tc.want)
			}
		})
	}
}

// TestDebugMasksToken: --debug logs what is sent to the service, never
// the token.
func TestDebugMasksToken(t *testing.T) {
	logger := slog.Default()
	t.Cleanup(func() { slog.SetDefault(logger) }) // --debug sets the process's logger
	svc := newInsights(t)
	vars := map[string]string{insights.URLEnv: svc.ts.URL, "SPECGATE_REPO_ID": "acme/contracts", insights.TokenEnv: "tok-SECRET-123"}
	r := runCLI(t, vars, "spec-metadata-report", petsSpec, "--report-dir", t.TempDir(), "--ci", "--debug")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`msg="insights request" method=POST url=` + svc.ts.URL + "/v1/submissions", `authorization="Bearer ****"`, "msg=\"insights answer\" attempt=1 status=201", "repoId:SPECGATE_REPO_ID", `msg="spec loaded" file=../insights/testdata/pets-base.yaml format="OpenAPI 3.0.3"`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the debug log has no %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "SECRET") {
		t.Error("the token is in the log")
	}
}

// TestInsightsServerLogLevel: --log-level sets the level of the insights
// server's log: its access log is at info, so warn leaves it out.
func TestInsightsServerLogLevel(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		accessLog bool
	}{
		{nil, true},
		{[]string{"--log-level", "warn"}, false},
		{[]string{"--debug"}, true},
	} {
		t.Run(strings.Join(append([]string{"default"}, tc.args...), " "), func(t *testing.T) {
			dir := t.TempDir()
			ready := filepath.Join(dir, "ready")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stderr := &outputtest.Buffer{}
			exit := make(chan int, 1)
			args := append([]string{"specgate", "insights-server", "--port", "0", "--data-dir", filepath.Join(dir, "data"), "--ready-file", ready}, tc.args...)
			go func() {
				exit <- cli.Main(ctx, args, cli.Env{Stdout: io.Discard, Stderr: stderr, Getenv: func(string) string { return "" }})
			}()
			base := waitReady(t, ready, exit, stderr)
			resp, err := http.Get(base + "/health")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			cancel()
			if code := <-exit; code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if got := strings.Contains(stderr.String(), "msg=request"); got != tc.accessLog {
				t.Errorf("access log %v, want %v:\n%s", got, tc.accessLog, stderr.String())
			}
		})
	}
}

// waitReady waits for a server command to write its ready file, and
// returns the URL it holds.
func waitReady(t *testing.T, ready string, exit <-chan int, stderr *outputtest.Buffer) string {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(ready); err == nil && len(data) > 0 {
			return strings.TrimSpace(string(data))
		}
		select {
		case code := <-exit:
			t.Fatalf("exited with %d: %s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ready file: %s", stderr.String())
		}
	}
}

const pingSpec = `openapi: 3.0.3
info: {title: Ping, version: "1"}
paths:
  /ping:
    get:
      responses:
        "200":
          description: pong
          content:
            application/json:
              schema: {type: object, required: [ok], properties: {ok: {type: boolean}}}
`

// TestCIExitCodes: one rule for every command with --ci. A failed
// submission is reported and the run's own exit code stands; with
// --ci-strict, a run that would exit 0 exits 1 instead, and one that
// failed keeps its code. send-report, whose work is the submission, exits 1
// on a failed one with or without --ci-strict.
func TestCIExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ping := write("ping.yaml", pingSpec)
	broken := write("broken.yaml", "openapi: 3.0.3\ninfo: [\n")
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok": true}`))
	}))
	defer good.Close()
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok": "yes"}`))
	}))
	defer bad.Close()
	sent := filepath.Join(dir, "sent")
	if r := runCLI(t, nil, "spec-metadata-report", ping, "--report-dir", sent); r.code != 0 {
		t.Fatalf("spec-metadata-report: exit %d: %s", r.code, r.stderr)
	}
	unreachable := []string{"--insights-url", "http://127.0.0.1:1", "--ci-timeout", "300ms", "--repo-id", "acme/ping"}
	for _, tc := range []struct {
		name string
		args []string
		mock bool // a mock run, stopped once it answered a request
		code int  // the run's own exit code
	}{
		{"spec-metadata-report", []string{"spec-metadata-report", ping, "--ci"}, false, 0},
		{"spec-metadata-report of a broken spec", []string{"spec-metadata-report", broken, "--ci"}, false, cli.ExitUsage},
		{"backward-compatibility-check, compatible", []string{"backward-compatibility-check", petsSpec, petsSpec, "--ci"}, false, 0},
		{"backward-compatibility-check, incompatible", []string{"backward-compatibility-check", "../insights/testdata/pets-base.yaml", "../insights/testdata/pets-rev.yaml", "--ci"}, false, cli.ExitFindings},
		{"test", []string{"test", ping, "--testBaseURL", good.URL, "--ci"}, false, 0},
		{"test that fails", []string{"test", ping, "--testBaseURL", bad.URL, "--ci"}, false, cli.ExitFindings},
		{"run-suite", []string{"run-suite", ping, "--testBaseURL", good.URL, "--ci"}, false, 0},
		{"mock", []string{"mock", ping, "--port", "0", "--ci"}, true, 0},
		{"send-report", []string{"send-report", "--dir", sent}, false, cli.ExitFindings},
	} {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s strict=%v", tc.name, strict), func(t *testing.T) {
				args := append(append([]string{}, tc.args...), unreachable...)
				if tc.args[0] != "send-report" && tc.args[0] != "backward-compatibility-check" {
					args = append(args, "--report-dir", t.TempDir())
				}
				if strict {
					args = append(args, "--ci-strict")
				}
				var r cliRun
				if tc.mock {
					r = runMock(t, args)
				} else {
					r = runCLI(t, nil, args...)
				}
				want := tc.code
				if want == 0 && (strict || tc.args[0] == "send-report") {
					want = cli.ExitFindings
				}
				if r.code != want {
					t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, want, r.stdout, r.stderr)
				}
				if !strings.Contains(r.stderr, "specgate: --ci: submitting the reports to the insights service at http://127.0.0.1:1 failed: ") {
					t.Errorf("the failed submission is not reported:\n%s", r.stderr)
				}
				switch {
				case tc.code != 0:
				case strict:
					if !strings.Contains(r.stderr, "specgate: --ci-strict: the reports were not submitted") {
						t.Errorf("stderr %q", r.stderr)
					}
				case tc.args[0] == "send-report":
					if !strings.Contains(r.stderr, "specgate: send-report: the reports were not submitted") {
						t.Errorf("stderr %q", r.stderr)
					}
				}
			})
		}
	}
}

// runMock runs specgate mock with args (and --ready-file) until it has
// answered one request, then stops it as SIGTERM would.
func runMock(t *testing.T, args []string) cliRun {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	stderr := &outputtest.Buffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- cli.Main(ctx, append([]string{"specgate"}, append(args, "--ready-file", ready)...),
			cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: stderr, Getenv: func(string) string { return "" }})
	}()
	base := waitReady(t, ready, exit, stderr)
	resp, err := http.Get(base + "/ping")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	code := <-exit
	return cliRun{code, out.String(), stderr.String()}
}

// TestSendReportTwice: send-report run twice on one folder sends the same
// submissions, which the service recognises: one entry in the history.
func TestSendReportTwice(t *testing.T) {
	svc := newInsights(t)
	dir := t.TempDir()
	if r := runCLI(t, nil, "spec-metadata-report", petsSpec, "--report-dir", dir); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	vars := map[string]string{insights.URLEnv: svc.ts.URL, "SPECGATE_REPO_ID": "acme/contracts"}
	first := runCLI(t, vars, "send-report", "--dir", dir)
	second := runCLI(t, vars, "send-report", "--dir", dir)
	id := regexp.MustCompile(`\(submission ([0-9a-f]{32}), repository acme/contracts`).FindStringSubmatch(first.stderr)
	if first.code != 0 || id == nil {
		t.Fatalf("first: exit %d: %s", first.code, first.stderr)
	}
	if second.code != 0 || !strings.Contains(second.stderr, "(submission "+id[1]+", which it had already, repository acme/contracts") {
		t.Errorf("second: exit %d: %s", second.code, second.stderr)
	}
	if n := len(svc.srv.Store().History(insightsd.Filter{RepoID: "acme/contracts"}, 10)); n != 1 {
		t.Errorf("%d entries in the history, want 1", n)
	}
}

// TestCIShardedRun: the shards of a test run, each submitted with --ci
// from its own machine, make one result at the insights service, with
// every test and the coverage of the whole run; a shard without a build id
// is refused before it runs.
func TestCIShardedRun(t *testing.T) {
	svc := newInsights(t)
	dir := t.TempDir()
	var spec strings.Builder
	spec.WriteString("openapi: 3.0.3\ninfo: {title: Shop, version: \"1\"}\npaths:\n")
	for _, p := range []string{"a", "b", "c", "d", "e", "f"} {
		fmt.Fprintf(&spec, "  /%s:\n    get:\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {type: object, required: [ok], properties: {ok: {type: boolean}}}\n", p)
	}
	shop := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(shop, []byte(spec.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok": true}`))
	}))
	defer sut.Close()
	vars := map[string]string{insights.URLEnv: svc.ts.URL}

	r := runCLI(t, vars, "test", shop, "--testBaseURL", sut.URL, "--report-dir", t.TempDir(), "--shard", "1/2", "--ci", "--repo-id", "acme/shop")
	if r.code != cli.ExitUsage || !strings.Contains(r.stderr, "specgate: --shard with --ci needs the build's id, by which the insights service combines the shards of one build") {
		t.Errorf("a shard without a build id: exit %d: %s", r.code, r.stderr)
	}

	whole := runCLI(t, nil, "test", shop, "--testBaseURL", sut.URL, "--report-dir", t.TempDir())
	total := regexp.MustCompile(`(?m)^(\d+) tests?: (\d+) passed`).FindStringSubmatch(whole.stdout)
	if whole.code != 0 || total == nil {
		t.Fatalf("the whole run: exit %d: %s", whole.code, whole.stdout)
	}
	for _, shard := range []string{"1/2", "2/2"} {
		r := runCLI(t, vars, "test", shop, "--testBaseURL", sut.URL, "--report-dir", t.TempDir(), "--shard", shard, "--ci", "--repo-id", "acme/shop", "--build-id", "77")
		if r.code != 0 || !strings.Contains(r.stderr, "reports submitted") {
			t.Fatalf("shard %s: exit %d: %s", shard, r.code, r.stderr)
		}
	}
	rs := svc.srv.Store().Latest(insightsd.Filter{RepoID: "acme/shop"})
	if len(rs) != 1 {
		t.Fatalf("latest: %+v", rs)
	}
	got := rs[0]
	if fmt.Sprint(got.Tests.Tests) != total[1] || got.Status != "passed" || got.Shards == nil || !got.Shards.Complete || len(got.Shards.Received) != 2 {
		t.Errorf("combined: %s %+v %+v; the whole run has %s tests", got.Status, got.Tests, got.Shards, total[1])
	}
	if got.Coverage == nil || got.Coverage.Covered != 6 || got.Coverage.Total != 6 {
		t.Errorf("coverage %+v, want the six operations covered", got.Coverage)
	}
}
