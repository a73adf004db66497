package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/insightsd"
	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

func insightsServerCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "insights-server",
		Usage: "receive the reports of --ci runs and answer what an organisation asks of them",
		Description: "A small insights service (docs/insights-api.yaml): it stores the submissions of --ci runs of\n" +
			"test, mock, run-suite, backward-compatibility-check and spec-metadata-report as plain files in\n" +
			"--data-dir, and answers GET /v1/results/latest (the latest result per repository and spec),\n" +
			"GET /v1/results/history?spec=ID (the history of one spec) and GET /v1/consumers?spec=ID\n" +
			"(the repositories whose mocks received requests for each operation, which\n" +
			"backward-compatibility-check --ci asks about the operations a change breaks).\n\n" +
			"It listens on 127.0.0.1 unless --host says otherwise. When " + insights.TokenEnv + " is set,\n" +
			"every /v1 request needs it as a bearer token. GET /health and /health/info are open.\n" +
			"Once it listens it prints `serving the insights API at URL`, and --ready-file FILE\n" +
			"receives the URL. SIGINT or SIGTERM stops it gracefully.\n\n" +
			"Exit codes: 0 after a clean shutdown, 2 when the port or the data folder cannot be opened.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "host", Value: httpx.DefaultHost, Usage: "address to listen on (0.0.0.0 for every interface)"},
			&cli.IntFlag{Name: "port", Value: insightsd.DefaultPort, Usage: "TCP port to listen on (0 picks a free one)"},
			&cli.StringFlag{Name: "data-dir", Value: "specgate-insights", Usage: "`DIR` the submissions are stored in (created when missing)", TakesFile: true},
			&cli.Int64Flag{Name: "max-body-size", Value: insightsd.DefaultMaxBodySize >> 20, Usage: "largest submission, in MiB once decompressed (413 above)"},
			&cli.DurationFlag{Name: "shutdown-timeout", Value: 10 * time.Second, Usage: "how long to wait for requests in flight on SIGINT/SIGTERM"},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "log format on standard error: text or json"},
			&cli.StringFlag{Name: "ready-file", Usage: "`FILE` to write the server's URL to once it listens"},
		},
		Action: func(c *cli.Context) error { return runInsightsServer(c, env) },
	}
}

func runInsightsServer(c *cli.Context, env Env) error {
	if c.NArg() > 0 {
		return exitf(ExitUsage, "insights-server takes no argument, found %q", c.Args().First())
	}
	logger, err := commandLogger(c, env.Stderr)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if c.Int64("max-body-size") <= 0 {
		return exitf(ExitUsage, "--max-body-size must be at least 1 (MiB), found %d", c.Int64("max-body-size"))
	}
	token := strings.TrimSpace(env.Getenv(insights.TokenEnv))
	srv, err := insightsd.New(insightsd.Options{Dir: c.String("data-dir"), Token: token, MaxBodySize: c.Int64("max-body-size") << 20,
		Logger: logger, Version: version()})
	if err != nil {
		return exitf(ExitUsage, "insights-server: %v", err)
	}
	defer srv.Close()
	ln, err := httpx.Listen(c.String("host"), c.Int("port"))
	if err != nil {
		return exitf(ExitUsage, "insights-server: %v", err)
	}
	if ip := net.ParseIP(c.String("host")); token == "" && (ip == nil || !ip.IsLoopback()) {
		logger.Warn("listening beyond this machine without a token: anyone who reaches the port can submit and read; set " + insights.TokenEnv)
	}
	base := httpx.BaseURL(ln.Addr())
	fmt.Fprintf(env.Stdout, "serving the insights API at %s (data in %s, %s)\n", base, c.String("data-dir"), english.Count(srv.Store().Count(), "submission", "submissions"))
	if f := c.String("ready-file"); f != "" {
		if err := atomicfile.Write(f, []byte(base+"\n")); err != nil {
			ln.Close()
			return exitf(ExitUsage, "insights-server: --ready-file: %v", err)
		}
	}
	ctx, stop := httpx.SignalContext(c.Context)
	defer stop()
	if err := srv.Serve(ctx, ln, c.Duration("shutdown-timeout")); err != nil {
		return exitf(ExitFindings, "insights-server: %v", err)
	}
	return nil
}

