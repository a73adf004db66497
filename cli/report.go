package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/reports"
)

// mergeReportDir is where report merge writes, as specgate test does by
// default.
const mergeReportDir = "specgate-reports"

// reportMergeFormats are the reports merge writes, in --report-dir.
var reportMergeFormats = map[string]string{"ctrf": "ctrf-report.json", "junit": "junit.xml", "html": "report.html", "json": "test-report.json"}

func reportCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "work with the reports of earlier runs",
		Description: "Reports are written by the commands that run: lint (--format, --output), test and mock\n" +
			"(--report-dir). `report merge` joins the CTRF reports of a sharded test run. See docs/reports.md.",
		Subcommands: []*cli.Command{{
			Name:      "merge",
			Usage:     "join the CTRF reports of the shards of a run into one report set",
			ArgsUsage: "CTRF-FILE…",
			Description: "Joins the CTRF reports that the shards of a run wrote (specgate test --shard i/n on several\n" +
				"machines, each with its own ctrf-report.json) into one report set in --report-dir:\n" +
				"ctrf-report.json, junit.xml and report.html, as one run would have written them. Tests keep\n" +
				"the order of the files and, within each, their own; the summary is counted again; the run\n" +
				"starts with the earliest shard and ends with the latest. Coverage is merged per\n" +
				"specification: an operation covered in any shard is covered, else not covered when a shard\n" +
				"selected it, else not tested; answers missing in the specification are joined.\n" +
				"Files are read a test at a time, so that reports of any size merge in little memory.\n\n" +
				"Exit codes: 0 every test passed, 1 a test failed, 2 usage errors or a file that is not a\n" +
				"readable CTRF report (named with its line and column).",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "report-dir", Value: mergeReportDir, Usage: "`DIR` to write the merged reports to"},
				&cli.StringSliceFlag{Name: "report-format", Usage: "report `FORMAT`s to write: ctrf, junit, html, json (repeatable; default ctrf, junit, html)"},
			},
			Action: func(c *cli.Context) error { return runReportMerge(c, env) },
		}},
	}
}

func runReportMerge(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "report merge needs the CTRF files of the shards (see 'specgate report merge --help')")
	}
	dir := c.String("report-dir")
	formats := c.StringSlice("report-format")
	if len(formats) == 0 {
		formats = []string{"ctrf", "junit", "html"}
	}
	var outs []reports.Output
	for _, f := range formats {
		name, ok := reportMergeFormats[f]
		if !ok {
			known := make([]string, 0, len(reportMergeFormats))
			for k := range reportMergeFormats {
				known = append(known, k)
			}
			slices.Sort(known)
			return exitf(ExitUsage, "--report-format must be one of %s, found %q", strings.Join(known, ", "), f)
		}
		path := filepath.Join(dir, name)
		for _, in := range c.Args().Slice() {
			if sameFile(in, path) {
				return exitf(ExitUsage, "%s is both an input and the merged %s report; choose another --report-dir", in, f)
			}
		}
		outs = append(outs, reports.Output{Format: f, Path: path})
	}
	outs = append(outs, reports.Output{Format: "summary", W: env.Stdout})
	sink, err := reports.NewSink(outs...)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	sum, err := reports.Merge(sink, c.Args().Slice())
	if err != nil {
		return exitf(ExitUsage, "report merge: %v", err)
	}
	fmt.Fprintf(env.Stderr, "merged %s into %s\n", english.Count(c.NArg(), "report", "reports"), dir)
	if sum.Failed > 0 {
		return silent(ExitFindings)
	}
	return nil
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
