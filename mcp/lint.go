package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/reports/lintreport"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// LintInput is the input of the lint tool.
type LintInput struct {
	Specs   []string `json:"specs" jsonschema:"specification files, folders (searched for specs by content) or globs (** crosses folders) to lint, relative to the root"`
	Ruleset string   `json:"ruleset,omitempty" jsonschema:"built-in ruleset (lenient, recommended or strict) or a ruleset file under the root; replaces the profile's extends. Default: the lint configuration's profile, else lenient"`
	Config  string   `json:"config,omitempty" jsonschema:"lint configuration file (specgate-lint.yaml) under the root. Default: the one found from the root upward, if it is under the root"`
	Profile string   `json:"profile,omitempty" jsonschema:"profile of the lint configuration. Default: default, or the only one"`
}

// LintOutput is the answer of the lint tool.
type LintOutput struct {
	Files []LintFile `json:"files" jsonschema:"each file linted, in order"`
	// Findings are the errors before the warnings, each in file order.
	Findings []LintFinding `json:"findings" jsonschema:"the findings, errors first, at most 25"`
	Errors   int           `json:"errors" jsonschema:"findings at severity error, in all files"`
	Warnings int           `json:"warnings" jsonschema:"findings at severity warn, in all files"`
	Omitted  int           `json:"omitted,omitempty" jsonschema:"findings left out of this answer; the report lists them all"`
	Report   string        `json:"report,omitempty" jsonschema:"the full JSON lint report, written when findings were left out"`
	Ruleset  string        `json:"ruleset,omitempty" jsonschema:"the ruleset or profile the rules came from"`
}

// LintFile is one linted file.
type LintFile struct {
	File     string `json:"file"`
	Format   string `json:"format,omitempty" jsonschema:"the specification's format and version, e.g. OpenAPI 3.1.0; empty when it did not load"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Maturity string `json:"maturity,omitempty" jsonschema:"the highest maturity level (Baseline, Bronze, Silver, Gold, Platinum) at which no rule reported an error; none below Baseline"`
	Error    string `json:"error,omitempty" jsonschema:"why the file could not be loaded or linted"`
}

// LintFinding is one diagnostic.
type LintFinding struct {
	File     string `json:"file" jsonschema:"the file where the finding is written (a $ref'd file, not always the input)"`
	Line     int    `json:"line" jsonschema:"1-based line; 0 when the finding has no position"`
	Column   int    `json:"column" jsonschema:"1-based column, in characters"`
	Severity string `json:"severity" jsonschema:"error or warn"`
	Rule     string `json:"rule" jsonschema:"the rule's id; specgate rules explain it"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer,omitempty" jsonschema:"JSON pointer of the offending value in its file"`
}

