package mock

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Examples come from the examples package: the inline examples of each
// spec, paired by name (examples.Inline), and the external example files of
// each spec's <name>_examples folder and the configured folders
// (examples.Load). Each is turned here into what the mock matches and
// answers with: the request values it names, typed by their schemas, and
// its response.

// loadExamples gives each operation of gen its examples: those written in
// the spec (inline), then the external files of the example folders. It
// returns the folders read, for hot reload.
func (s *Server) loadExamples(gen *generation) ([]string, []error) {
	var errs []error
	for _, a := range gen.apis {
		in := <-a.inline
		for _, e := range in.Errors {
			// An externalValue that cannot be read leaves that example out;
			// the spec itself loaded.
			s.opts.Logger.Warn("inline example skipped", slog.String("error", e.Error()))
		}
		for _, ex := range in.Examples {
			op := a.byOp[ex.Operation]
			if op == nil || ex.Response == nil {
				continue // a webhook's, or a request-only example
			}
			if e := s.inlineExample(a, op, ex); e != nil {
				op.examples = append(op.examples, e)
			}
		}
	}
	var dirs []string
	seen := map[string]bool{}
	for i, src := range s.opts.Specs {
		for _, d := range exampleDirs(src.Path, s.opts.Examples) {
			if seen[d] {
				continue
			}
			seen[d] = true
			st, err := os.Stat(d)
			if err != nil || !st.IsDir() {
				if i == 0 || !slices.Contains(s.opts.Examples, d) {
					errs = append(errs, fmt.Errorf("%s: the examples folder cannot be read: %v", d, errOrNotDir(err)))
				}
				continue
			}
			dirs = append(dirs, d)
		}
	}
	set := examples.Load(dirs, examples.Options{})
	for _, e := range set.Errors {
		errs = append(errs, e)
	}
	for _, ex := range set.Examples {
		op, e, err := s.externalExample(gen, ex, fromFile)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if op == nil {
			gen.notAllowed = append(gen.notAllowed, e)
			continue
		}
		op.examples = append(op.examples, e)
	}
	for _, a := range gen.apis {
		for _, op := range a.ops {
			sort.SliceStable(op.examples, func(i, j int) bool { return op.examples[i].origin < op.examples[j].origin })
		}
	}
	return dirs, errs
}

