package examples

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// InlineSet is the inline examples of a specification, with the problems
// found reading them (an externalValue that cannot be read).
type InlineSet struct {
	Examples []*Example
	Errors   Errors
}

// Inline extracts the inline examples of every operation under paths and
// pairs requests with responses by name, as Paired, RequestOnly,
// ResponseOnly and Unnamed examples (docs/examples.md, "Inline examples").
// Parts of a request that a named example does not name take the unnamed
// value: the parameter's example, else its schema's example when the
// parameter is required. Inline values are data: notations are not parsed
// in them.
func Inline(doc *spec.Document, opts Options) *InlineSet {
	in := &inliner{doc: doc, opts: opts, set: &InlineSet{}, paths: map[Value]spec.Path{}}
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return in.set
	}
	for _, op := range doc.Views().Operations {
		in.operation(op)
	}
	return in.set
}

type inliner struct {
	doc   *spec.Document
	opts  Options
	set   *InlineSet
	paths map[Value]spec.Path // where each sample's value is written
}

// sample is one example value written in the specification.
type sample struct {
	value    Value
	path     spec.Path
	explicit bool   // example, examples or x-example; false for a schema's example
	media    string // the media type it is for (Swagger response examples)
}

// samples are the examples of one place: by name, and the unnamed one.
type samples struct {
	named   map[string]*sample
	order   []string
	unnamed *sample
}

// pick returns the sample of name, else the unnamed one (explicit, or a
// schema's when fallback allows).
func (s *samples) pick(name string, fallback bool) *sample {
	if s == nil {
		return nil
	}
	if name != "" {
		if v := s.named[name]; v != nil {
			return v
		}
	}
	if s.unnamed != nil && (s.unnamed.explicit || fallback) {
		return s.unnamed
	}
	return nil
}

func (in *inliner) fileOf(path spec.Path) string {
	loc := in.doc.Locate(path, nil)
	if loc.File != nil {
		return loc.File.Name
	}
	return in.doc.Root.Name
}

func (in *inliner) value(n *spec.Node, path spec.Path) Value {
	v := literalValue(n, in.fileOf(path))
	in.paths[v] = path
	return v
}

func with(p spec.Path, segs ...any) spec.Path {
	out := make(spec.Path, len(p), len(p)+len(segs))
	copy(out, p)
	return append(out, segs...)
}

// examplesOf reads example and examples of an OpenAPI 3 parameter, media
// type or header, x-example of a Swagger parameter, and the schema's
// example (or first of its examples) as the fallback.
func (in *inliner) examplesOf(n *spec.Node, src spec.Path, schema *spec.Node, schemaSrc spec.Path) *samples {
	s := &samples{named: map[string]*sample{}}
	if n != nil {
		if v := n.Get("example"); v != nil {
			s.unnamed = &sample{value: in.value(v, with(src, "example")), path: with(src, "example"), explicit: true}
		} else if v := n.Get("x-example"); v != nil {
			s.unnamed = &sample{value: in.value(v, with(src, "x-example")), path: with(src, "x-example"), explicit: true}
		}
		if exs := n.Get("examples"); exs != nil && exs.Kind == spec.Object {
			for _, f := range exs.Fields {
				if sm := in.exampleObject(f.Value, with(src, "examples", f.Key)); sm != nil {
					s.named[f.Key] = sm
					s.order = append(s.order, f.Key)
				}
			}
		}
	}
	if s.unnamed == nil && schema != nil {
		s.unnamed = in.schemaExample(schema, schemaSrc)
	}
	return s
}

// schemaExample returns a schema's example, or the first of its examples.
func (in *inliner) schemaExample(schema *spec.Node, src spec.Path) *sample {
	schema = in.doc.Deref(schema)
	if v := schema.Get("example"); v != nil {
		return &sample{value: in.value(v, with(src, "example")), path: with(src, "example")}
	}
	if exs := schema.Get("examples"); exs != nil && exs.Kind == spec.Array && len(exs.Items) > 0 {
		p := with(src, "examples", 0)
		return &sample{value: in.value(exs.Items[0], p), path: p}
	}
	return nil
}

