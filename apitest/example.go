package apitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/schema"
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
	var set *examples.Set
	if isLocal(src.Path) {
		set = examples.Discover(src.Path, dirs, examples.Options{})
	} else {
		set = examples.Load(dirs, examples.Options{})
	}
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

func isLocal(path string) bool {
	return path != "-" && !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://")
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

// makeExample runs the example's before fixtures, then builds its
// request: valid generated values for what the example leaves out (an
// inline example's required parameters without examples), the example's
// own values over them.
func (p *Plan) makeExample(s *runState, t *Test, c *exampleCase) (*prepared, error) {
	o, ex := t.op, c.ex
	ctx := p.evalContext(s, ex)
	scenario := ex.Scenario()
	for _, f := range examples.Fixtures(ex.Before, scenario) {
		if err := p.runFixture(s, ctx, f, o); err != nil {
			return nil, err
		}
	}
	if after := examples.Fixtures(ex.After, scenario); len(after) > 0 {
		s.after = func() {
			for _, f := range after {
				p.runFixture(s, ctx, f, o)
			}
		}
	}
	gen := *t
	gen.RequestType = ""
	if ex.Inline || ex.Partial {
		gen.RequestType = t.RequestType
	}
	if rts := requestTypes(o.op); !slices.Contains(rts, gen.RequestType) {
		gen.RequestType = ""
	}
	v, err := p.validValues(s, &gen, schema.NewGenerator(p.seedOf(t)))
	if err != nil && !ex.Inline {
		// An external example says what to send; a value it leaves out
		// that cannot be generated is left out.
		v = contract.Values{Path: map[string]any{}, Query: map[string]any{}, Header: map[string]any{}, Cookie: map[string]any{}}
	} else if err != nil {
		return nil, err
	}
	req := ex.Request
	path, err := evalString(ctx, req.Path, "$.http-request.path")
	if err != nil {
		return nil, err
	}
	for _, prm := range req.PathParams {
		val, err := ctx.EvalAt(prm.Value, "$.path."+prm.Name)
		if err != nil {
			return nil, err
		}
		v.Path[prm.Name] = val
	}
	// Path variables the example's literal path fills.
	if path != "" && !strings.Contains(path, "{") {
		if rt := o.spec.routeValues(o, req.Method, path); rt != nil {
			for _, pp := range rt.PathParams {
				if _, ok := v.Path[pp.Name]; !ok {
					v.Path[pp.Name] = pp.Value
				}
			}
		}
	}
	query := map[string][]any{}
	var order []string
	for _, q := range req.Query {
		val, err := ctx.EvalAt(q.Value, "$.query."+q.Name)
		if err != nil {
			return nil, err
		}
		if _, ok := query[q.Name]; !ok {
			order = append(order, q.Name)
		}
		query[q.Name] = append(query[q.Name], val)
	}
	for _, name := range order {
		if vals := query[name]; len(vals) == 1 {
			v.Query[name] = vals[0]
		} else {
			v.Query[name] = vals
		}
	}
	mediaType := t.RequestType
	for _, h := range req.Headers {
		val, err := ctx.EvalAt(h.Value, "$.headers."+h.Name)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(h.Name, "Content-Type") {
			if mt, _, err := mime.ParseMediaType(fmt.Sprint(val)); err == nil {
				mediaType = mt
			}
			continue
		}
		v.Header[h.Name] = headerText(val)
	}
	switch {
	case req.Body != nil:
		body, err := ctx.EvalAt(req.Body, "$.body")
		if err != nil {
			return nil, err
		}
		v.Body = body
	case req.FormFields != nil:
		form := map[string]any{}
		for _, f := range req.FormFields {
			val, err := ctx.EvalAt(f.Value, "$.form-fields."+f.Name)
			if err != nil {
				return nil, err
			}
			form[f.Name] = val
		}
		v.Body = form
	case req.Multipart != nil:
		parts := map[string]any{}
		for _, part := range req.Multipart {
			if part.File != "" {
				data, err := os.ReadFile(part.File)
				if err != nil {
					return nil, fmt.Errorf("%s: part %s: %v", part.FileLoc, part.Name, err)
				}
				parts[part.Name] = contract.File{Filename: part.Filename, ContentType: part.ContentType, Data: data}
				continue
			}
			val, err := ctx.EvalAt(part.Content, "$.multipart-formdata."+part.Name)
			if err != nil {
				return nil, err
			}
			parts[part.Name] = val
		}
		v.Body = parts
	}
	if v.Body != nil {
		v.MediaType = mediaType
	} else {
		v.MediaType = ""
	}
	if t.ResponseType != "" {
		if _, set := v.Header["Accept"]; !set {
			v.Header["Accept"] = t.ResponseType
		}
	}
	creds := p.exampleCredentials(s, o, &v)
	undeclaredBody := false
	if v.Body != nil && o.op.RequestBody != nil && len(o.op.RequestBody.Content) > 0 {
		if _, ok := contract.MatchMediaType(v.MediaType, requestTypes(o.op)); !ok {
			undeclaredBody = true // a 415 example: written below as it is
		}
	}
	body, bodyType := v.Body, v.MediaType
	if undeclaredBody {
		v.Body, v.MediaType = nil, ""
	}
	pr, err := p.buildWith(s, t, v, creds)
	if err != nil {
		return nil, err
	}
	if undeclaredBody {
		data, err := rawBody(body, bodyType)
		if err != nil {
			return nil, err
		}
		pr.built.Body = data
		pr.built.Header.Set("Content-Type", bodyType)
	}
	if req.Method != "" {
		pr.built.Method = req.Method
	}
	if path != "" && !strings.Contains(path, "{") {
		// The path without the query a path key writes (formapi's
		// /templates/{id}?full=true): the contract wrote it in the query.
		path, _, _ = strings.Cut(path, "?")
		pr.built.Path = o.spec.stripPrefix(o, path)
	}
	expect := &exampleExpect{ex: ex, ctx: ctx, negative: ex.Kind() != examples.Positive, alternatives: c.alternatives, values: c.values,
		generated: ex.Inline && !ownsRequest(ex.Request), sent: body}
	if ex.Response != nil {
		expect.status, expect.specStatus = ex.Response.Status, ex.Response.SpecStatus
	} else {
		expect.specStatus = t.Status
	}
	expect.capture = func(m map[string]any) {
		for k, val := range m {
			s.store[k] = val
		}
	}
	pr.example = expect
	if !expect.negative {
		if probs := p.contractProblems(t, pr.built); len(probs) > 0 {
			return nil, skipf("the request of example %q (%s) does not satisfy the spec, so a correct service may reject it: %s", ex.Name, ex.Loc, probs[0].String())
		}
	}
	return pr, nil
}

// routeValues routes an example's literal path to read its variables.
func (sp *specPlan) routeValues(o *operation, method, path string) *contract.Route {
	if method == "" {
		method = o.op.Method
	}
	for _, try := range []string{path, strings.TrimRight(sp.contract.Prefix(o.op), "/") + path} {
		if rt, err := sp.contract.Route(method, try); err == nil && rt.Op == o.op {
			return rt
		}
		if rt, err := sp.contract.Route(o.op.Method, try); err == nil && rt.Op == o.op {
			return rt
		}
	}
	return nil
}

// stripPrefix removes the operation's server prefix from an example path
// that writes it, since the base URL adds it.
func (sp *specPlan) stripPrefix(o *operation, path string) string {
	if pre := strings.TrimRight(sp.contract.Prefix(o.op), "/"); pre != "" && sp.routeValues(o, "", path) == nil && strings.HasPrefix(path, pre+"/") {
		return strings.TrimPrefix(path, pre)
	}
	return path
}

// exampleCredentials takes the credentials an example's request carries
// itself (an Authorization header, an API key) out of its values: they
// replace, for this request, those of specgate.yaml or the environment,
// so that one example may send a valid token and another an invalid one.
func (p *Plan) exampleCredentials(s *runState, o *operation, v *contract.Values) map[string]string {
	creds := o.spec.creds.forOperation(o.op)
	if creds == nil {
		return nil
	}
	out := make(map[string]string, len(creds))
	for k, val := range creds {
		out[k] = val
	}
	take := func(m map[string]any, name string) (string, bool) {
		for k, val := range m {
			if strings.EqualFold(k, name) {
				delete(m, k)
				return headerText(val), true
			}
		}
		return "", false
	}
	// One Authorization header serves every scheme of its kind that the
	// operation names (oauth2 in one alternative, bearer in another), so
	// that whichever alternative contract.Authorize picks sends it.
	auth, hasAuth := "", false
	for k, val := range v.Header {
		if strings.EqualFold(k, "Authorization") {
			auth, hasAuth = strings.TrimSpace(headerText(val)), true
		}
	}
	word, rest, _ := strings.Cut(auth, " ")
	usedAuth := false
	for _, name := range sortedKeys(creds) {
		sc := o.spec.schemes[name]
		if sc == nil {
			continue
		}
		switch strings.ToLower(sc.Type) {
		case "apikey":
			m := map[string]map[string]any{"header": v.Header, "query": v.Query, "cookie": v.Cookie}[sc.In]
			if m == nil {
				continue
			}
			if val, ok := take(m, sc.ParamName); ok {
				out[name] = val
				s.secrets.add(val)
			}
		case "http", "oauth2", "openidconnect", "basic":
			want := "bearer"
			if strings.EqualFold(sc.Scheme, "basic") || sc.Type == "basic" {
				want = "basic"
			}
			if hasAuth && strings.EqualFold(word, want) {
				out[name] = strings.TrimSpace(rest)
				usedAuth = true
			}
		}
	}
	if usedAuth {
		take(v.Header, "Authorization")
		s.secrets.add(auth)
	}
	return out
}

// headerText writes a value as header text.
func headerText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case []any, map[string]any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}

