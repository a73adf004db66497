package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/mcp"
)

func mcpCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve specgate's tools to coding agents over the Model Context Protocol",
		Description: "Runs an MCP server whose tools agents call while they write API code:\n" +
			"  run_contract_test             contract-test a running service against OpenAPI specs, or run Arazzo workflows\n" +
			"  manage_mock_server            start, stop and list mocks, which run inside this server\n" +
			"  run_suite                     run the suite of a specgate.yaml, as run-suite does\n" +
			"  validate_examples             validate a spec's inline and external examples\n" +
			"  generate_examples             write a valid example file per operation, status and media type\n" +
			"  fix_examples                  repair invalid example files (or show the repairs as diffs)\n" +
			"  backward_compatibility_check  compare two versions of a spec, or the working tree with a branch\n" +
			"  lint                          lint specs with the built-in rulesets or a configuration\n" +
			"Answers are structured and bounded (at most " + strconv.Itoa(mcp.MaxItems) + " findings or changes, " + strconv.Itoa(mcp.MaxFailures) + " entries of\n" +
			"failed tests, those that failed the same way counted in one; the full report's path for the\n" +
			"rest, under --report-dir); each call has a time limit (--tool-timeout), reports progress and\n" +
			"stops when the client cancels it. On standard input, a line that is not a JSON-RPC message gets\n" +
			"its error answer (-32700 or -32600) and the session goes on.\n\n" +
			"Transports: standard input and output (the default, as editors start servers), or MCP\n" +
			"streamable HTTP with --http ADDR, served at " + mcp.HTTPPath + " on 127.0.0.1 unless ADDR names another host.\n" +
			"A browser request whose Origin is not the server's own or an --allow-origin is refused (403).\n\n" +
			"Every path a tool is given is resolved against --root (default: the working directory) and\n" +
			"refused outside it; $refs stay under it too. No tool runs a shell.\n\n" +
			"Logs go to standard error. Exit codes: 0 when the client disconnects or on SIGINT/SIGTERM,\n" +
			"2 for a bad flag or an address that cannot be opened.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "root", Usage: "folder `DIR` every path is resolved against and confined to (default: the working directory)", TakesFile: true},
			&cli.StringFlag{Name: "http", Usage: "serve MCP streamable HTTP on `ADDR` (host:port, or :port and port alone on 127.0.0.1; port 0 picks a free one) instead of standard input and output"},
			&cli.StringSliceFlag{Name: "allow-origin", Usage: "with --http: a browser `ORIGIN` (scheme://host:port) allowed besides the server's own (repeatable)"},
			&cli.StringFlag{Name: "report-dir", Usage: "`DIR` under the root for the full reports of tool calls, one folder per call (default: specgate-reports/mcp)"},
			&cli.DurationFlag{Name: "tool-timeout", Value: mcp.DefaultTimeout, Usage: "time limit of each tool call"},
			&cli.StringFlag{Name: "ready-file", Usage: "with --http: `FILE` to write the server's URL to once it listens"},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "log format on standard error: text or json"},
		},
		Action: func(c *cli.Context) error { return runMCP(c, env) },
	}
}

func runMCP(c *cli.Context, env Env) error {
	linter.ResumePace()
	if c.NArg() > 0 {
		return exitf(ExitUsage, "mcp takes no arguments, found %q (paths are given to its tools)", c.Args().First())
	}
	logger, err := commandLogger(c, env.Stderr)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if c.Duration("tool-timeout") <= 0 {
		return exitf(ExitUsage, "--tool-timeout must be positive, found %s", c.Duration("tool-timeout"))
	}
	httpAddr := c.String("http")
	if httpAddr == "" {
		for _, f := range []string{"allow-origin", "ready-file"} {
			if c.IsSet(f) {
				return exitf(ExitUsage, "--%s is for --http", f)
			}
		}
	}
	srv, err := mcp.New(mcp.Options{Root: c.String("root"), ReportDir: c.String("report-dir"), Timeout: c.Duration("tool-timeout"),
		Version: version(), Logger: logger, Getenv: env.Getenv})
	if err != nil {
		return exitf(ExitUsage, "mcp: %v", err)
	}
	ctx, stop := httpx.SignalContext(c.Context)
	defer stop()
	if httpAddr == "" {
		err = srv.ServeStdio(ctx, env.Stdin, env.Stdout)
		if cerr := srv.Close(); cerr != nil {
			logger.Warn("stopping the mocks", "error", cerr)
		}
		if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			logger.Info("session ended", "reason", err)
		}
		return nil
	}
	host, port, err := splitAddr(httpAddr)
	if err != nil {
		return exitf(ExitUsage, "--http: %v", err)
	}
	ln, err := httpx.Listen(host, port)
	if err != nil {
		return exitf(ExitUsage, "mcp: %v", err)
	}
	url := httpx.BaseURL(ln.Addr()) + mcp.HTTPPath
	fmt.Fprintf(env.Stdout, "serving MCP at %s (root %s)\n", url, srv.Root().Dir())
	if f := c.String("ready-file"); f != "" {
		// One short write: a reader waiting for the file to be non-empty
		// reads it whole.
		if err := os.WriteFile(f, []byte(url+"\n"), 0o644); err != nil {
			ln.Close()
			return exitf(ExitUsage, "mcp: --ready-file: %v", err)
		}
	}
	hs := httpx.NewServer(srv.HTTPHandler(mcp.HTTPOptions{AllowedOrigins: c.StringSlice("allow-origin")}), logger)
	err = httpx.Serve(ctx, hs, ln, httpx.Shutdown{Timeout: 5 * time.Second, Flag: "MCP streams still open", Logger: logger})
	if cerr := srv.Close(); cerr != nil {
		logger.Warn("stopping the mocks", "error", cerr)
	}
	if err != nil {
		return exitf(ExitFindings, "mcp: %v", err)
	}
	return nil
}

// splitAddr reads host:port, :port or a port alone (on 127.0.0.1).
func splitAddr(addr string) (string, int, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		host, portText = "", addr
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return "", 0, fmt.Errorf("%q is not host:port, :port or a port", addr)
	}
	if host == "" {
		host = httpx.DefaultHost
	}
	return host, port, nil
}