// exampleDirs are the folders searched for a spec's external examples:
// <spec name without extension>_examples beside it, when it exists, then
// the configured folders.
func exampleDirs(specPath string, configured []string) []string {
	var dirs []string
	if !strings.Contains(specPath, "://") {
		if d := examples.DefaultDir(specPath); isDir(d) {
			dirs = append(dirs, d)
		}
	}
	return append(dirs, configured...)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func errOrNotDir(err error) error {
	if err != nil {
		if os.IsNotExist(err) {
			return errors.New("no such folder")
		}
		return err
	}
	return errors.New("not a folder")
}

// inlineExample turns an inline example into an answer. A response
// example paired by name with request examples answers the requests that
// hold the values named so (parameters and body whose examples carry its
// name); an unpaired one answers any request of its operation.
func (s *Server) inlineExample(a *api, op *operation, ex *examples.Example) *example {
	resp := ex.Response
	status := resp.Status
	if status == 0 {
		status = statusOf(resp.SpecStatus)
	}
	e := &example{name: ex.Name, source: ex.Loc.String(), origin: fromSpec, ex: ex, status: status,
		response: declaredResponse(op.op, resp.SpecStatus), kind: ex.Kind()}
	if e.response == nil || resp.Body == nil && len(resp.Headers) == 0 {
		return nil // only request values: nothing to answer with
	}
	s.setResponse(e, resp)
	if ex.Pairing == examples.Paired && ex.Request != nil {
		e.request = a.pairedRequest(op, ex)
	}
	e.ctx = ex.Context(s.baseContext())
	return e
}

// declaredResponse is the response of op written under key ("200", "4XX",
// "default").
func declaredResponse(op *spec.Operation, key string) *spec.Response {
	for _, r := range op.Responses {
		if r.Status == key {
			return r
		}
	}
	return nil
}

// pairedRequest is the part of a paired inline example's request that its
// name selects: the parameters and the body whose examples carry the name.
// The other values of the request are those of unnamed examples, filled in
// by the examples package to make a whole request; they do not constrain
// which request the example answers.
func (a *api) pairedRequest(op *operation, ex *examples.Example) *requestMatch {
	m := &requestMatch{mode: examples.Equal}
	t := typer{a.doc}
	named := func(in, name string) *spec.Parameter {
		for _, p := range op.op.Parameters {
			if p.In == in && strings.EqualFold(p.Name, name) && hasNamedExample(a.doc, p.Node, ex.Name) {
				return p
			}
		}
		return nil
	}
	add := func(in string, ps []examples.Param) {
		for _, p := range ps {
			if sp := named(in, p.Name); sp != nil {
				m.params = append(m.params, paramMatch{in: in, name: sp.Name, declared: true, value: t.coerceValue(paramSchema(sp), p.Value, 0)})
			}
		}
	}
	add("path", ex.Request.PathParams)
	add("query", ex.Request.Query)
	add("header", ex.Request.Headers)
	if rb := op.op.RequestBody; rb != nil {
		for _, mt := range rb.Content {
			if mt.Name != ex.Request.ContentType || !hasNamedExample(a.doc, mt.Node, ex.Name) {
				continue
			}
			m.contentType = mt.Name
			setBodyMatch(m, t, mt, ex.Request)
		}
	}
	if len(m.params) == 0 && !m.hasBody {
		return nil
	}
	return m
}

// hasNamedExample reports whether a parameter or media type object has an
// example named name (examples, or Swagger's x-examples).
func hasNamedExample(doc *spec.Document, holder *spec.Node, name string) bool {
	for _, key := range []string{"examples", "x-examples"} {
		if exs := doc.Deref(holder.Get(key)); exs != nil && exs.Kind == spec.Object && exs.Get(name) != nil {
			return true
		}
	}
	return false
}

// paramSchema is the schema of a parameter, or of its content's media
// type.
func paramSchema(p *spec.Parameter) *spec.Node {
	if p.Schema != nil {
		return p.Schema
	}
	if c := p.Node.Get("content"); c != nil && len(c.Fields) > 0 {
		return c.Fields[0].Value.Get("schema")
	}
	return nil
}

// setBodyMatch sets the body an example's request names: a JSON body, the
// fields of a form or the parts of a multipart request (typed by the
// body's schema), or the text of a body that is not JSON.
func setBodyMatch(m *requestMatch, t typer, mt *spec.MediaType, req *examples.Request) {
	var sch *spec.Node
	if mt != nil {
		sch = mt.Schema
	}
	switch {
	case req.FormFields != nil:
		obj := &examples.Object{At: req.Loc}
		for _, f := range req.FormFields {
			obj.Fields = append(obj.Fields, examples.Field{Key: f.Name, KeyAt: f.NameLoc, Value: formValue(t, sch, f.Name, f.Value)})
		}
		m.body, m.hasBody, m.form = t.coerceValue(sch, obj, 0), true, true
	case req.Multipart != nil:
		obj := &examples.Object{At: req.Loc}
		for _, p := range req.Multipart {
			if p.Content == nil {
				continue // a file: its content is not compared
			}
			obj.Fields = append(obj.Fields, examples.Field{Key: p.Name, KeyAt: p.NameLoc, Value: p.Content})
		}
		m.body, m.hasBody, m.form = t.coerceValue(sch, obj, 0), true, true
		if m.mode == examples.Equal && len(obj.Fields) < len(req.Multipart) {
			m.mode = examples.Subset
		}
	case req.Body != nil:
		m.body, m.hasBody = req.Body, true
		var text *string
		if lit, ok := req.Body.(*examples.Literal); ok {
			if s, isText := lit.Value.(string); isText {
				text = &s
			}
		}
		if text != nil && !isJSON(req.ContentType) {
			m.raw = text
		} else if text == nil && isTextual(req.ContentType) {
			// A structure written for a text body (GitHub's markdown/raw
			// writes {text: …} for text/plain) is sent as its JSON text.
			m.jsonText = true
		}
	}
}

// formValue is a form field's value as the example's request is compared
// with a form: a field the schema does not describe is the text sent
// (Twilio's examples write undeclared fields as numbers:
// MachineDetectionMinWordLength: 100 is "100" in the form); the others
// are typed by their schemas (coerceValue).
func formValue(t typer, sch *spec.Node, name string, v examples.Value) examples.Value {
	if t.property(sch, name, 0) == nil {
		return asText(v)
	}
	return v
}

// isTextual reports whether a media type's body is text that no
// structured codec reads (text/plain, text/x-markdown, text/csv).
func isTextual(media string) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(media, ";", 2)[0]))
	return strings.HasPrefix(m, "text/") && !isXML(m) && !isJSON(m)
}

