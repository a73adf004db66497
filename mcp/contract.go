package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/apitest/testreport"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/suite"
)

// ContractTestInput is the input of run_contract_test.
type ContractTestInput struct {
	Specs       []string                  `json:"specs" jsonschema:"OpenAPI 2.0/3.x specifications to test, relative to the root; each one's <name>_examples folder is read too"`
	BaseURL     string                    `json:"baseUrl" jsonschema:"http(s) URL of the running service under test; without a path each operation's server prefix is added"`
	Examples    []string                  `json:"examples,omitempty" jsonschema:"further folders of external examples, relative to the root"`
	Filter      string                    `json:"filter,omitempty" jsonschema:"run only the tests this expression selects, by PATH, METHOD and STATUS: PATH='/pets/*' && METHOD=GET,POST && STATUS!=5xx"`
	Negative    bool                      `json:"negative,omitempty" jsonschema:"add requests that break the contract in one documented place each, expecting 400/422, 415 or 405"`
	MaxTests    int                       `json:"maxTests,omitempty" jsonschema:"run at most this many tests (0: all)"`
	Seed        uint64                    `json:"seed,omitempty" jsonschema:"seed of generated values: the same seed sends the same requests"`
	Credentials map[string]string         `json:"credentials,omitempty" jsonschema:"raw credentials by security scheme name (a token without Bearer, an API key, base64 of user:password); by default they are read from environment variables named after the schemes"`
	Inputs      map[string]map[string]any `json:"inputs,omitempty" jsonschema:"for Arazzo documents: the inputs of each workflow, by workflowId"`
}

// ContractTestOutput is the answer of run_contract_test.
type ContractTestOutput struct {
	Summary  TestSummary    `json:"summary"`
	Coverage []SpecCoverage `json:"coverage" jsonschema:"operations covered per specification"`
	// Failed are the failed tests in run order.
	Failed    []FailedTest `json:"failed" jsonschema:"the failed tests in run order, those that failed the same way as one entry with their count, at most 10 entries; the first 3 with their request, response and the JSON path of each problem"`
	Omitted   int          `json:"omitted,omitempty" jsonschema:"failed tests left out of this answer; the reports list them all"`
	ReportDir string       `json:"reportDir" jsonschema:"the folder of the full reports: ctrf-report.json (CTRF), junit.xml, report.html"`
	Notices   []string     `json:"notices,omitempty" jsonschema:"what the run said before it started: where an Arazzo source description's requests went when nothing gave its address"`
	Warnings  []string     `json:"warnings,omitempty" jsonschema:"what to know before trusting the result, as specgate test warns: each security scheme the tests need that has no credential (give it in credentials), whose placeholder was sent"`
}

// TestSummary counts a run's tests.
type TestSummary struct {
	Tests     int   `json:"tests"`
	Passed    int   `json:"passed"`
	Failed    int   `json:"failed"`
	Skipped   int   `json:"skipped"`
	Retries   int   `json:"retries" jsonschema:"attempts repeated after a 429"`
	ElapsedMs int64 `json:"elapsedMs"`
	// Interrupted says the run stopped before every test ran.
	Interrupted bool   `json:"interrupted,omitempty" jsonschema:"the run stopped before every test ran: it was cancelled or reached the time limit"`
	Stopped     string `json:"stopped,omitempty" jsonschema:"why the run was interrupted"`
}

// SpecCoverage is how much of one specification the run exercised.
type SpecCoverage struct {
	Spec       string `json:"spec"`
	Covered    int    `json:"covered" jsonschema:"operation rows (path, method, request type, status, response type) a test exercised"`
	Selected   int    `json:"selected" jsonschema:"rows a test of the run aimed at, after the filters"`
	Total      int    `json:"total" jsonschema:"rows the specification declares"`
	Percent    int    `json:"percent" jsonschema:"covered as a share of selected, in whole percent: the coverage the CLI and the reports print"`
	NotInSpec  int    `json:"notInSpec,omitempty" jsonschema:"responses received that the specification does not declare"`
	Operations int    `json:"operations"`
}

// FailedTest is a failed test, and the other tests that failed the same
// way (the same error, or the same problems). The first MaxDetailed
// entries of an answer show the exchange and the problems; the others say
// why in one line, their exchanges being in the reports.
type FailedTest struct {
	Test         string         `json:"test" jsonschema:"the test's title: method, path, status and content types, and its example or kind; for a workflow step, its workflow, step and operation"`
	Count        int            `json:"count" jsonschema:"the tests that failed this way, this one included"`
	Others       []string       `json:"others,omitempty" jsonschema:"the titles of the other tests that failed this way, at most 3"`
	Source       string         `json:"source,omitempty" jsonschema:"the example file, or the operation's place in the specification; for a workflow step, its place in the Arazzo document"`
	Reason       string         `json:"reason" jsonschema:"why it failed, in one line: the error (the request could not be built or sent, the step's criterion did not hold) or the first problem"`
	Request      *ShownRequest  `json:"request,omitempty" jsonschema:"the first entries only: the request sent"`
	Response     *ShownResponse `json:"response,omitempty" jsonschema:"the first entries only: the response received"`
	Problems     []TestProblem  `json:"problems,omitempty" jsonschema:"the first entries only: each check that failed and where the response breaks the contract, at most 5"`
	MoreProblems int            `json:"moreProblems,omitempty" jsonschema:"problems beyond those listed; the reports list them all"`
}

