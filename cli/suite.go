package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/arazzo"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/suite"
)

func runSuiteCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "run-suite",
		Usage:     "run the test suite of specgate.yaml: mocks, contract tests and Arazzo workflows, one report",
		ArgsUsage: "[ARAZZO|SPEC…]",
		Description: "Runs everything specgate.yaml (--config, or found upward) declares, in one process:\n" +
			"  1. the dependencies' mocks (type: mock) start first, on their ports, and stop last;\n" +
			"  2. the system under test's OpenAPI specs are contract-tested, as specgate test does;\n" +
			"  3. its Arazzo documents' workflows run, each source description against the service the\n" +
			"     configuration names for the same file (a mock's address, the system under test's\n" +
			"     baseUrl), else the document's own baseUrl, else --testBaseURL.\n" +
			"Documents given as arguments join the configuration's (or run without one). Specs in git\n" +
			"sources are cloned into --git-cache first (" + suite.GitTokenVar + " holds the token of a private\n" +
			"repository; it is never printed). Workflow inputs come from --inputs FILE (YAML or JSON:\n" +
			"workflowId → inputs) over the entry's data.dictionary (a key named after the workflowId).\n\n" +
			"One report set covers every spec and workflow, a suite per spec and per workflow (each\n" +
			"workflow step is a test with its request and response): ctrf-report.json, junit.xml and\n" +
			"report.html in --report-dir. --shard i/n runs a stable part of the contract tests and of the\n" +
			"Arazzo documents; `specgate report merge` joins the parts' CTRF reports.\n\n" +
			"Exit codes: 0 every test passed, 1 a test failed, 2 usage, configuration or input errors (a\n" +
			"spec or Arazzo document that does not load or is invalid, a port that cannot be opened).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "the specgate.yaml `FILE` (default: found from the working directory upward)"},
			&cli.StringFlag{Name: "testBaseURL", Aliases: []string{"test-base-url"}, Usage: "`URL` of services the configuration gives no address for"},
			&cli.StringFlag{Name: "inputs", Usage: "YAML or JSON `FILE` of workflow inputs, by workflowId"},
			&cli.StringFlag{Name: "report-dir", Usage: "`DIR` to write the reports to (default: " + DefaultTestReportDir + ", or specgate.yaml's report.dir)"},
			&cli.StringSliceFlag{Name: "report-format", Usage: "report `FORMAT`s to write: ctrf, junit, html, json (repeatable; default ctrf, junit, html)"},
			&cli.StringFlag{Name: "shard", Usage: "run the `i/n`-th part of the specs' tests and of the Arazzo documents"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of generated values"},
			&cli.IntFlag{Name: "parallel", Value: 1, Usage: "contract tests in flight at once"},
			&cli.DurationFlag{Name: "timeout", Value: config.DefaultTimeout, Usage: "time limit of each request"},
			&cli.StringFlag{Name: "git-cache", Usage: "`DIR` to clone git sources into (default: the user cache directory)"},
		}, append(loaderFlags(), ciFlags()...)...),
		Action: func(c *cli.Context) error { return runSuite(c, env) },
	}
}

func runSuite(c *cli.Context, env Env) error {
	cfg, err := suiteConfig(c, env)
	if err != nil {
		return err
	}
	opts := suite.Options{Config: cfg, Extra: c.Args().Slice(), BaseURL: c.String("testBaseURL"),
		Seed: c.Uint64("seed"), Parallel: max(c.Int("parallel"), 1), Timeout: c.Duration("timeout"),
		Retry: httpx.DefaultRetryPolicy, Loader: newLoader(c, env), Getenv: env.Getenv, GitCache: c.String("git-cache")}
	if err := setInputs(c, env, &opts); err != nil {
		return err
	}
	if s := c.String("shard"); s != "" {
		shard, err := apitest.ParseShard(s)
		if err != nil {
			return exitf(ExitUsage, "--shard: %v", err)
		}
		opts.Shard = shard
	}
	color := env.IsTerminal && env.Getenv("NO_COLOR") == ""
	return runSuiteReported(c, env, cfg, opts, color)
}

