// Package cli is the specgate command line: commands, flags, help, output
// destinations and exit codes. It holds no logic that another package's
// tests would need; it wires spec, validate, linter, rulesets and reports.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// Exit codes, the same for every command.
const (
	ExitOK       = 0 // clean
	ExitFindings = 1 // findings at or above the fail severity; invalid specs
	ExitUsage    = 2 // usage, configuration or input errors
)

// Version is set at build time with -ldflags "-X github.com/specgate/specgate/cli.Version=…";
// otherwise it comes from the module's build information.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Env is what a run reads from and writes to; tests substitute it.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// IsTerminal reports whether Stdout is a terminal (for colour).
	IsTerminal bool
	// StderrIsTerminal forces progress on Stderr; without it, progress is
	// drawn only when Stderr is a terminal file.
	StderrIsTerminal bool
	Getenv           func(string) string
}

// Main runs specgate with args (args[0] is the program name) and returns
// the exit code.
func Main(ctx context.Context, args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	app := newApp(env)
	args, err := prepareArgs(app, args)
	if err == nil {
		err = app.RunContext(ctx, hoistFlags(app, args))
	}
	if err == nil {
		return ExitOK
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(env.Stderr, "specgate: "+msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(env.Stderr, "specgate: "+err.Error())
	return ExitUsage
}

// exitf is an error with an exit code.
func exitf(code int, format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), code)
}

// silent is an exit code without a message (the command printed its
// result already).
func silent(code int) error {
	if code == ExitOK {
		return nil
	}
	return cli.Exit("", code)
}

func newApp(env Env) *cli.App {
	app := &cli.App{
		Name:  "specgate",
		Usage: "API specification governance and contract testing: lint, validate, compare, mock and test APIs",
		Description: "specgate reads OpenAPI 2.0/3.0/3.1/3.2, AsyncAPI 2.x/3.x, Arazzo, Protocol Buffers, GraphQL and\n" +
			"WSDL specifications (YAML, JSON or their own syntax, multi-file) into one model with positions, and:\n\n" +
			"  validate, lint, backward-compatibility-check   check specs (Rego rules, rulesets, verdicts)\n" +
			"  mock, test, run-suite                          serve a spec as a mock; contract-test a service;\n" +
			"                                                 run a specgate.yaml suite and Arazzo workflows\n" +
			"  examples, config                               validate, generate and fix examples; specgate.yaml\n" +
			"  lint-server, mcp, studio, insights-server      servers for teams, coding agents and designers\n\n" +
			"Exit codes: 0 clean, 1 findings at or above --fail-severity, failed tests, breaking changes or\n" +
			"invalid specs, 2 usage, configuration or input errors.",
		Version:         version(),
		Reader:          env.Stdin,
		Writer:          env.Stdout,
		ErrWriter:       env.Stderr,
		HideHelpCommand: true,
		// Errors are printed once, by Main, with their exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return exitf(ExitUsage, "%v (see '%s --help')", err, commandPath(c))
		},
		Action: rootAction,
		Commands: []*cli.Command{
			lintCommand(env),
			validateCommand(env),
			rulesCommand(env),
			compatCommand(env),
			reportCommand(env),
			lintServerCommand(env),
			mockCommand(env),
			mcpCommand(env),
			testCommand(env),
			runSuiteCommand(env),
			configCommand(env),
			examplesCommand(env),
			studioCommand(env),
			specMetadataReportCommand(env, "spec-metadata-report", false),
			specMetadataReportCommand(env, "central-contract-repo-report", true),
			sendReportCommand(env),
			insightsServerCommand(env),
		},
	}
	finishHelp(app)
	for _, c := range app.Commands {
		setUsageError(c, app.OnUsageError)
		addCommonOptions(c, "", env)
	}
	return app
}

func setUsageError(c *cli.Command, h cli.OnUsageErrorFunc) {
	c.OnUsageError = h
	for _, s := range c.Subcommands {
		setUsageError(s, h)
	}
}
