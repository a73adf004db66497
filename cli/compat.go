package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/compat"
)

func compatCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "backward-compatibility-check",
		Usage:     "check that a revision of a specification does not break its consumers",
		ArgsUsage: "[OLD NEW]",
		Description: "Compares a revision of an OpenAPI (2.0, 3.x) or AsyncAPI (2.x, 3.x) specification with a base\n" +
			"version and decides whether consumers written against the base keep working.\n\n" +
			"Modes:\n" +
			"  OLD NEW    compare two files: NEW is the revision, OLD the base.\n" +
			"  (no files) git mode: compare the specifications of the working tree (uncommitted changes\n" +
			"             included) with their versions on --base-branch, read with git plumbing: the\n" +
			"             working tree, the index and HEAD are never touched. The base version is taken\n" +
			"             where the current branch forked from the base branch (git merge-base).\n" +
			"             --target-path names the files or folders to check (repeatable); by default\n" +
			"             every specification that changed since the base, including those whose\n" +
			"             $ref'd files changed. --base-branch defaults to the remote's default branch\n" +
			"             (origin/HEAD), else main; --repo-dir points into another repository.\n\n" +
			"Each difference of operations, parameters, request bodies, responses, schemas (through\n" +
			"$refs across files) and security is classified by a rule at a level:\n" +
			"  breaking  breaks existing consumers; it fails the check\n" +
			"  warning   breaks some consumers depending on how they use the API; fails with --strict\n" +
			"  info      does not affect consumers (listed with --show-info, always in json)\n" +
			"Each change shows file:line:col (in the revision; in the base for removed things), the rule,\n" +
			"the operations affected and why it matters, then its place in the other version (base: or\n" +
			"revision: file:line:col). Changes to examples or descriptions never break.\n\n" +
			"Verdicts, one per specification:\n" +
			"  compatible    no breaking change; also a new specification, absent from the base\n" +
			"  incompatible  breaking changes; the message says when operations of the base are missing\n" +
			"                (consumers' requests to them fail), when the specification was deleted, and\n" +
			"                when only warnings fail because of --strict\n" +
			"  error         a file could not be read or parsed, or its format is not supported\n" +
			"                (Arazzo, or an OpenAPI base with an AsyncAPI revision)\n" +
			"  skipped       git mode found a changed specification of an unsupported format on its own\n\n" +
			"Reports: --format text (default), json, ctrf (each failing change is a failed test with\n" +
			"specFile:lineNumber:columnNumber and its rule) or html (self-contained, with column filters);\n" +
			"--output FILE writes it to a file instead of standard output.\n\n" +
			"Exit codes: 0 every specification compatible, 1 an incompatible one, 2 usage, repository\n" +
			"or input errors (including unsupported formats).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "base-branch", Aliases: []string{"b"}, Usage: "git mode: the `BRANCH` (or any commit) to compare with (default: origin/HEAD, else main)"},
			&cli.StringSliceFlag{Name: "target-path", Aliases: []string{"t"}, Usage: "git mode: a specification file or folder `PATH` to check (repeatable; default: the changed ones)"},
			&cli.StringFlag{Name: "repo-dir", Usage: "git mode: a folder `DIR` of the repository (default: the working directory)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "report `FORMAT`: " + strings.Join(compat.Formats, ", ")},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` instead of standard output"},
			&cli.BoolFlag{Name: "strict", Usage: "warnings fail the check too"},
			&cli.BoolFlag{Name: "show-info", Usage: "list info-level changes in text and html reports"},
		}, append(loaderFlags(), ciFlags()...)...),
		Action: func(c *cli.Context) error { return runCompat(c, env) },
	}
}

func runCompat(c *cli.Context, env Env) error {
	format := c.String("format")
	known := false
	for _, f := range compat.Formats {
		known = known || f == format
	}
	if !known {
		return exitf(ExitUsage, "--format must be one of %s, found %q", strings.Join(compat.Formats, ", "), format)
	}
	opts := compat.Options{Loader: newLoader(c, env), Strict: c.Bool("strict")}
	rep := &compat.Report{Tool: "specgate", Version: version(), Strict: opts.Strict, ShowInfo: c.Bool("show-info"), Start: time.Now()}
	switch c.NArg() {
	case 2:
		for _, f := range []string{"base-branch", "target-path", "repo-dir"} {
			if c.IsSet(f) {
				return exitf(ExitUsage, "--%s is for git mode; with two files there is nothing to read from git", f)
			}
		}
		old, rev := c.Args().Get(0), c.Args().Get(1)
		rep.Mode, rep.Base = "files", old
		rep.Results = []compat.Result{compat.CheckFiles(c.Context, opts, old, rev)}
	case 0:
		run, err := compat.CheckGit(c.Context, opts, compat.GitOptions{
			RepoDir: c.String("repo-dir"), BaseBranch: c.String("base-branch"), Targets: c.StringSlice("target-path"),
		})
		if err != nil {
			return exitf(ExitUsage, "%v", err)
		}
		rep.Mode, rep.Base, rep.Commit, rep.Results = "git", run.Base, run.Commit, run.Results
	default:
		return exitf(ExitUsage, "backward-compatibility-check takes two files (OLD NEW) or none (git mode), found %d (see 'specgate backward-compatibility-check --help')", c.NArg())
	}
	rep.Stop = time.Now()
	consumers := checkConsumers(c.Context, c, rep)

	out, closeOut, err := reportWriter(c.String("output"), env.Stdout)
	if err != nil {
		return exitf(ExitUsage, "writing the report: %v", err)
	}
	color := format == "text" && c.String("output") == "" && env.IsTerminal && env.Getenv("NO_COLOR") == ""
	if err := compat.Write(out, format, rep, color); err != nil {
		closeOut()
		return exitf(ExitUsage, "writing the report: %v", err)
	}
	if err := closeOut(); err != nil {
		return exitf(ExitUsage, "writing the report: %v", err)
	}
	if c.String("output") != "" {
		fmt.Fprintf(env.Stderr, "%s: %s (report in %s)\n", rep.Verdict(), strings.TrimSpace(verdictLine(rep)), c.String("output"))
	}
	return submitReports(c.Context, c, env, ciRun{Compat: rep, Consumers: consumers}, silent(rep.ExitCode()))
}

// verdictLine is the one-line outcome shown when the report goes to a
// file.
func verdictLine(rep *compat.Report) string {
	if len(rep.Results) == 1 {
		return rep.Results[0].Message
	}
	t := rep.Totals()
	return fmt.Sprintf("%d specifications: %d compatible, %d incompatible, %d errors", t.Specs, t.Compatible, t.Incompatible, t.Errors)
}

// reportWriter opens path for writing, or returns stdout when path is "".
func reportWriter(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "" {
		return stdout, func() error { return nil }, nil
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}