// runSuiteReported runs a suite into the reports the command line asks
// for, says where they went, and submits them with --ci (a CTRF report
// per kind of test). The error is silent ExitFindings when a test failed.
func runSuiteReported(c *cli.Context, env Env, cfg *config.Config, opts suite.Options, color bool) error {
	outputs, err := testOutputs(c, cfg, env, false)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	sink, err := reports.NewSink(outputs...)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	ctx, stop := httpx.SignalContext(c.Context)
	defer stop()
	run := &reports.Run{Tool: reports.Tool{Name: "specgate", Version: version()}, Color: color}
	sum, err := suite.Run(ctx, opts, sink, run)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if len(outputs) > 1 {
		fmt.Fprintf(env.Stderr, "reports written to %s\n", reportDir(c, cfg))
	}
	var runErr error
	if sum.Failed > 0 {
		runErr = silent(ExitFindings)
	}
	ctrf := ctrfReportOf(outputs, reportDir(c, cfg))
	if ciSetupOf(c) != nil {
		parts, done, err := ctrfByKind(ctrf[0])
		if err != nil {
			// The report goes as one submission of mixed kinds, or fails to
			// read there with its place: say why it was not split.
			fmt.Fprintf(env.Stderr, "specgate: --ci: %s is submitted whole, not one report per kind: %v\n", ctrf[0], err)
		} else {
			defer done()
			ctrf = parts
		}
	}
	return submitReports(c.Context, c, env, ciRun{CTRF: ctrf, ReportDir: reportDir(c, cfg), Config: cfg}, runErr)
}

// ctrfByKind is a run's CTRF report as the insights service files it, one
// kind per submission: the report itself when its tests are of one kind;
// else, for a suite of contract tests and workflows, a report of each
// kind's tests (the coverage with the contract tests), written into a
// temporary folder that done removes.
func ctrfByKind(path string) (parts []string, done func(), err error) {
	done = func() {}
	var kinds []reports.Kind
	if _, err := reports.ReadCTRF(path, func(t *reports.Test) error {
		if !slices.Contains(kinds, t.Type) {
			kinds = append(kinds, t.Type)
		}
		return nil
	}); err != nil || len(kinds) < 2 {
		return []string{path}, done, err
	}
	dir, err := os.MkdirTemp("", "specgate-ctrf-")
	if err != nil {
		return nil, done, err
	}
	done = func() { os.RemoveAll(dir) }
	sinks := map[reports.Kind]*reports.Sink{}
	head, err := reports.ReadCTRF(path, func(*reports.Test) error { return nil })
	if err != nil {
		done()
		return nil, func() {}, err
	}
	for _, k := range kinds {
		part := filepath.Join(dir, string(k)+"-ctrf-report.json")
		sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: part})
		if err == nil {
			run := &reports.Run{Tool: head.Tool, Kind: k, Start: head.Summary.Start, Shard: head.Shard}
			if !head.Summary.Start.IsZero() {
				run.Elapsed = head.Summary.Stop.Sub(head.Summary.Start)
			}
			err = sink.Begin(run)
		}
		if err != nil {
			done()
			return nil, func() {}, err
		}
		sinks[k] = sink
		parts = append(parts, part)
	}
	_, err = reports.ReadCTRF(path, func(t *reports.Test) error { return sinks[t.Type].Add(t) })
	for _, k := range kinds {
		var cov []reports.Coverage
		if k == reports.Contract {
			cov = head.Coverage
		}
		if _, endErr := sinks[k].End(cov); err == nil {
			err = endErr
		}
	}
	if err != nil {
		done()
		return nil, func() {}, err
	}
	return parts, done, nil
}

// suiteConfig loads --config, or the specgate.yaml found upward; nil when
// documents are given and no configuration is.
func suiteConfig(c *cli.Context, env Env) (*config.Config, error) {
	path := c.String("config")
	if path == "" {
		found, ok := config.Find(".")
		if !ok {
			if c.NArg() > 0 {
				return nil, nil
			}
			return nil, exitf(ExitUsage, "run-suite needs a %s (--config, or one found from the working directory upward) or documents to run", config.FileNames[0])
		}
		path = found
	}
	return loadConfig(env, path)
}

// setInputs gives a run of workflows its --inputs, with where the file
// writes each workflowId, what to say of missing inputs, and a notice on
// standard error of where requests go when nothing names an address.
func setInputs(c *cli.Context, env Env, opts *suite.Options) error {
	path := c.String("inputs")
	inputs, at, err := readInputs(path)
	if err != nil {
		return exitf(ExitUsage, "--inputs: %v", err)
	}
	opts.Inputs, opts.InputsFrom, opts.InputsAt = inputs, path, at
	opts.InputsHelp = " (give the inputs of each workflow by its workflowId with --inputs FILE, which 'specgate examples generate DOC.arazzo.yaml' writes, or in specgate.yaml's data.dictionary)"
	opts.Notice = func(msg string) { fmt.Fprintln(env.Stderr, "specgate: "+msg) }
	return nil
}

