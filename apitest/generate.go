package apitest

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// maker builds a test's request when the test runs.
type maker func(st *runState) (*prepared, error)

// prepared is a test's request, ready to send, and what its response is
// held to.
type prepared struct {
	built *contract.BuiltRequest
	// authorized is set when credentials of the spec's security schemes
	// were put on the request (ignored_auth sends it again without them).
	authorized bool
	// stripAuth removes the credentials from a copy of the request.
	stripAuth func(r *contract.BuiltRequest)
	// negative is the broken part of a negative test's request.
	negative *mutation
	// example is what an example test expects.
	example *exampleExpect
}

// errSkip marks a test that cannot be made: specgate cannot write what the
// spec asks for (a media type without a codec, a schema no value
// satisfies). The test is reported as skipped, not failed: the service is
// not at fault.
var errSkip = errors.New("skipped")

type skipError struct{ reason string }

func (e *skipError) Error() string        { return e.reason }
func (e *skipError) Is(target error) bool { return target == errSkip }

func skipf(format string, args ...any) error {
	return &skipError{fmt.Sprintf(format, args...)}
}

// ignoredHeaders are header parameters that OpenAPI says are ignored:
// the request's own machinery sets them.
var ignoredHeaders = []string{"accept", "content-type", "authorization"}

func ignoredHeader(p *spec.Parameter) bool {
	return p.In == "header" && slices.Contains(ignoredHeaders, strings.ToLower(p.Name))
}

// opTests makes the tests of one operation: those of its examples, a
// generated request for its success response when no example covers one,
// and with Options.Negative the requests that break it in one place.
func (p *Plan) opTests(o *operation) []*Test {
	var tests []*Test
	tests = append(tests, p.exampleTests(o)...)
	if !p.hasSuccessExample(tests) {
		tests = append(tests, p.generatedTests(o)...)
	}
	if p.opts.Negative {
		tests = append(tests, p.negativeTests(o)...)
	}
	for _, t := range tests {
		t.Spec, t.op = o.spec.name, o
		if t.Source == "" {
			t.Source = o.where
		}
	}
	return tests
}

func (p *Plan) hasSuccessExample(tests []*Test) bool {
	for _, t := range tests {
		if t.Kind == FromExample && strings.HasPrefix(t.Status, "2") {
			return true
		}
	}
	return false
}

// successResponse is the response a valid generated request aims at: the
// lowest 2xx status declared, else a 2XX range, else default; nil when the
// operation declares no success.
func successResponse(op *spec.Operation) *spec.Response {
	var best, ranged, def *spec.Response
	for _, r := range op.Responses {
		switch {
		case len(r.Status) == 3 && r.Status[0] == '2' && r.Status[1] >= '0' && r.Status[1] <= '9':
			if best == nil || r.Status < best.Status {
				best = r
			}
		case strings.EqualFold(r.Status, "2XX"):
			ranged = r
		case r.Status == "default":
			def = r
		}
	}
	switch {
	case best != nil:
		return best
	case ranged != nil:
		return ranged
	}
	return def
}

// requestTypes are the request body's media types, or [""] without a
// body.
func requestTypes(op *spec.Operation) []string {
	if op.RequestBody == nil || len(op.RequestBody.Content) == 0 {
		return []string{""}
	}
	out := make([]string, len(op.RequestBody.Content))
	for i, m := range op.RequestBody.Content {
		out[i] = m.Name
	}
	return out
}

// responseTypes are a response's media types, or [""] without content.
func responseTypes(r *spec.Response) []string {
	if r == nil || len(r.Content) == 0 {
		return []string{""}
	}
	out := make([]string, len(r.Content))
	for i, m := range r.Content {
		out[i] = m.Name
	}
	return out
}

// generatedTests makes one test per request and response media type of
// the operation's success response.
func (p *Plan) generatedTests(o *operation) []*Test {
	resp := successResponse(o.op)
	if resp == nil {
		return nil
	}
	var out []*Test
	for _, rt := range requestTypes(o.op) {
		for _, st := range responseTypes(resp) {
			t := &Test{Path: o.op.Path, Method: strings.ToUpper(o.op.Method), RequestType: rt, Status: resp.Status, ResponseType: st, Kind: Generated, Name: "generated"}
			t.make = func(s *runState) (*prepared, error) { return p.makeValid(s, t) }
			out = append(out, t)
		}
	}
	if p.opts.Variations && hasOptionalParameters(o.op) {
		t := &Test{Path: o.op.Path, Method: strings.ToUpper(o.op.Method), RequestType: requestTypes(o.op)[0], Status: resp.Status,
			ResponseType: responseTypes(resp)[0], Kind: Generated, Name: "with every optional parameter", optional: true}
		t.make = func(s *runState) (*prepared, error) { return p.makeValid(s, t) }
		out = append(out, t)
	}
	return out
}

