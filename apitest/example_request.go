package apitest

import (
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"os"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/schema"
)

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
		// The value goes to the contract as it is, which writes it as the
		// header's style or content declares; null is undefined (RFC 6570
		// §2.3) and leaves the header out, generated value included.
		for k := range v.Header {
			if strings.EqualFold(k, h.Name) {
				delete(v.Header, k)
			}
		}
		if val != nil {
			v.Header[h.Name] = val
		}
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
	// Header names are case-insensitive (RFC 9110 §5.1): an example's
	// accept, however spelt, is its Accept, and the only one sent.
	if t.ResponseType != "" {
		set := false
		for k := range v.Header {
			set = set || strings.EqualFold(k, "Accept")
		}
		if !set {
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
	for _, name := range slices.Sorted(maps.Keys(creds)) {
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

// headerText writes a value as the text of a header, query parameter or
// form field that no parameter declares: a string as it is, anything else
// as its JSON text with <, > and & kept. A null writes "", for callers
// that need text (a path); a header of a null value is left out.
func headerText(v any) string {
	if v == nil {
		return ""
	}
	return contract.InlineText(v)
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

// buildWith is build with the credentials given (nil: the operation's).
func (p *Plan) buildWith(s *runState, t *Test, v contract.Values, creds map[string]string) (*prepared, error) {
	if creds == nil {
		return p.build(s, t, v)
	}
	return p.buildCreds(s, t, v, creds)
}
