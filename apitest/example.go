package apitest

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/spec"
)

// exampleExpect is what an example test holds its response to.
type exampleExpect struct {
	ex  *examples.Example
	ctx *examples.Context
	// status is the status the example expects; 0 when it names a
	// response of the spec instead (specStatus: "2XX", "default").
	status     int
	specStatus string
	// negative is set for an example of a 4xx or 5xx: its request may
	// break the contract on purpose, and its response is held to the spec
	// only where the spec declares its status.
	negative bool
	// alternatives are the statuses of other examples with the same
	// request: any of them is the example's answer (see exampleCase).
	alternatives []*examples.Example
	// values says whether the response's headers and body values are
	// compared: only when the example's request determines its response.
	values bool
	// generated is set for an inline example whose request the spec gives
	// no value of: its request is generated, so only a declared status is
	// expected, as of a generated test.
	generated bool
	// capture stores what the response's captures took, for the after
	// fixtures.
	capture func(map[string]any)
	// sent is the value of the request's body as sent, which
	// $(request.body…) reads.
	sent any
}

// loadExamples reads the external examples of a spec (its default folder,
// its own folders, the run's) and its inline examples, and files each
// under its operation. An external example that matches no operation of
// this spec is returned in unrouted, for the plan to report if no other
// spec takes it.
func (p *Plan) loadExamples(sp *specPlan, src SpecSource) (unrouted []*examples.Example, errs []error) {
	sp.examples = map[*spec.Operation][]*examples.Example{}
	dirs := append(append([]string(nil), src.Examples...), p.opts.Examples...)
	set := examples.Discover(src.Path, dirs, examples.Options{})
	for _, e := range set.Errors {
		errs = append(errs, e)
	}
	inline := examples.Inline(sp.doc, examples.Options{})
	for _, e := range inline.Errors {
		errs = append(errs, e)
	}
	for _, ex := range inline.Examples {
		// A response example without a request of its name is no pair:
		// its request is the operation's unnamed one, which cannot ask
		// for that response rather than another.
		if ex.Operation != nil && ex.Request != nil && ex.Pairing != examples.ResponseOnly {
			sp.examples[ex.Operation] = append(sp.examples[ex.Operation], ex)
		}
	}
	for _, ex := range set.Examples {
		if ex.Request == nil {
			continue
		}
		op := sp.routeExample(ex)
		if op == nil {
			unrouted = append(unrouted, ex)
			continue
		}
		ex.Operation = op
		sp.examples[op] = append(sp.examples[op], ex)
	}
	return unrouted, errs
}

// routeExample finds the operation of an external example's request: its
// path as written, else under each prefix the spec serves its operations
// under. An example of a method the path does not declare (a 405 example)
// belongs to the path's first operation.
func (sp *specPlan) routeExample(ex *examples.Example) *spec.Operation {
	path := ex.Request.RawPath
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if q := ex.Request.RouteQuery(); q != "" {
		path += "?" + q // a template's query (?beta=true) selects its operation
	}
	tries := []string{path}
	seen := map[string]bool{"": true}
	for _, o := range sp.ops {
		if pre := strings.TrimRight(sp.contract.Prefix(o.op), "/"); !seen[pre] {
			seen[pre] = true
			tries = append(tries, pre+path)
		}
	}
	for _, try := range tries {
		rt, err := sp.contract.Route(ex.Request.Method, try)
		if err == nil {
			return rt.Op
		}
		var re *contract.RouteError
		if errors.As(err, &re) && re.Status == http.StatusMethodNotAllowed && len(re.Allow) > 0 {
			if rt, err := sp.contract.Route(re.Allow[0], try); err == nil {
				return rt.Op
			}
		}
	}
	return nil
}