// externalExample turns an example file (or an expectation posted at run
// time) into an answer of the operation its request routes to. A 405
// example, whose method the path does not declare, belongs to no
// operation: op is nil and the example answers that method on that path.
func (s *Server) externalExample(gen *generation, ex *examples.Example, org origin) (*operation, *example, error) {
	req, resp := ex.Request, ex.Response
	if req == nil || resp == nil {
		return nil, nil, &spec.Error{File: ex.File, Pos: ex.Loc.Range.Start, Msg: "the example has no http-request or http-response"}
	}
	ctx := ex.Context(s.baseContext())
	rawPath, err := textOf(ctx, req.Path)
	if err != nil {
		return nil, nil, locErr(req.Path.Where(), "path: %v", err)
	}
	u, err := url.Parse(rawPath)
	if err != nil {
		return nil, nil, locErr(req.Path.Where(), "path %q: %v", rawPath, err)
	}
	e := &example{name: ex.Name, source: ex.Loc.String(), origin: org, ex: ex, ctx: ctx, kind: ex.Kind(),
		delay: ex.Metadata.Delay, transient: ex.Metadata.Transient}
	target := u.EscapedPath()
	if u.RawQuery != "" {
		target += "?" + u.RawQuery
	}
	op, route, allow := gen.routeExample(req.Method, target)
	if op == nil {
		if len(allow) > 0 && ex.Kind() == examples.MethodNotAllowed {
			a, template := gen.templateOf(allow[0], u.EscapedPath())
			e.request = &requestMatch{method: req.Method, mode: examples.Equal}
			e.status, e.notAllowed = resp.Status, notAllowedKey(a, template, req.Method)
			s.setResponse(e, resp)
			return nil, e, nil
		}
		what := fmt.Sprintf("%s %s matches no operation of the specs served", req.Method, u.Path)
		if len(allow) > 0 {
			what = fmt.Sprintf("%s %s: the path declares %s, not %s (a 405 example answers with status 405)", req.Method, u.Path, strings.Join(allow, ", "), req.Method)
		}
		return nil, nil, locErr(req.Path.Where(), "%s", what)
	}
	a := op.api
	t := typer{a.doc}
	m := &requestMatch{method: req.Method, mode: examples.Equal}
	if ex.Partial {
		m.mode = examples.Subset
	}
	params := map[string]*spec.Parameter{}
	for _, p := range op.op.Parameters {
		params[p.In+"\x00"+strings.ToLower(p.Name)] = p
	}
	add := func(in, name string, v examples.Value) {
		p := params[in+"\x00"+strings.ToLower(name)]
		if p == nil {
			m.params = append(m.params, paramMatch{in: in, name: name, value: asText(v)})
			return
		}
		m.params = append(m.params, paramMatch{in: in, name: p.Name, declared: true, value: t.coerceValue(paramSchema(p), v, 0)})
	}
	for _, pp := range route.PathParams {
		add("path", pp.Name, &examples.Literal{Value: pp.Value, At: req.Path.Where()})
	}
	for _, q := range groupQuery(req.Query) {
		add("query", q.Name, q.Value)
	}
	for _, h := range req.Headers {
		switch strings.ToLower(h.Name) {
		case "content-type", "accept", "content-length", "host":
			continue
		case "cookie":
			for _, c := range cookiesOf(ctx, h) {
				add("cookie", c.Name, c.Value)
			}
			continue
		}
		add("header", http.CanonicalHeaderKey(h.Name), h.Value)
	}
	var mt *spec.MediaType
	if req.ContentType != "" && op.op.RequestBody != nil {
		if key, ok := contract.MatchMediaType(req.ContentType, mediaNames(op.op.RequestBody.Content)); ok {
			mt = mediaNamed(op.op.RequestBody.Content, key)
		}
		m.contentType = req.ContentType
	} else if req.ContentType != "" {
		m.contentType = req.ContentType
	}
	setBodyMatch(m, t, mt, req)
	sort.SliceStable(m.params, func(i, j int) bool { return m.params[i].in+m.params[i].name < m.params[j].in+m.params[j].name })
	e.request = m
	e.matchers = matchersOf(m)
	e.limited = e.transient && len(e.matchers) > 0

	if ex.Partial {
		// The request matches on what it writes; the response is
		// completed from the spec (the values it leaves out generated,
		// the same for the same seed), its notations kept.
		h := fnv.New64a()
		fmt.Fprintf(h, "%d\x00%s", s.opts.Seed, ex.Name)
		full, err := a.checker.Complete(ex, schema.NewGenerator(h.Sum64()))
		if err != nil {
			return nil, nil, err
		}
		resp = full.Response
	}
	e.status = resp.Status
	if e.status == 0 {
		_, e.status = lowestSuccess(op.op)
		if e.status == 0 {
			e.status = http.StatusOK
		}
	}
	e.response = contract.ResponseFor(op.op, e.status)
	if e.response == nil && e.status < 400 {
		at := resp.StatusLoc
		if at.Range.Start.Line == 0 {
			at = resp.Loc
		}
		return nil, nil, locErr(at, "%s declares no response %d (it declares %s)", op, e.status, statusList(op.op))
	}
	s.setResponse(e, resp)
	return op, e, nil
}

