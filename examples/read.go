package examples

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Options configure the reading of example files.
type Options struct {
	// Limits bound each example file (size, nesting depth, values); zero
	// fields take DefaultLimits'.
	Limits spec.Limits
	// Names are the lookup roots that exist outside the examples (data
	// sources and stored values the configuration provides), for the check
	// of $(NAME): a root that is neither one of these, nor "data", nor a
	// value an earlier fixture captures, is an error when it looks like a
	// misspelling of one of them, or always with StrictNames.
	Names       []string
	StrictNames bool
}

// DefaultLimits bound an example file: examples are small, and a folder of
// them is read at every start of a mock or a test run.
func DefaultLimits() spec.Limits {
	return spec.Limits{MaxFileSize: 8 << 20, MaxDepth: 128, MaxNodes: 1_000_000}
}

func (o Options) limits() spec.Limits {
	return o.Limits.Or(DefaultLimits())
}

var (
	exampleKeys  = []string{"name", "http-request", "http-response", "partial", "before", "after", "data", "delay-in-seconds", "delay-in-milliseconds", "transient"}
	partialKeys  = []string{"http-request", "http-response"}
	requestKeys  = []string{"method", "path", "query", "headers", "body", "form-fields", "multipart-formdata", "baseUrl"}
	responseKeys = []string{"status", "status-text", "headers", "body"}
	fixtureKeys  = []string{"type", "http-request", "http-response", "scenario"}
	partKeys     = []string{"name", "content", "filename", "contentType", "contentEncoding"}
)

// ReadFile reads one example file. The example's name defaults to the
// file's name without its extension. The error, if any, is Errors.
func ReadFile(path string, opts Options) (*Example, error) {
	data, err := readLimited(path, opts.limits().MaxFileSize)
	if err != nil {
		return nil, Errors{err}
	}
	return Parse(path, data, opts)
}

// Parse reads an example from the text of a file named name (a .json,
// .yaml or .yml file; the name is used in messages, for the default name
// and to find files named by "@file" parts). The error, if any, is Errors.
func Parse(name string, data []byte, opts Options) (*Example, error) {
	base := filepath.Base(name)
	return parse(name, data, strings.TrimSuffix(base, filepath.Ext(base)), opts)
}

func readLimited(path string, max int64) ([]byte, *spec.Error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &spec.Error{File: path, Msg: "no such file", Err: err}
		}
		return nil, &spec.Error{File: path, Msg: err.Error(), Err: err}
	}
	if st.Size() > max {
		return nil, &spec.Error{File: path, Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit of an example file", st.Size(), max)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &spec.Error{File: path, Msg: err.Error(), Err: err}
	}
	if int64(len(data)) > max {
		return nil, &spec.Error{File: path, Msg: fmt.Sprintf("file is larger than the %d-byte limit of an example file", max)}
	}
	return data, nil
}

// parse reads one example; defaultName names it when it has no name key.
func parse(name string, data []byte, defaultName string, opts Options) (*Example, error) {
	root, err := spec.Parse(name, data, opts.limits())
	if err != nil {
		var se *spec.Error
		if errors.As(err, &se) {
			return nil, Errors{se}
		}
		return nil, Errors{{File: name, Msg: err.Error(), Err: err}}
	}
	r := &reader{file: name, src: newSource(name, data), dir: filepath.Dir(name), opts: opts}
	ex := r.example(root, defaultName)
	if len(r.errs) > 0 {
		sortErrors(r.errs)
		return nil, r.errs
	}
	return ex, nil
}

// reader reads the nodes of one example file into an Example, collecting
// every problem with its position.
type reader struct {
	file string
	src  *source
	dir  string
	opts Options
	errs Errors
}

