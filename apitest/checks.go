package apitest

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
)

// Check is one named judgement of a response, with one job, in the
// vocabulary Schemathesis's users know where it fits. A check that does
// not apply to a test (a negative check on a valid request) passes it.
type Check struct {
	Name string
	// Doc says what the check requires, in one sentence.
	Doc string
	// OptIn checks run only when --checks names them.
	OptIn bool
	run   func(c *checkCase) *Failure
}

// checkCase is what checks read: the test, its request, the response and
// the contract's verdict on it.
type checkCase struct {
	ctx    context.Context
	t      *Test
	prep   *prepared
	status int
	header http.Header
	body   []byte
	// truncated is set when the body was cut at the client's bound.
	truncated bool
	// problems are contract.CheckResponse's, computed once.
	problems []contract.Problem
	// probe sends another request (ignored_auth) and keeps it for the
	// report.
	probe func(why string, r *contract.BuiltRequest) *httpx.Attempt
}

// Checks lists every check in the order they run and are reported.
func Checks() []*Check { return slices.Clone(allChecks) }

var allChecks = []*Check{
	{Name: "not_a_server_error", Doc: "the response is not a 5xx, unless an example expects one", run: notAServerError},
	{Name: "status_code_conformance", Doc: "the status is declared for the operation: itself, its range (2XX), or default for a status declared no other way", run: statusConformance},
	{Name: "content_type_conformance", Doc: "a response with a body has a Content-Type its declared response lists", run: problemsIn("content_type_conformance", contract.InContentType)},
	{Name: "response_headers_conformance", Doc: "the declared response's required headers are present and valid", run: problemsIn("response_headers_conformance", contract.InHeader)},
	{Name: "response_schema_conformance", Doc: "the body is valid for the declared response's schema (or empty when it declares no content)", run: schemaConformance},
	{Name: "negative_data_rejection", Doc: "a request with a missing, mistyped or out-of-range value is rejected with 400 or 422 (--negative)", run: negativeCheck("negative_data_rejection")},
	{Name: "missing_required_header", Doc: "a request without a required header is rejected with 400 or 422 (--negative)", run: negativeCheck("missing_required_header")},
	{Name: "unsupported_content_type", Doc: "a body of a content type the operation does not accept is rejected with 415 (--negative)", run: negativeCheck("unsupported_content_type")},
	{Name: "unsupported_method", Doc: "a method the path does not declare is answered 405 with an Allow header (--negative)", run: unsupportedMethod},
	{Name: "ignored_auth", Doc: "a request the service accepted with credentials is not accepted without them", run: ignoredAuth},
	{Name: "example_status", Doc: "the status is the one the example expects", run: exampleStatus},
	{Name: "example_headers_match", Doc: "the headers the example's response gives have the values it gives", run: exampleHeaders},
	{Name: "example_body_match", Doc: "the body matches the example's body: its values where given, its matchers", run: exampleBody},
	{Name: "positive_data_acceptance", Doc: "a valid generated request is accepted with a 2xx", OptIn: true, run: positiveAcceptance},
}

// checkSet is the checks of a run, in the order of allChecks.
type checkSet []*Check