// exampleObject reads an OpenAPI Example Object: dataValue (3.2), value,
// or externalValue read from a local file beside the specification.
func (in *inliner) exampleObject(raw *spec.Node, src spec.Path) *sample {
	n := in.doc.Deref(raw)
	for _, key := range []string{"dataValue", "value"} {
		if v := n.Get(key); v != nil {
			return &sample{value: in.value(v, with(src, key)), path: with(src, key), explicit: true}
		}
	}
	if ext := n.Get("externalValue"); ext != nil && ext.Kind == spec.String {
		p := with(src, "externalValue")
		if v := in.external(ext, p); v != nil {
			in.paths[v] = p
			return &sample{value: v, path: p, explicit: true}
		}
	}
	return nil
}

// external reads an externalValue: a file under the specification's
// folder (URLs are not fetched, and no path leaves the folder).
func (in *inliner) external(n *spec.Node, path spec.Path) Value {
	fail := func(format string, args ...any) Value {
		loc := in.doc.Locate(path, nil)
		in.set.Errors = append(in.set.Errors, &spec.Error{File: in.fileOf(path), Pos: loc.Range.Start, Msg: fmt.Sprintf(format, args...)})
		return nil
	}
	ref := n.Value
	if u, err := url.Parse(ref); err != nil || u.Scheme != "" || u.Host != "" {
		return fail("externalValue %q is not read: only files beside the specification are, not URLs", ref)
	}
	file := in.fileOf(path)
	if strings.HasPrefix(file, "http://") || strings.HasPrefix(file, "https://") || file == "<stdin>" {
		return fail("externalValue %q is not read: the specification is not a local file", ref)
	}
	rel, err := url.PathUnescape(ref)
	if err != nil {
		rel = ref
	}
	root := filepath.Dir(in.doc.Root.Name)
	target := filepath.Join(filepath.Dir(file), filepath.FromSlash(rel))
	if filepath.IsAbs(rel) || !within(root, target) {
		return fail("externalValue %q is not read: it leaves the specification's folder %s", ref, root)
	}
	data, rerr := readLimited(target, in.opts.limits().MaxFileSize)
	if rerr != nil {
		return fail("externalValue %q: %s", ref, rerr.Msg)
	}
	switch strings.ToLower(filepath.Ext(target)) {
	case ".json", ".yaml", ".yml":
		node, err := spec.Parse(target, data, in.opts.limits())
		if err != nil {
			return fail("externalValue %q: %v", ref, err)
		}
		return literalValue(node, target)
	}
	return &Literal{Value: string(data), At: Loc{File: target}}
}

// within reports whether path is inside dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// opSamples are the example values of one operation.
type opSamples struct {
	params    []*samples // by op.Parameters index
	formData  []*samples // Swagger formData, by RequestBody.FormData index
	media     []*samples // request body media types, by RequestBody.Content index
	responses []*respSamples
}

type respSamples struct {
	resp    *spec.Response
	media   []*samples
	headers []*samples
	swagger *samples // Swagger 2.0 examples by media type, as unnamed samples
}

func (in *inliner) collect(op *spec.Operation) *opSamples {
	smp := &opSamples{}
	for _, p := range op.Parameters {
		smp.params = append(smp.params, in.paramSamples(p))
	}
	if rb := op.RequestBody; rb != nil {
		for _, p := range rb.FormData {
			smp.formData = append(smp.formData, in.paramSamples(p))
		}
		for _, m := range rb.Content {
			if in.doc.Format == spec.Swagger {
				smp.media = append(smp.media, in.swaggerBody(m))
			} else {
				smp.media = append(smp.media, in.examplesOf(m.Node, m.Source, m.Schema, m.SchemaSource))
			}
		}
	}
	for _, r := range op.Responses {
		rs := &respSamples{resp: r}
		if in.doc.Format == spec.Swagger {
			rs.swagger = in.swaggerResponse(r)
		} else {
			for _, m := range r.Content {
				rs.media = append(rs.media, in.examplesOf(m.Node, m.Source, m.Schema, m.SchemaSource))
			}
		}
		for _, h := range r.Headers {
			var hs *samples
			if in.doc.Format == spec.Swagger {
				hs = in.examplesOf(h.Node, h.Source, nil, nil)
			} else {
				hs = in.examplesOf(h.Node, h.Source, h.Schema, h.SchemaSource)
			}
			if !h.Required && hs.unnamed != nil && !hs.unnamed.explicit {
				hs.unnamed = nil // a schema's example stands in for required headers only
			}
			rs.headers = append(rs.headers, hs)
		}
		smp.responses = append(smp.responses, rs)
	}
	return smp
}

