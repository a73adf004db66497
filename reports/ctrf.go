package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"
)

// CTRFSpecVersion is the version of the Common Test Report Format written.
const CTRFSpecVersion = "0.0.0"

// The CTRF document (https://ctrf.io), as much of it as specgate writes.
// Every test of every run, lint or compat or contract, is encoded by
// ctrfTestOf and read back by (ctrfTest).test, so that a CTRF file holds
// all the model has of a test: the merge of shards and the html and junit
// of a streamed run are made from it.
type (
	ctrfReport struct {
		ReportFormat string      `json:"reportFormat"`
		SpecVersion  string      `json:"specVersion"`
		Timestamp    string      `json:"timestamp,omitempty"`
		GeneratedBy  string      `json:"generatedBy"`
		Results      ctrfResults `json:"results"`
	}
	ctrfResults struct {
		Tool        ctrfTool         `json:"tool"`
		Summary     ctrfSummary      `json:"summary"`
		Tests       []ctrfTest       `json:"tests"`
		Environment *ctrfEnvironment `json:"environment,omitempty"`
		Extra       any              `json:"extra,omitempty"`
	}
	ctrfTool struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
		Extra   *Tool  `json:"extra,omitempty"`
	}
	ctrfSummary struct {
		Tests    int     `json:"tests"`
		Passed   int     `json:"passed"`
		Failed   int     `json:"failed"`
		Skipped  int     `json:"skipped"`
		Pending  int     `json:"pending"`
		Other    int     `json:"other"`
		Flaky    int     `json:"flaky,omitempty"`
		Suites   int     `json:"suites,omitempty"`
		Start    int64   `json:"start"`
		Stop     int64   `json:"stop"`
		Duration int64   `json:"duration"`
		Extra    *counts `json:"extra,omitempty"`
	}
	ctrfEnvironment struct {
		ShardID string `json:"shardId,omitempty"`
	}
	ctrfTest struct {
		Name          string            `json:"name"`
		Status        Status            `json:"status"`
		Duration      int64             `json:"duration"`
		Start         int64             `json:"start,omitempty"`
		Stop          int64             `json:"stop,omitempty"`
		Suite         []string          `json:"suite,omitempty"`
		Message       string            `json:"message,omitempty"`
		Line          int               `json:"line,omitempty"`
		RawStatus     string            `json:"rawStatus,omitempty"`
		Tags          []string          `json:"tags,omitempty"`
		Labels        map[string]string `json:"labels,omitempty"`
		Type          Kind              `json:"type,omitempty"`
		FilePath      string            `json:"filePath,omitempty"`
		Retries       int               `json:"retries,omitempty"`
		RetryAttempts []ctrfAttempt     `json:"retryAttempts,omitempty"`
		Flaky         bool              `json:"flaky,omitempty"`
		Extra         ctrfExtra         `json:"extra,omitempty"`
	}
	ctrfAttempt struct {
		Attempt  int    `json:"attempt"`
		Status   Status `json:"status"`
		Duration int64  `json:"duration"`
		Message  string `json:"message,omitempty"`
		Start    int64  `json:"start,omitempty"`
		Stop     int64  `json:"stop,omitempty"`
	}
	// ctrfExchange is an Exchange as CTRF outputs hold it.
	ctrfExchange struct {
		Attempt  int       `json:"attempt,omitempty"`
		Probe    string    `json:"probe,omitempty"`
		Start    int64     `json:"start,omitempty"`
		Duration int64     `json:"duration"`
		Request  Request   `json:"request"`
		Response *Response `json:"response,omitempty"`
		Error    string    `json:"error,omitempty"`
	}
	ctrfFixture struct {
		Name     string         `json:"name"`
		Phase    string         `json:"phase"`
		Status   Status         `json:"status"`
		Start    int64          `json:"start,omitempty"`
		Duration int64          `json:"duration"`
		Message  string         `json:"message,omitempty"`
		Outputs  []ctrfExchange `json:"outputs"`
	}
	// ctrfExtra is a test's extra: the producer's Extra and the model's
	// outputs, fixtures and problems, and errored for a test that could
	// not run.
	ctrfExtra map[string]any
)

// The labels that hold a test's operation, by its five identifiers.
const (
	labelPath         = "path"
	labelMethod       = "method"
	labelRequestType  = "requestContentType"
	labelStatus       = "status"
	labelResponseType = "responseContentType"
)

