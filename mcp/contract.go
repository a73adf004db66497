package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/apitest/testreport"
	"github.com/specgate/specgate/reports"
)

// ContractTestInput is the input of run_contract_test.
type ContractTestInput struct {
	Specs       []string          `json:"specs" jsonschema:"OpenAPI 2.0/3.x specifications to test, relative to the root; each one's <name>_examples folder is read too"`
	BaseURL     string            `json:"baseUrl" jsonschema:"http(s) URL of the running service under test; without a path each operation's server prefix is added"`
	Examples    []string          `json:"examples,omitempty" jsonschema:"further folders of external examples, relative to the root"`
	Filter      string            `json:"filter,omitempty" jsonschema:"run only the tests this expression selects, by PATH, METHOD and STATUS: PATH='/pets/*' && METHOD=GET,POST && STATUS!=5xx"`
	Negative    bool              `json:"negative,omitempty" jsonschema:"add requests that break the contract in one documented place each, expecting 400/422, 415 or 405"`
	MaxTests    int               `json:"maxTests,omitempty" jsonschema:"run at most this many tests (0: all)"`
	Seed        uint64            `json:"seed,omitempty" jsonschema:"seed of generated values: the same seed sends the same requests"`
	Credentials map[string]string `json:"credentials,omitempty" jsonschema:"raw credentials by security scheme name (a token without Bearer, an API key, base64 of user:password); by default they are read from environment variables named after the schemes"`
}

// ContractTestOutput is the answer of run_contract_test.
type ContractTestOutput struct {
	Summary  TestSummary    `json:"summary"`
	Coverage []SpecCoverage `json:"coverage" jsonschema:"operations covered per specification"`
	// Failed are the failed tests in run order.
	Failed    []FailedTest `json:"failed" jsonschema:"the failed tests in run order, at most 25, each with its request, its response and the JSON path of each problem"`
	Omitted   int          `json:"omitted,omitempty" jsonschema:"failed tests left out of this answer; the reports list them all"`
	ReportDir string       `json:"reportDir" jsonschema:"the folder of the full reports: ctrf-report.json (CTRF), junit.xml, report.html"`
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
	Selected   int    `json:"selected" jsonschema:"rows left after the filters"`
	Total      int    `json:"total" jsonschema:"rows the specification declares"`
	NotInSpec  int    `json:"notInSpec,omitempty" jsonschema:"responses received that the specification does not declare"`
	Operations int    `json:"operations"`
}

// FailedTest is one failed test.
type FailedTest struct {
	Test     string         `json:"test" jsonschema:"the test's title: method, path, status and content types, and its example or kind"`
	Kind     string         `json:"kind" jsonschema:"example, generated or negative"`
	Source   string         `json:"source,omitempty" jsonschema:"the example file, or the operation's place in the specification"`
	Error    string         `json:"error,omitempty" jsonschema:"why no response was checked: the request could not be built or sent"`
	Request  *ShownRequest  `json:"request,omitempty"`
	Response *ShownResponse `json:"response,omitempty"`
	Problems []TestProblem  `json:"problems" jsonschema:"each check that failed, and where the response breaks the contract"`
}

// ShownRequest is a request as an answer shows it.
type ShownRequest struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"headers sent, credentials masked"`
	Body    string            `json:"body,omitempty" jsonschema:"the body, cut after 2 KiB (base64 for bytes that are not text)"`
}

// ShownResponse is a response as an answer shows it.
type ShownResponse struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty" jsonschema:"the body, cut after 2 KiB"`
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
		Description: "Contract-test a running service against OpenAPI specifications: send requests made from the examples and the schemas to baseUrl and check each response " +
			"(status, headers, content type, body schema). Returns the summary, the failed tests with request, response and the JSON path of each problem, and the folder of the full reports. " +
			"Reports progress per test and stops its requests when cancelled. Same tests as `specgate test`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, nil, s.contractTest)
}