// paramSamples reads a parameter's examples: OpenAPI 3 example(s) (or
// those of its content's first media type), Swagger x-example, and the
// schema's example as the fallback for required parameters.
func (in *inliner) paramSamples(p *spec.Parameter) *samples {
	var schema *spec.Node
	var schemaSrc spec.Path
	if in.doc.Format != spec.Swagger {
		schema, schemaSrc = p.Schema, p.SchemaSource
	} else if p.Schema != nil {
		schema, schemaSrc = p.Schema, p.SchemaSource // the parameter itself: its example key, if any
	}
	node, src := p.Node, p.Source
	if node.Get("example") == nil && node.Get("examples") == nil && node.Get("x-example") == nil {
		if content := node.Get("content"); content != nil && content.Kind == spec.Object && len(content.Fields) > 0 {
			f := content.Fields[0]
			node, src = in.doc.Deref(f.Value), with(src, "content", f.Key)
		}
	}
	s := in.examplesOf(node, src, schema, schemaSrc)
	if !p.Required && s.unnamed != nil && !s.unnamed.explicit {
		s.unnamed = nil
	}
	return s
}

// swaggerBody reads a Swagger 2.0 body parameter's examples: x-examples by
// media type, else its schema's example.
func (in *inliner) swaggerBody(m *spec.MediaType) *samples {
	s := &samples{named: map[string]*sample{}}
	if xs := m.Node.Get("x-examples"); xs != nil {
		if v := xs.Get(m.Name); v != nil {
			p := with(m.Source, "x-examples", m.Name)
			s.unnamed = &sample{value: in.value(v, p), path: p, explicit: true, media: m.Name}
		}
	}
	if s.unnamed == nil && m.Schema != nil {
		s.unnamed = in.schemaExample(m.Schema, m.SchemaSource)
	}
	return s
}

// swaggerResponse reads a Swagger 2.0 response's examples ({mime: value})
// as unnamed samples, the JSON one first, else its schema's example.
func (in *inliner) swaggerResponse(r *spec.Response) *samples {
	s := &samples{named: map[string]*sample{}}
	if exs := r.Node.Get("examples"); exs != nil && exs.Kind == spec.Object && len(exs.Fields) > 0 {
		best := exs.Fields[0]
		for _, f := range exs.Fields {
			if strings.Contains(f.Key, "json") {
				best = f
				break
			}
		}
		p := with(r.Source, "examples", best.Key)
		s.unnamed = &sample{value: in.value(best.Value, p), path: p, explicit: true, media: best.Key}
	}
	if s.unnamed == nil && len(r.Content) > 0 && r.Content[0].Schema != nil {
		s.unnamed = in.schemaExample(r.Content[0].Schema, r.Content[0].SchemaSource)
	}
	return s
}