// exampleCase is one example test: an example, and the other examples of
// its operation that send the same request yet expect another response.
// No service can give both, so the test accepts the status of any of them
// and compares no values; the spec's examples are illustrations there
// (twilio's update and dequeueFront send the same form and show other
// dates; github's default example of one request is under 200 and 201).
type exampleCase struct {
	ex           *examples.Example
	alternatives []*examples.Example
	// values says whether the example's response values are compared: it
	// is an external example, or an inline pair whose request and response
	// examples share a name (the author wrote that answer for that
	// request) and whose request carries values of its own; and no
	// alternative shares its request. The unnamed values of an operation
	// (a parameter's example or x-example, Swagger's response examples)
	// illustrate each place on its own: a service answers their request
	// with other values as rightly, so they are held to status and schema.
	values bool
}

// exampleCases groups an operation's examples by their request.
func exampleCases(list []*examples.Example) []*exampleCase {
	var out []*exampleCase
	byRequest := map[string]*exampleCase{}
	for _, ex := range list {
		key := requestKey(ex.Request)
		if c := byRequest[key]; c != nil {
			if sameResponse(c.ex, ex) {
				continue // the same test twice
			}
			c.alternatives = append(c.alternatives, ex)
			c.values = false
			continue
		}
		c := &exampleCase{ex: ex, values: !ex.Inline || ex.Pairing == examples.Paired && ownsRequest(ex.Request) && !fromSchemas(ex)}
		byRequest[key] = c
		out = append(out, c)
	}
	return out
}

// requestKey writes what an example sends, as the example writes it.
func requestKey(r *examples.Request) string {
	params := func(ps []examples.Param) []any {
		out := make([]any, len(ps))
		for i, p := range ps {
			out[i] = []any{strings.ToLower(p.Name), examples.Literalize(p.Value)}
		}
		return out
	}
	parts := map[string]any{}
	for _, p := range r.Multipart {
		parts[p.Name] = []any{examples.Literalize(p.Content), p.File}
	}
	b, _ := json.Marshal([]any{r.Method, r.RawPath, params(r.PathParams), params(r.Query), params(r.Headers),
		examples.Literalize(r.Body), params(r.FormFields), parts, r.ContentType})
	return string(b)
}

func sameResponse(a, b *examples.Example) bool {
	if a.Response == nil || b.Response == nil {
		return a.Response == b.Response
	}
	ka, _ := json.Marshal([]any{a.Response.Status, a.Response.SpecStatus, examples.Literalize(a.Response.Body)})
	kb, _ := json.Marshal([]any{b.Response.Status, b.Response.SpecStatus, examples.Literalize(b.Response.Body)})
	return string(ka) == string(kb)
}

// fromSchemas reports whether an inline example takes any of its values
// from a schema's example (the examples package's fallback for required
// values and unnamed responses): those illustrate a type, not what a
// service answers to this request, so its values are not compared.
func fromSchemas(ex *examples.Example) bool {
	for _, p := range ex.Sources {
		for _, seg := range p {
			if seg == "schema" {
				return true
			}
		}
	}
	return false
}

// ownsRequest reports whether an inline example's request carries a value
// of its own.
func ownsRequest(r *examples.Request) bool {
	return len(r.PathParams) > 0 || len(r.Query) > 0 || len(r.Headers) > 0 || r.Body != nil || len(r.FormFields) > 0 || len(r.Multipart) > 0
}

// exampleTests makes one test per example case of the operation.
func (p *Plan) exampleTests(o *operation) []*Test {
	var out []*Test
	for _, c := range exampleCases(o.spec.examples[o.op]) {
		ex := c.ex
		t := &Test{Path: o.op.Path, Method: strings.ToUpper(o.op.Method), Kind: FromExample, Name: ex.Name, Source: ex.Loc.String()}
		if ex.Request.Method != "" {
			t.Method = ex.Request.Method
		}
		for _, alt := range c.alternatives {
			if alt.Name != ex.Name {
				t.Name += " | " + alt.Name
			}
		}
		t.RequestType = exampleRequestType(o.op, ex)
		t.Status, t.ResponseType = exampleResponse(o.op, ex)
		switch {
		case !strings.EqualFold(t.Method, o.op.Method):
			// A method the path does not declare has no operation, so no
			// response of the spec applies but a 405 the path declares.
			t.refuses = refusesMethod
			if contract.ExactResponse(o.op, http.StatusMethodNotAllowed) == nil && (ex.Response == nil || ex.Response.ContentType == "") {
				t.ResponseType = ""
			}
		case ex.Kind() == examples.UnsupportedMediaType:
			t.refuses = refusesMediaType
		}
		if len(c.alternatives) > 0 {
			t.Status = statusOfAll(o.op, append([]*examples.Example{ex}, c.alternatives...))
		}
		c := c
		t.make = func(s *runState) (*prepared, error) { return p.makeExample(s, t, c) }
		out = append(out, t)
	}
	return out
}

