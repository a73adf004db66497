package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// DefaultReport is where lint writes its JSON report, next to the terminal
// output, unless --report moves it or --no-report turns it off.
const DefaultReport = "specgate-report.json"

func loaderFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "allow-remote-refs", Usage: "fetch $refs that point to http(s) URLs"},
		&cli.Int64Flag{Name: "max-file-size", Value: spec.DefaultLimits().MaxFileSize >> 20, Usage: "largest file to read, in MiB"},
	}
}

func newLoader(c *cli.Context, env Env) *spec.Loader {
	return spec.NewLoader(spec.Options{
		AllowRemoteRefs: c.Bool("allow-remote-refs"),
		Limits:          spec.Limits{MaxFileSize: c.Int64("max-file-size") << 20},
		Stdin:           env.Stdin,
	})
}

func lintCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "lint specifications against a ruleset",
		ArgsUsage: "FILE|DIR|GLOB|URL|- ...",
		Description: "Lints each specification with the rules of a ruleset or profile and prints one line per\n" +
			"diagnostic: file:line:col severity rule-id message.\n\n" +
			"Rules and severities come from --ruleset (lenient, recommended, strict; default lenient),\n" +
			"or from a profile of the lint configuration (specgate-lint.yaml, found from the working\n" +
			"directory upward, or --config FILE).\n\n" +
			"A JSON report is also written to " + DefaultReport + " (move it with --report FILE, turn it\n" +
			"off with --no-report); --format json prints it to standard output instead.\n\n" +
			"Exit codes: 0 no finding at or above --fail-severity, 1 findings, 2 usage, configuration or\n" +
			"input errors (a file that cannot be read or parsed).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "ruleset", Aliases: []string{"r"}, Usage: "built-in ruleset (lenient, recommended, strict) or a ruleset `FILE` or https URL; replaces the profile's extends"},
			&cli.BoolFlag{Name: "skip-missing-functions", Usage: "lint without the custom rules whose functions have no Rego implementation (they are listed on standard error)"},
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "lint configuration `FILE` (default: " + rulesets.ConfigName + " found upward)"},
			&cli.StringFlag{Name: "profile", Aliases: []string{"p"}, Usage: "profile of the configuration (default: \"default\", or the only one)"},
			&cli.StringFlag{Name: "fail-severity", Value: "error", Usage: "lowest severity that fails the run: error, warn or off"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output on standard output: text or json"},
			&cli.StringFlag{Name: "report", Value: DefaultReport, Usage: "where to write the JSON report"},
			&cli.BoolFlag{Name: "no-report", Usage: "do not write the JSON report file"},
			&cli.StringSliceFlag{Name: "rule", Usage: "run only this rule (repeatable), at its severity in the ruleset or else its original one"},
			&cli.DurationFlag{Name: "timeout", Value: time.Minute, Usage: "time limit for evaluating the rules on one file"},
		}, loaderFlags()...),
		Action: func(c *cli.Context) error { return runLint(c, env) },
	}
}

func runLint(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "lint needs at least one file, folder, glob, URL or - (see 'specgate lint --help')")
	}
	failAt, ok := policy.ParseSeverity(c.String("fail-severity"))
	if !ok {
		return exitf(ExitUsage, "--fail-severity must be error, warn or off, found %q", c.String("fail-severity"))
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return exitf(ExitUsage, "--format must be text or json, found %q", format)
	}
	loader := newLoader(c, env)
	setup, err := rulesets.Load(rulesets.Options{
		Config:               c.String("config"),
		Profile:              c.String("profile"),
		Ruleset:              c.String("ruleset"),
		Fetch:                func(u string) ([]byte, error) { return loader.Fetch(c.Context, u) },
		SkipMissingFunctions: c.Bool("skip-missing-functions"),
	})
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	reg, sevs, profile := setup.Registry, setup.Severities, setup.Profile
	for _, s := range setup.Skipped {
		fmt.Fprintf(env.Stderr, "%s:%d:%d: rule %q skipped: function %q has no Rego implementation\n", s.File, s.Pos.Line, s.Pos.Col, s.Rule, s.Function)
	}
	if only := c.StringSlice("rule"); len(only) > 0 {
		if sevs, err = onlyRules(reg, sevs, only); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
	}

	start := time.Now()
	l, err := linter.New(c.Context, linter.Options{Registry: reg, Severities: sevs, Overrides: setup.Overrides, Loader: loader, Timeout: c.Duration("timeout")})
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	names, expandErrs := spec.Expand(c.Args().Slice())
	results := l.LintFiles(c.Context, names)
	for _, e := range expandErrs {
		results = append(results, linter.Result{File: inputName(e), Err: e,
			Diagnostics: []linter.Diagnostic{{RuleID: linter.LoadErrorRule, Severity: policy.Error, Message: inputMessage(e), File: inputName(e)}}})
	}

	tool := reports.Tool{Name: "specgate", Version: version(), Ruleset: c.String("ruleset"), Profile: profile, RuleCount: l.RuleCount()}
	if format == "json" {
		if err := reports.WriteJSON(env.Stdout, tool, results); err != nil {
			return exitf(ExitUsage, "writing the report: %v", err)
		}
	} else {
		color := env.IsTerminal && env.Getenv("NO_COLOR") == ""
		if err := reports.WriteText(env.Stdout, results, reports.TextOptions{Color: color, Elapsed: time.Since(start)}); err != nil {
			return exitf(ExitUsage, "writing the output: %v", err)
		}
		if !c.Bool("no-report") {
			if err := writeReportFile(c.String("report"), tool, results); err != nil {
				return exitf(ExitUsage, "writing the report: %v", err)
			}
		}
	}
	return silent(exitCode(results, failAt))
}

func writeReportFile(path string, tool reports.Tool, results []linter.Result) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := reports.WriteJSON(f, tool, results); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// onlyRules keeps the named rules: at their resolved severity, or at their
// original one when the ruleset turns them off.
func onlyRules(reg *policy.Registry, sevs rulesets.Severities, ids []string) (rulesets.Severities, error) {
	out := rulesets.Severities{}
	for _, name := range ids {
		id := strings.TrimPrefix(name, rulesets.BuiltinPrefix)
		r := reg.Rule(id)
		if r == nil {
			return nil, fmt.Errorf("--rule: no rule %q%s", name, rulesets.Suggest(id, reg.IDs()))
		}
		out[id] = sevs[id]
		if out[id] == policy.Off {
			out[id] = r.Severity
		}
	}
	return out, nil
}

// exitCode is 2 when an input could not be linted, else 1 when a
// diagnostic reaches failAt, else 0.
func exitCode(results []linter.Result, failAt policy.Severity) int {
	code := ExitOK
	for _, r := range results {
		if r.Err != nil {
			return ExitUsage
		}
		for _, d := range r.Diagnostics {
			if failAt != policy.Off && d.Severity >= failAt {
				code = ExitFindings
			}
		}
	}
	return code
}

func inputName(err error) string {
	var se *spec.Error
	if errors.As(err, &se) {
		return se.File
	}
	return ""
}

func inputMessage(err error) string {
	var se *spec.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}