// hasOptionalParameters reports whether an operation takes a parameter a
// request may leave out.
func hasOptionalParameters(op *spec.Operation) bool {
	for _, prm := range op.Parameters {
		if !prm.Required && prm.In != "path" && !ignoredHeader(prm) {
			return true
		}
	}
	return false
}

// seedOf is the seed of one test's values: the run's seed mixed with the
// test's identity, so that a test sends the same values whatever runs
// before it, in parallel with it, or in another shard.
func (p *Plan) seedOf(t *Test) uint64 {
	h := fnv.New64a()
	h.Write([]byte(t.ID()))
	return p.opts.Seed ^ h.Sum64()
}

// validValues generates a valid request of the test's operation: every
// required parameter, the body in the test's request media type, and an
// Accept header for the response media type.
func (p *Plan) validValues(s *runState, t *Test, g *schema.Generator) (contract.Values, error) {
	o := t.op
	v := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Header: map[string]any{}, Cookie: map[string]any{}}
	for _, prm := range o.op.Parameters {
		if !prm.Required && prm.In != "path" && !t.optional || ignoredHeader(prm) {
			continue
		}
		alt, altSrc := paramContentSchema(prm)
		val, err := p.generate(o.spec, prm.Schema, prm.SchemaSource, alt, altSrc, g, prm.In+" parameter "+prm.Name)
		if err != nil {
			return v, err
		}
		switch prm.In {
		case "path":
			v.Path[prm.Name] = val
		case "query":
			v.Query[prm.Name] = val
		case "header":
			v.Header[prm.Name] = val
		case "cookie":
			v.Cookie[prm.Name] = val
		}
	}
	if t.RequestType != "" {
		mt := mediaOf(o.op.RequestBody.Content, t.RequestType)
		body, err := p.generateBody(o.spec, o.op.RequestBody, mt, g)
		if err != nil {
			return v, err
		}
		v.Body, v.MediaType = body, t.RequestType
	}
	if t.ResponseType != "" {
		v.Header["Accept"] = t.ResponseType
	}
	return v, nil
}

// paramContentSchema is the schema of a parameter described by content
// (OpenAPI 3: one media type holding a schema), and where it is written.
func paramContentSchema(prm *spec.Parameter) (*spec.Node, spec.Path) {
	content := prm.Node.Get("content")
	if content == nil || len(content.Fields) == 0 {
		return nil, nil
	}
	f := content.Fields[0]
	return f.Value.Get("schema"), append(append(spec.Path{}, prm.Source...), "content", f.Key, "schema")
}