// ctrfTestOf encodes a test.
func ctrfTestOf(t *Test) ctrfTest {
	c := ctrfTest{Name: t.Name, Status: t.Status, Duration: t.Duration.Milliseconds(), Suite: t.Suite, Message: t.Message,
		Line: t.Line, RawStatus: t.RawStatus, Type: t.Type, FilePath: t.File, Flaky: t.Flaky()}
	if c.Name == "" {
		c.Name = "unnamed test" // CTRF requires a name
	}
	if c.Status == "" {
		c.Status = Other
	}
	if !t.Start.IsZero() {
		c.Start = t.Start.UnixMilli()
		c.Stop = t.Start.Add(t.Duration).UnixMilli()
	}
	c.Tags = slices.Clone(t.Tags)
	if k := t.Operation; !k.IsZero() {
		c.Labels = map[string]string{}
		for _, l := range operationLabels(k) {
			if l[1] != "" {
				c.Labels[l[0]] = l[1]
				c.Tags = append(c.Tags, l[0]+":"+l[1])
			}
		}
	}
	for _, a := range t.Attempts {
		ca := ctrfAttempt{Attempt: a.Attempt, Status: a.Status, Duration: a.Duration.Milliseconds(), Message: a.Message}
		if !a.Start.IsZero() {
			ca.Start, ca.Stop = a.Start.UnixMilli(), a.Start.Add(a.Duration).UnixMilli()
		}
		c.RetryAttempts = append(c.RetryAttempts, ca)
	}
	c.Retries = len(c.RetryAttempts)
	if len(t.Extra) > 0 || t.Outputs != nil || t.Fixtures != nil || t.Problems != nil || t.Errored {
		c.Extra = make(ctrfExtra, len(t.Extra)+4)
		for k, v := range t.Extra {
			c.Extra[k] = v
		}
		if t.Errored {
			c.Extra["errored"] = true
		}
		if t.Outputs != nil {
			c.Extra["outputs"] = ctrfExchanges(t.Outputs)
		}
		if t.Fixtures != nil {
			fixtures := make([]ctrfFixture, len(t.Fixtures))
			for i, f := range t.Fixtures {
				fixtures[i] = ctrfFixture{Name: f.Name, Phase: f.Phase, Status: f.Status, Duration: f.Duration.Milliseconds(),
					Message: f.Message, Outputs: ctrfExchanges(f.Outputs)}
				if !f.Start.IsZero() {
					fixtures[i].Start = f.Start.UnixMilli()
				}
			}
			c.Extra["fixtures"] = fixtures
		}
		if t.Problems != nil {
			c.Extra["problems"] = t.Problems
		}
	}
	return c
}

func operationLabels(k OperationKey) [5][2]string {
	return [5][2]string{{labelPath, k.Path}, {labelMethod, k.Method}, {labelRequestType, k.RequestType},
		{labelStatus, k.Status}, {labelResponseType, k.ResponseType}}
}

func ctrfExchanges(xs []Exchange) []ctrfExchange {
	out := make([]ctrfExchange, len(xs))
	for i, x := range xs {
		out[i] = ctrfExchange{Attempt: x.Attempt, Probe: x.Probe, Duration: x.Duration.Milliseconds(), Request: x.Request, Response: x.Response, Error: x.Error}
		if !x.Start.IsZero() {
			out[i].Start = x.Start.UnixMilli()
		}
	}
	return out
}