func specMetadataReportCommand(env Env, name string, deprecated bool) *cli.Command {
	cmd := &cli.Command{
		Name:      name,
		Usage:     "describe the specifications of a folder in " + insights.SpecMetadataFile,
		ArgsUsage: "[DIR|SPEC…]",
		Description: "Finds the OpenAPI, AsyncAPI, Arazzo, Protocol Buffers, GraphQL and WSDL specifications in\n" +
			"each DIR (default: the working directory; specs are found by content) and writes one entry per\n" +
			"spec to --report-dir/" + insights.SpecMetadataFile + ": its path (within its git repository, and\n" +
			"the repository's origin and commit), format and version, title and version, operations (by\n" +
			"their five identifiers, path, method, request content type, status, response content type,\n" +
			"with their operationId; AsyncAPI operations; gRPC RPCs, GraphQL query, mutation and\n" +
			"subscription fields and WSDL operations by the names the compatibility check gives them),\n" +
			"servers and security schemes, and the problems that make it invalid (as specgate validate\n" +
			"finds them, printed as file:line:col: message; the spec is described all the same).\n" +
			"--ci submits it to the insights service. The command was called central-contract-repo-report\n" +
			"before; that name still works.\n\n" +
			"Exit codes: 0 written, 2 a spec that does not load (its entry says why; the report is\n" +
			"written all the same) or usage errors.",
		Flags: append(append([]cli.Flag{
			&cli.StringFlag{Name: "report-dir", Value: DefaultTestReportDir, Usage: "`DIR` to write " + insights.SpecMetadataFile + " to"},
		}, loaderFlags()...), ciFlags()...),
		Action: func(c *cli.Context) error {
			if deprecated {
				fmt.Fprintf(env.Stderr, "specgate: %s is deprecated: use spec-metadata-report (it writes %s)\n", name, insights.SpecMetadataFile)
			}
			return runSpecMetadataReport(c, env)
		},
	}
	if deprecated {
		cmd.Hidden = true
		cmd.Usage = "deprecated name of spec-metadata-report"
	}
	return cmd
}

func runSpecMetadataReport(c *cli.Context, env Env) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		args = []string{"."}
	}
	files, errs := spec.Expand(args)
	for _, e := range errs {
		fmt.Fprintf(env.Stderr, "specgate: %v\n", e)
	}
	if len(files) == 0 {
		return silent(ExitUsage)
	}
	res := &insights.Resolver{Git: &insights.Git{}}
	if s := ciSetupOf(c); s != nil {
		res = s.res
	}
	rep, loadErrs := insights.BuildSpecMetadata(c.Context, newLoader(c, env), files, res, insights.Tool{Name: "specgate", Version: version()})
	for _, e := range loadErrs {
		fmt.Fprintf(env.Stderr, "specgate: %v\n", e)
	}
	for _, m := range rep.Specs {
		if m.Error != "" {
			continue
		}
		line := []string{m.File, strings.TrimSpace(spec.FormatName(spec.Format(m.Format)) + " " + m.SpecVersion)}
		if title := strings.TrimSpace(m.Title + " " + m.Version); title != "" {
			line = append(line, title)
		}
		ops := english.Count(m.OperationCount(), "operation", "operations")
		if len(m.Problems) > 0 {
			ops += ", " + english.Count(len(m.Problems), "problem", "problems")
		}
		fmt.Fprintln(env.Stdout, strings.Join(append(line, ops), "  "))
		for _, p := range m.Problems {
			fmt.Fprintf(env.Stderr, "specgate: %s\n", p)
		}
	}
	dir := c.String("report-dir")
	path, err := insights.WriteSpecMetadata(dir, rep)
	if err != nil {
		return exitf(ExitUsage, "writing the spec metadata report: %v", err)
	}
	fmt.Fprintf(env.Stderr, "spec metadata report of %s written to %s\n", english.Count(len(rep.Specs), "specification", "specifications"), path)
	var runErr error
	if len(errs) > 0 || len(loadErrs) > 0 {
		runErr = silent(ExitUsage)
	}
	return submitReports(c.Context, c, env, ciRun{Command: "spec-metadata-report", SpecMetadata: rep, ReportDir: dir}, runErr)
}

