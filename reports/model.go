package reports

import (
	"encoding/base64"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/spec"
)

// Kind says what produced a run, a finding or a test.
type Kind string

const (
	Lint     Kind = "lint"
	Validate Kind = "validate"
	Compat   Kind = "backward-compatibility"
	// Contract is a contract test run (specgate test): requests sent to a
	// service and its responses checked against the specification.
	Contract Kind = "contract"
	// StubUsage is the mock's report of which operations and examples were
	// hit, one test per operation.
	StubUsage Kind = "stub-usage"
	// Workflow is a run of Arazzo workflows (run-suite).
	Workflow Kind = "workflow"
)

// Run is one run of a command: who ran, when, and what it found (Files and
// their Findings: lint, validate, compat) or tested (Tests and Coverage:
// test, mock, run-suite). Writers read nothing else.
type Run struct {
	Tool Tool
	Kind Kind
	// Start is when the run began; the zero time leaves timestamps out.
	Start time.Time
	// Elapsed is how long the run took; zero leaves durations out.
	Elapsed time.Duration
	// Dir is the absolute folder that relative file names are relative to
	// (the working directory), and Root the repository root that SARIF and
	// GitHub annotations make paths relative to. With Root empty, file names
	// are written as given.
	Dir, Root string
	// Color paints the text formats with ANSI colours.
	Color bool
	// Shard names the part of a sharded run this one is, "2/4"; the CTRF
	// report carries it (results.environment.shardId).
	Shard string
	// FailSeverity is the lowest severity that fails the run
	// (--fail-severity): junit and ctrf fail a test when it has a finding
	// at or above it. Findings that carry a Change decide for themselves.
	FailSeverity level.Severity

	// Rules are the rules that ran, with their severity in this run, sorted
	// by id. Reports that list rules (sarif, junit, ctrf, html) read
	// titles, descriptions and how-to-fix text from here.
	Rules []Rule
	// Pipeline documents the findings a run reports without a rule behind
	// them (lint's load-error and eval-timeout). They are listed only when
	// they occur, and they always fail.
	Pipeline []Rule
	// Files are the inputs judged, in input order, each with its findings.
	Files []File
	// Compat describes a backward-compatibility run; nil for others.
	Compat *CompatRun

	// Tests are the results of a test run held in memory. A run with many
	// tests goes through a Sink instead, which writes them as they come.
	Tests []Test
	// Coverage is, per specification, what the tests covered.
	Coverage []Coverage
}

// Tool names the program and the rules that ran. Its JSON is the lint
// report's "tool" object.
type Tool struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Ruleset   string `json:"ruleset,omitempty"`
	Profile   string `json:"profile,omitempty"`
	RuleCount int    `json:"ruleCount"`
	// Skipped lists the custom rules left out because a function they use
	// has no Rego implementation (lint --skip-missing-functions).
	Skipped []SkippedRule `json:"skippedRules,omitempty"`
}

// SkippedRule is a custom rule that did not run, and why.
type SkippedRule struct {
	Rule     string `json:"rule"`
	Function string `json:"function"`
	Reason   string `json:"reason"`
}

// Rule is a rule that ran, with its documentation and its severity in the
// run.
type Rule struct {
	ID, Title, Description, HowToFix string
	Category, Maturity, Family       string
	// Formats are the format tags the rule applies to (oas3, asyncapi, …).
	Formats  []string
	Severity level.Severity
	DocURL   string
}

// AppliesTo reports whether the rule runs on a document with these format
// tags.
func (r *Rule) AppliesTo(tags []string) bool {
	for _, f := range r.Formats {
		for _, t := range tags {
			if f == t {
				return true
			}
		}
	}
	return false
}

// File is one input a run judged: a specification (lint, validate) or a
// revision compared with its base (compat).
type File struct {
	Name   string // as the user named it
	Format string // "OpenAPI 3.1.0"; empty when it did not load
	// Loaded is false when the file could not be read, parsed or judged in
	// full; a finding says why.
	Loaded   bool
	Findings []Finding
	// Operations are the file's operations, for the html report's
	// operations table; nil leaves the table out.
	Operations []Operation
	// Verdict is the outcome of a compat check; nil for other runs.
	Verdict *Verdict
}