// readInputs reads an inputs file: a mapping of workflowId to the
// workflow's inputs, and where each workflowId is written.
func readInputs(path string) (map[string]map[string]any, map[string]spec.Pos, error) {
	if path == "" {
		return nil, nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	root, err := spec.Parse(path, data, spec.DefaultLimits())
	if err != nil {
		return nil, nil, err
	}
	if root.Kind != spec.Object {
		return nil, nil, fmt.Errorf("%s: expected a mapping of workflowId to inputs, found %s", path, root.Kind)
	}
	out := map[string]map[string]any{}
	at := map[string]spec.Pos{}
	for _, f := range root.Fields {
		m, ok := arazzo.NodeValue(f.Value).(map[string]any)
		if !ok {
			return nil, nil, &spec.Error{File: path, Pos: f.Value.Range.Start, Msg: fmt.Sprintf("the inputs of workflow %q must be a mapping, found %s", f.Key, f.Value.Kind)}
		}
		out[f.Key] = m
		at[f.Key] = f.KeyRange.Start
	}
	return out, at, nil
}

// arazzoArgs reports whether the arguments of test are Arazzo documents
// (all of them): specgate test WORKFLOW.arazzo.yaml runs their workflows.
func arazzoArgs(ctx context.Context, loader *spec.Loader, args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		doc, err := loader.Open(ctx, a)
		if err != nil || doc.Format != spec.Arazzo {
			return false
		}
	}
	return true
}

// testWorkflows is specgate test on Arazzo documents: their workflows run
// against --testBaseURL (or each source's servers), as run-suite runs them.
func testWorkflows(c *cli.Context, env Env) error {
	if c.IsSet("config") {
		return runSuite(c, env)
	}
	opts := suite.Options{Extra: c.Args().Slice(), BaseURL: c.String("testBaseURL"),
		Timeout: c.Duration("timeout"), Retry: httpx.DefaultRetryPolicy, Loader: newLoader(c, env), Getenv: env.Getenv}
	if err := setInputs(c, env, &opts); err != nil {
		return err
	}
	return runSuiteReported(c, env, nil, opts, false)
}

// generateInputs is specgate examples generate on Arazzo documents: for
// each, a file of example inputs by workflowId, generated from the
// workflows' inputs schemas (the file --inputs reads), named after the
// document (checkout.arazzo.yaml gives checkout.inputs.yaml), in --dir or
// beside it. An existing file is never overwritten.
func generateInputs(c *cli.Context, env Env) error {
	return generateFrom(c, env, "document", "inputs", func(name string, doc *spec.Document, dir string) (int, error) {
		d := arazzo.Read(doc)
		inputs, err := arazzo.ExampleInputs(d, c.Uint64("seed"))
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: the inputs cannot be generated: %v\n", name, err)
			return ExitFindings, nil
		}
		if len(inputs) == 0 {
			fmt.Fprintf(env.Stdout, "%s: no workflow declares inputs; nothing to write\n", name)
			return ExitOK, nil
		}
		data, err := arazzo.MarshalInputs(d, inputs)
		if err != nil {
			return 0, exitf(ExitUsage, "%s: %v", name, err)
		}
		return ExitOK, writeGenerated(env, filepath.Join(dir, generatedName(name, ".arazzo", ".inputs.yaml")), data, "the inputs of "+name, func() string {
			return fmt.Sprintf("the inputs of %d %s", len(inputs), english.Noun(len(inputs), "workflow", "workflows"))
		})
	})
}

// generateFrom runs gen on each document named on the command line, loaded,
// with the folder its output goes to (outputDir, which kind and what word
// the message of a document without one). The exit code is the worst gen
// returns, ExitUsage for a document that does not load or has no folder;
// an error from gen ends the command.
func generateFrom(c *cli.Context, env Env, kind, what string, gen func(name string, doc *spec.Document, dir string) (int, error)) error {
	loader := newLoader(c, env)
	code := ExitOK
	for _, name := range c.Args().Slice() {
		doc, err := loader.Load(c.Context, name)
		if err != nil {
			fmt.Fprintln(env.Stderr, err)
			code = max(code, ExitUsage)
			continue
		}
		dir, ok := outputDir(c, env, name, kind, what)
		if !ok {
			code = max(code, ExitUsage)
			continue
		}
		n, err := gen(name, doc, dir)
		if err != nil {
			return err
		}
		code = max(code, n)
	}
	return silent(code)
}