// setResponse reads an example's response: its headers, media type and
// body, evaluated once when they hold no notation.
func (s *Server) setResponse(e *example, resp *examples.Response) {
	for _, h := range resp.Headers {
		if strings.EqualFold(h.Name, "Content-Type") {
			if lit, ok := h.Value.(*examples.Literal); ok {
				e.media = scalarText(lit.Value)
			}
			continue
		}
		e.headers = append(e.headers, h)
	}
	if e.media == "" {
		e.media = resp.ContentType
	}
	e.body = resp.Body
	if e.body != nil && e.media == "" && e.response != nil && len(e.response.Content) > 0 {
		e.media = e.response.Content[0].Name
	}
	if e.body != nil && e.media == "" {
		// An undeclared status (a 4xx example) says nothing of its media
		// type: text for a string, else JSON.
		e.media = "application/json"
		if lit, ok := e.body.(*examples.Literal); ok {
			if _, isText := lit.Value.(string); isText {
				e.media = "text/plain"
			}
		}
	}
	e.static = !examples.HasNotations(e.body)
	for _, h := range e.headers {
		e.static = e.static && !examples.HasNotations(h.Value)
	}
	if e.static && e.body != nil {
		e.staticBody = examples.Literalize(e.body)
		// A string for a media type that is not JSON is the body as
		// written, except for XML where it is no document: a string value
		// (of a type: string schema) that the codec writes as an element.
		if str, ok := e.staticBody.(string); ok && !isJSON(e.media) && (!isXML(e.media) || strings.HasPrefix(strings.TrimSpace(str), "<")) {
			e.raw = []byte(str)
		}
	}
}

