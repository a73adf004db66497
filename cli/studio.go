package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/studio"
)

func studioCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "studio",
		Usage:     "edit the specs, examples and specgate.yaml of a folder in a web page with live diagnostics",
		ArgsUsage: "[DIR]",
		Description: "Serves specgate studio on 127.0.0.1 for the folder DIR (default: the working directory):\n" +
			"a file tree of its specs, example folders and specgate.yaml; an editor with YAML and JSON\n" +
			"highlighting, folding and search; and a problems panel. As you type, the unsaved text is\n" +
			"parsed, validated, linted (specgate-lint.yaml, or --ruleset), its examples checked and it is\n" +
			"compared with its version on the git base branch (--base-branch); each finding is a marker\n" +
			"at its line and column, linked to its rule's page.\n\n" +
			"Actions, each shown as a diff before it writes: rename a spec or example file (specgate.yaml,\n" +
			"$refs and the examples folder follow), import external examples into the spec, export inline\n" +
			"examples to files, generate examples for an operation, validate and fix examples, add the\n" +
			"response a failed contract test met (from its CTRF report) to the spec, and upgrade\n" +
			"specgate.yaml from version 2 to 3.\n\n" +
			"Saves are atomic and refused over a file changed on disk since it was opened (the page shows\n" +
			"both); unsaved edits survive a reload. Only files under DIR are read or written; every API\n" +
			"request carries the token of the printed URL and must come from the studio's own page.\n\n" +
			"Exit codes: 0 on SIGINT/SIGTERM, 2 for a bad flag, a DIR that is not a folder, or a port\n" +
			"that cannot be opened.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "port", Value: 0, Usage: "port on 127.0.0.1 (0 picks a free one)"},
			&cli.BoolFlag{Name: "no-open", Usage: "do not open a browser"},
			&cli.StringFlag{Name: "ruleset", Aliases: []string{"r"}, Usage: "lint with this built-in ruleset or ruleset `FILE` under DIR (default: specgate-lint.yaml, else lenient)"},
			&cli.StringFlag{Name: "base-branch", Usage: "git `BRANCH` that backward-compatibility diagnostics compare with (default: origin/HEAD, else main)"},
			&cli.StringFlag{Name: "ready-file", Usage: "`FILE` to write the studio's URL to once it listens"},
			&cli.BoolFlag{Name: "verbose", Usage: "log every request on standard error"},
		},
		Action: func(c *cli.Context) error { return runStudio(c, env) },
	}
}

func runStudio(c *cli.Context, env Env) error {
	linter.ResumePace()
	if c.NArg() > 1 {
		return exitf(ExitUsage, "studio takes one folder, found %d arguments", c.NArg())
	}
	lvl := slog.LevelWarn
	if c.Bool("verbose") {
		lvl = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: lvl}))
	srv, err := studio.New(studio.Options{Dir: c.Args().First(), Ruleset: c.String("ruleset"), BaseBranch: c.String("base-branch"),
		Logger: logger, Getenv: env.Getenv})
	if err != nil {
		return exitf(ExitUsage, "studio: %v", err)
	}
	defer srv.Close()
	ln, err := httpx.Listen(httpx.DefaultHost, c.Int("port"))
	if err != nil {
		return exitf(ExitUsage, "studio: %v", err)
	}
	srv.Listening(ln.Addr())
	url := srv.URL(ln.Addr())
	fmt.Fprintf(env.Stdout, "specgate studio for %s at %s\n", srv.Workspace().Dir(), url)
	if f := c.String("ready-file"); f != "" {
		if err := os.WriteFile(f, []byte(url+"\n"), 0o600); err != nil {
			ln.Close()
			return exitf(ExitUsage, "studio: --ready-file: %v", err)
		}
	}
	ctx, stop := httpx.SignalContext(c.Context)
	defer stop()
	srv.Warm(ctx)
	if !c.Bool("no-open") {
		openBrowser(url, env.Stderr)
	}
	hs := httpx.NewServer(srv.Handler(), logger)
	if err := httpx.Serve(ctx, hs, ln, httpx.Shutdown{Timeout: 5 * time.Second, Logger: logger}); err != nil {
		return exitf(ExitFindings, "studio: %v", err)
	}
	return nil
}

// openBrowser opens url with the desktop's opener when there is one; a
// machine without one (a server, a container) just has the printed URL.
func openBrowser(url string, stderr io.Writer) {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return
		}
		name = "xdg-open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return
	}
	cmd := exec.Command(path, append(args, url)...)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "studio: opening a browser: %v\n", err)
		return
	}
	go cmd.Wait()
}