func mediaOf(list []*spec.MediaType, name string) *spec.MediaType {
	for _, m := range list {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// generate draws a valid value of a schema for a request; what names it
// in messages. A schema that cannot be compiled or satisfied skips the
// test.
func (p *Plan) generate(sp *specPlan, node *spec.Node, src spec.Path, alt *spec.Node, altSrc spec.Path, g *schema.Generator, what string) (any, error) {
	if node == nil {
		node, src = alt, altSrc
	}
	if node == nil {
		return "specgate", nil // a parameter without a schema takes any text
	}
	sc, err := sp.schemas.Compile(node, src)
	if err != nil {
		return nil, skipf("the schema of %s does not compile: %v", what, err)
	}
	v, err := sc.Generate(g, schema.Request)
	if err != nil {
		return nil, skipf("no valid value of %s could be generated: %v", what, err)
	}
	return v, nil
}

// generateBody draws a valid body of a media type; one without a schema
// gets an empty object (JSON) or a short text. Swagger 2.0 formData
// parameters are the fields of an object, a file one's value a file.
func (p *Plan) generateBody(sp *specPlan, rb *spec.RequestBody, mt *spec.MediaType, g *schema.Generator) (any, error) {
	if mt == nil {
		return nil, nil
	}
	if len(rb.FormData) > 0 {
		fields := map[string]any{}
		for _, prm := range rb.FormData {
			if !prm.Required {
				continue
			}
			if prm.Node.GetStr("type") == "file" {
				fields[prm.Name] = contract.File{Filename: prm.Name + ".bin", ContentType: "application/octet-stream", Data: []byte("specgate")}
				continue
			}
			v, err := p.generate(sp, prm.Schema, prm.SchemaSource, nil, nil, g, "form field "+prm.Name)
			if err != nil {
				return nil, err
			}
			fields[prm.Name] = v
		}
		return fields, nil
	}
	if mt.Schema == nil {
		if isJSONType(mt.Name) {
			return map[string]any{}, nil
		}
		return "specgate", nil
	}
	return p.generate(sp, mt.Schema, mt.SchemaSource, nil, nil, g, "the request body ("+mt.Name+")")
}

func isJSONType(mt string) bool {
	mt = strings.ToLower(strings.TrimSpace(strings.SplitN(mt, ";", 2)[0]))
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "*/*" || mt == "application/*"
}

// makeValid builds a generated test's valid request. The contract judges
// it as a server would: a request that does not pass (a schema no value
// generated for it satisfies, a body a codec cannot write faithfully) is
// not sent, and the test is skipped, since a correct service could reject
// it.
func (p *Plan) makeValid(s *runState, t *Test) (*prepared, error) {
	g := schema.NewGenerator(p.seedOf(t))
	v, err := p.validValues(s, t, g)
	if err != nil {
		return nil, err
	}
	pr, err := p.build(s, t, v)
	if err != nil {
		return nil, err
	}
	if probs := p.contractProblems(t, pr.built); len(probs) > 0 {
		return nil, skipf("specgate could not generate a valid request: %s", probs[0].Message)
	}
	return pr, nil
}

// build serializes values into the test's request, with the credentials
// of the operation's security requirement.
func (p *Plan) build(s *runState, t *Test, v contract.Values) (*prepared, error) {
	return p.buildCreds(s, t, v, t.op.spec.creds.forOperation(t.op.op))
}

// buildCreds serializes values with the credentials given.
func (p *Plan) buildCreds(s *runState, t *Test, v contract.Values, creds map[string]string) (*prepared, error) {
	o := t.op
	if len(creds) > 0 {
		v.Credentials = creds
	}
	b, err := o.spec.contract.BuildRequest(o.op, v)
	if err != nil {
		return nil, skipf("the request cannot be written: %v", err)
	}
	pr := &prepared{built: b}
	if len(creds) > 0 {
		s.secrets.addCredentials(creds)
		v.Credentials = nil
		pr.authorized = true
		pr.stripAuth = func(r *contract.BuiltRequest) {
			clean, err := o.spec.contract.BuildRequest(o.op, v)
			if err == nil {
				clean.Method, clean.Path = r.Method, r.Path
				*r = *clean
			}
		}
	}
	return pr, nil
}

// mutation is the one place where a negative test's request breaks the
// contract.
type mutation struct {
	// check is the check that judges the response: negative_data_rejection,
	// missing_required_header, unsupported_content_type or
	// unsupported_method.
	check  string
	desc   string
	expect []int
	// values changes the valid values before they are built; request
	// changes the built request.
	values  func(v *contract.Values) error
	request func(r *contract.BuiltRequest)
	// method is the method an unsupported_method test sends.
	method string
}

// negativeTests makes one test per way the operation's request can be
// broken in one documented place, so that a correct service must reject
// it: a missing required parameter, body or property, a value of the
// wrong type or out of range, an undeclared property where none is
// allowed, an unsupported Content-Type, and (once per path) an undeclared
// method. Path parameters are left alone: a service may answer a path
// that does not parse with 404, which is no less correct.
func (p *Plan) negativeTests(o *operation) []*Test {
	var muts []*mutation
	if p.checks.has("negative_data_rejection") || p.checks.has("missing_required_header") {
		muts = append(muts, p.parameterMutations(o)...)
	}
	reqTypes := requestTypes(o.op)
	if p.checks.has("negative_data_rejection") {
		muts = append(muts, p.bodyMutations(o, reqTypes[0])...)
	}
	if p.checks.has("unsupported_content_type") && o.op.RequestBody != nil && len(o.op.RequestBody.Content) > 0 {
		if m := p.mediaTypeMutation(o); m != nil {
			muts = append(muts, m)
		}
	}
	if p.checks.has("unsupported_method") {
		if m := p.methodMutation(o); m != nil {
			muts = append(muts, m)
		}
	}
	var out []*Test
	for _, m := range muts {
		if !p.checks.has(m.check) {
			continue
		}
		t := &Test{Path: o.op.Path, Method: strings.ToUpper(o.op.Method), RequestType: reqTypes[0], Status: statusClass(m.expect), Kind: Negative, Name: m.desc}
		switch m.check {
		case "unsupported_method":
			t.Method, t.RequestType, t.refuses = m.method, "", refusesMethod
		case "unsupported_content_type":
			t.refuses = refusesMediaType
		}
		m := m
		t.neg = m
		t.make = func(s *runState) (*prepared, error) { return p.makeNegative(s, t, m) }
		out = append(out, t)
	}
	return out
}

// statusClass names expected statuses as a test's status: "415", or
// "4XX" for several of one class.
func statusClass(codes []int) string {
	if len(codes) == 1 {
		return strconv.Itoa(codes[0])
	}
	class := codes[0] / 100
	for _, c := range codes {
		if c/100 != class {
			return "*"
		}
	}
	return strconv.Itoa(class) + "XX"
}

// makeNegative builds a valid request and breaks it. The contract judges
// both, as a server would: the valid one must pass and the broken one
// must not, so that a correct service cannot fail the test; when either
// is not so, the test is skipped.
func (p *Plan) makeNegative(s *runState, t *Test, m *mutation) (*prepared, error) {
	g := schema.NewGenerator(p.seedOf(t))
	valid := *t
	valid.Kind, valid.Name = Generated, "generated"
	if m.check == "unsupported_method" {
		// The valid request is the operation's, body and all; the
		// mutation takes the body off with the method.
		valid.RequestType = requestTypes(t.op.op)[0]
	}
	v, err := p.validValues(s, &valid, g)
	if err != nil {
		return nil, err
	}
	base, err := p.build(s, t, v)
	if err != nil {
		return nil, err
	}
	if probs := p.contractProblems(t, base.built); len(probs) > 0 {
		return nil, skipf("specgate could not generate a valid request to break: %s", probs[0].Message)
	}
	if m.values != nil {
		if err := m.values(&v); err != nil {
			return nil, skipf("%v", err)
		}
	}
	pr, err := p.build(s, t, v)
	if err != nil {
		return nil, err
	}
	if m.request != nil {
		m.request(pr.built)
	}
	if m.method != "" && routesElsewhere(t.op.spec.contract, m.method, strings.TrimRight(t.op.spec.contract.Prefix(t.op.op), "/")+pr.built.Path) {
		return nil, skipf("%s %s is an operation of the spec: another path template matches the URL", m.method, pr.built.Path)
	}
	if probs := p.contractProblems(t, pr.built); len(probs) == 0 {
		return nil, skipf("the request with %s is valid after all: the spec's contract finds nothing wrong with it", m.desc)
	}
	pr.negative = m
	return pr, nil
}

// contractProblems judges a built request as a server would (the mock
// does the same): its problems, but for credentials, which the request
// carries whatever their value.
func (p *Plan) contractProblems(t *Test, b *contract.BuiltRequest) []contract.Problem {
	sp := t.op.spec
	res := sp.contract.CheckRequest(b.Request(sp.contract.Prefix(t.op.op)))
	var out []contract.Problem
	for _, pb := range res.Problems {
		if pb.In != contract.InSecurity {
			out = append(out, pb)
		}
	}
	return out
}

// parameterMutations breaks one query, header or cookie parameter.
func (p *Plan) parameterMutations(o *operation) []*mutation {
	var out []*mutation
	for _, prm := range o.op.Parameters {
		if prm.In == "path" || ignoredHeader(prm) || p.isCredential(o, prm) {
			continue
		}
		prm := prm
		where := prm.In + " parameter " + prm.Name
		if prm.In == "header" {
			where = "header " + prm.Name
		}
		setter := func(v *contract.Values, val any, del bool) {
			m := map[string]map[string]any{"query": v.Query, "header": v.Header, "cookie": v.Cookie}[prm.In]
			if del {
				delete(m, prm.Name)
			} else {
				m[prm.Name] = val
			}
		}
		if prm.Required {
			check := "negative_data_rejection"
			if prm.In == "header" {
				check = "missing_required_header"
			}
			out = append(out, &mutation{check: check, desc: "missing required " + where, expect: p.expect.InvalidData,
				values: func(v *contract.Values) error { setter(v, nil, true); return nil }})
		}
		sch := p.simple(o.spec, prm.Schema)
		if sch == nil {
			continue
		}
		for _, bad := range sch.invalidValues(prm.In != "query" && prm.In != "header" && prm.In != "cookie") {
			bad := bad
			out = append(out, &mutation{check: "negative_data_rejection", desc: where + " " + bad.desc, expect: p.expect.InvalidData,
				values: func(v *contract.Values) error { setter(v, bad.value, false); return nil }})
		}
	}
	return out
}

// isCredential reports whether a parameter is where a security scheme
// of the spec carries its credential (an apiKey's header): breaking it is
// ignored_auth's business, not a data check's.
func (p *Plan) isCredential(o *operation, prm *spec.Parameter) bool {
	for _, s := range o.spec.schemes {
		if strings.EqualFold(s.Type, "apiKey") && s.In == prm.In && strings.EqualFold(s.ParamName, prm.Name) {
			return true
		}
	}
	return false
}

// bodyMutations breaks a JSON request body: a required body left out,
// the body of another type, and for an object body one property at a time.
func (p *Plan) bodyMutations(o *operation, reqType string) []*mutation {
	rb := o.op.RequestBody
	if rb == nil || reqType == "" || !isJSONType(reqType) || strings.Contains(reqType, "*") {
		return nil
	}
	var out []*mutation
	if rb.Required {
		// Without a body there is no Content-Type either: a service may
		// answer 415 as rightly as 400.
		expect := append(slices.Clone(p.expect.InvalidData), p.expect.MediaType...)
		out = append(out, &mutation{check: "negative_data_rejection", desc: "missing required body", expect: expect,
			values: func(v *contract.Values) error { v.Body = nil; return nil }})
	}
	mt := mediaOf(rb.Content, reqType)
	if mt == nil || mt.Schema == nil {
		return out
	}
	root := p.simple(o.spec, mt.Schema)
	if root == nil || root.typ != "object" {
		return out
	}
	out = append(out, &mutation{check: "negative_data_rejection", desc: "body is an array, not an object", expect: p.expect.InvalidData,
		values: func(v *contract.Values) error { v.Body = []any{}; return nil }})
	setProp := func(name string, val any, del bool) func(v *contract.Values) error {
		return func(v *contract.Values) error {
			obj, ok := v.Body.(map[string]any)
			if !ok {
				return fmt.Errorf("the generated body is not an object")
			}
			cp := make(map[string]any, len(obj)+1)
			for k, x := range obj {
				cp[k] = x
			}
			if del {
				delete(cp, name)
			} else {
				cp[name] = val
			}
			v.Body = cp
			return nil
		}
	}
	for _, name := range root.required {
		prop := p.simpleProp(o.spec, root, name)
		if prop != nil && prop.readOnly {
			continue // not required of requests
		}
		out = append(out, &mutation{check: "negative_data_rejection", desc: "body without required property " + name, expect: p.expect.InvalidData,
			values: setProp(name, nil, true)})
	}
	for _, f := range fieldsOf(root.node.Get("properties")) {
		prop := p.simple(o.spec, f.Value)
		if prop == nil || prop.readOnly {
			continue
		}
		for _, bad := range prop.invalidValues(true) {
			out = append(out, &mutation{check: "negative_data_rejection", desc: "body property " + f.Key + " " + bad.desc, expect: p.expect.InvalidData,
				values: setProp(f.Key, bad.value, false)})
		}
	}
	if ap := root.node.Get("additionalProperties"); ap != nil && ap.Kind == spec.Bool && ap.Value == "false" {
		name := "specgate_undeclared"
		for root.node.Get("properties").Get(name) != nil {
			name += "_"
		}
		out = append(out, &mutation{check: "negative_data_rejection", desc: "body with undeclared property " + name + " (additionalProperties: false)", expect: p.expect.InvalidData,
			values: setProp(name, "x", false)})
	}
	return out
}

// unsupportedType is the Content-Type that negative tests send a body as:
// no operation declares it.
const unsupportedType = "application/x-specgate-unsupported"

// mediaTypeMutation sends the body under a Content-Type the operation
// does not accept; none when a declared range would cover it.
func (p *Plan) mediaTypeMutation(o *operation) *mutation {
	var names []string
	for _, m := range o.op.RequestBody.Content {
		names = append(names, m.Name)
	}
	if _, covered := contract.MatchMediaType(unsupportedType, names); covered {
		return nil
	}
	return &mutation{check: "unsupported_content_type", desc: "body sent as " + unsupportedType, expect: p.expect.MediaType,
		request: func(r *contract.BuiltRequest) {
			if len(r.Body) == 0 {
				r.Body = []byte("specgate")
			}
			r.Header.Set("Content-Type", unsupportedType)
		}}
}

// methodMutation sends, once per path (with its first operation), a
// method that no operation takes for the path's URLs: one the path does
// not declare and that no other template matching the URL declares
// (PUT /accounts/historicalBalances goes to PUT /accounts/{accountId}).
// The method is chosen on the template with its variables filled with
// text no literal segment has; makeNegative checks it again on the URL it
// sends.
func (p *Plan) methodMutation(o *operation) *mutation {
	if len(o.allow) == 0 || o.allow[0] != strings.ToUpper(o.op.Method) {
		return nil
	}
	sample := strings.TrimRight(o.spec.contract.Prefix(o.op), "/") + templateVars.ReplaceAllString(o.op.Path, "specgate-0")
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete, http.MethodPatch} {
		if slices.Contains(o.allow, m) || routesElsewhere(o.spec.contract, m, sample) {
			continue
		}
		return &mutation{check: "unsupported_method", desc: "undeclared method " + m, expect: p.expect.Method, method: m,
			request: func(r *contract.BuiltRequest) {
				r.Method = m
				r.Body = nil
				r.Header.Del("Content-Type")
			}}
	}
	return nil
}

var templateVars = regexp.MustCompile(`\{[^}/]*\}`)

// routesElsewhere reports whether an operation answers method at path, the
// whole path of a request: the contract routes it rather than answering
// 405 (or 404, for a sample path that a template's enum rejects).
func routesElsewhere(c *contract.Contract, method, path string) bool {
	_, err := c.Route(method, path)
	return err == nil
}

// simpleSchema is what a negative test needs to know of a schema to
// break it for sure: one type, its bounds and enum, nothing that could
// make another value valid (composition, conditionals, several types).
type simpleSchema struct {
	node     *spec.Node
	typ      string // integer, number, boolean, string, array, object
	readOnly bool
	required []string
	enum     []*spec.Node
	max, min *spec.Node // maximum and minimum
	exclMax  *spec.Node // OpenAPI 3.1's numeric exclusiveMaximum
	exclMin  *spec.Node
	maxLen   int // -1 when unbounded
	minLen   int
}

// simple reads a schema as a simpleSchema; nil when it is not one.
func (p *Plan) simple(sp *specPlan, n *spec.Node) *simpleSchema {
	n = sp.doc.Deref(n)
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not", "if", "discriminator", "$ref", "$dynamicRef", "x-specgate-nullable"} {
		if n.Get(k) != nil {
			return nil
		}
	}
	s := &simpleSchema{node: n, readOnly: n.Get("readOnly").IsTrue(), maxLen: -1}
	switch t := n.Get("type"); {
	case t == nil:
		return nil
	case t.Kind == spec.String:
		s.typ = t.Value
	case t.Kind == spec.Array:
		for _, it := range t.Items {
			if it.Value == "null" {
				continue
			}
			if s.typ != "" {
				return nil
			}
			s.typ = it.Value
		}
	}
	switch s.typ {
	case "integer", "number", "boolean", "string", "array", "object":
	default:
		return nil
	}
	if req := n.Get("required"); req != nil && req.Kind == spec.Array {
		for _, r := range req.Items {
			if r.Kind == spec.String {
				s.required = append(s.required, r.Value)
			}
		}
	}
	if e := n.Get("enum"); e != nil && e.Kind == spec.Array {
		s.enum = e.Items
	}
	s.max, s.min = n.Get("maximum"), n.Get("minimum")
	if x := n.Get("exclusiveMaximum"); x != nil && x.Kind == spec.Number {
		s.exclMax = x
	}
	if x := n.Get("exclusiveMinimum"); x != nil && x.Kind == spec.Number {
		s.exclMin = x
	}
	if x := n.Get("maxLength"); x != nil && x.Kind == spec.Number {
		if v, err := strconv.Atoi(x.Value); err == nil {
			s.maxLen = v
		}
	}
	if x := n.Get("minLength"); x != nil && x.Kind == spec.Number {
		if v, err := strconv.Atoi(x.Value); err == nil {
			s.minLen = v
		}
	}
	return s
}