// groupQuery joins the values of a query parameter written several times
// ("?tag=a&tag=b") into one array value.
func groupQuery(ps []examples.Param) []examples.Param {
	var out []examples.Param
	index := map[string]int{}
	for _, p := range ps {
		i, seen := index[p.Name]
		if !seen {
			index[p.Name] = len(out)
			out = append(out, p)
			continue
		}
		arr, ok := out[i].Value.(*examples.Array)
		if !ok || out[i].Value == nil {
			arr = &examples.Array{At: out[i].Value.Where(), Items: []examples.Value{out[i].Value}}
		}
		arr.Items = append(arr.Items, p.Value)
		out[i].Value = arr
	}
	return out
}

// cookiesOf reads the pairs of a Cookie header written in an example.
func cookiesOf(ctx *examples.Context, h examples.Param) []examples.Param {
	text, err := textOf(ctx, h.Value)
	if err != nil {
		return nil
	}
	var out []examples.Param
	for part := range strings.SplitSeq(text, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok && name != "" {
			out = append(out, examples.Param{Name: name, NameLoc: h.NameLoc, Value: &examples.Literal{Value: value, At: h.Value.Where()}})
		}
	}
	return out
}

// asText writes the literal scalars of v as their text: a parameter the
// operation does not declare is compared as sent.
func asText(v examples.Value) examples.Value {
	switch x := v.(type) {
	case *examples.Literal:
		if x.Value != nil {
			return &examples.Literal{Value: scalarText(x.Value), At: x.At}
		}
	case *examples.Array:
		out := &examples.Array{At: x.At, Items: make([]examples.Value, len(x.Items))}
		for i, it := range x.Items {
			out.Items[i] = asText(it)
		}
		return out
	}
	return v
}

// textOf evaluates a value written as text (a path, a header).
func textOf(ctx *examples.Context, v examples.Value) (string, error) {
	if lit, ok := v.(*examples.Literal); ok {
		return scalarText(lit.Value), nil
	}
	got, err := ctx.Eval(v)
	if err != nil {
		return "", err
	}
	return scalarText(got), nil
}

func locErr(at examples.Loc, format string, args ...any) error {
	return &spec.Error{File: at.File, Pos: at.Range.Start, Msg: fmt.Sprintf(format, args...)}
}

func mediaNames(list []*spec.MediaType) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = m.Name
	}
	return out
}

func mediaNamed(list []*spec.MediaType, name string) *spec.MediaType {
	for _, m := range list {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// routeExample finds the operation of an example's request: its path as
// written, else under each served prefix. allow lists the methods the
// path declares when it matches a path but not the method.
func (g *generation) routeExample(method, path string) (*operation, *contract.Route, []string) {
	var allow []string
	for _, a := range g.apis {
		for _, try := range append([]string{path}, prefixed(a.prefixes, path)...) {
			rt, err := a.contract.Route(method, try)
			if err == nil {
				return a.byOp[rt.Op], rt, nil
			}
			var re *contract.RouteError
			if errors.As(err, &re) && re.Status == http.StatusMethodNotAllowed && allow == nil {
				allow = re.Allow
			}
		}
	}
	return nil, nil, allow
}

// templateOf is the spec and path template that a path routes to with a
// method the path declares.
func (g *generation) templateOf(method, path string) (*api, string) {
	for _, a := range g.apis {
		for _, try := range append([]string{path}, prefixed(a.prefixes, path)...) {
			if rt, err := a.contract.Route(method, try); err == nil {
				return a, rt.Template
			}
		}
	}
	return nil, ""
}

func notAllowedKey(a *api, template, method string) string {
	if a == nil {
		return ""
	}
	return a.name + "\x00" + template + "\x00" + strings.ToUpper(method)
}

func prefixed(prefixes []string, path string) []string {
	var out []string
	for _, p := range prefixes {
		if p != "" {
			out = append(out, p+path)
		}
	}
	return out
}