// test decodes a test that ctrfTestOf encoded, or any CTRF test: what the
// model has no field for stays in Extra.
func (c *ctrfTest) test() Test {
	t := Test{Name: c.Name, Suite: c.Suite, Type: c.Type, Status: c.Status, RawStatus: c.RawStatus,
		Duration: time.Duration(c.Duration) * time.Millisecond, Message: c.Message, File: c.FilePath, Line: c.Line}
	if c.Start != 0 {
		t.Start = time.UnixMilli(c.Start)
	}
	t.Operation = OperationKey{Path: c.Labels[labelPath], Method: c.Labels[labelMethod], RequestType: c.Labels[labelRequestType],
		Status: c.Labels[labelStatus], ResponseType: c.Labels[labelResponseType]}
	derived := map[string]bool{}
	for _, l := range operationLabels(t.Operation) {
		if l[1] != "" {
			derived[l[0]+":"+l[1]] = true
		}
	}
	for _, tag := range c.Tags {
		if !derived[tag] {
			t.Tags = append(t.Tags, tag)
		}
	}
	for _, a := range c.RetryAttempts {
		ta := Attempt{Attempt: a.Attempt, Status: a.Status, Duration: time.Duration(a.Duration) * time.Millisecond, Message: a.Message}
		if a.Start != 0 {
			ta.Start = time.UnixMilli(a.Start)
		}
		t.Attempts = append(t.Attempts, ta)
	}
	for k, v := range c.Extra {
		raw, _ := v.(json.RawMessage)
		switch k {
		case "errored":
			if string(raw) == "true" {
				t.Errored = true
				continue
			}
		case "outputs":
			if xs, ok := decodeExchanges(raw); ok {
				t.Outputs = xs
				continue
			}
		case "fixtures":
			var fs []ctrfFixture
			if strictUnmarshal(raw, &fs) == nil {
				t.Fixtures = make([]Fixture, len(fs))
				for i, f := range fs {
					xs, _ := exchangesOf(f.Outputs)
					t.Fixtures[i] = Fixture{Name: f.Name, Phase: f.Phase, Status: f.Status, Duration: time.Duration(f.Duration) * time.Millisecond,
						Message: f.Message, Outputs: xs}
					if f.Start != 0 {
						t.Fixtures[i].Start = time.UnixMilli(f.Start)
					}
				}
				continue
			}
		case "problems":
			var ps []Problem
			if strictUnmarshal(raw, &ps) == nil {
				t.Problems = ps
				continue
			}
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		t.Extra[k] = decodeValue(raw)
	}
	return t
}

// extraOrder is the order of the members of a test's extra that specgate
// writes itself: the rule or the change first, the outputs last; a
// producer's own members come between, sorted.
var extraOrder = map[string]int{
	"ruleId": -20, "title": -19, "severity": -18, "category": -17, "maturity": -16, "docUrl": -15, "file": -14, "format": -13,
	"specFile": -12, "lineNumber": -11, "columnNumber": -10, "location": -9, "side": -8, "operations": -7, "ruleViolation": -6,
	"errored": -21, "outputs": 1, "fixtures": 2, "problems": 3,
}

// MarshalJSON writes the members in extraOrder.
func (e ctrfExtra) MarshalJSON() ([]byte, error) {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := extraOrder[a] - extraOrder[b]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(e[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON keeps the members of a test's extra raw, for test to
// decode.
func (e *ctrfExtra) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*e = make(ctrfExtra, len(raw))
	for k, v := range raw {
		(*e)[k] = v
	}
	return nil
}

func decodeExchanges(raw json.RawMessage) ([]Exchange, bool) {
	var cs []ctrfExchange
	if strictUnmarshal(raw, &cs) != nil {
		return nil, false
	}
	return exchangesOf(cs)
}

func exchangesOf(cs []ctrfExchange) ([]Exchange, bool) {
	xs := make([]Exchange, len(cs))
	for i, c := range cs {
		xs[i] = Exchange{Attempt: c.Attempt, Probe: c.Probe, Duration: time.Duration(c.Duration) * time.Millisecond, Request: c.Request, Response: c.Response, Error: c.Error}
		if c.Start != 0 {
			xs[i].Start = time.UnixMilli(c.Start)
		}
	}
	return xs, true
}

// strictUnmarshal decodes data into v, refusing members v has no field
// for: outputs that are not exchanges (lint's findings) stay raw.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// decodeValue decodes a JSON value as the runtime packages hold them
// (numbers as json.Number).
func decodeValue(raw json.RawMessage) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// ctrfHeader is the part of a report before its tests.
func ctrfHeader(run *Run) ctrfReport {
	rep := ctrfReport{ReportFormat: "CTRF", SpecVersion: CTRFSpecVersion, GeneratedBy: run.Tool.Name,
		Results: ctrfResults{Tool: ctrfTool{Name: run.Tool.Name, Version: run.Tool.Version}, Tests: []ctrfTest{}}}
	if rep.GeneratedBy == "" {
		rep.GeneratedBy, rep.Results.Tool.Name = "specgate", "specgate"
	}
	if run.Kind == Lint || run.Kind == Validate {
		tool := run.Tool
		rep.Results.Tool.Extra = &tool
	}
	if !run.Start.IsZero() {
		rep.Timestamp = run.Start.UTC().Format(time.RFC3339)
	}
	return rep
}

// setTimes sets the summary's start, stop and duration from the run.
func (s *ctrfSummary) setTimes(start time.Time, elapsed time.Duration) {
	if start.IsZero() {
		return
	}
	s.Start = start.UnixMilli()
	s.Stop = start.Add(elapsed).UnixMilli()
	s.Duration = elapsed.Milliseconds()
}

// WriteCTRF writes a CTRF report of the run: its findings as tests (see
// fileTests) and its Tests, with a summary and, in results.extra, what the
// run adds: lint's per-file summary with maturity, compat's verdicts, a
// test run's coverage metrics.
func WriteCTRF(w io.Writer, run *Run) error {
	if run.Files == nil && (run.Tests != nil || run.Coverage != nil) {
		return writeTests(w, run, ctrfStream)
	}
	rep := ctrfHeader(run)
	sum := &rep.Results.Summary
	for i := range run.Files {
		tests := run.fileTests(&run.Files[i])
		for j := range tests {
			rep.Results.Tests = append(rep.Results.Tests, ctrfTestOf(&tests[j]))
		}
	}
	var ts TestSummary
	for i := range rep.Results.Tests {
		t := &rep.Results.Tests[i]
		ts.add(&Test{Status: t.Status})
	}
	sum.Tests, sum.Passed, sum.Failed, sum.Skipped, sum.Pending, sum.Other = ts.Tests, ts.Passed, ts.Failed, ts.Skipped, ts.Pending, ts.Other
	sum.setTimes(run.Start, run.Elapsed)
	if run.Compat != nil {
		rep.Results.Extra = compatCTRFExtra(run)
	} else {
		s := Summarize(run.Files)
		sum.Suites = len(run.Files)
		sum.Extra = &counts{s.Errors, s.Warnings}
		rep.Results.Extra = ctrfFiles{Errors: s.Errors, Warnings: s.Warnings, Files: s.PerFile}
	}
	return WriteIndentedJSON(w, rep)
}

// ctrfFiles is the results.extra of a lint run.
type ctrfFiles struct {
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	Files    []FileSummary `json:"files"`
}

// compatCTRFExtra is the results.extra of a compat run: the mode, base and
// each specification's verdict in outputs.
func compatCTRFExtra(run *Run) map[string]any {
	type verdict struct {
		Spec    string `json:"spec"`
		Base    string `json:"base"`
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	outputs := []verdict{}
	for i := range run.Files {
		v := run.Files[i].Verdict
		outputs = append(outputs, verdict{run.Files[i].Name, v.Base, v.Verdict, v.Reason, v.Message})
	}
	extra := map[string]any{"mode": run.Compat.Mode, "base": run.Compat.Base, "strict": run.Compat.Strict, "outputs": outputs}
	if run.Compat.Commit != "" {
		extra["commit"] = run.Compat.Commit
	}
	return extra
}

// ctrfWriter writes a CTRF report a test at a time: the header, each test
// as it comes, then the summary and the coverage, which only the end
// knows. JSON members have no order, so the summary after the tests is
// still CTRF.
type ctrfWriter struct {
	*jsonPieces
}

func newCTRFWriter(w io.Writer, run *Run) (*ctrfWriter, error) {
	c := &ctrfWriter{newJSONPieces(w)}
	h := ctrfHeader(run)
	c.bw.WriteString("{\n  \"reportFormat\": \"CTRF\",\n  \"specVersion\": \"" + CTRFSpecVersion + "\",\n")
	if h.Timestamp != "" {
		c.bw.WriteString("  \"timestamp\": \"" + h.Timestamp + "\",\n")
	}
	c.bw.WriteString("  \"generatedBy\": ")
	if err := c.value(h.GeneratedBy, "  "); err != nil {
		return nil, err
	}
	c.bw.WriteString(",\n  \"results\": {\n    \"tool\": ")
	if err := c.value(h.Results.Tool, "    "); err != nil {
		return nil, err
	}
	if run.Shard != "" {
		c.bw.WriteString(",\n    \"environment\": ")
		if err := c.value(ctrfEnvironment{ShardID: run.Shard}, "    "); err != nil {
			return nil, err
		}
	}
	c.bw.WriteString(",\n    \"tests\": [")
	return c, nil
}

func (c *ctrfWriter) add(t *Test) error {
	return c.item(ctrfTestOf(t), "      ")
}

func (c *ctrfWriter) end(run *Run, s TestSummary, cov []Coverage) error {
	c.endItems("    ")
	c.bw.WriteString("],\n    \"summary\": ")
	sum := ctrfSummary{Tests: s.Tests, Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, Pending: s.Pending, Other: s.Other,
		Flaky: s.Flaky, Suites: s.Suites}
	if !s.Start.IsZero() {
		sum.setTimes(s.Start, s.Stop.Sub(s.Start))
	}
	if err := c.value(sum, "    "); err != nil {
		return err
	}
	c.bw.WriteString(",\n    \"extra\": ")
	extra := map[string]any{"coverageMetrics": coverageReports(cov)}
	if run.Kind != "" {
		extra["kind"] = run.Kind
	}
	if err := c.value(extra, "    "); err != nil {
		return err
	}
	c.bw.WriteString("\n  }\n}\n")
	return c.bw.Flush()
}

// CoverageReport is one specification's coverage as the CTRF report
// (results.extra.coverageMetrics) and the json report write it: the
// counts, then a status per operation.
type CoverageReport struct {
	CoverageMetrics
	Operations []CoverageRow `json:"operations"`
}

func coverageReports(cov []Coverage) []CoverageReport {
	out := make([]CoverageReport, len(cov))
	for i := range cov {
		out[i] = CoverageReport{CoverageMetrics: cov[i].Metrics(), Operations: cov[i].Operations}
		if out[i].Operations == nil {
			out[i].Operations = []CoverageRow{}
		}
	}
	return out
}

// suiteName is a test's suite path as one name, for junit.
func suiteName(suite []string) string {
	return strings.Join(suite, " › ")
}
