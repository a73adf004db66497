package studio

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// seed makes generated values repeatable: a preview and its apply must
// write the same text.
const seed = 1

// SpecParams name a spec, and for import and export whether the source of
// the examples goes.
type SpecParams struct {
	Spec      string   `json:"spec"`
	Files     []string `json:"files,omitempty"` // import: the example files (default: all of the spec's)
	Remove    bool     `json:"remove,omitempty"`
	Operation string   `json:"operation,omitempty"` // generate: "GET /pets"
}

// openSpec loads a spec of the folder with its example checker.
func (p *planner) openSpec(rel string) (string, *spec.Document, *examples.Checker, error) {
	abs, err := p.resolveFile("spec", rel)
	if err != nil {
		return "", nil, nil, err
	}
	doc, err := p.load(abs)
	if err != nil {
		return "", nil, nil, err
	}
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return "", nil, nil, fmt.Errorf("%s is %s: examples are OpenAPI's", rel, doc)
	}
	schemas := schema.NewSet(doc)
	ct, err := contract.New(doc, schemas, contract.Options{})
	if err != nil {
		return "", nil, nil, err
	}
	return abs, doc, examples.NewChecker(ct, schemas), nil
}

// openSpecParams decodes the parameters of an action on a spec's examples
// and opens the spec they name.
func (p *planner) openSpecParams(raw json.RawMessage) (SpecParams, string, *spec.Document, *examples.Checker, error) {
	var in SpecParams
	if err := params(raw, &in); err != nil {
		return in, "", nil, nil, err
	}
	abs, doc, checker, err := p.openSpec(in.Spec)
	return in, abs, doc, checker, err
}

