package cli

import (
	"fmt"
	"log/slog"
	"math"
	"net"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/server"
)

// Environment variables of lint-server.
const (
	envRepoToken = "SPECGATE_CONFIG_REPO_TOKEN"
	envRepoUser  = "SPECGATE_CONFIG_REPO_USER"
)

func lintServerCommand(env Env) *cli.Command {
	d := server.Defaults()
	var endpoints strings.Builder
	for _, e := range server.Endpoints {
		fmt.Fprintf(&endpoints, "  %-5s %-24s %s\n", e[0], e[1], e[2])
	}
	return &cli.Command{
		Name:  "lint-server",
		Usage: "serve linting over HTTP, with the built-in rulesets or a central configuration from a git repository",
		Description: "Without --config-repo, serves the built-in rulesets: each is a profile, --ruleset the default\n" +
			"one (try it: specgate lint-server --port 8080). With --config-repo, clones the configuration\n" +
			"repository (an https, ssh or file URL, or a local git work tree), loads the lint configuration\n" +
			"file in it (--config-path; profiles, custom rules and Rego as for `lint --config`), compiles\n" +
			"every profile once and serves lint requests with it. The branch is fetched every\n" +
			"--refresh-interval and on POST /config/refresh; a new commit is loaded, compiled and swapped in\n" +
			"atomically (requests in flight finish on the old one). A plain local folder (not a git work\n" +
			"tree) is read in place and loaded again when its files change. A configuration that fails to\n" +
			"load leaves the last good one serving; /config/status says why.\n\n" +
			"Endpoints:\n" + endpoints.String() + "\n" +
			"POST /lint-reports takes {\"spec\": \"<text>\"} or {\"specUrl\": \"https://…\"}, with optional\n" +
			"\"profile\" and \"format\" (json, the default, or sarif), and answers 200 with the report even\n" +
			"when the spec has errors. Errors are application/problem+json: 400 bad request, 413 body too\n" +
			"large, 415 not JSON, 422 spec cannot be parsed (with file:line:col), 403 specUrl refused (a\n" +
			"forbidden address), 502 fetch failed, 429 over --rate-limit, 503 all lint slots busy or the\n" +
			"memory budget taken (with Retry-After),\n" +
			"504 request too slow.\n\n" +
			"Spec URLs, their redirects and their $refs are fetched only from public addresses, checked\n" +
			"when connecting: loopback, private, link-local (cloud metadata), CGNAT, multicast and other\n" +
			"reserved addresses are refused unless --allow-private-urls is given. No proxy is used.\n\n" +
			"Environment: " + envRepoToken + " is sent to an https --config-repo as HTTP basic\n" +
			"credentials, with the user " + envRepoUser + " (default x-access-token), through git's\n" +
			"environment, never on a command line; it is never logged.\n\n" +
			"Logs are structured (log/slog) on standard error, at --log-level (default info): the rules\n" +
			"being compiled and how long it took, then one line per request. Once it serves, --ready-file\n" +
			"FILE receives its URL. SIGINT or SIGTERM stops accepting connections and finishes requests\n" +
			"in flight (--shutdown-timeout).\n" +
			"Exit codes: 0 after a clean shutdown, 2 when the server cannot start (bad flags, clone or\n" +
			"configuration), 1 when requests were still in flight at the shutdown timeout.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "port", Value: 8080, Usage: "TCP port to listen on (0 picks a free one, logged as addr)"},
			&cli.StringFlag{Name: "host", Value: httpx.DefaultHost, Usage: "address to listen on (0.0.0.0 or :: for every interface, as in a container)"},
			&cli.StringFlag{Name: "config-repo", Usage: "the central configuration: a git repository `URL` (https, ssh, file) or a local folder (default: none, the built-in rulesets)"},
			&cli.StringFlag{Name: "ruleset", Value: d.Ruleset, Usage: "without --config-repo, the built-in ruleset of requests that name no profile"},
			&cli.StringFlag{Name: "config-branch", Usage: "`BRANCH` to follow (default: the repository's default branch)"},
			&cli.StringFlag{Name: "config-path", Value: d.ConfigPath, Usage: "the lint configuration `FILE`, relative to the repository root"},
			&cli.DurationFlag{Name: "refresh-interval", Value: d.RefreshInterval, Usage: "how often to fetch the branch for a new commit (0: only on POST /config/refresh)"},
			&cli.BoolFlag{Name: "allow-private-urls", Usage: "let specUrl and $refs reach loopback, private, link-local and other non-public addresses"},
			&cli.IntFlag{Name: "max-concurrent", Value: d.MaxConcurrent, Usage: "lint requests handled at once; more wait up to --queue-timeout, then get 503"},
			&cli.StringFlag{Name: "max-memory", Usage: "memory the lint requests in flight may take together, by estimate (`SIZE` as GOMEMLIMIT writes it: 1536MiB, 2GiB); " +
				"a request that does not fit gets 503 (default: what GOMEMLIMIT leaves beyond the loaded configuration, or 2GiB)"},
			&cli.IntFlag{Name: "rate-limit", Usage: "requests each client address (IPv6: /64) may make per minute, health checks excepted; more get 429 (0: no limit)"},
			&cli.DurationFlag{Name: "queue-timeout", Value: d.QueueTimeout, Usage: "how long a lint request waits for a free slot before 503 (0: not at all)"},
			&cli.Int64Flag{Name: "max-body-size", Value: d.MaxBodySize >> 20, Usage: "largest request body, in MiB (413 above)"},
			&cli.Int64Flag{Name: "max-spec-size", Value: d.MaxSpecSize >> 20, Usage: "largest spec or $ref fetched from a URL, in MiB (502 above)"},
			&cli.DurationFlag{Name: "fetch-timeout", Value: d.FetchTimeout, Usage: "time limit of each fetch of a spec or $ref (502 above)"},
			&cli.DurationFlag{Name: "request-timeout", Value: d.RequestTimeout, Usage: "time limit to fetch, load and lint one request (504 above)"},
			&cli.DurationFlag{Name: "timeout", Value: d.RuleTimeout, Usage: "time limit for evaluating the rules on one spec (an eval-timeout diagnostic above)"},
			&cli.DurationFlag{Name: "shutdown-timeout", Value: d.ShutdownTimeout, Usage: "how long to wait for requests in flight on SIGINT/SIGTERM"},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "log format on standard error: text or json"},
			&cli.StringFlag{Name: "ready-file", Usage: "`FILE` to write the server's URL to once its rules are compiled and it serves, for scripts that start it with --port 0", TakesFile: true},
		},
		Action: func(c *cli.Context) error { return runLintServer(c, env) },
	}
}