func (r *reader) errorf(p spec.Pos, format string, args ...any) {
	r.errs = append(r.errs, &spec.Error{File: r.file, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (r *reader) add(e *spec.Error) { r.errs = append(r.errs, e) }

func (r *reader) loc(n *spec.Node) Loc { return Loc{File: r.file, Range: n.Range} }

func (r *reader) keyLoc(f *spec.Field) Loc { return Loc{File: r.file, Range: f.KeyRange} }

func (r *reader) strAt(n *spec.Node) strAt {
	return strAt{file: r.file, src: r.src, start: n.Range.Start, end: n.Range.End}
}

// object checks that n is an object whose keys are known (or x- keys when
// ext is true) and returns its fields by key; missing reports whether a
// key is absent without having been misspelt (so that a typo is reported
// once, as a typo).
func (r *reader) object(n *spec.Node, what string, known []string, ext bool) (fields map[string]*spec.Field, missing func(key string) bool, ok bool) {
	if n.Kind != spec.Object {
		r.errorf(n.Range.Start, "%s must be an object, found %s", what, kindName(n))
		return nil, nil, false
	}
	fields = map[string]*spec.Field{}
	suggested := map[string]bool{}
	for i := range n.Fields {
		f := &n.Fields[i]
		if slices.Contains(known, f.Key) || ext && strings.HasPrefix(f.Key, "x-") {
			fields[f.Key] = f
			continue
		}
		hint := suggest.Hint(f.Key, known)
		if hint != "" {
			suggested[strings.TrimSuffix(strings.TrimPrefix(hint, `; did you mean "`), `"?`)] = true
		}
		r.errorf(f.KeyRange.Start, "unknown key %q in %s%s", f.Key, what, hint)
	}
	return fields, func(key string) bool { return fields[key] == nil && !suggested[key] }, true
}

func kindName(n *spec.Node) string {
	switch n.Kind {
	case spec.Object:
		return "an object"
	case spec.Array:
		return "an array"
	case spec.Null:
		return "null"
	}
	return "a " + n.Kind.String()
}

// value converts a node into a value tree, parsing the notations of its
// strings.
func (r *reader) value(n *spec.Node) Value {
	at := r.loc(n)
	switch n.Kind {
	case spec.Object:
		o := &Object{At: at, Fields: make([]Field, 0, len(n.Fields))}
		for i := range n.Fields {
			f := &n.Fields[i]
			o.Fields = append(o.Fields, Field{Key: f.Key, KeyAt: r.keyLoc(f), Value: r.value(f.Value)})
		}
		return o
	case spec.Array:
		a := &Array{At: at, Items: make([]Value, 0, len(n.Items))}
		for _, it := range n.Items {
			a.Items = append(a.Items, r.value(it))
		}
		return a
	case spec.String:
		v, err := parseString(n.Value, r.strAt(n))
		if err != nil {
			r.add(err)
			return &Literal{Value: n.Value, At: at}
		}
		return v
	}
	return &Literal{Value: schema.JSONValue(n), At: at}
}

func (r *reader) str(f *spec.Field, what string) (string, bool) {
	if f.Value.Kind != spec.String {
		r.errorf(f.Value.Range.Start, "%s must be a string, found %s", what, kindName(f.Value))
		return "", false
	}
	return f.Value.Value, true
}

// example reads the top level of an example file.
func (r *reader) example(root *spec.Node, defaultName string) *Example {
	ex := &Example{Name: defaultName, File: r.file, Loc: r.loc(root), NameLoc: Loc{File: r.file}}
	if root.Kind != spec.Object {
		r.errorf(root.Range.Start, "not an example: an example file holds an object with http-request and http-response, found %s", kindName(root))
		return ex
	}
	if !looksLikeExample(root) {
		found := make([]string, 0, len(root.Fields))
		for _, f := range root.Fields {
			found = append(found, f.Key)
		}
		what := "no keys"
		if len(found) > 0 {
			what = "keys " + strings.Join(found, ", ")
		}
		r.errorf(root.Range.Start, "not an example: expected http-request and http-response (or partial) at the top level, found %s", what)
		return ex
	}
	fields, missing, _ := r.object(root, "the example", exampleKeys, true)
	if f := fields["name"]; f != nil {
		if s, ok := r.str(f, "name"); ok {
			if strings.TrimSpace(s) == "" {
				r.errorf(f.Value.Range.Start, "name must not be empty")
			} else {
				ex.Name, ex.NameLoc = s, r.loc(f.Value)
			}
		}
	}
	r.metadata(ex, fields)
	for i := range root.Fields {
		if f := &root.Fields[i]; strings.HasPrefix(f.Key, "x-") {
			ex.Metadata.Extensions = append(ex.Metadata.Extensions, Field{Key: f.Key, KeyAt: r.keyLoc(f), Value: r.value(f.Value)})
		}
	}
	if f := fields["data"]; f != nil {
		if f.Value.Kind != spec.Object {
			r.errorf(f.Value.Range.Start, "data must be an object, found %s", kindName(f.Value))
		} else {
			ex.Data = r.value(f.Value).(*Object)
		}
	}
	reqField, respField := fields["http-request"], fields["http-response"]
	if p := fields["partial"]; p != nil {
		ex.Partial = true
		if reqField != nil || respField != nil {
			other := reqField
			if other == nil {
				other = respField
			}
			r.errorf(other.KeyRange.Start, "%s is written both at the top level and inside partial; a partial example writes its exchange inside partial", other.Key)
		}
		pf, pmissing, ok := r.object(p.Value, "partial", partialKeys, false)
		if ok {
			reqField, respField = pf["http-request"], pf["http-response"]
			if reqField == nil && pmissing("http-request") {
				r.errorf(p.KeyRange.Start, "partial has no http-request")
			}
		}
	} else {
		if reqField == nil && missing("http-request") {
			r.errorf(root.Range.Start, "the example has no http-request")
		}
		if respField == nil && missing("http-response") {
			r.errorf(root.Range.Start, "the example has no http-response")
		}
	}
	if reqField != nil {
		ex.Request = r.request(reqField, false, ex.Partial)
	}
	if respField != nil {
		ex.Response = r.response(respField, !ex.Partial)
	}
	ex.Before = r.fixtures(fields["before"], "before")
	ex.After = r.fixtures(fields["after"], "after")
	r.checkNotations(ex)
	return ex
}

// looksLikeExample reports whether an object has http-request,
// http-response or partial, or a key that is a misspelling of one of them.
func looksLikeExample(root *spec.Node) bool {
	for _, f := range root.Fields {
		switch f.Key {
		case "http-request", "http-response", "partial":
			return true
		}
		if suggest.Hint(f.Key, []string{"http-request", "http-response", "partial"}) != "" {
			return true
		}
	}
	return false
}

func (r *reader) metadata(ex *Example, fields map[string]*spec.Field) {
	secs, millis := fields["delay-in-seconds"], fields["delay-in-milliseconds"]
	if secs != nil && millis != nil {
		r.errorf(millis.KeyRange.Start, "delay-in-milliseconds and delay-in-seconds are both written; keep one")
	}
	if secs != nil {
		if d, ok := r.duration(secs, time.Second, true); ok {
			ex.Metadata.Delay, ex.Metadata.DelayLoc = d, r.loc(secs.Value)
		}
	} else if millis != nil {
		if d, ok := r.duration(millis, time.Millisecond, false); ok {
			ex.Metadata.Delay, ex.Metadata.DelayLoc = d, r.loc(millis.Value)
		}
	}
	if f := fields["transient"]; f != nil {
		if f.Value.Kind != spec.Bool {
			r.errorf(f.Value.Range.Start, "transient must be true or false, found %s", kindName(f.Value))
		} else {
			ex.Metadata.Transient, ex.Metadata.TransientLoc = f.Value.IsTrue(), r.loc(f.Value)
		}
	}
}

// duration reads a nonnegative delay in unit; fractions only when allowed.
func (r *reader) duration(f *spec.Field, unit time.Duration, fractions bool) (time.Duration, bool) {
	if f.Value.Kind != spec.Number {
		r.errorf(f.Value.Range.Start, "%s must be a number, found %s", f.Key, kindName(f.Value))
		return 0, false
	}
	v, ok := new(big.Rat).SetString(f.Value.Value)
	if !ok || v.Sign() < 0 {
		r.errorf(f.Value.Range.Start, "%s must not be negative, found %s", f.Key, f.Value.Value)
		return 0, false
	}
	if !fractions && !v.IsInt() {
		r.errorf(f.Value.Range.Start, "%s must be a whole number, found %s", f.Key, f.Value.Value)
		return 0, false
	}
	d, _ := new(big.Rat).Mul(v, new(big.Rat).SetInt64(int64(unit))).Float64()
	if d > float64(math.MaxInt64) || d > float64(24*time.Hour) {
		r.errorf(f.Value.Range.Start, "%s is %s, longer than a day", f.Key, f.Value.Value)
		return 0, false
	}
	return time.Duration(d), true
}

// request reads an http-request; fixture requests may have a baseUrl, and
// a partial example's request may leave out what the specification
// completes.
func (r *reader) request(f *spec.Field, fixture, partial bool) *Request {
	req := &Request{Loc: r.loc(f.Value), keyAt: r.keyLoc(f)}
	fields, missing, ok := r.object(f.Value, f.Key, requestKeys, false)
	if !ok {
		return req
	}
	if m := fields["method"]; m != nil {
		if s, ok := r.str(m, "method"); ok {
			if method, valid := canonicalMethod(s); valid {
				req.Method, req.MethodLoc = method, r.loc(m.Value)
			} else {
				r.errorf(m.Value.Range.Start, "method %q is not an HTTP method", s)
			}
		}
	} else if missing("method") {
		r.errorf(f.KeyRange.Start, "%s has no method", f.Key)
	}
	if p := fields["path"]; p != nil {
		r.path(req, p)
	} else if missing("path") {
		r.errorf(f.KeyRange.Start, "%s has no path", f.Key)
	}
	if q := fields["query"]; q != nil {
		req.Query = append(req.Query, r.params(q, "query", false)...)
	}
	if h := fields["headers"]; h != nil {
		req.Headers = r.params(h, "headers", true)
	}
	if b := fields["body"]; b != nil {
		req.Body, req.bodyKeyAt = r.value(b.Value), r.keyLoc(b)
	}
	if ff := fields["form-fields"]; ff != nil {
		req.FormFields = r.params(ff, "form-fields", false)
	}
	if mp := fields["multipart-formdata"]; mp != nil {
		req.Multipart = r.parts(mp)
	}
	for _, form := range []string{"form-fields", "multipart-formdata"} {
		if fields[form] != nil && fields["body"] != nil {
			r.errorf(fields["body"].KeyRange.Start, "%s has both body and %s: a form is written as form-fields or multipart-formdata, not as a body", f.Key, form)
		}
	}
	if fields["form-fields"] != nil && fields["multipart-formdata"] != nil {
		r.errorf(fields["multipart-formdata"].KeyRange.Start, "%s has both form-fields and multipart-formdata; a form is one or the other", f.Key)
	}
	if u := fields["baseUrl"]; u != nil {
		if !fixture {
			r.errorf(u.KeyRange.Start, "baseUrl belongs to a fixture's request; an example's request goes to the system under test")
		} else if _, ok := r.str(u, "baseUrl"); ok {
			req.BaseURL = r.value(u.Value)
		}
	}
	req.ContentType = headerValue(req.Headers, "Content-Type")
	if req.ContentType == "" {
		switch {
		case req.FormFields != nil:
			req.ContentType = "application/x-www-form-urlencoded"
		case req.Multipart != nil:
			req.ContentType = "multipart/form-data"
		}
	}
	return req
}

// path reads the request path; a query string written after "?" becomes
// query parameters, in order.
func (r *reader) path(req *Request, f *spec.Field) {
	s, ok := r.str(f, "path")
	if !ok {
		return
	}
	req.RawPath = s
	if s == "" || s[0] != '/' && !strings.HasPrefix(s, "${") && !strings.HasPrefix(s, "$(") {
		r.errorf(f.Value.Range.Start, "path must start with \"/\", found %q", s)
		return
	}
	pathPart, query, hasQuery := strings.Cut(s, "?")
	c := r.strAt(f.Value)
	v, err := parseString(pathPart, c)
	if err != nil {
		r.add(err)
		return
	}
	switch v.(type) {
	case *Literal, *Template:
		req.Path = v
	default:
		r.errorf(f.Value.Range.Start, "path must be a path, not %s", describe(v))
		return
	}
	if !hasQuery {
		return
	}
	off := len(pathPart) + 1
	for _, pair := range strings.Split(query, "&") {
		if pair == "" {
			off++
			continue
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err1 := url.QueryUnescape(rawName)
		value, err2 := url.QueryUnescape(rawValue)
		if err1 != nil || err2 != nil {
			r.add(c.errorf(off, "invalid query string %q in path", pair))
			return
		}
		sub := strAt{file: r.file, src: nil, start: c.pos(off + len(rawName) + 1), end: c.end}
		pv, perr := parseString(value, sub)
		if perr != nil {
			r.add(perr)
			return
		}
		req.Query = append(req.Query, Param{Name: name, NameLoc: c.loc(off, off+len(rawName)), Value: pv})
		off += len(pair) + 1
	}
}

// params reads an object of named values; header values are scalars or
// arrays of scalars (one header line each).
func (r *reader) params(f *spec.Field, what string, scalars bool) []Param {
	if f.Value.Kind != spec.Object {
		r.errorf(f.Value.Range.Start, "%s must be an object, found %s", what, kindName(f.Value))
		return nil
	}
	out := make([]Param, 0, len(f.Value.Fields))
	for i := range f.Value.Fields {
		pf := &f.Value.Fields[i]
		if scalars && !scalarOrList(pf.Value) {
			r.errorf(pf.Value.Range.Start, "%s %q must be a string, a number or a boolean (or a list of them), found %s", what, pf.Key, kindName(pf.Value))
			continue
		}
		out = append(out, Param{Name: pf.Key, NameLoc: r.keyLoc(pf), Value: r.value(pf.Value)})
	}
	return out
}

func scalarOrList(n *spec.Node) bool {
	switch n.Kind {
	case spec.Object:
		return false
	case spec.Array:
		for _, it := range n.Items {
			if it.Kind == spec.Object || it.Kind == spec.Array {
				return false
			}
		}
	}
	return true
}

// parts reads multipart-formdata.
func (r *reader) parts(f *spec.Field) []*Part {
	if f.Value.Kind != spec.Array {
		r.errorf(f.Value.Range.Start, "multipart-formdata must be a list of parts, found %s", kindName(f.Value))
		return nil
	}
	out := make([]*Part, 0, len(f.Value.Items))
	for i, n := range f.Value.Items {
		what := "multipart-formdata[" + strconv.Itoa(i) + "]"
		fields, missing, ok := r.object(n, what, partKeys, false)
		if !ok {
			continue
		}
		part := &Part{Loc: r.loc(n)}
		if nf := fields["name"]; nf != nil {
			if s, ok := r.str(nf, what+".name"); ok {
				part.Name, part.NameLoc = s, r.loc(nf.Value)
			}
		} else if missing("name") {
			r.errorf(n.Range.Start, "%s has no name", what)
		}
		content, file := fields["content"], fields["filename"]
		switch {
		case content != nil && file != nil:
			r.errorf(file.KeyRange.Start, "%s has both content and filename; a part sends one or the other", what)
		case content != nil:
			part.Content = r.value(content.Value)
		case file != nil:
			if s, ok := r.str(file, what+".filename"); ok {
				r.partFile(part, file, s, what)
			}
		case missing("content") && missing("filename"):
			r.errorf(n.Range.Start, "%s has neither content nor filename", what)
		}
		for _, k := range []string{"contentType", "contentEncoding"} {
			if kf := fields[k]; kf != nil {
				if s, ok := r.str(kf, what+"."+k); ok {
					if k == "contentType" {
						part.ContentType = s
					} else {
						part.ContentEncoding = s
					}
				}
			}
		}
		out = append(out, part)
	}
	return out
}

// partFile reads filename: "@path", a file relative to the example's
// folder that must exist.
func (r *reader) partFile(part *Part, f *spec.Field, s, what string) {
	if !strings.HasPrefix(s, "@") || len(s) == 1 {
		r.errorf(f.Value.Range.Start, "%s.filename names a file with @, as in \"@data.csv\"; found %q (inline content goes in content)", what, s)
		return
	}
	name := filepath.FromSlash(s[1:])
	path := name
	if !filepath.IsAbs(name) {
		path = filepath.Join(r.dir, name)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		r.errorf(f.Value.Range.Start, "%s.filename: no file %s", what, path)
		return
	case st.IsDir():
		r.errorf(f.Value.Range.Start, "%s.filename: %s is a folder, not a file", what, path)
		return
	}
	part.File, part.FileLoc, part.Filename = path, r.loc(f.Value), filepath.Base(name)
}

// response reads an http-response; needStatus is false in partial
// examples and fixtures, where the specification or any 2xx completes it.
func (r *reader) response(f *spec.Field, needStatus bool) *Response {
	resp := &Response{Loc: r.loc(f.Value), keyAt: r.keyLoc(f)}
	fields, missing, ok := r.object(f.Value, f.Key, responseKeys, false)
	if !ok {
		return resp
	}
	if s := fields["status"]; s != nil {
		code, err := strconv.Atoi(s.Value.Value)
		switch {
		case s.Value.Kind != spec.Number || err != nil:
			r.errorf(s.Value.Range.Start, "status must be an integer such as 200, found %s", kindName(s.Value))
		case code < 100 || code > 599:
			r.errorf(s.Value.Range.Start, "status %d is not an HTTP status (100 to 599)", code)
		default:
			resp.Status, resp.StatusLoc = code, r.loc(s.Value)
		}
	} else if needStatus && missing("status") {
		r.errorf(f.KeyRange.Start, "%s has no status", f.Key)
	}
	if st := fields["status-text"]; st != nil {
		if s, ok := r.str(st, "status-text"); ok {
			resp.StatusText = s
		}
	}
	if h := fields["headers"]; h != nil {
		resp.Headers = r.params(h, "headers", true)
	}
	if b := fields["body"]; b != nil {
		resp.Body, resp.bodyKeyAt = r.value(b.Value), r.keyLoc(b)
	}
	resp.ContentType = headerValue(resp.Headers, "Content-Type")
	return resp
}

// fixtures reads before or after.
func (r *reader) fixtures(f *spec.Field, when string) []*Fixture {
	if f == nil {
		return nil
	}
	if f.Value.Kind != spec.Array {
		r.errorf(f.Value.Range.Start, "%s must be a list of fixtures, found %s", when, kindName(f.Value))
		return nil
	}
	out := make([]*Fixture, 0, len(f.Value.Items))
	for i, n := range f.Value.Items {
		what := when + "[" + strconv.Itoa(i) + "]"
		fields, missing, ok := r.object(n, what, fixtureKeys, false)
		if !ok {
			continue
		}
		fx := &Fixture{Type: "http", Loc: r.loc(n), Index: i, When: when}
		if t := fields["type"]; t != nil {
			if s, ok := r.str(t, what+".type"); ok {
				if s != "http" {
					r.errorf(t.Value.Range.Start, "%s.type %q is not a fixture type (http)%s", what, s, suggest.Hint(s, []string{"http"}))
				}
			}
		}
		if s := fields["scenario"]; s != nil {
			if name, ok := r.str(s, what+".scenario"); ok {
				switch name {
				case "positive":
				case "negative":
					fx.Scenario = ScenarioNegative
				case "all":
					fx.Scenario = ScenarioAll
				default:
					r.errorf(s.Value.Range.Start, "%s.scenario %q is not positive, negative or all%s", what, name, suggest.Hint(name, scenarioNames[:]))
				}
			}
		}
		if rq := fields["http-request"]; rq != nil {
			fx.Request = r.request(rq, true, false)
		} else if missing("http-request") {
			r.errorf(n.Range.Start, "%s has no http-request", what)
		}
		if rs := fields["http-response"]; rs != nil {
			fx.Response = r.response(rs, false)
		}
		out = append(out, fx)
	}
	return out
}
