package cli

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/apitest/testreport"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// DefaultTestReportDir is where test writes its reports without
// --report-dir or a configuration that says otherwise.
const DefaultTestReportDir = "specgate-reports"

func testCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "contract-test a running service against its specifications",
		ArgsUsage: "SPEC…",
		Description: "Sends requests made from each OpenAPI 2.0/3.x SPEC and its examples to the service at\n" +
			"--testBaseURL and checks every response against the spec. Tests, per operation × request\n" +
			"content type × response status × response content type:\n" +
			"  example    each external example (--examples DIR, and SPEC's <name>_examples folder) and\n" +
			"             each inline example pair, with its before/after fixtures; the example's status\n" +
			"             and, where it gives them, its headers and body values are expected\n" +
			"  generated  a valid request made from the schemas (deterministic for --seed) for each\n" +
			"             operation whose success response no example covers; a declared status and a\n" +
			"             valid response are expected\n" +
			"  negative   with --negative: requests that break the contract in one documented place each\n" +
			"             (a missing required parameter, property or body, a wrong type, an out-of-range\n" +
			"             value, an undeclared property, an unsupported Content-Type, an undeclared\n" +
			"             method); 400 or 422, 415, and 405 with Allow are expected (--negative-status)\n" +
			"Responses are judged by named checks (--checks, --list-checks). Credentials come from the\n" +
			"example's own headers, from specgate.yaml's securitySchemes, or from an environment\n" +
			"variable named after the security scheme; tokens are masked in every output.\n\n" +
			"--filter and --filter-not select tests by PATH, METHOD and STATUS:\n" +
			"  --filter \"PATH='/pets/*' && METHOD=GET,POST\" --filter-not STATUS=5xx\n" +
			"--shard i/n runs a stable i-th part of the tests (a CI matrix); `specgate report merge` joins\n" +
			"the parts' CTRF reports. A 429 is retried after its Retry-After (seconds, HTTP date or\n" +
			"ISO-8601), up to --max-retries times and --max-retry-wait; every attempt is reported.\n" +
			"Requests honour HTTP_PROXY, HTTPS_PROXY and NO_PROXY. --variations adds a valid request with\n" +
			"every optional parameter of each operation (resiliencyTests positiveOnly; all adds --negative).\n\n" +
			"Without SPEC, the tests of specgate.yaml (--config, or found upward) run: each spec with its\n" +
			"base URL, credentials, certificates (runOptions.mtlsEnabled), example folders and settings;\n" +
			"flags override them.\n\n" +
			"Reports go to --report-dir (default " + DefaultTestReportDir + "): ctrf-report.json (CTRF, with\n" +
			"coverageMetrics), junit.xml and report.html; a coverage summary is printed at the end.\n" +
			"Progress is a bar on a terminal, one line per test otherwise.\n\n" +
			"Exit codes: 0 every test passed, 1 a test failed, 2 usage, configuration or input errors\n" +
			"(a spec, example or configuration that does not load).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "testBaseURL", Aliases: []string{"test-base-url"}, Usage: "`URL` of the service under test (without a path, each operation's server prefix is added; a path, / included, replaces it)"},
			&cli.StringSliceFlag{Name: "examples", Usage: "folder `DIR` of external examples, searched recursively (repeatable)"},
			&cli.StringFlag{Name: "config", Usage: "the specgate.yaml `FILE` (default: found from the working directory upward when no SPEC is given)"},
			&cli.StringFlag{Name: "report-dir", Usage: "`DIR` to write the reports to (default: " + DefaultTestReportDir + ", or specgate.yaml's report.dir)"},
			&cli.StringSliceFlag{Name: "report-format", Usage: "report `FORMAT`s to write: " + strings.Join(reports.TestFormats[:4], ", ") + " (repeatable; default ctrf, junit, html)"},
			&cli.StringSliceFlag{Name: "filter", Usage: "run the tests that match `EXPR` (repeatable: all must match)"},
			&cli.StringSliceFlag{Name: "filter-not", Usage: "leave out the tests that match `EXPR` (repeatable)"},
			&cli.IntFlag{Name: "max-tests", Usage: "run at most `N` tests"},
			&cli.BoolFlag{Name: "negative", Usage: "add the requests that break the contract in one place each"},
			&cli.BoolFlag{Name: "variations", Usage: "add a valid request with every optional parameter of each operation that has some"},
			&cli.StringSliceFlag{Name: "negative-status", Usage: "statuses negative tests expect, `KIND=CODES`: data=400,422 media-type=415 method=405 (repeatable)"},
			&cli.StringSliceFlag{Name: "checks", Usage: "run only these checks (`NAMES`, comma-separated; all for every one)"},
			&cli.StringSliceFlag{Name: "exclude-checks", Usage: "leave these checks out (`NAMES`)"},
			&cli.BoolFlag{Name: "list-checks", Usage: "list the checks and exit"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of generated values: the same seed sends the same requests"},
			&cli.IntFlag{Name: "parallel", Value: 1, Usage: "tests in flight at once (results keep their order)"},
			&cli.StringFlag{Name: "shard", Usage: "run the `i/n`-th part of the tests"},
			&cli.DurationFlag{Name: "timeout", Value: config.DefaultTimeout, Usage: "time limit of each request"},
			&cli.IntFlag{Name: "max-retries", Value: config.DefaultMaxAttempts - 1, Usage: "retries of a request answered 429"},
			&cli.DurationFlag{Name: "max-retry-wait", Value: config.DefaultMaxRetryDelay, Usage: "longest Retry-After to wait for (a longer one ends the retries)"},
			&cli.BoolFlag{Name: "strict", Usage: "strictMode: an example variable that is not set fails its test instead of getting a generated value"},
			&cli.StringFlag{Name: "client-cert", Usage: "PEM `FILE` of the client certificate for mutual TLS", TakesFile: true},
			&cli.StringFlag{Name: "client-key", Usage: "PEM `FILE` of its private key", TakesFile: true},
			&cli.StringFlag{Name: "ca-file", Usage: "PEM `FILE` of the certificates that may sign the service's", TakesFile: true},
			&cli.BoolFlag{Name: "insecure", Usage: "accept any certificate of the service (test environments only)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print passed tests too"},
			&cli.StringFlag{Name: "inputs", Usage: "YAML or JSON `FILE` of the inputs of Arazzo workflows, by workflowId (specgate test WORKFLOW.arazzo.yaml)"},
		}, append(loaderFlags(), ciFlags()...)...),
		Action: func(c *cli.Context) error { return runTest(c, env) },
	}
}