// statusOfAll names the statuses of several examples as one: theirs when
// they share it, their class ("2XX") when they share that, else "*".
func statusOfAll(op *spec.Operation, list []*examples.Example) string {
	first, _ := exampleResponse(op, list[0])
	same, class := true, true
	for _, ex := range list[1:] {
		st, _ := exampleResponse(op, ex)
		same = same && st == first
		class = class && st[:1] == first[:1]
	}
	switch {
	case same:
		return first
	case class:
		return first[:1] + "XX"
	}
	return "*"
}

// exampleRequestType is the media type of an example's request body.
func exampleRequestType(op *spec.Operation, ex *examples.Example) string {
	r := ex.Request
	if ct := r.ContentType; ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err == nil {
			return mt
		}
		return ct
	}
	if r.Body == nil && r.FormFields == nil && r.Multipart == nil {
		if ex.Inline || ex.Partial {
			return requestTypes(op)[0]
		}
		return ""
	}
	return requestTypes(op)[0]
}

// exampleResponse is the status and media type an example expects.
func exampleResponse(op *spec.Operation, ex *examples.Example) (status, mediaType string) {
	r := ex.Response
	var declared *spec.Response
	switch {
	case r == nil:
		declared = successResponse(op)
		if declared == nil {
			return "2XX", ""
		}
		status = declared.Status
	case r.Status != 0:
		status = strconv.Itoa(r.Status)
		declared = contract.ResponseFor(op, r.Status)
	default:
		status = r.SpecStatus
		if status == "" {
			status = "2XX"
		}
		for _, d := range op.Responses {
			if d.Status == status {
				declared = d
			}
		}
	}
	if r != nil && r.ContentType != "" {
		if mt, _, err := mime.ParseMediaType(r.ContentType); err == nil {
			return status, mt
		}
		return status, r.ContentType
	}
	if declared != nil && len(declared.Content) > 0 {
		return status, declared.Content[0].Name
	}
	return status, ""
}

// evalContext is the context an example's notations are resolved in.
func (p *Plan) evalContext(s *runState, ex *examples.Example) *examples.Context {
	getenv := func(name string) (string, bool) {
		v := p.getenv(name)
		return v, v != ""
	}
	return ex.Context(&examples.Context{Getenv: getenv, Store: s.store, Strict: p.opts.StrictMode, Generate: lenientValue})
}

// lenientValue stands in for a variable or lookup that nothing resolves,
// when strictMode is off: recognisable, and the same on every run.
func lenientValue(u examples.Unresolved) (any, error) {
	typ, format := u.Type.JSONType()
	switch typ {
	case "integer", "number":
		return json.Number("1"), nil
	case "boolean":
		return true, nil
	case "object":
		return map[string]any{}, nil
	case "array":
		return []any{}, nil
	}
	switch format {
	case "email":
		return "generated@example.com", nil
	case "uuid":
		return "00000000-0000-4000-8000-000000000000", nil
	case "date":
		return "2000-01-01", nil
	case "date-time":
		return "2000-01-01T00:00:00Z", nil
	}
	name := u.Name
	if name == "" {
		name = u.Field
	}
	if name == "" {
		name = "value"
	}
	return "generated-" + name, nil
}