func (s *Server) addLint() {
	add(s, &mcpsdk.Tool{
		Name:  ToolLint,
		Title: "Lint API specifications",
		Description: "Lint API specifications (" + reads[ToolLint].words + ") with specgate's rules (Rego, the rulesets lenient, recommended and strict, " +
			"or the profile of a specgate-lint.yaml) and return each finding with file, line and column, errors first. Same rules and results as `specgate lint`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, nil, s.lint)
}

func (s *Server) lint(ctx context.Context, c *call, in LintInput) (LintOutput, error) {
	var out LintOutput
	if len(in.Specs) == 0 {
		return out, fmt.Errorf("specs is empty: name at least one specification file, folder or glob")
	}
	var args []string
	for _, p := range in.Specs {
		abs, err := s.root.Resolve("spec", p)
		if err != nil {
			return out, err
		}
		args = append(args, abs)
	}
	names, expandErrs := spec.Expand(args)
	if len(expandErrs) > 0 {
		return out, s.inputErrors(expandErrs)
	}
	// A folder or glob may reach files through links that leave the root:
	// those are listed as not linted, and the others linted (a file named
	// itself was refused above).
	skipped := map[string]string{}
	var linted []string
	for _, n := range names {
		if _, err := s.root.File("spec", n); err != nil {
			reason := s.showErr(err)
			if real, lerr := filepath.EvalSymlinks(n); lerr == nil && real != n {
				reason = fmt.Sprintf("not linted: a symbolic link to %s, outside the root", real)
			}
			skipped[n] = reason
			continue
		}
		linted = append(linted, n)
	}
	ropts := rulesets.Options{Cache: s.cache(), Profile: in.Profile, NoSearch: true}
	switch {
	case in.Config != "":
		cfg, err := s.root.File("config", in.Config)
		if err != nil {
			return out, err
		}
		ropts.Config = cfg
	default:
		if found, ok := rulesets.FindConfig(s.root.Dir()); ok {
			if abs, err := s.root.File("config", found); err == nil {
				ropts.Config = abs
			}
		}
	}
	if in.Ruleset != "" {
		ropts.Ruleset = in.Ruleset
		if !rulesets.IsBuiltin(in.Ruleset) {
			abs, err := s.root.File("ruleset", in.Ruleset)
			if err != nil {
				return out, fmt.Errorf("%w (the built-in rulesets are %s)", err, strings.Join(rulesets.Names, ", "))
			}
			ropts.Ruleset = abs
		}
	}
	l, err := linter.Open(ctx, linter.Config{Rules: ropts, Loader: s.loader(), Timeout: s.opts.Timeout})
	var setupErr *linter.SetupError
	if errors.As(err, &setupErr) {
		return out, s.inputErrors([]error{setupErr.Err})
	}
	if err != nil {
		return out, err
	}
	start := time.Now()
	results := make([]linter.Result, 0, len(linted))
	for i, name := range linted {
		if ctx.Err() != nil {
			return out, fmt.Errorf("lint stopped after %d of %d files: %w", i, len(linted), ctx.Err())
		}
		c.notify(ctx, i, len(linted), "linting "+s.root.Show(name))
		results = append(results, l.LintFile(ctx, name))
	}
	c.notify(ctx, len(linted), len(linted), "linted")

	run := lintreport.Of(l, results, nil)
	run.Tool.Version, run.Tool.Ruleset = s.opts.Version, in.Ruleset
	run.Start, run.Elapsed, run.Dir = start, time.Since(start), s.root.Dir()
	out.Ruleset = cmp.Or(in.Ruleset, l.Setup.Profile, rulesets.Default)
	all := []LintFinding{}
	var done []LintFile
	for i := range run.Files {
		f := &run.Files[i]
		lf := LintFile{File: s.root.Show(f.Name), Format: f.Format}
		if m, ok := f.Maturity(); ok {
			lf.Maturity = m.Level
		}
		if err := results[i].Err; err != nil {
			lf.Error = s.showErr(err)
		}
		for j := range f.Findings {
			fd := &f.Findings[j]
			switch fd.Severity {
			case level.Error:
				lf.Errors++
			case level.Warn:
				lf.Warnings++
			}
			all = append(all, LintFinding{File: s.root.Show(fd.File), Line: int(fd.Range.Start.Line), Column: int(fd.Range.Start.Col),
				Severity: fd.Severity.String(), Rule: fd.Rule, Message: s.showText(fd.Message), Pointer: fd.Pointer})
		}
		out.Errors += lf.Errors
		out.Warnings += lf.Warnings
		done = append(done, lf)
	}
	// The files in the order of the arguments, those not linted included.
	out.Files = make([]LintFile, 0, len(names))
	for _, n := range names {
		if reason, ok := skipped[n]; ok {
			out.Files = append(out.Files, LintFile{File: s.root.Show(n), Error: reason})
			continue
		}
		out.Files = append(out.Files, done[0])
		done = done[1:]
	}
	slices.SortStableFunc(all, func(a, b LintFinding) int {
		return cmp.Compare(severityRank(a.Severity), severityRank(b.Severity))
	})
	out.Findings = all
	if len(all) > MaxItems {
		out.Findings, out.Omitted = all[:MaxItems], len(all)-MaxItems
		var err error
		out.Report, err = c.writeReport("lint-report.json", func(f *os.File) error { return reports.WriteJSON(f, run) })
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

func severityRank(s string) int {
	if s == level.Error.String() {
		return 0
	}
	return 1
}

// cache is the compiled rules' cache the lint command uses too.
func (s *Server) cache() *policy.Cache {
	return policy.OpenCache(policy.DefaultCacheDir(s.opts.Getenv))
}

// loader loads specifications whose $refs stay under the root.
func (s *Server) loader() *spec.Loader {
	return spec.NewLoader(spec.Options{RefRoot: s.root.Dir()})
}

// writeReport writes the report file name through write, in a new folder
// of the call's reports, and returns its path as answers show it.
func (c *call) writeReport(name string, write func(*os.File) error) (string, error) {
	dir, err := c.reportDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("writing the report: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return "", fmt.Errorf("writing the report %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("writing the report %s: %w", path, err)
	}
	return c.s.root.Show(path), nil
}

// inputErrors joins the errors of the inputs into one tool error, one line
// each, with paths shown relative to the root.
func (s *Server) inputErrors(errs []error) error {
	lines := make([]string, 0, len(errs))
	for _, e := range errs {
		lines = append(lines, s.showErr(e))
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}

// showErr is an error's text with the root's prefix taken off the paths
// it names.
func (s *Server) showErr(err error) string { return s.showText(err.Error()) }

// showText takes the root's prefix off the absolute paths in a message,
// since answers name files relative to the root, and puts what a tool's
// caller can do in place of the command line's flags (cliAdvice).
func (s *Server) showText(msg string) string {
	return cliAdvice.Replace(strings.ReplaceAll(msg, s.root.Dir()+string(filepath.Separator), ""))
}

func ptr[T any](v T) *T { return &v }