// evalString resolves a value that must be text (a path).
func evalString(ctx *examples.Context, v examples.Value, where string) (string, error) {
	if v == nil {
		return "", nil
	}
	out, err := ctx.EvalAt(v, where)
	if err != nil {
		return "", err
	}
	return headerText(out), nil
}

// rawBody writes a body as a 415 example gives it: JSON unless it is
// text.
func rawBody(v any, mediaType string) ([]byte, error) {
	if s, ok := v.(string); ok && !strings.Contains(mediaType, "json") {
		return []byte(s), nil
	}
	return json.Marshal(v)
}

// runFixture sends one fixture's request and checks its response: the
// status it expects (any 2xx when it names none) and its body, whose
// captures are stored for the requests that follow. A failed fixture is
// an error of the test.
func (p *Plan) runFixture(s *runState, ctx *examples.Context, f *examples.Fixture, o *operation) error {
	run := fixtureRun{result: FixtureResult{Phase: f.When, Index: f.Index, Outcome: Passed}}
	fail := func(format string, args ...any) error {
		run.result.Outcome = Failed
		run.result.Message = fmt.Sprintf(format, args...)
		s.fixtures = append(s.fixtures, run)
		return fmt.Errorf("%s fixture %d (%s) failed: %s", f.When, f.Index+1, f.Loc, run.result.Message)
	}
	req, body, err := p.fixtureRequest(s, ctx, f, o)
	if err != nil {
		return fail("%v", err)
	}
	attempts := o.spec.sender.Do(s.ctx, req, body)
	run.attempts = attempts
	last := attempts[len(attempts)-1]
	if last.Err != nil {
		return fail("%s", describeSendError(req, last.Err, o.spec.sender.Client))
	}
	status := last.Response.StatusCode
	want := 0
	if f.Response != nil {
		want = f.Response.Status
	}
	if want == 0 && (status < 200 || status > 299) {
		return fail("expected a 2xx, got %d", status)
	}
	if want != 0 && status != want {
		return fail("expected %d, got %d", want, status)
	}
	if f.Response != nil && f.Response.Body != nil {
		actual := decodeBody(last.Body, last.Response.Header.Get("Content-Type"))
		res := ctx.Check(f.Response.Body, actual, examples.Subset)
		for k, v := range res.Captured {
			s.store[k] = v
			run.result.Captures = append(run.result.Captures, k)
		}
		sort.Strings(run.result.Captures)
		if !res.OK() {
			msgs := make([]string, len(res.Problems))
			for i, pr := range res.Problems {
				msgs[i] = pr.Path + ": " + pr.Message
			}
			return fail("the response does not match: %s", strings.Join(msgs, "; "))
		}
	}
	s.fixtures = append(s.fixtures, run)
	return nil
}

