package mock

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// The external example format (one exchange per JSON or YAML file):
//
//	{"http-request":  {"method": "GET", "path": "/pets/7?limit=2", "headers": {…}, "query": {…}, "body": …},
//	 "http-response": {"status": 200, "headers": {…}, "body": …},
//	 "delay-in-seconds": 1, "delay-in-milliseconds": 250, "transient": true}
//
// "partial" may wrap http-request and http-response instead: the request
// then constrains only the values it names. "badRequest": true marks an
// example that answers requests breaking the contract.
//
// The mock reads the format itself until the examples package's loader
// (with fixtures, value notations and matchers) replaces this file.

// exampleError is a malformed example, at a line and column of its file.
type exampleError struct {
	file      string
	line, col int
	field     string
	msg       string
}

func (e *exampleError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.file, e.line, e.col, e.msg)
	}
	return fmt.Sprintf("%s: %s", e.file, e.msg)
}

func badExample(file string, n *spec.Node, field, format string, args ...any) *exampleError {
	e := &exampleError{file: file, field: field, msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.line, e.col = int(n.Range.Start.Line), int(n.Range.Start.Col)
	}
	return e
}

// loadExamples gives each operation of gen its examples: those written in
// the spec (inline), then the external files of the example folders. It
// returns the folders read, for hot reload.
func (s *Server) loadExamples(gen *generation) ([]string, []error) {
	var errs []error
	var dirs []string
	for _, a := range gen.apis {
		for _, op := range a.ops {
			op.examples = inlineExamples(a, op)
		}
	}
	seen := map[string]bool{}
	var files []string
	for i, src := range s.opts.Specs {
		for _, d := range exampleDirs(src.Path, s.opts.Examples) {
			if seen[d] {
				continue
			}
			seen[d] = true
			st, err := os.Stat(d)
			if err != nil || !st.IsDir() {
				if i == 0 || !containsString(s.opts.Examples, d) {
					errs = append(errs, fmt.Errorf("%s: the examples folder cannot be read: %v", d, errOrNotDir(err)))
				}
				continue
			}
			dirs = append(dirs, d)
			_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %v", p, err))
					return nil
				}
				if e.IsDir() {
					if p != d && strings.HasPrefix(e.Name(), ".") {
						return filepath.SkipDir
					}
					return nil
				}
				switch strings.ToLower(filepath.Ext(p)) {
				case ".json", ".yaml", ".yml":
					files = append(files, p)
				}
				return nil
			})
		}
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", f, err))
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		op, ex, err := gen.parseExample(f, name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ex.origin = fromFile
		op.examples = append(op.examples, ex)
	}
	for _, a := range gen.apis {
		for _, op := range a.ops {
			sortExamples(op.examples)
		}
	}
	return dirs, errs
}

func errOrNotDir(err error) error {
	if err != nil {
		if os.IsNotExist(err) {
			return fmt.Errorf("no such folder")
		}
		return err
	}
	return fmt.Errorf("not a folder")
}

// sortExamples puts examples in precedence order for equal specificity:
// external files (by path) before inline ones (in source order).
func sortExamples(exs []*example) {
	sort.SliceStable(exs, func(i, j int) bool { return exs[i].origin < exs[j].origin })
}

