package apitest

import (
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Outcome is a test's verdict, in CTRF's words.
type Outcome string

const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped"
)

// Result is what one test did: every exchange, the checks that failed,
// the fixtures around it. Secrets are masked in everything it holds.
type Result struct {
	Test    *Test
	Outcome Outcome
	// Failures are the checks that failed, in the order they ran; empty
	// when the test passed.
	Failures []Failure
	// Error says why no response was checked: the request could not be
	// built or sent (a network error, a timeout, a fixture that failed).
	Error string
	// SkipReason says why a skipped test did not run.
	SkipReason string
	// Attempts are the test's request and response, one per attempt: more
	// than one when the service answered 429 and the request was retried.
	Attempts []Exchange
	// Probes are the further exchanges checks made (ignored_auth sends the
	// request again without credentials).
	Probes []Exchange
	// Fixtures are the before and after fixtures of an example, in the
	// order they ran.
	Fixtures []FixtureResult
	Start    time.Time
	Duration time.Duration
	// Status is the status of the last attempt's response; 0 without one.
	Status int
	// ResponseType is the response's media type as received (without
	// parameters); "" without a body.
	ResponseType string
	// Matched is the response of the spec the status matched: "200",
	// "4XX" or "default"; "" when the spec declares no response for it.
	Matched string
	// Checks lists the checks that ran, by name.
	Checks []string

	// contentType is the response's Content-Type as received.
	contentType string
}

// Retries is the number of attempts after the first.
func (r *Result) Retries() int { return max(len(r.Attempts)-1, 0) }

// Message sums the result up in one paragraph: the error, or each
// failure on its line.
func (r *Result) Message() string {
	switch {
	case r.Error != "":
		return r.Error
	case r.Outcome == Skipped:
		return r.SkipReason
	}
	var b strings.Builder
	for i, f := range r.Failures {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.Check)
		b.WriteString(": ")
		b.WriteString(f.text())
	}
	return b.String()
}

// text is the failure's message with its problems, each said once: a
// failure whose message is its one problem's is one line, with the
// problem's place; one of several problems is a count and a line each.
func (f Failure) text() string {
	if len(f.Problems) == 1 {
		p := f.Problems[0]
		if core := p.text(); strings.Contains(f.Message, core) {
			return strings.Replace(f.Message, core, core+p.place(), 1)
		}
		if p.Message != "" && strings.Contains(f.Message, p.Message) {
			return strings.Replace(f.Message, p.Message, p.String(), 1)
		}
	}
	head := f.Message
	if n := len(f.Problems); n > 1 {
		if first := fmt.Sprintf("%s (and %d more)", f.Problems[0].Message, n-1); strings.HasPrefix(head, first) {
			head = fmt.Sprintf("%d problems", n) + head[len(first):]
		}
	}
	var b strings.Builder
	b.WriteString(head)
	for _, p := range f.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Failure is a check that failed.
type Failure struct {
	Check   string // the check's name (status_code_conformance, …)
	Message string // what the check expected and what came instead
	// Problems are the places where the response breaks the contract,
	// each with its JSON path.
	Problems []Problem
}

// Problem is one place where a response breaks the contract.
type Problem struct {
	// In is the part of the response: status, header, content-type,
	// body.
	In string
	// Key names a header, or is empty.
	Key string
	// Path is the JSON path of the failing value in the body ("$.items[0].id").
	Path string
	// Keyword is the failing schema keyword or check ("type", "required",
	// "missing", …).
	Keyword string
	Message string
	// Schema is where the broken rule is written in the spec:
	// file:line:col.
	Schema string
	// Example is where the failing expectation is written in an example
	// (an example file, or the spec for an inline one): file:line:col.
	Example string
}

func (p Problem) String() string { return p.text() + p.place() }

// text is the problem's message, after its JSON path when it does not
// name it.
func (p Problem) text() string {
	if p.Path != "" && !strings.Contains(p.Message, p.Path) {
		return p.Path + ": " + p.Message
	}
	return p.Message
}

// place says where the broken rule is written: " (schema at …)", or
// " (example at …)" for an example's expectation; "" when nowhere.
func (p Problem) place() string {
	switch {
	case p.Schema != "":
		return " (schema at " + p.Schema + ")"
	case p.Example != "":
		return " (example at " + p.Example + ")"
	}
	return ""
}

// Exchange is one request and its response, as the reports show them.
type Exchange struct {
	Request  HTTPRequest
	Response *HTTPResponse // nil when none came back
	// Error is a network error, a timeout or a body that could not be read.
	Error    string
	Start    time.Time
	Duration time.Duration
	// Retry says why another attempt followed (a 429 and its Retry-After)
	// or why none did.
	Retry string
	// Probe says, of an exchange of Result.Probes, which check sent it and
	// why ("ignored_auth: the request again, without its credentials"),
	// so that reports do not show it as a retry.
	Probe string
}

// HTTPRequest is a request as sent.
type HTTPRequest struct {
	Method  string
	URL     string
	Headers []Header
	Body    *Body // nil without one
}

// HTTPResponse is a response as received.
type HTTPResponse struct {
	Status  int
	Headers []Header
	Body    *Body // nil without one
}

// Header is one header line.
type Header struct{ Name, Value string }

// Body is a message body as reports keep it: UTF-8 text as it is, other
// bytes in base64, at most maxReportBody bytes of either.
type Body struct {
	Text   string
	Base64 string
	// Size is the whole body's length; Truncated says that only its first
	// maxReportBody bytes are kept.
	Size      int
	Truncated bool
}

// maxReportBody bounds the bytes of a body kept for reports.
const maxReportBody = 64 << 10

// bodyOf keeps a body for reports; nil for an empty one. A character cut
// at the bound is dropped.
func bodyOf(data []byte, size int) *Body {
	if len(data) == 0 {
		return nil
	}
	b := &Body{Size: size}
	if len(data) > maxReportBody {
		data, b.Truncated = data[:maxReportBody], true
		for i := 0; i < utf8.UTFMax && len(data) > 0 && !utf8.Valid(data); i++ {
			data = data[:len(data)-1]
		}
	}
	if utf8.Valid(data) {
		b.Text = string(data)
	} else {
		b.Base64 = base64.StdEncoding.EncodeToString(data)
	}
	return b
}

// FixtureResult is one fixture of an example.
type FixtureResult struct {
	Phase   string // before or after
	Index   int    // from 0, within its phase
	Outcome Outcome
	Message string
	// Exchange is the fixture's request and response.
	Exchange Exchange
	// Captures are the names the fixture captured from its response.
	Captures []string
}