// ShownRequest is a request as an answer shows it.
type ShownRequest struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"the headers a diagnosis reads (Content-Type, Accept, Authorization masked, …); the reports keep all"`
	Body    string            `json:"body,omitempty" jsonschema:"the body, cut after 512 bytes (base64 for bytes that are not text)"`
}

// ShownResponse is a response as an answer shows it.
type ShownResponse struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"the headers a diagnosis reads (Content-Type, Location, Allow, Retry-After, …); the reports keep all"`
	Body    string            `json:"body,omitempty" jsonschema:"the body, cut after 512 bytes"`
}

// TestProblem is a failed check, or one place where a response breaks the
// contract.
type TestProblem struct {
	Check   string `json:"check,omitempty" jsonschema:"the check that failed, e.g. response_schema_conformance"`
	Message string `json:"message"`
	In      string `json:"in,omitempty" jsonschema:"the part of the response: status, header, content-type or body"`
	Path    string `json:"path,omitempty" jsonschema:"JSON path of the failing value in the body, e.g. $.items[0].id"`
	Keyword string `json:"keyword,omitempty" jsonschema:"the failing schema keyword"`
	Schema  string `json:"schema,omitempty" jsonschema:"where the broken rule is written in the specification, as file:line:col"`
}

func (s *Server) addContractTest() {
	add(s, &mcpsdk.Tool{
		Name:  ToolContractTest,
		Title: "Run contract tests",
		Description: "Contract-test a running service: send requests made from the examples and the schemas of OpenAPI 2.0 and 3.x descriptions to baseUrl and check each response " +
			"(status, headers, content type, body schema); or run the workflows of Arazzo 1.0 and 1.1 documents against it (inputs by workflowId), each step's exchange checked against its operation. " +
			"Returns the summary and the failed tests, those that failed the same way as one entry with their count, each with request, response and the JSON path of each problem, and the folder of the full reports. " +
			"Reports progress per test and stops its requests when cancelled. Same tests as `specgate test`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, nil, s.contractTest)
}

func (s *Server) contractTest(ctx context.Context, c *call, in ContractTestInput) (ContractTestOutput, error) {
	var out ContractTestOutput
	if len(in.Specs) == 0 {
		return out, errors.New("specs is empty: name at least one OpenAPI description or Arazzo document")
	}
	if _, ok := httpx.ParseHTTPURL(in.BaseURL); !ok {
		return out, fmt.Errorf("baseUrl %q is not an http(s) URL with a host, such as http://127.0.0.1:8080", in.BaseURL)
	}
	if in.MaxTests < 0 {
		return out, fmt.Errorf("maxTests must not be negative, found %d", in.MaxTests)
	}
	var paths []string
	workflows := 0
	for _, p := range in.Specs {
		abs, err := s.root.File("spec", p)
		if err != nil {
			return out, err
		}
		paths = append(paths, abs)
		if doc, err := s.loader().Open(ctx, abs); err == nil && doc.Format == spec.Arazzo {
			workflows++
		}
	}
	switch {
	case workflows > 0 && workflows < len(paths):
		return out, errors.New("specs mixes Arazzo documents and OpenAPI descriptions: test them in two calls, or run the suite of a specgate.yaml (run_suite)")
	case workflows > 0:
		return s.contractWorkflows(ctx, c, in, paths)
	case len(in.Inputs) > 0:
		return out, errors.New("inputs are the inputs of Arazzo workflows; specs names no Arazzo document")
	}
	opts := apitest.Options{BaseURL: in.BaseURL, Seed: in.Seed, Filter: in.Filter, Negative: in.Negative, MaxTests: in.MaxTests,
		Parallel: 1, Getenv: s.opts.Getenv, Loader: s.loader(), Count: true}
	for _, abs := range paths {
		opts.Specs = append(opts.Specs, apitest.SpecSource{Path: abs, Name: s.root.Show(abs), Credentials: in.Credentials})
	}
	examples, err := s.root.Folders("examples", in.Examples)
	if err != nil {
		return out, err
	}
	opts.Examples = examples
	plan, err := apitest.NewPlan(ctx, opts)
	if err != nil {
		return out, fmt.Errorf("%s", s.showErr(err))
	}
	for _, w := range plan.Warnings() {
		out.Warnings = append(out.Warnings, credentialAdvice.ReplaceAllString(s.showText(w), "give it in the input credentials, by scheme name"))
	}
	dir, err := c.reportDir()
	if err != nil {
		return out, err
	}
	sink, err := reports.NewSink(reports.DefaultOutputs(dir)...)
	if err != nil {
		return out, err
	}
	rs := testreport.NewSink(sink, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: s.opts.Version}, Kind: reports.Contract})
	collect := &failures{ctx: ctx, c: c, groups: newFailedGroups(s, s.root.Dir())}
	sum := plan.Run(ctx, collect, rs)
	if err := rs.Err(); err != nil {
		return out, fmt.Errorf("writing the reports: %w", err)
	}
	out.Summary = TestSummary{Tests: sum.Tests, Passed: sum.Passed, Failed: sum.Failed, Skipped: sum.Skipped, Retries: sum.Retries,
		ElapsedMs: sum.Elapsed.Milliseconds(), Interrupted: sum.Interrupted}
	if sum.Interrupted {
		out.Summary.Stopped = s.stopped(ctx)
	}
	out.Coverage = []SpecCoverage{}
	for i, cov := range sum.Coverage {
		covered, selected, total, missing := cov.Counts()
		sc := SpecCoverage{Spec: cov.Spec, Covered: covered, Selected: selected, Total: total, NotInSpec: missing}
		if selected > 0 {
			sc.Percent = covered * 100 / selected
		}
		if i < len(plan.Info()) {
			sc.Operations = plan.Info()[i].Operations
		}
		out.Coverage = append(out.Coverage, sc)
	}
	out.Failed, out.Omitted = collect.groups.result()
	out.ReportDir = s.root.Show(dir)
	return out, nil
}