// selectChecks picks checks by name: nil or empty runs the default ones
// (every one but the opt-in ones), "all" runs every one.
func selectChecks(names, exclude []string) (checkSet, error) {
	known := map[string]*Check{}
	var all []string
	for _, c := range allChecks {
		known[c.Name] = c
		all = append(all, c.Name)
	}
	chosen := map[string]bool{}
	split := func(list []string) []string {
		var out []string
		for _, s := range list {
			for _, n := range strings.Split(s, ",") {
				if n = strings.TrimSpace(n); n != "" {
					out = append(out, n)
				}
			}
		}
		return out
	}
	var unknown []string
	include := split(names)
	if len(include) == 0 {
		for _, c := range allChecks {
			chosen[c.Name] = !c.OptIn
		}
	}
	for _, n := range include {
		switch {
		case n == "all":
			for _, c := range allChecks {
				chosen[c.Name] = true
			}
		case known[n] != nil:
			chosen[n] = true
		default:
			unknown = append(unknown, n)
		}
	}
	for _, n := range split(exclude) {
		if known[n] == nil {
			unknown = append(unknown, n)
		}
		chosen[n] = false
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown check %s: the checks are %s", strings.Join(quoteAll(unknown), ", "), strings.Join(all, ", "))
	}
	var out checkSet
	for _, c := range allChecks {
		if chosen[c.Name] {
			out = append(out, c)
		}
	}
	return out, nil
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

func (s checkSet) has(name string) bool {
	for _, c := range s {
		if c.Name == name {
			return true
		}
	}
	return false
}

func (s checkSet) names() []string {
	out := make([]string, len(s))
	for i, c := range s {
		out[i] = c.Name
	}
	return out
}

// responseChecked reports whether the response conformance checks apply:
// to every response of a valid request, and to the response of a broken
// one when its status is declared (a 400 the spec documents must still
// have its documented shape). A method the path does not declare has no
// operation whose responses would apply, its default least of all: only a
// 405 that the path's operation declares by its code does.
func (c *checkCase) responseChecked() bool {
	if c.t.refuses == refusesMethod {
		return c.status == http.StatusMethodNotAllowed && contract.ExactResponse(c.t.op.op, http.StatusMethodNotAllowed) != nil
	}
	if c.t.Kind != Negative && (c.prep.example == nil || !c.prep.example.negative) {
		return true
	}
	for _, p := range c.problems {
		if p.In == contract.InStatus {
			return false
		}
	}
	return true
}

func notAServerError(c *checkCase) *Failure {
	if c.status < 500 || c.status > 599 {
		return nil
	}
	if ex := c.prep.example; ex != nil && ex.status >= 500 {
		return nil
	}
	return &Failure{Message: fmt.Sprintf("the service answered %d %s", c.status, http.StatusText(c.status))}
}

func statusConformance(c *checkCase) *Failure {
	if c.t.Kind == Negative || c.prep.example != nil && c.prep.example.negative {
		return nil
	}
	return problemsIn("status_code_conformance", contract.InStatus)(c)
}

// problemsIn makes a check of the contract's problems in one part of the
// response.
func problemsIn(name string, in contract.In) func(c *checkCase) *Failure {
	return func(c *checkCase) *Failure {
		if !c.responseChecked() {
			return nil
		}
		var probs []Problem
		for _, p := range c.problems {
			if p.In == in {
				probs = append(probs, problemOf(p))
			}
		}
		return failureOf(probs)
	}
}

func schemaConformance(c *checkCase) *Failure {
	if !c.responseChecked() {
		return nil
	}
	if c.truncated {
		return &Failure{Message: fmt.Sprintf("the response body is longer than %d MiB: not checked", httpx.DefaultMaxBody>>20)}
	}
	return problemsIn("response_schema_conformance", contract.InBody)(c)
}

// failureOf makes one failure of problems: the first one's message, and
// each problem with its path and place.
func failureOf(probs []Problem) *Failure {
	switch len(probs) {
	case 0:
		return nil
	case 1:
		return &Failure{Message: probs[0].Message, Problems: probs}
	}
	return &Failure{Message: fmt.Sprintf("%s (and %d more)", probs[0].Message, len(probs)-1), Problems: probs}
}

// problemOf converts a contract problem for reports.
func problemOf(p contract.Problem) Problem {
	out := Problem{In: string(p.In), Key: p.Key, Keyword: p.Keyword, Message: p.Message}
	if len(p.Path) > 0 || p.In == contract.InBody {
		out.Path = p.JSONPath()
	}
	if l := p.Schema; l.File != nil {
		out.Schema = fmt.Sprintf("%s:%d:%d", l.File.Name, l.Range.Start.Line, l.Range.Start.Col)
	}
	return out
}

func statusList(codes []int) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = strconv.Itoa(c)
	}
	return english.List(parts, "or")
}

// negativeCheck makes the check of one kind of negative test: the
// response status is one the test expects.
func negativeCheck(name string) func(c *checkCase) *Failure {
	return func(c *checkCase) *Failure {
		m := c.prep.negative
		if m == nil || m.check != name || slices.Contains(m.expect, c.status) {
			return nil
		}
		return &Failure{Message: fmt.Sprintf("expected %s for a request with %s, got %d", statusList(m.expect), m.desc, c.status)}
	}
}

