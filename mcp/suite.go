package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/suite"
)

// SuiteInput is the input of run_suite.
type SuiteInput struct {
	Config  string `json:"config,omitempty" jsonschema:"the specgate.yaml declaring the suite, relative to the root; default: the one found from the root upward, if it is under the root"`
	BaseURL string `json:"testBaseUrl,omitempty" jsonschema:"URL of the services the configuration gives no address for"`
	Seed    uint64 `json:"seed,omitempty" jsonschema:"seed of generated values"`
}

// SuiteOutput is the answer of run_suite.
type SuiteOutput struct {
	Summary   TestSummary  `json:"summary"`
	Specs     int          `json:"specs" jsonschema:"OpenAPI specifications contract-tested"`
	Workflows int          `json:"workflows" jsonschema:"Arazzo workflows run"`
	Mocks     int          `json:"mocks" jsonschema:"dependencies' mock servers started for the suite (and stopped after it)"`
	Failed    []FailedTest `json:"failed" jsonschema:"the failed tests and workflow steps in run order, at most 25"`
	Omitted   int          `json:"omitted,omitempty" jsonschema:"failed tests left out of this answer; the reports list them all"`
	ReportDir string       `json:"reportDir" jsonschema:"the folder of the full reports: ctrf-report.json (CTRF), junit.xml, report.html"`
}

func (s *Server) addSuite() {
	add(s, &mcpsdk.Tool{
		Name:  ToolRunSuite,
		Title: "Run the test suite",
		Description: "Run everything a specgate.yaml declares, as `specgate run-suite` does: the dependencies' mocks start on their ports, the system under test's OpenAPI specs are contract-tested " +
			"and its Arazzo workflows run, then the mocks stop. Returns the summary, the failed tests and steps with request, response and problems, and the folder of the full reports.",
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
		if u, err := url.Parse(in.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return out, fmt.Errorf("testBaseUrl %q is not an http(s) URL with a host", in.BaseURL)
		}
	}
	cfg, err := config.Load(path, config.Options{Getenv: s.opts.Getenv})
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
	progress := &failures{ctx: ctx, c: c, s: s, progressOnly: true}
	opts := suite.Options{Config: cfg, BaseURL: in.BaseURL, Seed: in.Seed, Parallel: 1, Timeout: config.DefaultTimeout,
		Retry: httpx.DefaultRetryPolicy, Loader: s.loader(), Getenv: s.opts.Getenv, Logger: s.opts.Logger, Progress: progress}
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
		out.Summary.Interrupted, out.Summary.Stopped = true, "cancelled by the client"
		if timedOut(ctx) {
			out.Summary.Stopped = fmt.Sprintf("the time limit of %s (--tool-timeout) was reached", s.opts.Timeout)
		}
	}
	out.Specs, out.Workflows, out.Mocks = sum.Specs, sum.Workflows, sum.Mocks
	out.ReportDir = s.root.Show(dir)
	out.Failed, out.Omitted, err = s.failedInReport(filepath.Join(dir, "ctrf-report.json"))
	return out, err
}

// failedInReport reads the failed tests of a CTRF report back, the first
// MaxItems of them shown.
func (s *Server) failedInReport(file string) ([]FailedTest, int, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the report back: %w", err)
	}
	defer f.Close()
	shown, omitted := []FailedTest{}, 0
	_, err = reports.DecodeCTRF(f, func(t *reports.Test) error {
		if t.Status != reports.Failed {
			return nil
		}
		if len(shown) == MaxItems {
			omitted++
			return nil
		}
		shown = append(shown, s.reportedTest(t))
		return nil
	})
	if err != nil {
		return nil, 0, errors.New("reading the report back: " + err.Error())
	}
	return shown, omitted, nil
}

// reportedTest shows a failed test of a report with its last exchange.
func (s *Server) reportedTest(t *reports.Test) FailedTest {
	ft := FailedTest{Test: strings.Join(append(t.Suite[min(len(t.Suite), 1):], t.Name), " › "), Kind: string(t.Type), Problems: []TestProblem{}}
	if len(t.Tags) > 0 {
		ft.Kind = t.Tags[0]
	}
	if t.File != "" {
		ft.Source = s.root.Show(t.File)
		if t.Line > 0 {
			ft.Source += fmt.Sprintf(":%d", t.Line)
		}
	}
	if t.Errored || len(t.Problems) == 0 {
		ft.Error = s.showText(t.Message)
	}
	if n := len(t.Outputs); n > 0 {
		x := t.Outputs[n-1]
		ft.Request = &ShownRequest{Method: x.Request.Method, URL: x.Request.URL, Headers: joined(x.Request.Headers), Body: reportBody(x.Request.Body)}
		if x.Response != nil {
			ft.Response = &ShownResponse{Status: x.Response.Status, Headers: joined(x.Response.Headers), Body: reportBody(x.Response.Body)}
		}
	}
	for _, p := range t.Problems {
		check, msg, ok := strings.Cut(p.Message, ": ")
		if !ok || strings.ContainsAny(check, " $") {
			check, msg = "", p.Message
		}
		ft.Problems = append(ft.Problems, TestProblem{Check: check, Message: s.showText(msg), In: p.In, Path: p.Path, Keyword: p.Keyword, Schema: s.showText(p.Schema)})
	}
	return ft
}

func joined(h map[string][]string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = strings.Join(v, ", ")
	}
	return out
}

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
