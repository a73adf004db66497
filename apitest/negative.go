package apitest

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

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
	for _, f := range root.node.Get("properties").ObjectFields() {
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