// unsupportedMethod judges the answer to a method the path does not
// declare, from a negative test or a 405 example: the status the test
// expects, and with 405 an Allow header that does not list the method.
func unsupportedMethod(c *checkCase) *Failure {
	if c.t.refuses != refusesMethod {
		return nil
	}
	if f := negativeCheck("unsupported_method")(c); f != nil {
		return f
	}
	if c.status != http.StatusMethodNotAllowed {
		return nil
	}
	allow := c.header.Values("Allow")
	if len(allow) == 0 {
		return &Failure{Message: fmt.Sprintf("405 without an Allow header (the path declares %s)", strings.Join(c.t.op.allow, ", ")),
			Problems: []Problem{{In: "header", Key: "Allow", Keyword: "required", Message: "Allow is required with 405 (RFC 9110, section 15.5.6)"}}}
	}
	method := c.prep.built.Method
	for _, line := range allow {
		for _, m := range strings.Split(line, ",") {
			if strings.EqualFold(strings.TrimSpace(m), method) {
				return &Failure{Message: fmt.Sprintf("405 with Allow %q, which lists the method it refused (%s)", strings.Join(allow, ", "), method)}
			}
		}
	}
	return nil
}

// needsCredentials reports whether the operation requires credentials:
// it has a security requirement without an empty alternative.
func needsCredentials(c *checkCase) bool {
	sec := c.t.op.op.Security
	if sec == nil || len(sec.Alternatives) == 0 {
		return false
	}
	for _, alt := range sec.Alternatives {
		if len(alt.Schemes) == 0 {
			return false
		}
	}
	return true
}

func ignoredAuth(c *checkCase) *Failure {
	if c.t.Kind == Negative || !c.prep.authorized || c.prep.stripAuth == nil || c.status < 200 || c.status > 299 || !needsCredentials(c) {
		return nil
	}
	bare := *c.prep.built
	c.prep.stripAuth(&bare)
	a := c.probe("the request again, without its credentials", &bare)
	if a == nil || a.Err != nil || a.Response == nil {
		return nil
	}
	if s := a.Response.StatusCode; s >= 200 && s <= 299 {
		return &Failure{Message: fmt.Sprintf("the operation requires credentials, yet the service answered %d to the request without them (as it did, %d, with them)", s, c.status)}
	}
	return nil
}

func positiveAcceptance(c *checkCase) *Failure {
	if c.t.Kind != Generated || (c.status >= 200 && c.status <= 299) {
		return nil
	}
	return &Failure{Message: fmt.Sprintf("the service rejected a valid generated request with %d", c.status)}
}

func exampleStatus(c *checkCase) *Failure {
	ex := c.prep.example
	if ex == nil || ex.generated {
		return nil
	}
	if c.hasExampleStatus(ex.ex) {
		return nil
	}
	for _, alt := range ex.alternatives {
		if c.hasExampleStatus(alt) {
			return nil
		}
	}
	want := c.wantedStatus(ex.ex)
	for _, alt := range ex.alternatives {
		want += " or " + c.wantedStatus(alt)
	}
	return &Failure{Message: fmt.Sprintf("expected %s, as example %q gives (%s), got %d", want, ex.ex.Name, ex.ex.Loc, c.status)}
}

// hasExampleStatus reports whether the response has an example's status:
// the one it writes, else one of the response of the spec it is under (a
// default example: a status the operation declares no other way), else,
// for a partial example that writes none, any 2xx.
func (c *checkCase) hasExampleStatus(ex *examples.Example) bool {
	r := ex.Response
	if r == nil {
		return c.matched() == c.t.Status
	}
	if r.Status != 0 {
		return c.status == r.Status
	}
	if r.SpecStatus == "" {
		// A partial example without a status expects a success, whichever
		// response of the spec declares it.
		return c.status >= 200 && c.status <= 299
	}
	return c.matched() == r.SpecStatus
}

// matched is the response of the spec the status matches, "" for none.
func (c *checkCase) matched() string {
	if d := c.t.op.spec.contract.Response(c.t.op.op, c.status); d != nil {
		return d.Status
	}
	return ""
}

func (c *checkCase) wantedStatus(ex *examples.Example) string {
	switch r := ex.Response; {
	case r == nil:
		return "a status of response " + c.t.Status
	case r.Status != 0:
		return strconv.Itoa(r.Status)
	case r.SpecStatus == "default":
		return "a status the operation declares no other way (its default response)"
	case r.SpecStatus != "":
		return "a status of response " + r.SpecStatus
	}
	return "a 2xx"
}