// Maturity is the level a loaded file reaches: from its error findings,
// by the maturity of their rules. A file that did not load has none.
func (f *File) Maturity() (level.Maturity, bool) {
	if !f.Loaded {
		return level.Maturity{}, false
	}
	return level.Reach(func(yield func(string) bool) {
		for i := range f.Findings {
			if f.Findings[i].Severity == level.Error && !yield(f.Findings[i].Maturity) {
				return
			}
		}
	}), true
}

// Finding is one problem at one place: a lint diagnostic, a validation
// error, a compatibility change (the run's Kind says which).
type Finding struct {
	Rule     string
	Severity level.Severity
	Message  string
	Category string
	Maturity string
	// File is where the finding is written (a $ref'd file, not always the
	// input); Pointer is the JSON pointer within it and Range its 1-based
	// position (a zero line: no position).
	File    string
	Pointer string
	Range   spec.Range
	DocURL  string
	// Change holds what a compatibility finding adds; nil for others.
	Change *Change
}

// Location is "file:line:col", or the file alone without a position.
func (f *Finding) Location() string { return location(f.File, f.Range) }

// Change is what a compatibility finding says beyond its rule and place.
type Change struct {
	Level string // breaking, warning or info
	// Fails is whether the change fails the check (breaking, or a warning
	// in strict mode).
	Fails      bool
	Why        string   // what the change does to consumers
	Operations []string // the operations it affects, "GET /pets"
	// Side is the version the change is located in: "revision", or "base"
	// for what the revision no longer has.
	Side string
	// Base and Revision place the change in each version, nil where no
	// place is known; the one of Side is the finding's own place, the other
	// is where that version writes what changed (or its nearest part that
	// is written).
	Base, Revision *Place
}

// Place is a position in a file: a finding's, or a change's in one
// version.
type Place struct {
	File    string
	Pointer string
	Range   spec.Range
}

// Location is "file:line:col", or the file alone without a position.
func (p *Place) Location() string { return location(p.File, p.Range) }

// location is a finding's or a place's "file:line:col", or the file alone
// when r has no position.
func location(file string, r spec.Range) string {
	if r.Start.Line == 0 {
		return file
	}
	return file + ":" + strconv.Itoa(int(r.Start.Line)) + ":" + strconv.Itoa(int(r.Start.Col))
}

// Other is the change's place in the version it is not located in, and
// that version's name ("base" or "revision"); nil when unknown.
func (c *Change) Other() (*Place, string) {
	if c.Side == "base" {
		return c.Revision, "revision"
	}
	return c.Base, "base"
}

// Verdict is the outcome of comparing one specification with its base.
type Verdict struct {
	Verdict string // compatible, incompatible, error, skipped
	Reason  string
	Message string
	// Base names what the revision was compared with (a branch, or the base
	// file), BaseFile the base's file ("" when the base has none).
	Base, BaseFile string
}

// CompatRun is what a backward-compatibility run adds to a Run.
type CompatRun struct {
	Mode   string // files or git
	Base   string // the base branch in git mode, the base file otherwise
	Commit string // git mode: the commit the base was read from
	Strict bool
	// ShowInfo lists info-level changes in the text and html formats.
	ShowInfo bool
	Verdict  string
	Totals   CompatTotals
}

// CompatTotals counts verdicts and change levels over a compat run.
type CompatTotals struct {
	Specs        int `json:"specs"`
	Compatible   int `json:"compatible"`
	Incompatible int `json:"incompatible"`
	Errors       int `json:"errors"`
	Skipped      int `json:"skipped"`
	Breaking     int `json:"breaking"`
	Warnings     int `json:"warnings"`
	Info         int `json:"info"`
}

// Status is the outcome of a test, as CTRF names them.
type Status string

const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
	Pending Status = "pending"
	Other   Status = "other"
)

// Statuses lists every status, in the order summaries count them.
var Statuses = []Status{Passed, Failed, Skipped, Pending, Other}

// OperationKey is the five identifiers report tables group OpenAPI
// operations by. Empty fields: no request body, no response content.
type OperationKey struct {
	Path         string `json:"path,omitempty"`
	Method       string `json:"method,omitempty"` // upper case
	RequestType  string `json:"requestContentType,omitempty"`
	Status       string `json:"status,omitempty"` // "200", "4XX", "default"
	ResponseType string `json:"responseContentType,omitempty"`
}