func runTest(c *cli.Context, env Env) error {
	if arazzoArgs(c.Context, newLoader(c, env), c.Args().Slice()) {
		return testWorkflows(c, env) // cli/suite.go
	}
	if c.Bool("list-checks") {
		return listChecks(env)
	}
	opts, cfg, err := testOptions(c, env)
	if err != nil {
		return err
	}
	// The progress prints each failure with its messages as it comes.
	outputs, err := testOutputs(c, cfg, env, true)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	ctx, stop := httpx.SignalContext(c.Context)
	defer stop()
	plan, err := apitest.NewPlan(ctx, opts)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	for _, e := range plan.Left() {
		fmt.Fprintf(env.Stderr, "specgate: not tested: %v\n", e)
	}
	for _, w := range plan.Warnings() {
		fmt.Fprintln(env.Stderr, "specgate: warning: "+w)
	}
	for _, s := range plan.Info() {
		if s.BaseURLFromServers {
			fmt.Fprintf(env.Stderr, "specgate: %s: no base URL given: testing %s, the spec's first absolute server (--testBaseURL tests elsewhere)\n", s.Name, s.BaseURL)
		}
	}
	sink, err := reports.NewSink(outputs...)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	color := env.IsTerminal && env.Getenv("NO_COLOR") == ""
	rs := testreport.NewSink(sink, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: version()}, Color: color})
	terminal := stderrIsTerminal(env)
	progress := apitest.NewProgress(env.Stdout, false, color)
	if terminal {
		progress = apitest.NewProgress(env.Stderr, true, color)
	}
	progress.Verbose = c.Bool("verbose")
	sum := plan.Run(ctx, progress, rs)
	if err := rs.Err(); err != nil {
		return exitf(ExitUsage, "writing the reports: %v", err)
	}
	if dir := reportDir(c, cfg); len(outputs) > 1 {
		fmt.Fprintf(env.Stderr, "reports written to %s\n", dir)
	}
	var runErr error
	switch {
	case sum.Interrupted:
		runErr = exitf(ExitFindings, "interrupted after %d of the tests", sum.Tests)
	case len(plan.Left()) > 0:
		runErr = exitf(ExitUsage, "%d %s of %s not tested (see above)", len(plan.Left()), english.Noun(len(plan.Left()), "spec", "specs"), fromWD(cfg.File))
	case sum.Failed > 0:
		runErr = silent(ExitFindings)
	}
	return submitReports(c.Context, c, env, ciRun{CTRF: ctrfReportOf(outputs, reportDir(c, cfg)), ReportDir: reportDir(c, cfg), Config: cfg}, runErr)
}