func (s *Server) contractTest(ctx context.Context, c *call, in ContractTestInput) (ContractTestOutput, error) {
	var out ContractTestOutput
	if len(in.Specs) == 0 {
		return out, errors.New("specs is empty: name at least one OpenAPI specification")
	}
	u, err := url.Parse(in.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return out, fmt.Errorf("baseUrl %q is not an http(s) URL with a host, such as http://127.0.0.1:8080", in.BaseURL)
	}
	if in.MaxTests < 0 {
		return out, fmt.Errorf("maxTests must not be negative, found %d", in.MaxTests)
	}
	opts := apitest.Options{BaseURL: in.BaseURL, Seed: in.Seed, Filter: in.Filter, Negative: in.Negative, MaxTests: in.MaxTests,
		Parallel: 1, Getenv: s.opts.Getenv, Loader: s.loader(), Count: true}
	for _, p := range in.Specs {
		abs, err := s.root.File("spec", p)
		if err != nil {
			return out, err
		}
		opts.Specs = append(opts.Specs, apitest.SpecSource{Path: abs, Name: s.root.Show(abs), Credentials: in.Credentials})
	}
	for _, d := range in.Examples {
		abs, err := s.root.Folder("examples", d)
		if err != nil {
			return out, err
		}
		opts.Examples = append(opts.Examples, abs)
	}
	plan, err := apitest.NewPlan(ctx, opts)
	if err != nil {
		return out, fmt.Errorf("%s", s.showErr(err))
	}
	dir, err := c.reportDir()
	if err != nil {
		return out, err
	}
	sink, err := reports.NewSink(reports.DefaultOutputs(dir)...)
	if err != nil {
		return out, err
	}
	rs := testreport.NewSink(sink, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: s.opts.Version}})
	collect := &failures{ctx: ctx, c: c, s: s}
	sum := plan.Run(ctx, collect, rs)
	if err := rs.Err(); err != nil {
		return out, fmt.Errorf("writing the reports: %w", err)
	}
	out.Summary = TestSummary{Tests: sum.Tests, Passed: sum.Passed, Failed: sum.Failed, Skipped: sum.Skipped, Retries: sum.Retries,
		ElapsedMs: sum.Elapsed.Milliseconds(), Interrupted: sum.Interrupted}
	if sum.Interrupted {
		out.Summary.Stopped = "cancelled by the client"
		if timedOut(ctx) {
			out.Summary.Stopped = fmt.Sprintf("the time limit of %s (--tool-timeout) was reached", s.opts.Timeout)
		}
	}
	out.Coverage = []SpecCoverage{}
	for i, cov := range sum.Coverage {
		covered, selected, total, missing := cov.Counts()
		sc := SpecCoverage{Spec: cov.Spec, Covered: covered, Selected: selected, Total: total, NotInSpec: missing}
		if i < len(plan.Info()) {
			sc.Operations = plan.Info()[i].Operations
		}
		out.Coverage = append(out.Coverage, sc)
	}
	out.Failed, out.Omitted = collect.failed, collect.omitted
	if out.Failed == nil {
		out.Failed = []FailedTest{}
	}
	out.ReportDir = s.root.Show(dir)
	return out, nil
}

// failures is the sink that reports progress and keeps the first failed
// tests for the answer (unless progressOnly).
type failures struct {
	ctx          context.Context
	c            *call
	s            *Server
	progressOnly bool
	total        int
	done         int
	failed       []FailedTest
	omitted      int
}

func (f *failures) Begin(info *apitest.RunInfo) {
	f.total = info.Total
	f.c.notify(f.ctx, 0, max(f.total, 0), fmt.Sprintf("%d tests", f.total))
}

func (f *failures) Result(r *apitest.Result) {
	f.done++
	f.c.notify(f.ctx, f.done, max(f.total, 0), string(r.Outcome)+" "+r.Test.Title())
	if r.Outcome != apitest.Failed || f.progressOnly {
		return
	}
	if len(f.failed) == MaxItems {
		f.omitted++
		return
	}
	f.failed = append(f.failed, f.s.failedTest(r))
}

func (f *failures) End(*apitest.Summary) {}

// failedTest shows a failed test with its last attempt.
func (s *Server) failedTest(r *apitest.Result) FailedTest {
	t := r.Test
	ft := FailedTest{Test: t.Title(), Kind: t.Kind.String(), Source: s.showText(t.Source), Error: s.showText(r.Error), Problems: []TestProblem{}}
	if n := len(r.Attempts); n > 0 {
		x := r.Attempts[n-1]
		ft.Request = &ShownRequest{Method: x.Request.Method, URL: x.Request.URL, Headers: headers(x.Request.Headers), Body: bodyText(x.Request.Body)}
		if x.Response != nil {
			ft.Response = &ShownResponse{Status: x.Response.Status, Headers: headers(x.Response.Headers), Body: bodyText(x.Response.Body)}
		}
	}
	for _, fl := range r.Failures {
		if len(fl.Problems) == 0 {
			ft.Problems = append(ft.Problems, TestProblem{Check: fl.Check, Message: s.showText(fl.Message)})
			continue
		}
		for _, p := range fl.Problems {
			in := p.In
			if p.Key != "" {
				in += " " + p.Key
			}
			ft.Problems = append(ft.Problems, TestProblem{Check: fl.Check, Message: s.showText(p.Message), In: in, Path: p.Path, Keyword: p.Keyword, Schema: s.showText(p.Schema)})
		}
	}
	return ft
}

func headers(hs []apitest.Header) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	m := make(map[string]string, len(hs))
	for _, h := range hs {
		if v, ok := m[h.Name]; ok {
			m[h.Name] = v + ", " + h.Value
		} else {
			m[h.Name] = h.Value
		}
	}
	return m
}

func bodyText(b *apitest.Body) string {
	if b == nil {
		return ""
	}
	text := b.Text
	if text == "" {
		text = b.Base64
	}
	return truncate(text, MaxBody)
}

var _ apitest.Sink = (*failures)(nil)