// IsZero reports whether the key names no operation.
func (k OperationKey) IsZero() bool { return k == OperationKey{} }

// Test is one test result: a contract test of one request, a stub's usage,
// a workflow step, or (in the junit and ctrf formats) a rule judged on a
// file.
type Test struct {
	Name  string
	Suite []string // from the top-level suite to the test's own
	// Type is what kind of test it is: a Kind, usually the run's.
	Type   Kind
	Status Status
	// Errored marks a test that could not run to a verdict (its file did not
	// load, its request could not be sent): junit writes an error rather
	// than a failure.
	Errored   bool
	RawStatus string // the producer's own word for the outcome
	Start     time.Time
	Duration  time.Duration
	Message   string
	File      string // the specification the test comes from
	Line      int
	Tags      []string
	// Operation is the operation tested, by its five identifiers.
	Operation OperationKey
	// Outputs are the HTTP exchanges of the test, one per attempt, in
	// order.
	Outputs []Exchange
	// Attempts are the attempts before the final one (retries), whose
	// outcome the test's own fields give.
	Attempts []Attempt
	// Fixtures ran before and after the test, with their own exchanges.
	Fixtures []Fixture
	// Problems are what the checks found wrong with the response (or the
	// request, for the mock).
	Problems []Problem
	// Extra is anything else the producer wants in the reports; its values
	// must encode as JSON (json.Number, string, bool, nil, []any,
	// map[string]any, or types of this package).
	Extra map[string]any
}

// Flaky reports whether the test passed after failed attempts.
func (t *Test) Flaky() bool {
	if t.Status != Passed {
		return false
	}
	for _, a := range t.Attempts {
		if a.Status == Failed {
			return true
		}
	}
	return false
}

// Exchange is one HTTP request and what came back: a response, or the
// error that kept one from coming.
type Exchange struct {
	Attempt int // 1-based; 0 for a probe
	// Probe says which check sent a further request and why
	// ("ignored_auth: the request again, without its credentials"); ""
	// for an attempt of the test's own request.
	Probe    string
	Start    time.Time
	Duration time.Duration
	Request  Request
	Response *Response
	Error    string
}

// Request is a request as sent.
type Request struct {
	Method  string              `json:"method"`
	URL     string              `json:"url"`
	Headers map[string][]string `json:"headers,omitempty"`
	Body    *Body               `json:"body,omitempty"`
}

// Response is a response as received.
type Response struct {
	Status  int                 `json:"status"`
	Headers map[string][]string `json:"headers,omitempty"`
	Body    *Body               `json:"body,omitempty"`
}

// Body is a request or response body as reports keep it: UTF-8 text as it
// is, other bytes in base64, at most MaxBody bytes of either.
type Body struct {
	Text   string `json:"text,omitempty"`
	Base64 string `json:"base64,omitempty"`
	// Size is the body's full size in bytes; Truncated says that only its
	// first MaxBody bytes are kept.
	Size      int  `json:"size"`
	Truncated bool `json:"truncated,omitempty"`
}

// MaxBody is the most of a body a report keeps.
const MaxBody = 64 << 10

// BodyOf keeps a body for a report (nil for an empty one): its first
// MaxBody bytes, as text when they are UTF-8 (a character cut at the limit
// is dropped), else in base64.
func BodyOf(data []byte) *Body {
	if len(data) == 0 {
		return nil
	}
	b := &Body{Size: len(data)}
	kept := data
	if len(kept) > MaxBody {
		kept, b.Truncated = kept[:MaxBody], true
		for i := 0; i < utf8.UTFMax && len(kept) > 0 && !utf8.Valid(kept); i++ {
			kept = kept[:len(kept)-1]
		}
	}
	if utf8.Valid(kept) {
		b.Text = string(kept)
	} else {
		b.Base64 = base64.StdEncoding.EncodeToString(data[:min(len(data), MaxBody)])
	}
	return b
}

// Attempt is one try of a test before its final one.
type Attempt struct {
	Attempt  int // 1-based
	Status   Status
	Start    time.Time
	Duration time.Duration
	Message  string
}