func listChecks(env Env) error {
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, ch := range apitest.Checks() {
		doc := ch.Doc
		if ch.OptIn {
			doc += " (opt-in)"
		}
		fmt.Fprintf(w, "%s\t%s\n", ch.Name, doc)
	}
	return w.Flush()
}

// testOptions reads the flags, and specgate.yaml when one is given or no
// spec is.
func testOptions(c *cli.Context, env Env) (apitest.Options, *config.Config, error) {
	opts := apitest.Options{
		BaseURL:       c.String("testBaseURL"),
		Examples:      c.StringSlice("examples"),
		Seed:          c.Uint64("seed"),
		Filter:        joinFilters(c.StringSlice("filter")),
		FilterNot:     joinFilters(c.StringSlice("filter-not")),
		MaxTests:      c.Int("max-tests"),
		Negative:      c.Bool("negative"),
		Variations:    c.Bool("variations"),
		Checks:        c.StringSlice("checks"),
		ExcludeChecks: c.StringSlice("exclude-checks"),
		Parallel:      c.Int("parallel"),
		StrictMode:    c.Bool("strict"),
		Getenv:        env.Getenv,
		Loader:        newLoader(c, env),
		Count:         stderrIsTerminal(env),
	}
	if opts.Parallel < 1 {
		return opts, nil, exitf(ExitUsage, "--parallel must be at least 1, found %d", opts.Parallel)
	}
	if c.Int("max-retries") < 0 {
		return opts, nil, exitf(ExitUsage, "--max-retries must not be negative, found %d", c.Int("max-retries"))
	}
	if s := c.String("shard"); s != "" {
		shard, err := apitest.ParseShard(s)
		if err != nil {
			return opts, nil, exitf(ExitUsage, "--shard: %v", err)
		}
		opts.Shard = shard
	}
	expect, err := parseNegativeStatuses(c.StringSlice("negative-status"))
	if err != nil {
		return opts, nil, exitf(ExitUsage, "--negative-status: %v", err)
	}
	opts.Expect = expect
	timeout := c.Duration("timeout")
	retry := httpx.RetryPolicy{MaxRetries: c.Int("max-retries"), MaxWait: c.Duration("max-retry-wait"), DefaultWait: httpx.DefaultRetryPolicy.DefaultWait}
	flagTLS := &httpx.TLSFiles{CertFile: c.String("client-cert"), KeyFile: c.String("client-key"), CAFile: c.String("ca-file"), InsecureSkipVerify: c.Bool("insecure")}

	cfg, err := loadTestConfig(c, env)
	if err != nil {
		return opts, nil, err
	}
	if cfg != nil {
		opts.StrictMode = opts.StrictMode || cfg.StrictMode
	}
	clients := map[httpx.TLSFiles]*http.Client{}
	client := func(files httpx.TLSFiles, timeout time.Duration) (*http.Client, error) {
		if cl := clients[files]; cl != nil {
			return cl, nil
		}
		cl, err := httpx.NewClient(httpx.ClientOptions{Timeout: timeout, Getenv: env.Getenv, TLS: &files})
		if err != nil {
			return nil, exitf(ExitUsage, "%v", err)
		}
		clients[files] = cl
		return cl, nil
	}
	if c.NArg() > 0 {
		for _, a := range c.Args().Slice() {
			src := apitest.SpecSource{Path: a, BaseURL: opts.BaseURL}
			files := *flagTLS
			if cfg != nil {
				if t := configTestFor(cfg, a); t != nil {
					applyConfigTest(&src, t, &files, flagTLS)
				}
			}
			cl, err := client(files, timeout)
			if err != nil {
				return opts, nil, err
			}
			src.Client = cl
			opts.Specs = append(opts.Specs, src)
		}
	} else {
		if cfg == nil {
			return opts, nil, exitf(ExitUsage, "test needs a SPEC, or a %s (see 'specgate test --help')", config.FileNames[0])
		}
		if len(cfg.Tests) == 0 {
			return opts, nil, exitf(ExitUsage, "%s declares no spec to test (systemUnderTest)", cfg.File)
		}
		// One spec without an address (or that does not load) is that
		// spec's error: the others run.
		opts.KeepGoing = true
		for _, t := range cfg.Tests {
			if t.Spec.Git != nil {
				return opts, nil, exitf(ExitUsage, "%s:%d:%d: spec %s is in a git repository; test reads local files and URLs", t.Spec.File, t.Spec.At.Line, t.Spec.At.Col, t.Spec.ID)
			}
			src := apitest.SpecSource{Path: t.Spec.Path, BaseURL: opts.BaseURL}
			files := *flagTLS
			applyConfigTest(&src, t, &files, flagTLS)
			to := timeout
			if !c.IsSet("timeout") && t.Settings.Timeout > 0 {
				to = t.Settings.Timeout
			}
			cl, err := client(files, to)
			if err != nil {
				return opts, nil, err
			}
			src.Client = cl
			if !c.IsSet("negative") && t.Settings.Resiliency == config.ResiliencyAll {
				opts.Negative = true
			}
			if !c.IsSet("variations") && (t.Settings.Resiliency == config.ResiliencyPositive || t.Settings.Resiliency == config.ResiliencyAll) {
				opts.Variations = true
			}
			if !c.IsSet("max-retries") && t.Settings.MaxAttempts > 0 {
				retry.MaxRetries = t.Settings.MaxAttempts - 1
			}
			if !c.IsSet("max-retry-wait") && t.Settings.MaxRetryDelay > 0 {
				retry.MaxWait = t.Settings.MaxRetryDelay
			}
			opts.Specs = append(opts.Specs, src)
		}
	}
	opts.Retry = retry
	return opts, cfg, nil
}