// fixtureRequest builds a fixture's request as written: it may go to
// another service (its baseUrl), so no operation's contract serializes
// it. Query values are sent in form style; a body as JSON, text or form
// fields.
func (p *Plan) fixtureRequest(s *runState, ctx *examples.Context, f *examples.Fixture, o *operation) (*http.Request, []byte, error) {
	r := f.Request
	if r == nil {
		return nil, nil, errors.New("the fixture has no http-request")
	}
	base, err := evalString(ctx, r.BaseURL, "$.http-request.baseUrl")
	if err != nil {
		return nil, nil, err
	}
	if base == "" {
		base = o.spec.base(o)
	}
	path, err := evalString(ctx, r.Path, "$.http-request.path")
	if err != nil {
		return nil, nil, err
	}
	q := url.Values{}
	for _, prm := range r.Query {
		val, err := ctx.EvalAt(prm.Value, "$.http-request.query."+prm.Name)
		if err != nil {
			return nil, nil, err
		}
		if list, ok := val.([]any); ok {
			for _, it := range list {
				q.Add(prm.Name, headerText(it))
			}
		} else {
			q.Add(prm.Name, headerText(val))
		}
	}
	target := strings.TrimRight(base, "/") + path
	if len(q) > 0 {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + q.Encode()
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(s.ctx, method, target, nil)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range r.Headers {
		val, err := ctx.EvalAt(h.Value, "$.http-request.headers."+h.Name)
		if err != nil {
			return nil, nil, err
		}
		text := headerText(val)
		req.Header.Set(h.Name, text)
		if secretHeaders[strings.ToLower(h.Name)] {
			s.secrets.add(text)
		}
	}
	req.Header.Set("User-Agent", userAgent)
	var body []byte
	switch {
	case r.Body != nil:
		val, err := ctx.EvalAt(r.Body, "$.http-request.body")
		if err != nil {
			return nil, nil, err
		}
		ct := req.Header.Get("Content-Type")
		if str, ok := val.(string); ok && ct != "" && !strings.Contains(ct, "json") {
			body = []byte(str)
		} else {
			if body, err = json.Marshal(val); err != nil {
				return nil, nil, err
			}
			if ct == "" {
				req.Header.Set("Content-Type", "application/json")
			}
		}
	case r.FormFields != nil:
		form := url.Values{}
		for _, fld := range r.FormFields {
			val, err := ctx.EvalAt(fld.Value, "$.http-request.form-fields."+fld.Name)
			if err != nil {
				return nil, nil, err
			}
			form.Add(fld.Name, headerText(val))
		}
		body = []byte(form.Encode())
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case r.Multipart != nil:
		return nil, nil, errors.New("multipart requests are not supported in fixtures")
	}
	return req, body, nil
}

// decodeBody reads a response body as a JSON value when it is JSON, else
// as text.
func decodeBody(body []byte, contentType string) any {
	mt, _, _ := mime.ParseMediaType(contentType)
	trimmed := bytes.TrimSpace(body)
	if isJSONType(mt) || mt == "" && len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			return v
		}
	}
	return string(body)
}

// buildWith is build with the credentials given (nil: the operation's).
func (p *Plan) buildWith(s *runState, t *Test, v contract.Values, creds map[string]string) (*prepared, error) {
	if creds == nil {
		return p.build(s, t, v)
	}
	return p.buildCreds(s, t, v, creds)
}