func exampleHeaders(c *checkCase) *Failure {
	ex := c.prep.example
	if ex == nil || !ex.values || ex.ex.Response == nil || len(ex.ex.Response.Headers) == 0 || !c.exampleStatusMet() {
		return nil
	}
	var probs []Problem
	for _, h := range ex.ex.Response.Headers {
		if framingHeaders[strings.ToLower(h.Name)] {
			continue
		}
		got := c.header.Values(h.Name)
		if len(got) == 0 && ex.ex.Inline {
			continue // an inline example illustrates a header; a required one is response_headers_conformance's
		}
		if len(got) == 0 {
			probs = append(probs, Problem{In: "header", Key: h.Name, Keyword: "missing", Message: fmt.Sprintf("header %s is missing; example %q gives it (%s)", h.Name, ex.ex.Name, h.NameLoc)})
			continue
		}
		actual := strings.Join(got, ", ")
		if strings.EqualFold(h.Name, "Content-Type") {
			if lit, ok := h.Value.(*examples.Literal); ok {
				want, _, err1 := mime.ParseMediaType(fmt.Sprint(lit.Value))
				have, _, err2 := mime.ParseMediaType(actual)
				if err1 == nil && err2 == nil && strings.EqualFold(want, have) {
					continue
				}
			}
		}
		res := ex.ctx.CheckAt(h.Value, actual, "$", examples.Subset)
		for _, p := range res.Problems {
			probs = append(probs, Problem{In: "header", Key: h.Name, Keyword: "value", Message: fmt.Sprintf("header %s: %s", h.Name, p.Message), Example: p.At.String()})
		}
	}
	return failureOf(probs)
}

func exampleBody(c *checkCase) *Failure {
	ex := c.prep.example
	if ex == nil || !ex.values || ex.ex.Response == nil || ex.ex.Response.Body == nil || !c.exampleStatusMet() {
		return nil
	}
	if !exampleValid(c, ex.ex.Response) {
		return nil
	}
	// An XML example written as a whole document is compared as one.
	if doc, ok := isXMLDocumentExample(examples.Literalize(ex.ex.Response.Body), c.header.Get("Content-Type")); ok && !examples.HasNotations(ex.ex.Response.Body) {
		if want, err := parseXMLDocument([]byte(doc)); err == nil {
			d := compareXMLDocuments(want, c.body)
			if d == "" {
				return nil
			}
			f := failureOf([]Problem{{In: "body", Path: "$", Keyword: "example", Message: d, Example: ex.ex.Response.Body.Where().String()}})
			f.Message = fmt.Sprintf("the body does not match example %q, an XML document: %s", ex.ex.Name, d)
			return f
		}
	}
	// The body as the contract reads it (XML by its schema's names, forms
	// by field), else as JSON or text.
	actual, err := c.t.op.spec.contract.DecodeResponse(c.t.op.op, c.status, c.header.Get("Content-Type"), c.body)
	if err != nil {
		actual = decodeBody(c.body, c.header.Get("Content-Type"))
	}
	res := ex.ctx.Check(ex.ex.Response.Body, actual, examples.Subset)
	if ex.capture != nil && len(res.Captured) > 0 {
		ex.capture(res.Captured)
	}
	var probs []Problem
	for _, p := range res.Problems {
		probs = append(probs, Problem{In: "body", Path: p.Path, Keyword: "example", Message: p.Message, Example: p.At.String()})
	}
	if f := failureOf(probs); f != nil {
		f.Message = fmt.Sprintf("the body does not match example %q: %s: %s", ex.ex.Name, probs[0].Path, f.Message)
		return f
	}
	return nil
}

// exampleValid reports whether an example's response body, as written, is
// one the spec allows: the contract judges it as it judges the service's.
// Values a correct service cannot send (GitHub's accepted response shows
// null for an object) are not held against it. A body with notations is
// judged by them, not here.
func exampleValid(c *checkCase, r *examples.Response) bool {
	if examples.HasNotations(r.Body) {
		return true
	}
	data, err := json.Marshal(examples.Literalize(r.Body))
	if err != nil {
		return false
	}
	ct := r.ContentType
	if ct == "" {
		ct = c.header.Get("Content-Type")
	}
	if !isJSONType(ct) {
		return true
	}
	h := http.Header{}
	h.Set("Content-Type", ct)
	for _, p := range c.t.op.spec.contract.CheckResponse(c.t.op.op, &contract.Response{Status: c.status, Header: h, Body: data}) {
		if p.In == contract.InBody {
			return false
		}
	}
	return true
}

// framingHeaders describe the message rather than the resource: an
// example that shows them (GitHub's show Content-Length) tells nothing
// about the service.
var framingHeaders = map[string]bool{"content-length": true, "transfer-encoding": true, "connection": true, "date": true, "keep-alive": true}

// exampleStatusMet reports whether the response has the example's
// status: the example's headers and body are compared only then (a 500
// does not also fail every value of the 200 it should have been).
func (c *checkCase) exampleStatusMet() bool {
	return exampleStatus(c) == nil
}