// contractWorkflows runs the workflows of Arazzo documents against
// baseUrl, as specgate test does with Arazzo documents.
func (s *Server) contractWorkflows(ctx context.Context, c *call, in ContractTestInput, paths []string) (ContractTestOutput, error) {
	var out ContractTestOutput
	if in.Filter != "" || in.Negative || in.MaxTests > 0 || len(in.Examples) > 0 || len(in.Credentials) > 0 {
		return out, errors.New("filter, negative, maxTests, examples and credentials are for OpenAPI descriptions; an Arazzo document's steps are what runs")
	}
	inputs, err := jsonValues(in.Inputs)
	if err != nil {
		return out, fmt.Errorf("inputs: %w", err)
	}
	opts := suite.Options{Extra: paths, BaseURL: in.BaseURL, Inputs: inputs, InputsFrom: "inputs", InputsHelp: inputsHelp}
	res, err := s.suiteRun(ctx, c, opts, s.root.Dir())
	if err != nil {
		return out, err
	}
	out.Summary, out.Coverage, out.Failed, out.Omitted, out.ReportDir, out.Notices, out.Warnings = res.Summary, []SpecCoverage{}, res.Failed, res.Omitted, res.ReportDir, res.Notices, res.Warnings
	return out, nil
}

// credentialAdvice is how the CLI says to give a missing credential,
// which a caller of run_contract_test gives in its input instead.
var credentialAdvice = regexp.MustCompile(`set the environment variables? \S.*?, or give it in specgate\.yaml's securitySchemes`)

// stopped says why a run was interrupted.
func (s *Server) stopped(ctx context.Context) string {
	if timedOut(ctx) {
		return fmt.Sprintf("the time limit of %s (--tool-timeout) was reached", s.opts.Timeout)
	}
	return "cancelled by the client"
}

// failures is the sink that reports progress and, unless groups is nil,
// gathers the failed tests for the answer.
type failures struct {
	ctx    context.Context
	c      *call
	groups *failedGroups
	total  int
	done   int
}

func (f *failures) Begin(info *apitest.RunInfo) {
	f.total = info.Total
	f.c.notify(f.ctx, 0, max(f.total, 0), fmt.Sprintf("%d contract tests", f.total))
}

func (f *failures) Result(r *apitest.Result) {
	f.done++
	f.c.notify(f.ctx, f.done, max(f.total, 0), string(r.Outcome)+" "+r.Test.Title())
	if f.groups != nil && r.Outcome == apitest.Failed {
		t := testreport.Test(r)
		f.groups.add(&t)
	}
}

func (f *failures) End(*apitest.Summary) {}

// reportBody is a body of the reports as an answer shows it.
func reportBody(b *reports.Body) string {
	if b == nil {
		return ""
	}
	text := b.Text
	if text == "" {
		text = b.Base64
	}
	return truncate(text, MaxBody)
}

// jsonValues are values an input decoded as encoding/json does by default,
// with their numbers as json.Number, as the runtime packages read them.
func jsonValues(in map[string]map[string]any) (map[string]map[string]any, error) {
	if in == nil {
		return nil, nil
	}
	data, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	var out map[string]map[string]any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return out, d.Decode(&out)
}

var _ apitest.Sink = (*failures)(nil)