// loadTestConfig loads --config, or with no SPEC the specgate.yaml found
// upward; nil when there is none to read.
func loadTestConfig(c *cli.Context, env Env) (*config.Config, error) {
	path := c.String("config")
	if path == "" && c.NArg() == 0 {
		found, ok := config.Find(".")
		if !ok {
			return nil, nil
		}
		path = found
	}
	if path == "" {
		return nil, nil
	}
	return loadConfig(env, path)
}

// configTestFor finds the configuration's test of a spec given on the
// command line, by its file.
func configTestFor(cfg *config.Config, arg string) *config.Test {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil
	}
	for _, t := range cfg.Tests {
		if t.Spec.Git == nil && (t.Spec.Path == abs || t.Spec.ID == arg) {
			return t
		}
	}
	return nil
}

// applyConfigTest takes a configured test's base URL (unless
// --testBaseURL gave one), examples, credentials, filter and
// certificates; flags set on the command line win.
func applyConfigTest(src *apitest.SpecSource, t *config.Test, files, flags *httpx.TLSFiles) {
	src.Name = t.Spec.ID
	if u := t.Target.URL(); u != "" && src.BaseURL == "" {
		src.BaseURL = u
	}
	src.Examples = t.Examples
	src.Filter = t.Spec.Filter
	if len(t.Spec.Security) > 0 {
		src.Credentials = map[string]string{}
		for _, cr := range t.Spec.Security {
			src.Credentials[cr.Scheme] = cr.Token
		}
	}
	configured := t.Spec
	src.Check = func(doc *spec.Document) error { return configured.CheckSecuritySchemes(doc) }
	if t.TLS.MTLS && flags.CertFile == "" {
		files.CertFile, files.KeyFile = t.TLS.CertFile, t.TLS.KeyFile
	}
	if flags.CAFile == "" {
		files.CAFile = t.TLS.CAFile
	}
	files.InsecureSkipVerify = files.InsecureSkipVerify || t.TLS.InsecureSkipVerify
}