func runLintServer(c *cli.Context, env Env) error {
	// The server reads and sets the memory limit: it runs at the usual
	// pace from the start.
	linter.ResumePace()
	logger, err := commandLogger(c, env.Stderr)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	port := c.Int("port")
	if port < 0 || port > 65535 {
		return exitf(ExitUsage, "--port must be between 0 and 65535, found %d", port)
	}
	for _, name := range []string{"max-body-size", "max-spec-size"} {
		if c.Int64(name) <= 0 {
			return exitf(ExitUsage, "--%s must be at least 1 (MiB), found %d", name, c.Int64(name))
		}
	}
	var maxMemory int64
	if c.IsSet("max-memory") {
		if maxMemory, err = server.ParseMemory(c.String("max-memory")); err != nil {
			return exitf(ExitUsage, "--max-memory: %v", err)
		}
	}
	if c.Int("rate-limit") < 0 {
		return exitf(ExitUsage, "--rate-limit must be 0 (no limit) or more, found %d", c.Int("rate-limit"))
	}
	if c.Int("max-concurrent") <= 0 {
		return exitf(ExitUsage, "--max-concurrent must be at least 1, found %d", c.Int("max-concurrent"))
	}
	queue := c.Duration("queue-timeout")
	if queue == 0 {
		queue = -1 // no waiting; Options reads 0 as the default
	}
	if c.String("config-repo") == "" {
		for _, f := range []string{"config-branch", "config-path", "refresh-interval"} {
			if c.IsSet(f) {
				logger.Warn("--" + f + " has no effect without --config-repo: the built-in rulesets are served")
			}
		}
	}
	// The port is taken first, so that a port in use fails at once rather
	// than after the rules are compiled.
	ln, err := net.Listen("tcp", net.JoinHostPort(c.String("host"), strconv.Itoa(port)))
	if err != nil {
		return exitf(ExitUsage, "cannot listen: %v", err)
	}
	srv, err := server.New(c.Context, server.Options{
		ConfigRepo:       c.String("config-repo"),
		Ruleset:          c.String("ruleset"),
		ConfigBranch:     c.String("config-branch"),
		ConfigPath:       c.String("config-path"),
		RefreshInterval:  c.Duration("refresh-interval"),
		Token:            env.Getenv(envRepoToken),
		TokenUser:        env.Getenv(envRepoUser),
		AllowPrivateURLs: c.Bool("allow-private-urls"),
		MaxConcurrent:    c.Int("max-concurrent"),
		MaxMemory:        maxMemory,
		RateLimit:        c.Int("rate-limit"),
		QueueTimeout:     queue,
		MaxBodySize:      c.Int64("max-body-size") << 20,
		MaxSpecSize:      c.Int64("max-spec-size") << 20,
		FetchTimeout:     c.Duration("fetch-timeout"),
		RequestTimeout:   c.Duration("request-timeout"),
		RuleTimeout:      c.Duration("timeout"),
		ShutdownTimeout:  c.Duration("shutdown-timeout"),
		Version:          version(),
		Logger:           logger,
	})
	if err != nil {
		ln.Close()
		return exitf(ExitUsage, "lint-server: %v", err)
	}
	// The Go runtime collects garbage harder as the process nears the
	// budget (plus what the server holds with no request), unless
	// GOMEMLIMIT set its limit and the budget was derived from it.
	if prev := debug.SetMemoryLimit(-1); maxMemory > 0 || prev == math.MaxInt64 {
		debug.SetMemoryLimit(srv.MemoryLimit())
		defer debug.SetMemoryLimit(prev)
		logger.Info("memory limit set", slog.Int64("bytes", srv.MemoryLimit()))
	}
	if f := c.String("ready-file"); f != "" {
		if err := atomicfile.Write(f, []byte(httpx.BaseURL(ln.Addr())+"\n")); err != nil {
			ln.Close()
			srv.Close()
			return exitf(ExitUsage, "lint-server: --ready-file: %v", err)
		}
	}
	if err := srv.Serve(c.Context, ln); err != nil {
		return exitf(ExitFindings, "lint-server: %v", err)
	}
	return nil
}