func (p *Plan) simpleProp(sp *specPlan, obj *simpleSchema, name string) *simpleSchema {
	return p.simple(sp, obj.node.Get("properties").Get(name))
}

// badValue is a value that breaks one constraint of a schema.
type badValue struct {
	desc  string
	value any
}

// maxLongValue bounds the strings made to break a maxLength.
const maxLongValue = 4096

// invalidValues are values that break the schema for certain, one
// constraint each. typed says whether the value travels as JSON (a body
// property: a string is not a number) or as text (a parameter: only text
// that does not parse as the type breaks it).
func (s *simpleSchema) invalidValues(typed bool) []badValue {
	var out []badValue
	switch s.typ {
	case "integer", "number":
		out = append(out, badValue{"is not a number", "specgate"})
	case "boolean":
		out = append(out, badValue{"is not a boolean", "specgate"})
	case "string":
		if typed {
			out = append(out, badValue{"is not a string", json.Number("12345")})
		}
	case "array", "object":
		if typed {
			out = append(out, badValue{"is not " + article(s.typ), "specgate"})
		}
	}
	if s.typ == "integer" || s.typ == "number" {
		if v, ok := beyond(s.max, 1); ok {
			out = append(out, badValue{"above its maximum " + s.max.Value, v})
		} else if v, ok := beyond(s.exclMax, 0); ok {
			out = append(out, badValue{"at its exclusive maximum " + s.exclMax.Value, v})
		}
		if v, ok := beyond(s.min, -1); ok {
			out = append(out, badValue{"below its minimum " + s.min.Value, v})
		} else if v, ok := beyond(s.exclMin, 0); ok {
			out = append(out, badValue{"at its exclusive minimum " + s.exclMin.Value, v})
		}
	}
	if s.typ == "string" {
		if s.maxLen >= 0 && s.maxLen < maxLongValue {
			out = append(out, badValue{fmt.Sprintf("longer than its maxLength %d", s.maxLen), strings.Repeat("x", s.maxLen+1)})
		}
		if s.minLen > 1 {
			out = append(out, badValue{fmt.Sprintf("shorter than its minLength %d", s.minLen), strings.Repeat("x", s.minLen-1)})
		}
		if len(s.enum) > 0 {
			allStrings := true
			taken := map[string]bool{}
			for _, e := range s.enum {
				allStrings = allStrings && e.Kind == spec.String
				taken[e.Value] = true
			}
			if allStrings {
				v := "specgate-not-in-enum"
				for taken[v] {
					v += "-"
				}
				out = append(out, badValue{"not one of its enum values", v})
			}
		}
	}
	return out
}

func article(typ string) string {
	if typ == "array" || typ == "object" || typ == "integer" {
		return "an " + typ
	}
	return "a " + typ
}

// beyond returns the number bound+delta (delta 1 above a maximum, -1
// below a minimum, 0 at an exclusive bound) as a JSON number.
func beyond(bound *spec.Node, delta int64) (json.Number, bool) {
	if bound == nil || bound.Kind != spec.Number {
		return "", false
	}
	r, ok := parseRat(bound.Value)
	if !ok {
		return "", false
	}
	r.Add(r, ratInt(delta))
	return json.Number(formatRat(r)), true
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func parseRat(s string) (*big.Rat, bool) { return new(big.Rat).SetString(s) }

func ratInt(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

// formatRat writes a rational as a JSON number: an integer when it is
// one, else a decimal.
func formatRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := strings.TrimRight(r.FloatString(12), "0")
	return strings.TrimSuffix(s, ".")
}

// fieldsOf returns the fields of an object node; none for anything else.
func fieldsOf(n *spec.Node) []spec.Field {
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	return n.Fields
}