func (in *inliner) operation(op *spec.Operation) {
	smp := in.collect(op)
	// Names in the order first written: request side, then responses.
	var names []string
	seen := map[string]bool{}
	addNames := func(ss []*samples) {
		for _, s := range ss {
			for _, n := range s.order {
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	addNames(smp.params)
	addNames(smp.media)
	reqNamed := map[string]bool{}
	for _, n := range names {
		reqNamed[n] = true
	}
	for _, rs := range smp.responses {
		addNames(rs.media)
		addNames(rs.headers)
	}
	for _, name := range names {
		var holders []*respSamples
		for _, rs := range smp.responses {
			if rs.has(name) {
				holders = append(holders, rs)
			}
		}
		switch {
		case reqNamed[name] && len(holders) > 0:
			for _, rs := range holders {
				in.emit(op, name, Paired, in.request(op, smp, name), in.response(rs, name))
			}
		case reqNamed[name]:
			in.emit(op, name, RequestOnly, in.request(op, smp, name), nil)
		default:
			for _, rs := range holders {
				in.emit(op, name, ResponseOnly, in.request(op, smp, ""), in.response(rs, name))
			}
		}
	}
	in.unnamed(op, smp, len(names) > 0)
}

// has reports whether a response has an example of name.
func (rs *respSamples) has(name string) bool {
	for _, ss := range [][]*samples{rs.media, rs.headers} {
		for _, s := range ss {
			if s.named[name] != nil {
				return true
			}
		}
	}
	return false
}

// unnamed emits the operation's unnamed example and the unnamed response
// examples of its other responses.
func (in *inliner) unnamed(op *spec.Operation, smp *opSamples, hasNamed bool) {
	opName := op.OperationID
	if opName == "" {
		opName = strings.ToUpper(op.Method) + " " + op.Path
	}
	lowest := lowest2xx(smp.responses)
	explicit, anySample := false, false
	note := func(s *sample) {
		if s != nil {
			anySample = true
			explicit = explicit || s.explicit
		}
	}
	for _, s := range smp.params {
		if s.unnamed != nil && s.unnamed.explicit {
			note(s.unnamed)
		}
	}
	for _, s := range smp.formData {
		if s.unnamed != nil && s.unnamed.explicit {
			note(s.unnamed)
		}
	}
	for _, s := range smp.media {
		note(s.unnamed)
	}
	if lowest != nil {
		note(lowest.unnamedBody()) // header examples alone make no example
	}
	if explicit || anySample && !hasNamed {
		var resp *Response
		if lowest != nil {
			resp = in.response(lowest, "")
		}
		in.emit(op, opName, Unnamed, in.request(op, smp, ""), resp)
	}
	for _, rs := range smp.responses {
		if rs == lowest {
			continue
		}
		if s := rs.unnamedBody(); s != nil && s.explicit {
			in.emit(op, opName+" "+rs.resp.Status, ResponseOnly, in.request(op, smp, ""), in.response(rs, ""))
		}
	}
}

// unnamedBody returns a response's unnamed body example.
func (rs *respSamples) unnamedBody() *sample {
	if rs.swagger != nil {
		return rs.swagger.unnamed
	}
	for _, m := range rs.media {
		if m.unnamed != nil {
			return m.unnamed
		}
	}
	return nil
}

// lowest2xx returns the response with the lowest 2xx status, else a 2XX
// range response, or nil.
func lowest2xx(rs []*respSamples) *respSamples {
	var best *respSamples
	bestCode := 1000
	for _, r := range rs {
		code, err := strconv.Atoi(r.resp.Status)
		switch {
		case err == nil && code >= 200 && code < 300 && code < bestCode:
			best, bestCode = r, code
		case strings.EqualFold(r.resp.Status, "2XX") && best == nil:
			best, bestCode = r, 299
		}
	}
	return best
}

// request builds the request of an example named name ("" for the
// unnamed one).
func (in *inliner) request(op *spec.Operation, smp *opSamples, name string) *Request {
	req := &Request{Method: strings.ToUpper(op.Method), Loc: Loc{File: in.fileOf(op.Source), Range: in.doc.Locate(op.Source, nil).Range}}
	path := op.Path
	var cookies []string
	for i, p := range op.Parameters {
		s := smp.params[i].pick(name, true)
		if s == nil {
			continue
		}
		param := Param{Name: p.Name, NameLoc: Loc{File: in.fileOf(p.Source), Range: in.doc.Locate(p.Source, nil).Range}, Value: s.value}
		switch p.In {
		case "path":
			req.PathParams = append(req.PathParams, param)
			if lit, ok := s.value.(*Literal); ok && lit.Value != nil {
				path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(contract.InlineText(lit.Value)))
			}
		case "query":
			req.Query = append(req.Query, param)
		case "header":
			req.Headers = append(req.Headers, param)
		case "cookie":
			if lit, ok := s.value.(*Literal); ok {
				cookies = append(cookies, p.Name+"="+contract.InlineText(lit.Value))
			}
		}
	}
	if len(cookies) > 0 {
		req.Headers = append(req.Headers, Param{Name: "Cookie", NameLoc: req.Loc, Value: &Literal{Value: strings.Join(cookies, "; "), At: req.Loc}})
	}
	req.RawPath = path
	req.Path = &Literal{Value: path, At: req.Loc}
	if rb := op.RequestBody; rb != nil {
		for i, p := range rb.FormData {
			if s := smp.formData[i].pick(name, true); s != nil {
				req.FormFields = append(req.FormFields, Param{Name: p.Name, NameLoc: Loc{File: in.fileOf(p.Source), Range: in.doc.Locate(p.Source, nil).Range}, Value: s.value})
			}
		}
		if req.FormFields != nil && len(rb.Content) > 0 {
			req.ContentType = rb.Content[0].Name
		}
		if m, s := in.pickMedia(rb.Content, smp.media, name); s != nil {
			req.ContentType = m.Name
			in.setBody(req, m.Name, s.value)
		}
	}
	return req
}

// pickMedia picks the media type whose example is name's, else the first
// with an unnamed example, else the first with a schema's example.
func (in *inliner) pickMedia(content []*spec.MediaType, media []*samples, name string) (*spec.MediaType, *sample) {
	if name != "" {
		for i, m := range content {
			if s := media[i].named[name]; s != nil {
				return m, s
			}
		}
	}
	for _, explicit := range []bool{true, false} {
		for i, m := range content {
			if s := media[i].unnamed; s != nil && s.explicit == explicit {
				return m, s
			}
		}
	}
	return nil, nil
}

// setBody writes a body: a form's object becomes form fields or parts.
func (in *inliner) setBody(req *Request, mediaType string, v Value) {
	req.inlineBody = v
	obj, isObject := v.(*Object)
	switch {
	case isObject && strings.HasPrefix(mediaType, "application/x-www-form-urlencoded"):
		for _, f := range obj.Fields {
			req.FormFields = append(req.FormFields, Param{Name: f.Key, NameLoc: f.KeyAt, Value: f.Value})
		}
	case isObject && strings.HasPrefix(mediaType, "multipart/form-data"):
		for _, f := range obj.Fields {
			req.Multipart = append(req.Multipart, &Part{Name: f.Key, NameLoc: f.KeyAt, Content: f.Value, Loc: f.Value.Where()})
		}
	default:
		req.Body = v
	}
}

// response builds the response of an example named name ("" for the
// unnamed one).
func (in *inliner) response(rs *respSamples, name string) *Response {
	r := rs.resp
	resp := &Response{SpecStatus: r.Status, Loc: Loc{File: in.fileOf(r.Source), Range: in.doc.Locate(r.Source, nil).Range}}
	if code, err := strconv.Atoi(r.Status); err == nil && code >= 100 && code <= 599 {
		resp.Status = code
	}
	for i, h := range r.Headers {
		if s := rs.headers[i].pick(name, name == ""); s != nil {
			resp.Headers = append(resp.Headers, Param{Name: h.Name, NameLoc: Loc{File: in.fileOf(h.Source), Range: in.doc.Locate(h.Source, nil).Range}, Value: s.value})
		}
	}
	if rs.swagger != nil {
		if s := rs.swagger.unnamed; s != nil && name == "" {
			resp.Body, resp.ContentType = s.value, s.media
			if resp.ContentType == "" && len(r.Content) > 0 {
				resp.ContentType = r.Content[0].Name
			}
		}
		return resp
	}
	if name != "" {
		for i, m := range r.Content {
			if s := rs.media[i].named[name]; s != nil {
				resp.Body, resp.ContentType = s.value, m.Name
				return resp
			}
		}
		return resp
	}
	if m, s := in.pickMedia(r.Content, rs.media, ""); s != nil {
		resp.Body, resp.ContentType = s.value, m.Name
	}
	return resp
}

// emit adds an example, located at the first value it uses (bodies
// first).
func (in *inliner) emit(op *spec.Operation, name string, pairing Pairing, req *Request, resp *Response) {
	ex := &Example{Name: name, Inline: true, Operation: op, Pairing: pairing, Request: req, Response: resp, valuePaths: in.paths}
	for _, v := range exampleValues(req, resp) {
		if p, ok := in.paths[v]; ok {
			ex.Sources = append(ex.Sources, p)
		}
	}
	ex.Source = op.Source
	if len(ex.Sources) > 0 {
		ex.Source = ex.Sources[0]
	}
	loc := in.doc.Locate(ex.Source, nil)
	ex.File = in.doc.Root.Name
	if loc.File != nil {
		ex.File = loc.File.Name
	}
	ex.Loc = Loc{File: ex.File, Range: loc.Range}
	ex.NameLoc = ex.Loc
	in.set.Examples = append(in.set.Examples, ex)
}

// exampleValues lists the values an inline example uses: the bodies, then
// parameters and headers.
func exampleValues(req *Request, resp *Response) []Value {
	var out []Value
	if req != nil {
		out = append(out, req.inlineBody)
	}
	if resp != nil {
		out = append(out, resp.Body)
	}
	if req != nil {
		for _, ps := range [][]Param{req.FormFields, req.PathParams, req.Query, req.Headers} {
			for _, p := range ps {
				out = append(out, p.Value)
			}
		}
	}
	if resp != nil {
		for _, h := range resp.Headers {
			out = append(out, h.Value)
		}
	}
	return out
}