// discover reads the external examples of the spec at abs, noting the
// files that could not be read.
func (p *planner) discover(abs string) *examples.Set {
	set := examples.Discover(abs, p.s.checker.exampleDirs(abs), examples.Options{})
	for _, e := range set.Errors {
		p.note("%v", e)
	}
	return set
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// exampleKey makes an example's name a key of an examples map or a file
// name.
func exampleKey(name string) string {
	k := strings.Trim(unsafeName.ReplaceAllString(name, "_"), "_")
	if k == "" {
		k = "example"
	}
	return k
}

// ordered converts an example value into plain JSON keeping the order of
// keys; notations are written back as the text they were parsed from.
func ordered(v examples.Value) any {
	switch x := v.(type) {
	case nil:
		return nil
	case *examples.Object:
		out := make(omap, 0, len(x.Fields))
		for _, f := range x.Fields {
			out = append(out, kv{f.Key, ordered(f.Value)})
		}
		return out
	case *examples.Array:
		out := make([]any, len(x.Items))
		for i, it := range x.Items {
			out[i] = ordered(it)
		}
		return out
	case *examples.Literal:
		return x.Value
	}
	return examples.Literalize(v)
}

// addition is the named examples an action adds to one object of a spec
// (a media type, a parameter), written once all are known so that an
// "examples" map is made once.
type addition struct {
	file    *spec.File
	node    *spec.Node
	entries omap
	where   string
}

type additions struct {
	list []*addition
}

func (a *additions) add(file *spec.File, node *spec.Node, where, name string, value any) {
	for _, x := range a.list {
		if x.node == node {
			x.entries = append(x.entries, kv{name, omap{{"value", value}}})
			return
		}
	}
	a.list = append(a.list, &addition{file: file, node: node, where: where, entries: omap{{name, omap{{"value", value}}}}})
}

// write adds the entries to each object's examples map, making the map
// when the object has none.
func (a *additions) write(p *planner) (int, error) {
	n := 0
	for _, x := range a.list {
		t, err := p.edit(x.file.Name)
		if err != nil {
			return n, err
		}
		if x.node.Get("example") != nil {
			p.note("%s has an unnamed example; the examples for it were not imported (OpenAPI allows example or examples, not both)", x.where)
			continue
		}
		ex := x.node.Get("examples")
		if ex == nil {
			if err := t.addField(x.node, "examples", x.entries); err != nil {
				return n, err
			}
			n += len(x.entries)
			continue
		}
		for _, e := range x.entries {
			if ex.Get(e.Key) != nil {
				p.note("%s already has an example named %q: left as it is", x.where, e.Key)
				continue
			}
			if err := t.addField(ex, e.Key, e.Value); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// mediaFor picks the media type of a body: the one named, else the first
// JSON one, else the first.
func mediaFor(content []*spec.MediaType, ct string) *spec.MediaType {
	if ct != "" {
		want, _, _ := mime.ParseMediaType(ct)
		for _, m := range content {
			if got, _, _ := mime.ParseMediaType(m.Name); strings.EqualFold(got, want) {
				return m
			}
		}
		return nil
	}
	for _, m := range content {
		if strings.Contains(m.Name, "json") {
			return m
		}
	}
	if len(content) > 0 {
		return content[0]
	}
	return nil
}

func header(ps []examples.Param, name string) string {
	for _, p := range ps {
		if strings.EqualFold(p.Name, name) {
			if l, ok := p.Value.(*examples.Literal); ok {
				if s, ok := l.Value.(string); ok {
					return s
				}
			}
		}
	}
	return ""
}

// importExamples writes external examples into the spec as named inline
// examples of the request body, the query and header parameters written
// in the operation, and the response body, and deletes their files when
// asked.
func (p *planner) importExamples(raw json.RawMessage) error {
	in, abs, doc, checker, err := p.openSpecParams(raw)
	if err != nil {
		return err
	}
	if doc.Format != spec.OpenAPI {
		return fmt.Errorf("%s is %s: importing examples needs OpenAPI 3 (its Example Objects)", in.Spec, doc)
	}
	set := p.discover(abs)
	var adds additions
	imported := 0
	for _, ex := range set.Examples {
		rel := p.s.ws.Rel(ex.File)
		if len(in.Files) > 0 && !slices.Contains(in.Files, rel) {
			continue
		}
		if ex.Partial || ex.Request == nil || ex.Response == nil || len(ex.Before)+len(ex.After) > 0 {
			p.note("%s: partial examples and examples with fixtures stay files", rel)
			continue
		}
		if examples.HasNotations(ex.Request.Body) || ex.Response.Body != nil && examples.HasNotations(ex.Response.Body) {
			p.note("%s: its bodies hold notations ($(…), ${…}, matchers), which inline examples cannot: it stays a file", rel)
			continue
		}
		t := checker.Route(ex)
		if t.Op == nil || t.Status != 0 {
			p.note("%s: its request reaches no operation of the spec", rel)
			continue
		}
		op, name := t.Op, exampleKey(ex.Name)
		where := strings.ToUpper(op.Method) + " " + op.Path
		if ex.Request.Body != nil && op.RequestBody != nil {
			if m := mediaFor(op.RequestBody.Content, ex.Request.ContentType); m != nil {
				if node, file, ok := nodeAt(doc, m.Source); ok {
					adds.add(file, node, where+" request "+m.Name, name, ordered(ex.Request.Body))
				}
			}
		}
		for _, q := range ex.Request.Query {
			p.paramExample(&adds, doc, op, "query", q, name, where)
		}
		for _, h := range ex.Request.Headers {
			if slices.Contains([]string{"content-type", "accept", "authorization"}, strings.ToLower(h.Name)) {
				continue
			}
			p.paramExample(&adds, doc, op, "header", h, name, where)
		}
		if r := contract.ResponseFor(op, ex.Response.Status); r != nil && ex.Response.Body != nil {
			ct := ex.Response.ContentType
			if ct == "" {
				ct = header(ex.Response.Headers, "Content-Type")
			}
			if m := mediaFor(r.Content, ct); m != nil {
				if node, file, ok := nodeAt(doc, m.Source); ok {
					adds.add(file, node, where+" response "+r.Status+" "+m.Name, name, ordered(ex.Response.Body))
				}
			}
		}
		imported++
		if in.Remove {
			if err := p.remove(ex.File); err != nil {
				return err
			}
		}
	}
	n, err := adds.write(p)
	if err != nil {
		return err
	}
	p.summary("Import %s into %s (%s added)", english.Count(imported, "example file", "example files"), in.Spec, english.Count(n, "inline example", "inline examples"))
	return nil
}

// paramExample adds an example value to a parameter written in the
// operation or its path item; shared parameter components are left alone,
// since other operations read them too.
func (p *planner) paramExample(adds *additions, doc *spec.Document, op *spec.Operation, in string, v examples.Param, name, where string) {
	for _, prm := range op.Parameters {
		if prm.In != in || !strings.EqualFold(prm.Name, v.Name) {
			continue
		}
		if prm.Component != "" {
			p.note("%s: %s parameter %s is the shared component %q; its value is not imported", where, in, prm.Name, prm.Component)
			return
		}
		if node, file, ok := nodeAt(doc, prm.Source); ok {
			adds.add(file, node, where+" "+in+" parameter "+prm.Name, name, ordered(v.Value))
		}
		return
	}
}

// exportExamples writes each inline example of the spec as an external
// example file in its <name>_examples folder, and removes the inline
// examples when asked.
func (p *planner) exportExamples(raw json.RawMessage) error {
	in, abs, doc, _, err := p.openSpecParams(raw)
	if err != nil {
		return err
	}
	set := examples.Inline(doc, examples.Options{})
	for _, e := range set.Errors {
		p.note("%v", e)
	}
	dir := examples.DefaultDir(abs)
	// Inline example names are scoped by operation (OpenAPI names them per
	// media type), external ones by spec: a name that several operations
	// use, or an external example already has, is qualified by its
	// operation.
	taken := map[string]int{}
	for _, ex := range set.Examples {
		taken[ex.Name]++
	}
	for _, ex := range examples.Discover(abs, p.s.checker.exampleDirs(abs), examples.Options{}).Examples {
		taken[ex.Name] += 2
	}
	gen := &paramGen{schemas: schema.NewSet(doc), g: schema.NewGenerator(seed)}
	written := 0
	var exported []*examples.Example
	for _, ex := range set.Examples {
		name := ex.Name
		if taken[name] > 1 && ex.Operation != nil {
			name = opName(ex.Operation) + "_" + name
		}
		file, ok := p.exampleFile(ex, name, gen)
		if !ok {
			continue
		}
		data := []byte(jsonText(file, "", "  ") + "\n")
		if p.create(filepath.Join(dir, exampleKey(name)+".json"), data) {
			written++
			exported = append(exported, ex)
		}
	}
	if in.Remove {
		if err := p.removeInline(doc, exported); err != nil {
			return err
		}
	}
	p.summary("Export %s of %s to %s", english.Count(written, "inline example", "inline examples"), in.Spec, p.s.ws.Rel(dir))
	return nil
}

// opName names an operation in a file name: its operationId, else its
// method and path.
func opName(op *spec.Operation) string {
	if op.OperationID != "" {
		return exampleKey(op.OperationID)
	}
	return exampleKey(op.Method + "_" + op.Path)
}

// paramGen draws values for path parameters that an inline example leaves
// out.
type paramGen struct {
	schemas *schema.Set
	g       *schema.Generator
}

func (pg *paramGen) value(op *spec.Operation, name string) (string, bool) {
	for _, prm := range op.Parameters {
		if prm.In != "path" || prm.Name != name || prm.Schema == nil {
			continue
		}
		sc, err := pg.schemas.Compile(prm.Schema, prm.SchemaSource)
		if err != nil {
			return "", false
		}
		v, err := sc.Generate(pg.g, schema.Request)
		if err != nil {
			return "", false
		}
		return fmt.Sprint(v), true
	}
	return "", false
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// exampleFile writes an inline example in the external format, named name;
// path parameters it gives no value take one generated from their schema.
func (p *planner) exampleFile(ex *examples.Example, name string, gen *paramGen) (omap, bool) {
	op := ex.Operation
	if op == nil || op.Webhook != "" || op.Callback != "" {
		return nil, false
	}
	req := omap{{"method", strings.ToUpper(op.Method)}}
	path := op.Path
	var query, headers omap
	var body any
	contentType := ""
	if r := ex.Request; r != nil {
		for _, pp := range r.PathParams {
			path = strings.ReplaceAll(path, "{"+pp.Name+"}", fmt.Sprint(examples.Literalize(pp.Value)))
		}
		for _, q := range r.Query {
			query = append(query, kv{q.Name, ordered(q.Value)})
		}
		for _, h := range r.Headers {
			headers = append(headers, kv{h.Name, ordered(h.Value)})
		}
		if r.Body != nil {
			body = ordered(r.Body)
			contentType = r.ContentType
		}
	}
	path = pathParam.ReplaceAllStringFunc(path, func(m string) string {
		if v, ok := gen.value(op, m[1:len(m)-1]); ok {
			return v
		}
		p.note("%s: path parameter %s has no value nor a schema to draw one from; the file leaves it as %s", name, m, m)
		return m
	})
	req = append(req, kv{"path", path})
	if contentType != "" && header(ex.Request.Headers, "Content-Type") == "" {
		headers = append(headers, kv{"Content-Type", contentType})
	}
	if len(query) > 0 {
		req = append(req, kv{"query", query})
	}
	if len(headers) > 0 {
		req = append(req, kv{"headers", headers})
	}
	if body != nil {
		req = append(req, kv{"body", body})
	}
	resp := omap{}
	status := 0
	var respHeaders omap
	var respBody any
	if r := ex.Response; r != nil {
		status = r.Status
		for _, h := range r.Headers {
			respHeaders = append(respHeaders, kv{h.Name, ordered(h.Value)})
		}
		if r.Body != nil {
			respBody = ordered(r.Body)
			if r.ContentType != "" && r.Header("Content-Type") == nil {
				respHeaders = append(respHeaders, kv{"Content-Type", r.ContentType})
			}
		}
		if status == 0 && len(r.SpecStatus) == 3 && strings.HasSuffix(strings.ToUpper(r.SpecStatus), "XX") {
			status, _ = strconv.Atoi(r.SpecStatus[:1] + "00")
		}
	} else {
		for _, r := range op.Responses {
			if c, err := strconv.Atoi(r.Status); err == nil && c >= 200 && c < 300 {
				status = c
				break
			}
		}
	}
	if status == 0 {
		p.note("%s: its response is the default one, which has no status to write: not exported", name)
		return nil, false
	}
	resp = append(resp, kv{"status", status})
	if len(respHeaders) > 0 {
		resp = append(resp, kv{"headers", respHeaders})
	}
	if respBody != nil {
		resp = append(resp, kv{"body", respBody})
	}
	if op.RequestBody != nil && op.RequestBody.Required && body == nil {
		// The inline example says nothing of the request body (a response
		// example): the file is partial, which the mock and the tests
		// complete from the spec.
		return omap{{"name", name}, {"partial", omap{{"http-request", req}, {"http-response", resp}}}}, true
	}
	return omap{{"name", name}, {"http-request", req}, {"http-response", resp}}, true
}

// removeInline removes the inline examples that were exported: a named
// example from its examples map (the map itself when it empties), an
// unnamed example or x-example key. Schema examples, which describe the
// schema rather than an exchange, stay.
func (p *planner) removeInline(doc *spec.Document, list []*examples.Example) error {
	type removal struct {
		path spec.Path
		keys []string
	}
	byPointer := map[string]*removal{}
	var order []string
	addKey := func(parent spec.Path, key string) {
		ptr := spec.Pointer(parent)
		r := byPointer[ptr]
		if r == nil {
			r = &removal{path: parent}
			byPointer[ptr] = r
			order = append(order, ptr)
		}
		if !slices.Contains(r.keys, key) {
			r.keys = append(r.keys, key)
		}
	}
	for _, ex := range list {
		for _, src := range ex.Sources {
			n := len(src)
			if n < 2 || slices.Contains(src, any("schema")) {
				continue
			}
			last, _ := src[n-1].(string)
			switch {
			case (last == "value" || last == "dataValue") && n >= 3 && src[n-3] == "examples":
				name, _ := src[n-2].(string)
				addKey(slices.Clone(src[:n-2]), name)
			case last == "example" || last == "x-example":
				addKey(slices.Clone(src[:n-1]), last)
			}
		}
	}
	// An examples map that loses every entry goes as a whole.
	sort.Strings(order)
	for _, ptr := range order {
		r := byPointer[ptr]
		if r == nil || len(r.path) == 0 || r.path[len(r.path)-1] != "examples" {
			continue
		}
		node, _, ok := nodeAt(doc, r.path)
		if !ok || len(node.Fields) != len(r.keys) {
			continue
		}
		delete(byPointer, ptr)
		addKey(slices.Clone(r.path[:len(r.path)-1]), "examples")
	}
	order = order[:0]
	for ptr := range byPointer {
		order = append(order, ptr)
	}
	sort.Strings(order)
	for _, ptr := range order {
		r := byPointer[ptr]
		node, file, ok := nodeAt(doc, r.path)
		if !ok || node.Kind != spec.Object {
			continue
		}
		t, err := p.edit(file.Name)
		if err != nil {
			return err
		}
		if err := t.removeFields(node, r.keys); err != nil {
			return err
		}
	}
	return nil
}

// generateExamples writes new example files for one operation.
func (p *planner) generateExamples(raw json.RawMessage) error {
	in, abs, doc, checker, err := p.openSpecParams(raw)
	if err != nil {
		return err
	}
	method, path, _ := strings.Cut(strings.TrimSpace(in.Operation), " ")
	var op *spec.Operation
	for _, o := range doc.Views().Operations {
		if strings.EqualFold(o.Method, method) && o.Path == path {
			op = o
		}
	}
	if op == nil {
		return fmt.Errorf("%s has no operation %q", in.Spec, in.Operation)
	}
	files, gerr := checker.Generate(schema.NewGenerator(seed))
	if gerr != nil {
		p.note("some examples cannot be generated: %v", gerr)
	}
	dir := examples.DefaultDir(abs)
	n := 0
	for _, f := range files {
		if f.Op != op && !(f.Status == "405" && f.Op != nil && f.Op.Path == op.Path) {
			continue
		}
		if p.create(filepath.Join(dir, f.Name), f.Data) {
			n++
		}
	}
	p.summary("Generate %s for %s in %s", english.Count(n, "example", "examples"), in.Operation, p.s.ws.Rel(dir))
	return nil
}

// FixParams name a spec (every example of it) or one example file.
type FixParams struct {
	Spec string `json:"spec,omitempty"`
	File string `json:"file,omitempty"`
}

// fixExamples repairs external examples with the smallest changes: see
// examples.Checker.Fix (security headers and query parameters are kept,
// invalid credentials repaired).
func (p *planner) fixExamples(raw json.RawMessage) error {
	var in FixParams
	if err := params(raw, &in); err != nil {
		return err
	}
	specRel := in.Spec
	var only string
	if in.File != "" {
		abs, err := p.resolveFile("file", in.File)
		if err != nil {
			return err
		}
		owner := p.s.checker.exampleOwner(abs)
		if owner == "" {
			return fmt.Errorf("%s is in no spec's examples folder: nothing to check it against", in.File)
		}
		only, specRel = abs, p.s.ws.Rel(owner)
	}
	abs, _, checker, err := p.openSpec(specRel)
	if err != nil {
		return err
	}
	set := p.discover(abs)
	fixed, left := 0, 0
	for _, ex := range set.Examples {
		if only != "" && ex.File != only {
			continue
		}
		if len(checker.Check(ex)) == 0 {
			continue
		}
		res, err := checker.FixFile(ex.File, ex.Name, examples.Options{}, schema.NewGenerator(seed))
		if err != nil {
			p.note("%s: %v", p.s.ws.Rel(ex.File), err)
			continue
		}
		for _, f := range res.Left {
			p.note("%s:%d:%d %s (not repaired)", p.s.ws.Rel(f.Loc.File), f.Loc.Range.Start.Line, f.Loc.Range.Start.Col, f.Message)
			left++
		}
		if res.Changed() {
			p.write(ex.File, res.Before, res.After)
			fixed++
		}
	}
	p.summary("Fix %s of %s (%s left)", english.Count(fixed, "example file", "example files"), specRel, english.Count(left, "finding", "findings"))
	return nil
}

// OperationsResponse is GET /api/operations: the operations of a spec, for
// the generate action's choice.
type OperationsResponse struct {
	Operations []OperationRef `json:"operations"`
}

// OperationRef names an operation.
type OperationRef struct {
	Key         string `json:"key"` // "GET /pets"
	OperationID string `json:"operationId,omitempty"`
}

func (s *Server) handleOperations(w http.ResponseWriter, r *http.Request) {
	p := &planner{s: s, ctx: r.Context()}
	abs, err := p.resolveFile("path", r.URL.Query().Get("path"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	doc, err := p.load(abs)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := OperationsResponse{Operations: []OperationRef{}}
	for _, op := range doc.Views().Operations {
		out.Operations = append(out.Operations, OperationRef{Key: strings.ToUpper(op.Method) + " " + op.Path, OperationID: op.OperationID})
	}
	writeJSON(w, http.StatusOK, out)
}