// parseExample reads one example in the external format and finds its
// operation by routing its request.
func (g *generation) parseExample(file, name string, data []byte) (*operation, *example, error) {
	root, err := spec.Parse(file, data, spec.DefaultLimits())
	if err != nil {
		return nil, nil, err
	}
	if root.Kind != spec.Object {
		return nil, nil, badExample(file, root, "", "an example must be an object with http-request and http-response, found %s", root.Kind)
	}
	partial := false
	holder := root
	if p := root.Get("partial"); p != nil {
		holder, partial = p, true
	}
	reqN, respN := holder.Get("http-request"), holder.Get("http-response")
	if reqN == nil || reqN.Kind != spec.Object {
		return nil, nil, badExample(file, orNode(reqN, root), "http-request", "the example has no http-request object")
	}
	if respN == nil || respN.Kind != spec.Object {
		return nil, nil, badExample(file, orNode(respN, root), "http-response", "the example has no http-response object")
	}
	if n := root.Get("name"); n != nil && n.Kind == spec.String {
		name = n.Value
	}
	method := strings.ToUpper(reqN.GetStr("method"))
	rawPath := reqN.GetStr("path")
	if method == "" {
		return nil, nil, badExample(file, reqN, "http-request.method", "http-request has no method")
	}
	if rawPath == "" || rawPath[0] != '/' {
		return nil, nil, badExample(file, orNode(reqN.Get("path"), reqN), "http-request.path", "http-request.path must be a path starting with /")
	}
	u, err := url.Parse(rawPath)
	if err != nil {
		return nil, nil, badExample(file, reqN.Get("path"), "http-request.path", "http-request.path: %v", err)
	}
	op, route := g.routeExample(method, u.EscapedPath())
	if op == nil {
		return nil, nil, badExample(file, reqN.Get("path"), "http-request.path", "%s %s matches no operation of the specs served", method, u.Path)
	}
	m := &requestMatch{method: method, partial: partial}
	for _, p := range route.PathParams {
		m.params = append(m.params, paramMatch{in: "path", name: p.Name, value: p.Value})
	}
	for k, vals := range u.Query() {
		m.params = append(m.params, paramMatch{in: "query", name: k, value: listOrOne(vals)})
	}
	for _, f := range fieldsOf(reqN.Get("query")) {
		m.params = append(m.params, paramMatch{in: "query", name: f.Key, value: nodeValue(f.Value)})
	}
	for _, f := range fieldsOf(reqN.Get("headers")) {
		if f.Value.Kind != spec.String && f.Value.Kind != spec.Number && f.Value.Kind != spec.Bool {
			return nil, nil, badExample(file, f.Value, "http-request.headers."+f.Key, "header %s must be a string, found %s", f.Key, f.Value.Kind)
		}
		if strings.EqualFold(f.Key, "Content-Type") || strings.EqualFold(f.Key, "Accept") {
			continue
		}
		m.params = append(m.params, paramMatch{in: "header", name: http.CanonicalHeaderKey(f.Key), value: f.Value.Value})
	}
	sort.Slice(m.params, func(i, j int) bool {
		return m.params[i].in+m.params[i].name < m.params[j].in+m.params[j].name
	})
	if b := reqN.Field("body"); b != nil {
		m.body, m.hasBody = nodeValue(b.Value), true
	}
	ex := &example{name: name, request: m, origin: fromFile,
		source: fmt.Sprintf("%s:%d:%d", file, root.Range.Start.Line, root.Range.Start.Col)}
	st := respN.Get("status")
	if st == nil {
		return nil, nil, badExample(file, respN, "http-response.status", "http-response has no status")
	}
	status, err := strconv.Atoi(st.Value)
	if st.Kind != spec.Number || err != nil || status < 100 || status > 599 {
		return nil, nil, badExample(file, st, "http-response.status", "http-response.status must be an HTTP status such as 200, found %s", st.Value)
	}
	ex.status = status
	ex.badRequest = root.Get("badRequest").IsTrue() || root.Get("bad-request").IsTrue()
	ex.response = responseFor(op.op, status)
	if ex.response == nil && !ex.badRequest {
		return nil, nil, badExample(file, st, "http-response.status", "%s declares no response %d (it declares %s)", op, status, statusList(op.op))
	}
	ex.headers = map[string]string{}
	for _, f := range fieldsOf(respN.Get("headers")) {
		if strings.EqualFold(f.Key, "Content-Type") {
			ex.media = f.Value.Value
			continue
		}
		ex.headers[f.Key] = f.Value.Value
	}
	if b := respN.Field("body"); b != nil {
		ex.body, ex.hasBody = nodeValue(b.Value), true
		if s, ok := ex.body.(string); ok && ex.media != "" && !isJSON(ex.media) {
			ex.raw = []byte(s)
		}
		if ex.media == "" && ex.response != nil && len(ex.response.Content) > 0 {
			ex.media = ex.response.Content[0].Name
		}
	}
	if n := root.Get("delay-in-seconds"); n != nil {
		f, err := strconv.ParseFloat(n.Value, 64)
		if n.Kind != spec.Number || err != nil || f < 0 {
			return nil, nil, badExample(file, n, "delay-in-seconds", "delay-in-seconds must be a number of seconds, found %s", n.Value)
		}
		ex.delay = time.Duration(f * float64(time.Second))
	}
	if n := root.Get("delay-in-milliseconds"); n != nil {
		f, err := strconv.ParseFloat(n.Value, 64)
		if n.Kind != spec.Number || err != nil || f < 0 {
			return nil, nil, badExample(file, n, "delay-in-milliseconds", "delay-in-milliseconds must be a number of milliseconds, found %s", n.Value)
		}
		ex.delay = time.Duration(f * float64(time.Millisecond))
	}
	ex.transient = root.Get("transient").IsTrue()
	return op, ex, nil
}

func orNode(n, fallback *spec.Node) *spec.Node {
	if n != nil {
		return n
	}
	return fallback
}

func fieldsOf(n *spec.Node) []spec.Field {
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	return n.Fields
}

func listOrOne(vals []string) any {
	if len(vals) == 1 {
		return vals[0]
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// routeExample finds the operation of an example's request: its path as
// written, else under each served prefix.
func (g *generation) routeExample(method, path string) (*operation, *contract.Route) {
	for _, a := range g.apis {
		for _, try := range append([]string{path}, prefixed(a.prefixes, path)...) {
			if rt, err := a.contract.Route(method, try); err == nil {
				return a.byOp[rt.Op], rt
			}
		}
	}
	return nil, nil
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