// writeGenerated writes a generated file that must be new and says so,
// with wrote's account of it; an existing file is kept (skipped, said),
// and a file that cannot be written (what it holds: "the inputs of …")
// ends the command.
func writeGenerated(env Env, path string, data []byte, what string, wrote func() string) error {
	switch err := writeNew(path, data); {
	case errors.Is(err, fs.ErrExist):
		fmt.Fprintf(env.Stdout, "skipped %s: the file exists\n", path)
	case err != nil:
		return exitf(ExitUsage, "writing %s: %v", what, err)
	default:
		fmt.Fprintf(env.Stdout, "wrote %s: %s\n", path, wrote())
	}
	return nil
}

// outputDir is where a file generated from the document name goes: --dir,
// else the document's folder. A document that is not a local file (a URL,
// standard input) has no folder: that is said, and ok is false.
func outputDir(c *cli.Context, env Env, name, kind, what string) (dir string, ok bool) {
	if dir := c.String("dir"); dir != "" {
		return dir, true
	}
	if name == "-" || strings.Contains(name, "://") {
		fmt.Fprintf(env.Stderr, "%s: the %s is not a local file: write its %s somewhere with --dir\n", name, kind, what)
		return "", false
	}
	return filepath.Dir(name), true
}

// generatedName names a file generated from a document: the document's
// file name without a URL's query, its format extension and then trim
// (".arazzo" of a workflows document, ".openapi" of a description),
// followed by suffix; "workflows" stands for a document without a name
// (standard input). checkout.arazzo.yaml gives checkout.inputs.yaml,
// pets.yaml gives pets.arazzo.yaml.
func generatedName(doc, trim, suffix string) string {
	base := filepath.Base(doc)
	if i := strings.Index(base, "?"); i >= 0 {
		base = base[:i]
	}
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		base = strings.TrimSuffix(base, ext)
	}
	base = strings.TrimSuffix(base, trim)
	if base == "" || base == "-" {
		base = "workflows"
	}
	return base + suffix
}

// writeNew writes a file that must not exist yet (fs.ErrExist when it
// does), making its folder (--dir) when it does not exist.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// generateWorkflows is specgate examples generate --workflows: for each
// OpenAPI description, an Arazzo document of starter workflows, one per
// operation (arazzo.Starter), named after the description
// (pets.yaml gives pets.arazzo.yaml), in --dir or beside it, its source
// description the relative path from there. The document is checked as
// validate checks any (the official schema, then arazzo.Check) before it
// is written; an existing file is never overwritten.
func generateWorkflows(c *cli.Context, env Env) error {
	return generateFrom(c, env, "description", "workflows", func(name string, doc *spec.Document, dir string) (int, error) {
		remote := strings.Contains(name, "://")
		out, err := filepath.Abs(filepath.Join(dir, generatedName(name, ".openapi", ".arazzo.yaml")))
		if err != nil {
			return 0, exitf(ExitUsage, "%v", err)
		}
		source := name
		if !remote {
			abs, err := filepath.Abs(name)
			if err != nil {
				return 0, exitf(ExitUsage, "%v", err)
			}
			if source, err = filepath.Rel(filepath.Dir(out), abs); err != nil {
				return 0, exitf(ExitUsage, "%v", err)
			}
			source = filepath.ToSlash(source)
			if !strings.HasPrefix(source, "../") {
				source = "./" + source
			}
		}
		data, err := arazzo.Starter(doc, source)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
			return ExitUsage, nil
		}
		check := spec.NewLoader(spec.Options{AllowExternalRefs: true, AllowRemoteRefs: remote || c.Bool("allow-remote-refs")})
		written, err := check.LoadBytes(c.Context, out, data)
		if err == nil {
			if _, problems := arazzo.Check(c.Context, written); len(problems) > 0 {
				err = errors.Join(problemErrors(problems)...)
			}
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: the starter workflows do not validate (please report it):\n%v\n", name, err)
			return ExitFindings, nil
		}
		return ExitOK, writeGenerated(env, filepath.Join(dir, generatedName(name, ".openapi", ".arazzo.yaml")), data, "the workflows of "+name, func() string {
			n := len(arazzo.Read(written).Workflows)
			return fmt.Sprintf("%d starter %s, one per operation", n, english.Noun(n, "workflow", "workflows"))
		})
	})
}

func problemErrors(ps []arazzo.Problem) []error {
	out := make([]error, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}