// joinFilters joins repeated filters: every one must match.
func joinFilters(list []string) string {
	var parts []string
	for _, f := range list {
		if strings.TrimSpace(f) != "" {
			parts = append(parts, f)
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return "(" + strings.Join(parts, ") && (") + ")"
}

// parseNegativeStatuses reads KIND=CODES.
func parseNegativeStatuses(list []string) (apitest.Expectations, error) {
	var e apitest.Expectations
	kinds := map[string]*[]int{"data": &e.InvalidData, "media-type": &e.MediaType, "method": &e.Method}
	for _, item := range list {
		kind, codes, ok := strings.Cut(item, "=")
		target := kinds[strings.TrimSpace(kind)]
		if !ok || target == nil {
			return e, fmt.Errorf("%q is not KIND=CODES with KIND one of data, media-type, method", item)
		}
		for _, s := range strings.Split(codes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 100 || n > 599 {
				return e, fmt.Errorf("%q: %q is not a status", item, s)
			}
			*target = append(*target, n)
		}
	}
	return e, nil
}

func reportDir(c *cli.Context, cfg *config.Config) string {
	switch {
	case c.IsSet("report-dir"):
		return c.String("report-dir")
	case cfg != nil && cfg.Report.Dir != "":
		return cfg.Report.Dir
	}
	return DefaultTestReportDir
}

// testOutputs are the report files, and the summary on standard output.
// printed says a progress line has printed each failure with its messages
// already: the summary then names failures without them; otherwise it
// gives each failure's reason (run-suite and workflows print no progress
// lines).
func testOutputs(c *cli.Context, cfg *config.Config, env Env, printed bool) ([]reports.Output, error) {
	dir := reportDir(c, cfg)
	formats := c.StringSlice("report-format")
	if len(formats) == 0 && cfg != nil && !c.IsSet("report-dir") {
		for _, f := range cfg.Report.Formats {
			if slices.Contains(reports.TestFormats, f) {
				formats = append(formats, f)
			}
		}
	}
	var outs []reports.Output
	if len(formats) == 0 {
		outs = reports.DefaultOutputs(dir)
	}
	names := map[string]string{"ctrf": "ctrf-report.json", "junit": "junit.xml", "html": "report.html", "json": "test-report.json"}
	for _, list := range formats {
		for _, f := range strings.Split(list, ",") {
			f = strings.TrimSpace(f)
			name, ok := names[f]
			if !ok {
				return nil, fmt.Errorf("--report-format %q is not one of ctrf, junit, html, json", f)
			}
			outs = append(outs, reports.Output{Format: f, Path: filepath.Join(dir, name)})
		}
	}
	outs = append(outs, reports.Output{Format: "summary", W: env.Stdout, Brief: printed})
	return outs, nil
}