func sendReportCommand(env Env) *cli.Command {
	flags := []cli.Flag{&cli.StringFlag{Name: "dir", Value: DefaultTestReportDir, Usage: "folder `DIR` of the reports to send, searched recursively"}}
	for _, f := range ciFlags() {
		if f.Names()[0] != "ci" {
			flags = append(flags, f)
		}
	}
	return &cli.Command{
		Name:  "send-report",
		Usage: "deprecated: submit reports written earlier to the insights service (use --ci)",
		Description: "Deprecated in favour of --ci on mock, test, run-suite, backward-compatibility-check and\n" +
			"spec-metadata-report, which submit their reports as soon as they are written.\n\n" +
			"Submits the reports found in --dir (recursively) to the insights service, as --ci would\n" +
			"have: each CTRF report of a test, mock (stub usage), run-suite or compatibility run, and\n" +
			"the spec metadata report, " + insights.SpecMetadataFile + " or its earlier name\n" +
			insights.LegacySpecMetadataFile + " (the earlier one only where the new one is not beside it).\n" +
			"Each submission carries the CI metadata: the repository id, branch, commit, build id and URL,\n" +
			"run attempt and pull request, read from the CI provider's variables (GitHub Actions, GitLab\n" +
			"CI, Jenkins, CircleCI, Azure Pipelines, Bitbucket Pipelines, Buildkite), overridden by\n" +
			"SPECGATE_* variables, -Dspecgate.* definitions and options, in that order; and the free\n" +
			"fields of --metadata KEY=VALUE. The service's token is read from " + insights.TokenEnv + ".\n\n" +
			"A failed submission is reported and fails the command (--ci-strict is implied).\n\n" +
			"Exit codes: 0 submitted, 1 a submission failed, 2 usage errors, no report found or a report\n" +
			"that cannot be read (the others are submitted all the same).",
		Flags:  flags,
		Action: func(c *cli.Context) error { return runSendReport(c, env) },
	}
}

