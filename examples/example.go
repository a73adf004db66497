package examples

import (
	"net/url"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// Example is one exchange: a request and the response it gets, from an
// external example file or from the inline examples of a specification.
// Every part keeps where it is written, so that a check of the example
// against the specification can point at the offending field.
type Example struct {
	// Name identifies the example among those of its specification: the
	// file's name key, else its path under the examples folder without the
	// extension ("create_pet", "pets/create"). Inline examples carry the
	// name of their OpenAPI Example Object, or the operation's for an
	// unnamed example.
	Name    string
	NameLoc Loc
	// File is the example file, or the specification file holding an inline
	// example; Root is the examples folder the file was found in ("" when it
	// was read alone or is inline).
	File string
	Root string
	Loc  Loc // the whole example

	// Partial is true for a "partial" example, whose request and response
	// are completed from the specification.
	Partial  bool
	Request  *Request  // nil for a response-only inline example
	Response *Response // nil for a request-only inline example
	Before   []*Fixture
	After    []*Fixture
	// Data is the example's data object ($(data.name) reads it), or nil.
	Data     *Object
	Metadata Metadata

	// Inline examples only.
	Inline    bool
	Source    spec.Path       // where the example is written, from the entry file's root: its first value
	Sources   []spec.Path     // where each of its values is written, bodies first
	Operation *spec.Operation // the operation it belongs to
	Pairing   Pairing         // how its request and response were put together

	valuePaths map[Value]spec.Path // inline: where each value is written
}

// Metadata are an example's settings besides the exchange. They stay with
// the example when it is made partial.
type Metadata struct {
	// Delay is how long a mock waits before it answers (delay-in-seconds or
	// delay-in-milliseconds).
	Delay    time.Duration
	DelayLoc Loc
	// Transient examples are used by a mock until their matchers are used up
	// (times), then set aside.
	Transient    bool
	TransientLoc Loc
	// Extensions are the x- keys, kept as written.
	Extensions []Field
}

// Kind is what an example exercises, read from its response's status.
type Kind uint8

const (
	Positive             Kind = iota // a 1xx, 2xx or 3xx status, or none written
	BadRequest                       // 400: may carry out-of-spec query parameters
	MethodNotAllowed                 // 405: the method is not one the path declares
	UnsupportedMediaType             // 415: the Content-Type is not one the operation takes
	Unprocessable                    // 422
	Negative                         // any other 4xx or 5xx
)

var kindNames = [...]string{"positive", "badRequest", "methodNotAllowed", "unsupportedMediaType", "unprocessable", "negative"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Kind reads what the example exercises from its response's status.
func (e *Example) Kind() Kind {
	if e.Response == nil {
		return Positive
	}
	switch s := e.Response.Status; {
	case s == 400:
		return BadRequest
	case s == 405:
		return MethodNotAllowed
	case s == 415:
		return UnsupportedMediaType
	case s == 422:
		return Unprocessable
	case s >= 400:
		return Negative
	}
	return Positive
}

// Scenario is the scenario a test runs: positive or negative.
func (e *Example) Scenario() Scenario {
	if e.Kind() == Positive {
		return ScenarioPositive
	}
	return ScenarioNegative
}

// Context returns a copy of base (nil: an empty context) with the
// example's data as the data source "data".
func (e *Example) Context(base *Context) *Context {
	c := &Context{}
	if base != nil {
		*c = *base
	}
	if e.Data != nil {
		data := make(map[string]Value, len(c.Data)+1)
		for k, v := range c.Data {
			data[k] = v
		}
		data["data"] = e.Data
		c.Data = data
	}
	return c
}

// Request is an example's request. Values may hold notations.
type Request struct {
	Loc       Loc
	Method    string // upper case
	MethodLoc Loc
	// Path is the path as written: a literal string, or a template when it
	// holds notations ("/pets/$(id)"). A query string written in the path
	// goes to Query.
	Path    Value
	RawPath string
	// PathParams are the path parameters' values of an inline example;
	// external examples write them in Path.
	PathParams []Param
	// Query lists the query parameters in order; a name may repeat (from a
	// query string in the path). An array value is the parameter's values,
	// serialized by the parameter's style.
	Query      []Param
	Headers    []Param
	Body       Value // nil when no body is written
	FormFields []Param
	Multipart  []*Part
	// ContentType is the Content-Type header's value when it is written as
	// a plain string, else what the request's form implies
	// (application/x-www-form-urlencoded, multipart/form-data), else the
	// media type of an inline example; "" when unknown.
	ContentType string
	// BaseURL is where a fixture's request is sent (fixtures only).
	BaseURL Value

	inlineBody Value // an inline example's body before a form splits it
	keyAt      Loc   // the http-request key of an example file
	bodyKeyAt  Loc   // its body key
}

// RouteQuery is the request's query as a router reads it: its
// parameters written as literal scalars, encoded; "" when there is none.
// A path template that writes a query (openai's /responses?beta=true) is
// told apart by it.
func (r *Request) RouteQuery() string {
	q := url.Values{}
	for _, p := range r.Query {
		if lit, ok := p.Value.(*Literal); ok && isScalar(lit.Value) {
			q.Add(p.Name, contract.InlineText(lit.Value))
		}
	}
	return q.Encode()
}

// Param is a named value: a query parameter, a header, a form field.
type Param struct {
	Name    string
	NameLoc Loc
	Value   Value
}

// Part is one part of a multipart/form-data request: its content, or a
// file whose content is sent.
type Part struct {
	Name    string
	NameLoc Loc
	Content Value  // nil when the part is a file
	File    string // the file to send, resolved from the example's folder; "" for content
	FileLoc Loc
	// Filename is the file name sent in the part's Content-Disposition: the
	// base name of File.
	Filename        string
	ContentType     string
	ContentEncoding string
	Loc             Loc
}

// Response is an example's response, or a fixture's expected response.
type Response struct {
	Loc Loc
	// Status is the status code; 0 when not written (a partial example or a
	// fixture, where any 2xx does) or when an inline example's response is
	// a range or default (see SpecStatus).
	Status     int
	StatusLoc  Loc
	StatusText string
	// SpecStatus is the response key of an inline example's response as the
	// specification writes it ("200", "4XX", "default").
	SpecStatus  string
	Headers     []Param
	Body        Value
	ContentType string

	keyAt     Loc // the http-response key of an example file
	bodyKeyAt Loc // its body key
}

// Fixture is a request made before or after an example's test, with what
// its response must be; its response may capture values for later
// requests.
type Fixture struct {
	Type     string // "http"
	Request  *Request
	Response *Response // nil: any 2xx status
	Scenario Scenario
	Loc      Loc
	// Index is the fixture's place in its list, When "before" or "after".
	Index int
	When  string
}

// Scenario filters fixtures by the scenario of the test they serve.
type Scenario uint8

const (
	ScenarioPositive Scenario = iota // the default
	ScenarioNegative
	ScenarioAll
)

var scenarioNames = [...]string{"positive", "negative", "all"}

func (s Scenario) String() string {
	if int(s) < len(scenarioNames) {
		return scenarioNames[s]
	}
	return "scenario?"
}

// RunsFor reports whether the fixture runs for a test of scenario s
// (positive or negative).
func (f *Fixture) RunsFor(s Scenario) bool {
	return f.Scenario == ScenarioAll || s == ScenarioAll || f.Scenario == s
}

// Fixtures returns the fixtures of list that run for scenario s.
func Fixtures(list []*Fixture, s Scenario) []*Fixture {
	var out []*Fixture
	for _, f := range list {
		if f.RunsFor(s) {
			out = append(out, f)
		}
	}
	return out
}

// Header returns the request header named name (any case), or nil.
func (r *Request) Header(name string) *Param { return findHeader(r.Headers, name) }

// Header returns the response header named name (any case), or nil.
func (r *Response) Header(name string) *Param { return findHeader(r.Headers, name) }

func findHeader(hs []Param, name string) *Param {
	for i := range hs {
		if strings.EqualFold(hs[i].Name, name) {
			return &hs[i]
		}
	}
	return nil
}

// Pairing tells how an inline example's request and response were put
// together.
type Pairing uint8

const (
	// Paired: a request example and a response example of the same name.
	Paired Pairing = iota
	// Unnamed: the operation's unnamed request values (example, x-example,
	// schema examples) with the unnamed example of its lowest 2xx response.
	Unnamed
	// RequestOnly: a named request example that no response example
	// shares; the response is the operation's lowest 2xx.
	RequestOnly
	// ResponseOnly: a response example without a request of its name; the
	// request is built from the unnamed values (and generated where none).
	ResponseOnly
)

var pairingNames = [...]string{"paired", "unnamed", "request-only", "response-only"}

func (p Pairing) String() string {
	if int(p) < len(pairingNames) {
		return pairingNames[p]
	}
	return "pairing?"
}

// canonicalMethod upper-cases a method and tells whether it is an HTTP
// token.
func canonicalMethod(m string) (string, bool) {
	if m == "" {
		return "", false
	}
	for _, c := range m {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return m, false
		}
	}
	return strings.ToUpper(m), true
}

// headerValue returns the plain string value of a header, or "".
func headerValue(hs []Param, name string) string {
	if h := findHeader(hs, name); h != nil {
		if l, ok := h.Value.(*Literal); ok {
			if s, ok := l.Value.(string); ok {
				return s
			}
		}
	}
	return ""
}
