package cli_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/cli"
	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/internal/outputtest"
	"github.com/specgate/specgate/server"
)

var listening = regexp.MustCompile(`msg=listening addr=(\S+)`)

// TestLintServerCommand runs the real command on a free loopback port:
// it serves the same JSON report as `specgate lint --format json`, and
// stops cleanly (exit 0) when its context ends, as on SIGTERM.
func TestLintServerCommand(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": "profiles:\n  default:\n    rules:\n      extends: [recommended]\n  gate:\n    rules:\n      extends: [strict]\n      exclude: [info-license]\n"})
	corpus := filepath.Join("..", "..", "shared", "corpus")
	files := httptest.NewServer(http.FileServer(http.Dir(corpus)))
	defer files.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &outputtest.Buffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- cli.Main(ctx, []string{"specgate", "lint-server", "--port", "0", "--host", "127.0.0.1", "--config-repo", repo,
			"--allow-private-urls", "--refresh-interval", "0", "--max-memory", "1GiB", "--rate-limit", "1000"}, cli.Env{Stdout: io.Discard, Stderr: stderr, Getenv: func(string) string { return "" }})
	}()
	var base string
	for deadline := time.Now().Add(30 * time.Second); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(stderr.String()); m != nil {
			base = "http://" + m[1]
		}
		select {
		case code := <-exit:
			t.Fatalf("lint-server exited with %d: %s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("lint-server did not start: %s", stderr.String())
		}
	}

	for _, name := range []string{"petstore-expanded.yaml", "webhook-example-3.1.yaml", "uber-v2.json"} {
		specURL := files.URL + "/" + name
		resp, err := http.Post(base+"/lint-reports", "application/json", strings.NewReader(`{"specUrl": "`+specURL+`", "profile": "gate"}`))
		if err != nil {
			t.Fatal(err)
		}
		served, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("RateLimit-Policy") != `"client";q=1000;w=60` {
			t.Fatalf("%s: %d %s %v", name, resp.StatusCode, served, resp.Header)
		}
		var stdout bytes.Buffer
		code := cli.Main(context.Background(), []string{"specgate", "lint", "--config", filepath.Join(repo, "specgate-lint.yaml"), "--profile", "gate",
			"--format", "json", "--no-report", specURL}, cli.Env{Stdout: &stdout, Stderr: io.Discard, Getenv: func(string) string { return "" }})
		if code > 1 {
			t.Fatalf("lint %s: exit %d", name, code)
		}
		if !bytes.Equal(served, stdout.Bytes()) {
			t.Errorf("%s: the server's report differs from lint's:\nserver: %s\nlint:   %s", name, served, stdout.Bytes())
		}
		if !strings.Contains(string(served), `"ruleId"`) {
			t.Errorf("%s: a report without diagnostics does not compare much: %s", name, served)
		}
	}

	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d after shutdown: %s", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("lint-server did not stop")
	}
	logs := stderr.String()
	if compiling, listens := strings.Index(logs, `msg="compiling the rules of every profile"`), strings.Index(logs, "msg=listening"); compiling < 0 || listens < compiling ||
		!regexp.MustCompile(`msg="configuration loaded" .* compiled=\S+`).MatchString(logs[compiling:listens]) {
		t.Errorf("the log does not say, before it listens, that the rules are compiled and how long it took:\n%s", logs)
	}
	for _, want := range []string{"msg=\"configuration loaded\"", "msg=request", "path=/lint-reports", "status=200", "profile=gate", "msg=stopped",
		"msg=\"memory budget\" maxMemory=1073741824", "msg=\"memory limit set\""} {
		if !strings.Contains(logs, want) {
			t.Errorf("standard error lacks %q:\n%s", want, logs)
		}
	}
}

