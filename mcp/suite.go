package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/suite"
)

// SuiteInput is the input of run_suite.
type SuiteInput struct {
	Config  string                    `json:"config,omitempty" jsonschema:"the specgate.yaml declaring the suite, relative to the root; default: the one found from the root upward, if it is under the root"`
	BaseURL string                    `json:"testBaseUrl,omitempty" jsonschema:"URL of the services the configuration gives no address for"`
	Inputs  map[string]map[string]any `json:"inputs,omitempty" jsonschema:"the inputs of the suite's Arazzo workflows, by workflowId, over those of the configuration's data.dictionary"`
	Shard   string                    `json:"shard,omitempty" jsonschema:"i/n: run a stable i-th of n parts of the contract tests and of the Arazzo documents (a CI matrix)"`
	Seed    uint64                    `json:"seed,omitempty" jsonschema:"seed of generated values"`
}

// SuiteOutput is the answer of run_suite.
type SuiteOutput struct {
	Summary   TestSummary  `json:"summary"`
	Specs     int          `json:"specs" jsonschema:"OpenAPI specifications contract-tested"`
	Workflows int          `json:"workflows" jsonschema:"Arazzo workflows run"`
	Mocks     int          `json:"mocks" jsonschema:"dependencies' mock servers started for the suite (and stopped after it)"`
	Failed    []FailedTest `json:"failed" jsonschema:"the failed tests and workflow steps in run order, those that failed the same way as one entry with their count, at most 10 entries; the first 3 with their request, response and problems"`
	Omitted   int          `json:"omitted,omitempty" jsonschema:"failed tests left out of this answer; the reports list them all"`
	ReportDir string       `json:"reportDir" jsonschema:"the folder of the full reports: ctrf-report.json (CTRF), junit.xml, report.html"`
	Notices   []string     `json:"notices,omitempty" jsonschema:"what the run said before it started: where an Arazzo source description's requests went when nothing gave its address"`
	Warnings  []string     `json:"warnings,omitempty" jsonschema:"what to know before trusting the result, as specgate run-suite warns: each security scheme the contract tests need that has no credential (none in specgate.yaml or the environment), whose placeholder was sent"`
}

// inputsHelp is what the tools say of how to give a workflow's inputs.
const inputsHelp = " (give the inputs of each workflow by its workflowId in the input inputs)"

func (s *Server) addSuite() {
	add(s, &mcpsdk.Tool{
		Name:  ToolRunSuite,
		Title: "Run the test suite",
		Description: "Run everything a specgate.yaml declares, as `specgate run-suite` does: the dependencies' mocks start on their ports, the system under test's OpenAPI specs are contract-tested " +
			"and its Arazzo workflows run (inputs by workflowId), then the mocks stop. Returns the summary, the failed tests and steps, those that failed the same way as one entry with their count, " +
			"each with request, response and problems, and the folder of the full reports.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, nil, s.runSuite)
}

func (s *Server) runSuite(ctx context.Context, c *call, in SuiteInput) (SuiteOutput, error) {
	var out SuiteOutput
	path := in.Config
	if path == "" {
		found, ok := config.Find(s.root.Dir())
		if !ok {
			return out, fmt.Errorf("no %s found from the root %s upward; give config", config.FileNames[0], s.root.Dir())
		}
		path = found
	}
	path, err := s.root.File("config", path)
	if err != nil {
		return out, err
	}
	if in.BaseURL != "" {
		if _, ok := httpx.ParseHTTPURL(in.BaseURL); !ok {
			return out, fmt.Errorf("testBaseUrl %q is not an http(s) URL with a host", in.BaseURL)
		}
	}
	opts := suite.Options{BaseURL: in.BaseURL, Seed: in.Seed, InputsFrom: "inputs", InputsHelp: inputsHelp}
	if in.Shard != "" {
		if opts.Shard, err = apitest.ParseShard(in.Shard); err != nil {
			return out, fmt.Errorf("shard: %v", err)
		}
	}
	if opts.Inputs, err = jsonValues(in.Inputs); err != nil {
		return out, fmt.Errorf("inputs: %w", err)
	}
	if opts.Config, err = config.Load(path, config.Options{Getenv: s.opts.Getenv}); err != nil {
		return out, fmt.Errorf("%s", s.showErr(err))
	}
	return s.suiteRun(ctx, c, opts, filepath.Dir(path))
}

// suiteRun runs a suite (run_suite, and run_contract_test on Arazzo
// documents) with the server's loader, environment and logger, its
// reports in the call's folder, and answers the failed tests read back
// from its CTRF report, grouped.
// dir is the folder of the specgate.yaml, which the reports name specs
// relative to.
func (s *Server) suiteRun(ctx context.Context, c *call, opts suite.Options, dir string) (SuiteOutput, error) {
	var out SuiteOutput
	reportDir, err := c.reportDir()
	if err != nil {
		return out, err
	}
	sink, err := reports.NewSink(reports.DefaultOutputs(reportDir)...)
	if err != nil {
		return out, err
	}
	opts.Parallel, opts.Timeout, opts.Retry = 1, config.DefaultTimeout, httpx.DefaultRetryPolicy
	opts.Loader, opts.Getenv, opts.Logger = s.loader(), s.opts.Getenv, s.opts.Logger
	opts.Progress = func(done, total int, t *reports.Test) {
		title := t.Name
		if t.Type == reports.Workflow && len(t.Suite) > 1 {
			title = t.Suite[1] + " › " + t.Name
		}
		c.notify(ctx, done, total, string(t.Status)+" "+title)
	}
	opts.Notice = func(msg string) { out.Notices = append(out.Notices, s.showText(msg)) }
	opts.Warning = func(msg string) { out.Warnings = append(out.Warnings, s.showText(msg)) }
	start := time.Now()
	sum, err := suite.Run(ctx, opts, sink, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: s.opts.Version}})
	if err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("the suite was stopped: %w", ctx.Err())
		}
		return out, fmt.Errorf("%s", s.showErr(err))
	}
	out.Summary = TestSummary{Tests: sum.Tests, Passed: sum.Passed, Failed: sum.Failed, Skipped: sum.Skipped, ElapsedMs: time.Since(start).Milliseconds()}
	if ctx.Err() != nil {
		out.Summary.Interrupted, out.Summary.Stopped = true, s.stopped(ctx)
	}
	out.Specs, out.Workflows, out.Mocks = sum.Specs, sum.Workflows, sum.Mocks
	out.ReportDir = s.root.Show(reportDir)
	out.Failed, out.Omitted, err = s.failedInReport(filepath.Join(reportDir, "ctrf-report.json"), dir)
	return out, err
}

// failedInReport reads the failed tests of a CTRF report back, grouped;
// dir is what its relative names are relative to.
func (s *Server) failedInReport(file, dir string) ([]FailedTest, int, error) {
	groups := newFailedGroups(s, dir)
	_, err := reports.ReadCTRF(file, func(t *reports.Test) error { groups.add(t); return nil })
	var ce *reports.CTRFError
	if errors.As(err, &ce) {
		ce.File = s.root.Show(file)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("reading the report back: %w", err)
	}
	failed, omitted := groups.result()
	return failed, omitted, nil
}
