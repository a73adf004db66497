package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/reports/lintreport"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// loaderFlags are the input limits and $ref permissions (docs/limits.md).
func loaderFlags() []cli.Flag {
	def := spec.DefaultLimits()
	return []cli.Flag{
		&cli.BoolFlag{Name: "allow-remote-refs", Usage: "fetch $refs that point to http(s) URLs"},
		&cli.BoolFlag{Name: "allow-external-refs", Usage: "let $refs read local files outside the ref root"},
		&cli.StringFlag{Name: "ref-root", Usage: "folder `DIR` whose tree $refs may read (default: the folder given as input that holds the spec, else the spec's own folder)", TakesFile: true},
		&cli.Int64Flag{Name: "max-file-size", Value: def.MaxFileSize >> 20, Usage: "largest file to read, in MiB"},
		&cli.IntFlag{Name: "max-depth", Value: def.MaxDepth, Usage: "deepest nesting of objects and arrays"},
		&cli.IntFlag{Name: "max-values", Value: def.MaxNodes, Usage: "most values in one file"},
		&cli.IntFlag{Name: "max-alias-expansion", Value: def.MaxAliasFactor, Usage: "YAML aliases and merge keys may expand a file to this many times its values"},
	}
}

func newLoader(c *cli.Context, env Env) *spec.Loader {
	return spec.NewLoader(spec.Options{
		AllowRemoteRefs:   c.Bool("allow-remote-refs"),
		AllowExternalRefs: c.Bool("allow-external-refs"),
		RefRoot:           c.String("ref-root"),
		InputDirs:         inputDirs(c.Args().Slice()),
		Limits: spec.Limits{MaxFileSize: c.Int64("max-file-size") << 20, MaxDepth: c.Int("max-depth"),
			MaxNodes: c.Int("max-values"), MaxAliasFactor: c.Int("max-alias-expansion")},
		Stdin: env.Stdin,
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
			"input errors (a file that cannot be read or parsed).\n\n" +
			"The compiled rules are cached between runs in $SPECGATE_CACHE_DIR (default: the user cache\n" +
			"directory, e.g. ~/.cache/specgate); SPECGATE_CACHE_DIR=off turns the cache off.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "ruleset", Aliases: []string{"r"}, Usage: "built-in ruleset (lenient, recommended, strict) or a ruleset `FILE` or https URL; replaces the profile's extends"},
			&cli.BoolFlag{Name: "skip-unsupported-rules", Aliases: []string{"skip-missing-functions"}, Usage: "lint without the custom rules specgate cannot run as written (a function with no Rego implementation, a schema $ref the schema lacks); they are listed on standard error and in the report"},
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "lint configuration `FILE` (default: " + rulesets.ConfigName + " found upward)"},
			&cli.StringFlag{Name: "profile", Aliases: []string{"p"}, Usage: "profile of the configuration (default: \"default\", or the only one)"},
			&cli.StringFlag{Name: "fail-severity", Value: "error", Usage: "lowest severity that fails the run: error, warn or off"},
			&cli.StringSliceFlag{Name: "rule", Usage: "run only this rule (repeatable), at its severity in the ruleset or else its original one"},
			&cli.DurationFlag{Name: "timeout", Value: time.Minute, Usage: "time limit for evaluating the rules on one file"},
			&cli.BoolFlag{Name: "timings", Usage: "print the time each rule took on each file, slowest first, on standard error"},
		}, append(outputFlags(), loaderFlags()...)...),
		Action: func(c *cli.Context) error { return runLint(c, env) },
	}
}

func runLint(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "lint needs at least one file, folder, glob, URL or - (see 'specgate lint --help')")
	}
	failAt, ok := level.ParseSeverity(c.String("fail-severity"))
	if !ok {
		return exitf(ExitUsage, "--fail-severity must be error, warn or off, found %q", c.String("fail-severity"))
	}
	outs, err := parseOutputs(c)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	loader := newLoader(c, env)
	start := time.Now()
	names, expandErrs := spec.Expand(c.Args().Slice())
	pre := linter.Preload(c.Context, loader, names)
	p, err := linter.Open(c.Context, linter.Config{
		Rules: rulesets.Options{
			Cache:                policy.OpenCache(policy.DefaultCacheDir(env.Getenv)),
			Config:               c.String("config"),
			Profile:              c.String("profile"),
			Ruleset:              c.String("ruleset"),
			Fetch:                func(u string) ([]byte, error) { return loader.Fetch(c.Context, u) },
			SkipMissingFunctions: c.Bool("skip-unsupported-rules"),
		},
		Only:    c.StringSlice("rule"),
		Loader:  loader,
		Timeout: c.Duration("timeout"),
		Timings: c.Bool("timings"),
	})
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	for _, w := range p.Setup.Warnings {
		fmt.Fprintln(env.Stderr, "warning:", w)
	}
	for _, s := range p.Setup.Skipped {
		fmt.Fprintf(env.Stderr, "%s:%d:%d: rule %q skipped: %s\n", s.File, s.Pos.Line, s.Pos.Col, s.Rule, s.Reason)
	}
	if formats, ok := pre.Formats(); ok {
		// Read the program of the spec's rules while its input is built
		// (an error shows when it is linted).
		_ = p.Prepare(formats)
	}
	results, operations := lintInputs(c.Context, p.Linter, pre, names, newProgressBar(env, len(names)), hasFormat(outs, "html"))
	for _, r := range results {
		for _, w := range r.Warnings {
			fmt.Fprintln(env.Stderr, "warning:", w)
		}
	}
	for _, e := range expandErrs {
		results = append(results, linter.Result{File: inputName(e), Err: e,
			Findings: []reports.Finding{{Rule: linter.LoadErrorRule, Severity: level.Error, Message: inputMessage(e), File: inputName(e)}}})
	}

	wd, _ := os.Getwd()
	run := lintreport.Of(p, results, operations)
	run.Tool.Version, run.Tool.Ruleset = version(), rulesetName(c.String("ruleset"), p.Setup.Profile)
	run.FailSeverity, run.Start, run.Elapsed, run.Dir, run.Root = failAt, start, time.Since(start), wd, repoRoot(env, wd)
	run.Color = env.IsTerminal && env.Getenv("NO_COLOR") == ""
	if err := writeOutputs(outs, run, env.Stdout); err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if c.Bool("timings") {
		_ = linter.WriteTimings(env.Stderr, results)
	}
	return silent(exitCode(results, failAt))
}

// rulesetName is what the reports name as the ruleset: --ruleset, or the
// default when neither it nor a profile chose one.
func rulesetName(flag, profile string) string {
	if flag == "" && profile == "" {
		return rulesets.Default
	}
	return flag
}

// exitCode is 2 when an input could not be linted, else 1 when a
// diagnostic reaches failAt, else 0.
func exitCode(results []linter.Result, failAt level.Severity) int {
	code := ExitOK
	for _, r := range results {
		if r.Err != nil {
			return ExitUsage
		}
		for i := range r.Findings {
			if failAt != level.Off && r.Findings[i].Severity >= failAt {
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