// TestLintServerReadyFileAndLogLevel: --ready-file receives the URL once
// the server serves, and --log-level reaches its log: at warn, no access
// log, but the warning that --refresh-interval does nothing without a
// repository.
func TestLintServerReadyFileAndLogLevel(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "ready")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &outputtest.Buffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- cli.Main(ctx, []string{"specgate", "lint-server", "--port", "0", "--ready-file", ready, "--log-level", "warn", "--refresh-interval", "1s"},
			cli.Env{Stdout: io.Discard, Stderr: stderr, Getenv: func(string) string { return "" }})
	}()
	var base string
	for deadline := time.Now().Add(time.Minute); base == ""; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(ready); err == nil {
			base = strings.TrimSpace(string(data))
		}
		select {
		case code := <-exit:
			t.Fatalf("lint-server exited with %d: %s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ready file: %s", stderr.String())
		}
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(base) {
		t.Fatalf("ready file holds %q", base)
	}
	resp, err := http.Get(base + "/config/status")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"refreshInterval": null`) {
		t.Errorf("/config/status: %d %s", resp.StatusCode, body)
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	logs := stderr.String()
	if !strings.Contains(logs, `level=WARN msg="--refresh-interval has no effect without --config-repo: the built-in rulesets are served"`) {
		t.Errorf("no warning about --refresh-interval:\n%s", logs)
	}
	for _, info := range []string{"msg=request", "msg=listening", "level=INFO"} {
		if strings.Contains(logs, info) {
			t.Errorf("--log-level warn logs %s:\n%s", info, logs)
		}
	}
}

func TestLintServerHelp(t *testing.T) {
	var out bytes.Buffer
	if code := cli.Main(context.Background(), []string{"specgate", "lint-server", "--help"}, cli.Env{Stdout: &out, Stderr: io.Discard}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	help := out.String()
	flags := []string{"--port", "--host", "--config-repo", "--ruleset", "--config-branch", "--config-path", "--refresh-interval", "--allow-private-urls",
		"--max-concurrent", "--max-memory", "--rate-limit", "--queue-timeout", "--max-body-size", "--max-spec-size", "--fetch-timeout", "--request-timeout", "--timeout",
		"--shutdown-timeout", "--log-format", "--ready-file", "--log-level", "SPECGATE_CONFIG_REPO_TOKEN", "SPECGATE_CONFIG_REPO_USER"}
	for _, f := range flags {
		if !strings.Contains(help, f) {
			t.Errorf("--help does not document %s", f)
		}
	}
	for _, e := range server.Endpoints {
		if !regexp.MustCompile(e[0] + `\s+` + regexp.QuoteMeta(e[1]) + `\s`).MatchString(help) {
			t.Errorf("--help does not list %s %s", e[0], e[1])
		}
	}
}

func TestLintServerUsageErrors(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": "rules: {}\n"})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--port", "0", "--ruleset", "strictt"}, `--ruleset "strictt" is not a built-in ruleset (lenient, recommended, strict); did you mean "strict"?`},
		{[]string{"--config-repo", repo, "--port", "70000"}, "--port must be between 0 and 65535"},
		{[]string{"--config-repo", repo, "--log-format", "xml"}, "--log-format must be text or json"},
		{[]string{"--config-repo", repo, "--max-body-size", "0"}, "--max-body-size must be at least 1"},
		{[]string{"--config-repo", repo, "--max-concurrent", "0"}, "--max-concurrent must be at least 1"},
		{[]string{"--config-repo", repo, "--max-memory", "2GB"}, `--max-memory: "2GB" is not a memory size`},
		{[]string{"--config-repo", repo, "--rate-limit", "-1"}, "--rate-limit must be 0 (no limit) or more"},
		{[]string{"--config-repo", repo, "--port", "0", "--host", "127.0.0.1", "--max-memory", "1MiB"}, "--max-memory 1 MiB is less than a lint request takes"},
		{[]string{"--config-repo", repo, "--port", "0", "--host", "127.0.0.1", "--config-path", "missing.yaml"}, "missing.yaml: no configuration file"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		code := cli.Main(context.Background(), append([]string{"specgate", "lint-server"}, tt.args...), cli.Env{Stdout: io.Discard, Stderr: &stderr, Getenv: func(string) string { return "" }})
		if code != cli.ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}