func runSendReport(c *cli.Context, env Env) error {
	fmt.Fprintln(env.Stderr, "specgate: send-report is deprecated: use --ci on mock, test, run-suite, backward-compatibility-check and spec-metadata-report")
	if c.NArg() > 0 {
		return exitf(ExitUsage, "send-report takes no argument (the reports are found in --dir), found %q", c.Args().First())
	}
	setup, err := resolveCI(c, env)
	if err != nil {
		return err
	}
	c.App.Metadata[ciSetupKey] = setup
	dir := c.String("dir")
	found, err := findReports(dir)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	run := ciRun{Command: "send-report", CTRF: found.ctrf, Strict: true}
	errs := found.broken
	for _, p := range found.skipped {
		fmt.Fprintf(env.Stderr, "specgate: %s\n", p)
	}
	for _, p := range found.specMetadata {
		rep, err := insights.ReadSpecMetadata(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if run.SpecMetadata != nil {
			run.SpecMetadata.Specs = append(run.SpecMetadata.Specs, rep.Specs...)
		} else {
			run.SpecMetadata = rep
		}
	}
	for _, e := range errs {
		fmt.Fprintf(env.Stderr, "specgate: %v\n", e)
	}
	if len(run.CTRF) == 0 && run.SpecMetadata == nil {
		return exitf(ExitUsage, "no report to send in %s (CTRF reports, %s or %s)", dir, insights.SpecMetadataFile, insights.LegacySpecMetadataFile)
	}
	var runErr error
	if len(errs) > 0 {
		runErr = silent(ExitUsage) // a report that cannot be read; the others are sent
	}
	return submitReports(c.Context, c, env, run, runErr)
}

// foundReports are the reports send-report found.
type foundReports struct {
	ctrf, specMetadata []string
	skipped            []string // why files that looked like reports were left out
	broken             []error  // CTRF reports that cannot be read
}

// findReports finds the reports under dir: CTRF reports of the kinds the
// insights service files, and spec metadata reports under either name
// (the earlier name only where the new one is not beside it).
func findReports(dir string) (*foundReports, error) {
	st, err := os.Stat(dir)
	if err != nil {
		abs, _ := filepath.Abs(dir)
		return nil, fmt.Errorf("--dir %s: %s does not exist", dir, abs)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("--dir %s is not a folder", dir)
	}
	out := &foundReports{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		switch d.Name() {
		case insights.SpecMetadataFile:
			out.specMetadata = append(out.specMetadata, p)
			return nil
		case insights.LegacySpecMetadataFile:
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), insights.SpecMetadataFile)); err == nil {
				out.skipped = append(out.skipped, fmt.Sprintf("%s left out: %s is beside it", p, insights.SpecMetadataFile))
				return nil
			}
			out.specMetadata = append(out.specMetadata, p)
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".json") {
			return nil
		}
		kind, ok, err := ctrfKind(p)
		switch {
		case err != nil:
			out.broken = append(out.broken, err)
		case !ok:
		case kind == string(reports.Contract) || kind == string(reports.StubUsage) || kind == string(reports.Workflow) || kind == string(reports.Compat):
			out.ctrf = append(out.ctrf, p)
		default:
			out.skipped = append(out.skipped, fmt.Sprintf("%s left out: the insights service files no %s report", p, kind))
		}
		return nil
	})
	sort.Strings(out.ctrf)
	sort.Strings(out.specMetadata)
	return out, err
}

// ctrfKind tells whether a JSON file is a CTRF report, and the kind of
// run its tool names (results.tool.extra.kind, or its tests' type). A file
// that says it is CTRF (its reportFormat, or that text where the JSON
// breaks off) but cannot be read is an error, not a file to pass over: a
// report cut short must not vanish from what is sent.
func ctrfKind(path string) (string, bool, error) {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte(`"reportFormat"`)) {
		return "", false, nil
	}
	var head struct {
		ReportFormat string `json:"reportFormat"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		if !bytes.Contains(data, []byte(`"CTRF"`)) {
			return "", false, nil
		}
	} else if head.ReportFormat != "CTRF" {
		return "", false, nil
	}
	var kind string
	run, err := reports.ReadCTRF(path, func(t *reports.Test) error {
		if kind == "" {
			kind = string(t.Type)
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	if run.Kind != "" {
		kind = string(run.Kind)
	}
	return kind, true, nil
}

// mockUsageReports are the stub-usage CTRF reports a mock run wrote in
// dir: dir's own, or one per mock server in dir/mock-N.
func mockUsageReports(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	for _, pattern := range []string{filepath.Join(dir, "stub-usage-ctrf.json"), filepath.Join(dir, "mock-*", "stub-usage-ctrf.json")} {
		m, _ := filepath.Glob(pattern)
		out = append(out, m...)
	}
	return out
}

// ctrfReportOf is the CTRF file among a test run's outputs: the one
// submitReports reads. Without one it is where it would be, and the
// submission says it is missing.
func ctrfReportOf(outputs []reports.Output, dir string) []string {
	for _, o := range outputs {
		if o.Format == "ctrf" && o.Path != "" {
			return []string{o.Path}
		}
	}
	return []string{filepath.Join(dir, "ctrf-report.json")}
}
