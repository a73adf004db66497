package apitest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
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
	// placeholders names the schemes whose placeholder credential the
	// request carries, none having been given.
	placeholders []string
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
		v.Set(prm.In, prm.Name, val)
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
		// A placeholder is no secret: shown as sent, a report says that
		// no credential was given.
		pr.placeholders = o.spec.creds.placeholders(creds)
		real := make(map[string]string, len(creds))
		for name, v := range creds {
			if !slices.Contains(pr.placeholders, name) {
				real[name] = v
			}
		}
		s.secrets.addCredentials(real)
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