// Fixture is a fixture of a test: requests run before it (to set up data)
// or after it (to clean up).
type Fixture struct {
	Name     string
	Phase    string // before or after
	Status   Status
	Start    time.Time
	Duration time.Duration
	Message  string
	Outputs  []Exchange
}

// Problem is one thing a check found wrong with a value.
type Problem struct {
	// In says what was checked: "body", "header X-Rate-Limit", "status".
	In string `json:"in,omitempty"`
	// Path is the JSON path of the failing value within a body
	// ("$.items[0].id", as schema.JSONPath writes it); "" for the value
	// itself or what has no path.
	Path    string `json:"path,omitempty"`
	Keyword string `json:"keyword,omitempty"`
	Message string `json:"message"`
	// Schema is where the broken rule is written in the specification:
	// "file:line:col".
	Schema string `json:"schema,omitempty"`
}

// CoverageStatus is what the tests of a run did with an operation, by its
// five identifiers (path, method, request content type, response status,
// response content type).
type CoverageStatus string

const (
	// Covered: the service answered a test with this response (or the
	// mock was asked for the operation).
	Covered CoverageStatus = "covered"
	// NotCovered: a test of the run aimed at it (after the filters), but
	// the service's answer matched another response, or none came (the
	// request could not be sent, the test was skipped, or it ran in
	// another shard or beyond --max-tests); for the mock, never requested.
	NotCovered CoverageStatus = "not covered"
	// NotTested: no test of the run aimed at it: the filters left its
	// tests out, or it has none (a 4xx without an example, without
	// --negative).
	NotTested CoverageStatus = "not tested"
	// MissingInSpec: the service answered with a status, content type or
	// path the specification does not declare.
	MissingInSpec CoverageStatus = "missing in spec"
)

// Coverage is what the tests of a run covered in one specification.
type Coverage struct {
	Spec       string
	Operations []CoverageRow
}

// CoverageRow is one operation, by its five identifiers, and what the
// tests did with it.
type CoverageRow struct {
	OperationKey
	Status CoverageStatus `json:"coverage"`
	Tests  int            `json:"tests"` // tests that exercised it
}

// CoverageMetrics count a specification's operations (by path and method,
// whatever the rows of its coverage).
type CoverageMetrics struct {
	Spec string `json:"specFile"`
	// Operations with a covered row; operations with a row left after the
	// filters (covered or not covered); operations the specification
	// declares; rows of answers it does not declare.
	Covered       int `json:"coveredOperations"`
	AfterFilters  int `json:"operationsAfterFilters"`
	Total         int `json:"totalOperations"`
	MissingInSpec int `json:"missingInSpec"`
}

// Metrics counts the coverage's operations.
func (c *Coverage) Metrics() CoverageMetrics {
	m := CoverageMetrics{Spec: c.Spec}
	type op struct{ path, method string }
	best := map[op]CoverageStatus{}
	var order []op
	for _, row := range c.Operations {
		if row.Status == MissingInSpec {
			m.MissingInSpec++
			continue
		}
		k := op{row.Path, row.Method}
		prev, seen := best[k]
		if !seen {
			order = append(order, k)
		}
		if !seen || coverageRank(row.Status) > coverageRank(prev) {
			best[k] = row.Status
		}
	}
	for _, k := range order {
		m.Total++
		switch best[k] {
		case Covered:
			m.Covered++
			m.AfterFilters++
		case NotCovered:
			m.AfterFilters++
		}
	}
	return m
}

// coverageRank orders the statuses of an operation's rows: a run (or a
// shard of it) that covered one covers it.
func coverageRank(s CoverageStatus) int {
	switch s {
	case Covered:
		return 3
	case NotCovered:
		return 2
	case NotTested:
		return 1
	}
	return 0
}

// TestSummary counts the tests of a run by status.
type TestSummary struct {
	Tests, Passed, Failed, Skipped, Pending, Other, Flaky int
	// Suites counts the distinct suites of the tests.
	Suites      int
	Start, Stop time.Time
}

// add counts a test.
func (s *TestSummary) add(t *Test) {
	s.Tests++
	switch t.Status {
	case Passed:
		s.Passed++
	case Failed:
		s.Failed++
	case Skipped:
		s.Skipped++
	case Pending:
		s.Pending++
	default:
		s.Other++
	}
	if t.Flaky() {
		s.Flaky++
	}
}
