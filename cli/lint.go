package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

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
			"diagnostic (file:line:col severity rule-id message), then each file's counts and maturity.\n\n" +
			"Rules and severities come from --ruleset (lenient, recommended, strict; default lenient),\n" +
			"or from a profile of the lint configuration (specgate-lint.yaml, found from the working\n" +
			"directory upward, or --config FILE).\n\n" +
			"Output formats (--format, repeatable): stylish (default), json, html, sarif, junit, ctrf,\n" +
			"github, markdown. Each goes to standard output, or to a file with --output FORMAT=PATH.\n" +
			"A JSON report is also written to " + DefaultReport + " (move it with --report FILE, turn it\n" +
			"off with --no-report) unless json is written elsewhere. A progress bar is drawn on standard\n" +
			"error when several files are linted and standard error is a terminal.\n\n" +
			"Exit codes: 0 no finding at or above --fail-severity, 1 findings, 2 usage, configuration or\n" +
			"input errors (a file that cannot be read or parsed).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "ruleset", Aliases: []string{"r"}, Usage: "built-in ruleset: lenient, recommended or strict (replaces the profile's extends)"},
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "lint configuration `FILE` (default: " + rulesets.ConfigName + " found upward)"},
			&cli.StringFlag{Name: "profile", Aliases: []string{"p"}, Usage: "profile of the configuration (default: \"default\", or the only one)"},
			&cli.StringFlag{Name: "fail-severity", Value: "error", Usage: "lowest severity that fails the run: error, warn or off"},
			&cli.StringSliceFlag{Name: "rule", Usage: "run only this rule (repeatable), at its severity in the ruleset or else its original one"},
			&cli.DurationFlag{Name: "timeout", Value: time.Minute, Usage: "time limit for evaluating the rules on one file"},
		}, append(outputFlags(), loaderFlags()...)...),
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
	outs, err := parseOutputs(c)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if rs := c.String("ruleset"); rs != "" && !rulesets.IsBuiltin(rs) {
		return exitf(ExitUsage, "unknown ruleset %q (known: lenient, recommended, strict)", rs)
	}
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	sevs, profile, err := severities(c, reg)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if only := c.StringSlice("rule"); len(only) > 0 {
		if sevs, err = onlyRules(reg, sevs, only); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
	}

	start := time.Now()
	loader := newLoader(c, env)
	l, err := linter.New(c.Context, linter.Options{Registry: reg, Severities: sevs, Loader: loader, Timeout: c.Duration("timeout")})
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	names, expandErrs := spec.Expand(c.Args().Slice())
	results, operations := lintInputs(c.Context, l, loader, names, newProgressBar(env, len(names)), hasFormat(outs, "html"))
	for _, e := range expandErrs {
		results = append(results, linter.Result{File: inputName(e), Err: e,
			Diagnostics: []linter.Diagnostic{{RuleID: linter.LoadErrorRule, Severity: policy.Error, Message: inputMessage(e), File: inputName(e)}}})
	}

	wd, _ := os.Getwd()
	run := &reports.Run{
		Tool:    reports.Tool{Name: "specgate", Version: version(), Ruleset: c.String("ruleset"), Profile: profile, RuleCount: l.RuleCount()},
		Results: results, Rules: runRules(reg, sevs), FailSeverity: failAt,
		Start: start, Elapsed: time.Since(start), Dir: wd, Root: repoRoot(env, wd), Operations: operations,
		Color: env.IsTerminal && env.Getenv("NO_COLOR") == "",
	}
	if err := writeOutputs(outs, run, env.Stdout); err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	return silent(exitCode(results, failAt))
}

// severities resolves the rules to run from the configuration, the
// profile and --ruleset.
func severities(c *cli.Context, reg *policy.Registry) (rulesets.Severities, string, error) {
	path := c.String("config")
	if path == "" {
		if found, ok := rulesets.FindConfig("."); ok {
			path = found
		}
	}
	var prof *rulesets.Profile
	if path != "" {
		cfg, err := rulesets.LoadConfig(path, reg)
		if err != nil {
			return nil, "", err
		}
		if prof, err = cfg.Profile(c.String("profile")); err != nil {
			return nil, "", err
		}
	} else if c.String("profile") != "" {
		return nil, "", fmt.Errorf("--profile %q needs a configuration file (%s or --config)", c.String("profile"), rulesets.ConfigName)
	}
	sevs, err := rulesets.Resolve(reg, prof, c.String("ruleset"))
	name := ""
	if prof != nil {
		name = prof.Name
	}
	return sevs, name, err
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
