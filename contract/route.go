package contract

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/specgate/specgate/spec"
)

// Route is where a request belongs: its operation and the values of the
// path template's variables.
type Route struct {
	Op *spec.Operation
	// Template is the operation's path template, as the document writes it.
	Template string
	// Prefix is the part of the request path that a server's URL (or
	// Options.Prefixes) accounted for, as the request wrote it: "/v1", or ""
	// at the root.
	Prefix string
	// PathParams are the template's variables in template order.
	PathParams []PathParam

	op *operation
}

// PathParam is the value of one variable of a path template.
type PathParam struct {
	Name string
	// Raw is the text the variable matched, still percent-encoded.
	Raw string
	// Value is Raw percent-decoded (Raw itself when it is not a valid
	// encoding). A label or matrix parameter's Value keeps its style's
	// punctuation; CheckRequest reads it by style.
	Value string
}

// Param returns the decoded value of the path variable name.
func (r *Route) Param(name string) (string, bool) {
	for _, p := range r.PathParams {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// RouteError tells why a request has no route: no template matches its
// path (404), or the templates that match do not declare its method (405,
// with Allow listing the methods they declare, upper case, in the order of
// the OpenAPI specification).
type RouteError struct {
	Status int
	Method string
	Path   string
	Allow  []string
}

func (e *RouteError) Error() string {
	if e.Status == http.StatusMethodNotAllowed {
		return "method " + e.Method + " is not declared for " + e.Path + " (allowed: " + strings.Join(e.Allow, ", ") + ")"
	}
	return "no operation matches " + e.Method + " " + e.Path
}

// A path template is a list of segments; a segment is literal text and
// variables: "{name}.json" is a variable then ".json".
type tpart struct {
	lit   string
	name  string
	isVar bool
}

type tseg struct {
	parts []tpart
	key   string // the segment's shape: its literals, with {} for each variable
	lits  int    // characters of literal text
	vars  int
	// enums constrains variables of server URLs to their declared values,
	// by variable index; nil entries (and nil enums) accept any value.
	enums [][]string
}

// parseTemplate splits a path template into segments after its leading
// slash. An unclosed brace is literal text.
func parseTemplate(path string) []tseg {
	path = strings.TrimPrefix(path, "/")
	var out []tseg
	for seg := range strings.SplitSeq(path, "/") {
		out = append(out, parseSegment(seg))
	}
	return out
}

func parseSegment(s string) tseg {
	var t tseg
	var key strings.Builder
	lit := func(text string) {
		if text == "" {
			return
		}
		if n := len(t.parts); n > 0 && !t.parts[n-1].isVar {
			t.parts[n-1].lit += text
		} else {
			t.parts = append(t.parts, tpart{lit: text})
		}
		t.lits += len(text)
		key.WriteString(text)
	}
	for s != "" {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			lit(s)
			break
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			lit(s)
			break
		}
		lit(s[:open])
		t.parts = append(t.parts, tpart{name: s[open+1 : open+end], isVar: true})
		t.vars++
		key.WriteString("{}")
		s = s[open+end+1:]
	}
	t.key = key.String()
	return t
}

// matchSteps bounds the work of matching one request segment against one
// templated segment: a template's few variables match in a handful of
// steps, and a hostile segment ("x-x-x-…" against "{a}-{b}-{c}") must
// not make the backtracking take the square or the cube of its length.
const matchSteps = 4096

// matchParts matches the parts of a segment against the text of a request
// segment, appending the variables' values to caps. Variables match at
// least one character; the leftmost takes the shortest text that lets the
// rest match. enums limits variables (by index) to values, for server
// URLs. A match that takes more than matchSteps steps fails.
func matchParts(parts []tpart, s string, caps []string, enums [][]string) ([]string, bool) {
	steps := matchSteps
	return matchFrom(parts, s, caps, enums, 0, &steps)
}

func matchFrom(parts []tpart, s string, caps []string, enums [][]string, v int, steps *int) ([]string, bool) {
	if *steps--; *steps < 0 {
		return caps, false
	}
	if len(parts) == 0 {
		return caps, s == ""
	}
	p := parts[0]
	if !p.isVar {
		if !strings.HasPrefix(s, p.lit) {
			return caps, false
		}
		return matchFrom(parts[1:], s[len(p.lit):], caps, enums, v, steps)
	}
	allowed := func(val string) bool {
		return v >= len(enums) || enums[v] == nil || slices.Contains(enums[v], val)
	}
	if len(parts) == 1 {
		if s == "" || !allowed(s) {
			return caps, false
		}
		return append(caps, s), true
	}
	if last := parts[len(parts)-1]; !last.isVar && !strings.HasSuffix(s, last.lit) {
		return caps, false // the template's last text must end the segment
	}
	for i := 1; i <= len(s); i++ {
		if next := parts[1]; !next.isVar {
			j := strings.Index(s[i:], next.lit)
			if j < 0 {
				return caps, false
			}
			i += j
		}
		if !allowed(s[:i]) {
			continue
		}
		if c, ok := matchFrom(parts[1:], s[i:], append(caps, s[:i]), enums, v+1, steps); ok {
			return c, true
		}
		if *steps < 0 {
			return caps, false
		}
	}
	return caps, false
}

// rnode is a node of the routing tree: one level per path segment.
type rnode struct {
	lits map[string]*rnode
	pats []*redge // templated segments, most literal text first
	ends []*endpoint
}

type redge struct {
	seg   tseg
	child *rnode
}

// endpoint is one path template ending at a node, with its operations.
// Templates of the same shape ("/a/{x}" and "/a/{y}") end at the same node
// and are tried in source order.
type endpoint struct {
	template string
	names    []string
	ops      []*operation
	// query holds the key=value pairs a template writes after "?"
	// ("/responses?beta=true", which some documents use to tell apart
	// operations of one path): a request matches only when its query has
	// them all.
	query []qpair
	// fragQuery and fragHeader hold the pairs a template writes after "#"
	// that name a query or header parameter of its operation (APIs-guru's
	// AWS descriptions: "/#X-Amz-Target=Service.Action", "/#Action=Name",
	// "/tags/{arn}#tagKeys"). A request that has them is routed to the
	// template before one that does not; when no template of the path has
	// all those it asks for, the first that declares the method takes the
	// request, whose check then says which parameter is wrong.
	fragQuery, fragHeader []qpair
}

// wantsFragment reports whether a request has every pair the template's
// fragment asks for; header is nil when the request's headers are not
// known (Route), and then only the query is asked.
func (ep *endpoint) wantsFragment(query string, header http.Header, known bool) bool {
	if len(ep.fragQuery) > 0 {
		have := parseQuery(query)
		for _, w := range ep.fragQuery {
			if !slices.ContainsFunc(have, func(h qpair) bool { return h.key == w.key && (!w.eq || queryUnescape(h.raw) == w.raw) }) {
				return false
			}
		}
	}
	if known {
		for _, w := range ep.fragHeader {
			v := headerValue(header, w.key)
			if v == "" || w.eq && v != w.raw {
				return false
			}
		}
	}
	return true
}

// fragmentWants sorts the pairs of a template's fragment by the place of
// the parameter each names; pairs that name no query or header parameter
// of the operation (Azure's "#overload=stream") tell nothing.
func fragmentWants(frag string, op *operation) (query, header []qpair) {
	for _, q := range parseQuery(frag) {
		w := qpair{key: q.key, raw: queryUnescape(q.raw), eq: q.eq}
		for _, p := range op.params {
			switch {
			case p.in == "query" && p.name == w.key:
				query = append(query, w)
			case p.in == "header" && strings.EqualFold(p.name, w.key):
				header = append(header, w)
			default:
				continue
			}
			break
		}
	}
	return query, header
}

// wants reports whether a query string has every pair the template asks
// for.
func (ep *endpoint) wants(query string) bool {
	if len(ep.query) == 0 {
		return true
	}
	have := parseQuery(query)
	for _, w := range ep.query {
		found := false
		for _, h := range have {
			if h.key == w.key && (!w.eq || queryUnescape(h.raw) == w.raw) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

type router struct {
	root     *rnode
	prefixes []*prefix // longest first; the root last
}

func (r *router) add(template string, op *operation) {
	n := r.root
	var names []string
	path, frag, _ := strings.Cut(template, "#")
	path, query, _ := strings.Cut(path, "?")
	for _, seg := range parseTemplate(path) {
		if seg.vars == 0 {
			lit := seg.key
			if n.lits == nil {
				n.lits = map[string]*rnode{}
			}
			c := n.lits[lit]
			if c == nil {
				c = &rnode{}
				n.lits[lit] = c
			}
			n = c
			continue
		}
		for _, p := range seg.parts {
			if p.isVar {
				names = append(names, p.name)
			}
		}
		var next *rnode
		for _, e := range n.pats {
			if e.seg.key == seg.key {
				next = e.child
				break
			}
		}
		if next == nil {
			next = &rnode{}
			n.pats = append(n.pats, &redge{seg: seg, child: next})
			// More literal text first; equal shapes keep source order.
			sort.SliceStable(n.pats, func(i, j int) bool { return n.pats[i].seg.lits > n.pats[j].seg.lits })
		}
		n = next
	}
	for _, ep := range n.ends {
		if ep.template == template {
			ep.ops = append(ep.ops, op)
			return
		}
	}
	ep := &endpoint{template: template, names: names, ops: []*operation{op}}
	for _, q := range parseQuery(query) {
		ep.query = append(ep.query, qpair{key: q.key, raw: queryUnescape(q.raw), eq: q.eq})
	}
	ep.fragQuery, ep.fragHeader = fragmentWants(frag, op)
	n.ends = append(n.ends, ep)
	// A template that asks for query pairs or fragment pairs is more
	// specific than one that does not.
	sort.SliceStable(n.ends, func(i, j int) bool { return n.ends[i].asks() > n.ends[j].asks() })
}

func (ep *endpoint) asks() int { return len(ep.query) + len(ep.fragQuery) + len(ep.fragHeader) }

// rootSegs are the segments of "/", for a request path that a prefix
// takes whole.
var rootSegs = []string{""}

// maxSegs bounds the segments of a request path split without allocating.
const maxSegs = 32

// matcher walks the routing tree for one request.
type matcher struct {
	method string
	query  string
	// header is the request's header when known (known); lenient lets a
	// template take the request whatever its fragment asks for, and
	// skipped tells that a template was passed over for it.
	header                  http.Header
	known, lenient, skipped bool
	pfx                     int
	segs                    []string
	caps                    []string

	op    *operation
	ep    *endpoint
	found []string
	allow []string
	any   bool
	nsegs int // segBuf entries written

	segBuf [maxSegs]string
	capBuf [8]string
}

// walk visits the templates matching segs[i:] from n, in precedence order,
// and stops at the first that declares the method.
func (m *matcher) walk(n *rnode, i int) bool {
	if i == len(m.segs) {
		for _, ep := range n.ends {
			if m.accept(ep) {
				return true
			}
		}
		return false
	}
	s := m.segs[i]
	if n.lits != nil {
		if c := n.lits[s]; c != nil && m.walk(c, i+1) {
			return true
		}
		if strings.IndexByte(s, '%') >= 0 {
			if d, err := url.PathUnescape(s); err == nil && d != s {
				if c := n.lits[d]; c != nil && m.walk(c, i+1) {
					return true
				}
			}
		}
	}
	for _, e := range n.pats {
		mark := len(m.caps)
		if caps, ok := matchParts(e.seg.parts, s, m.caps, nil); ok {
			m.caps = caps
			if m.walk(e.child, i+1) {
				return true
			}
		}
		m.caps = m.caps[:mark]
	}
	return false
}

// accept takes the endpoint's operation for the method, if it is served
// under the prefix matched; otherwise it notes the methods that are.
func (m *matcher) accept(ep *endpoint) bool {
	if !ep.wants(m.query) {
		return false
	}
	if !m.lenient && !ep.wantsFragment(m.query, m.header, m.known) {
		m.skipped = true
		return false
	}
	for _, op := range ep.ops {
		if !op.servedUnder(m.pfx) {
			continue
		}
		m.any = true
		if op.method == m.method {
			// m.caps stays as it is on the way out of walk.
			m.op, m.ep, m.found = op, ep, m.caps
			return true
		}
		name := strings.ToUpper(op.method)
		if !slices.Contains(m.allow, name) {
			m.allow = append(m.allow, name)
		}
	}
	return false
}

// split cuts a path into its segments after the leading slash.
func (m *matcher) split(path string) {
	m.segs = m.segBuf[:0]
	path = path[1:]
	for {
		i := strings.IndexByte(path, '/')
		if i < 0 {
			m.segs = append(m.segs, path)
			m.nsegs = max(m.nsegs, min(len(m.segs), maxSegs))
			return
		}
		m.segs = append(m.segs, path[:i])
		path = path[i+1:]
	}
}

// Route finds the operation of a request: method (any case) and path (the
// request target's path, still percent-encoded, and its query after "?",
// which only templates that write a query of their own look at). The error
// is a *RouteError (404 or 405).
//
// The first template that declares the method wins, in this order: the
// longest server prefix; then, segment by segment, a literal segment before
// templated ones, and the templated one with more literal text first
// ("{name}.json" before "{name}"); same shapes in source order, but one
// asking for query pairs ("/responses?beta=true") first. A trailing slash
// matches as written where a template ends in one, else "/pets/" is
// "/pets". A template's fragment ("/#X-Amz-Target=Service.Action") names a
// query or header parameter that tells operations of one path apart; only
// RouteRequest sees headers. A fragment in path is dropped, as by clients.
func (c *Contract) Route(method, path string) (*Route, error) {
	return c.routeWith(method, path, nil, false)
}

// RouteRequest is Route for a request whose headers are known: a template
// whose fragment names a header value ("/#X-Amz-Target=Service.Action")
// takes the requests that carry it before the other templates of its
// path.
func (c *Contract) RouteRequest(req *Request) (*Route, error) {
	target := req.Path
	if req.RawQuery != "" {
		target += "?" + req.RawQuery
	}
	return c.routeWith(req.Method, target, req.Header, true)
}

func (c *Contract) routeWith(method, path string, header http.Header, known bool) (*Route, error) {
	m := matchers.Get().(*matcher)
	defer m.release()
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, m.query = path[:i], path[i+1:]
	}
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	m.method = methodKey(method)
	m.header, m.known = header, known
	for {
		if r := c.route(m, path); r != nil {
			return r, nil
		}
		if !m.any && len(path) > 1 && path[len(path)-1] == '/' {
			if r := c.route(m, path[:len(path)-1]); r != nil {
				return r, nil
			}
		}
		if m.lenient || !m.skipped {
			break
		}
		// No template of the path has what its fragment asks for: the
		// first that declares the method takes the request.
		m.lenient, m.any, m.allow = true, false, m.allow[:0]
	}
	e := &RouteError{Status: http.StatusNotFound, Method: strings.ToUpper(method), Path: path}
	if m.any {
		e.Status = http.StatusMethodNotAllowed
		e.Allow = sortMethods(slices.Clone(m.allow))
	}
	return nil, e
}

// methodKey is a method in the lower case that spec.Operation uses,
// without allocating for the usual upper-case names.
func methodKey(m string) string {
	for _, k := range spec.Methods {
		if len(k) == len(m) && strings.EqualFold(k, m) {
			return k
		}
	}
	return strings.ToLower(m)
}

// matchers keeps matchers (and their buffers) between requests: routing
// allocates only the Route it returns.
var matchers = sync.Pool{New: func() any { return new(matcher) }}

// release drops what the matcher holds of the request (so that the pool
// keeps no request text alive) and returns it to the pool.
func (m *matcher) release() {
	clear(m.segBuf[:m.nsegs])
	clear(m.capBuf[:])
	m.method, m.query, m.pfx = "", "", 0
	m.header, m.known, m.lenient, m.skipped = nil, false, false, false
	m.segs, m.caps, m.found, m.allow = nil, nil, nil, m.allow[:0]
	m.op, m.ep, m.any, m.nsegs = nil, nil, false, 0
	matchers.Put(m)
}

func (c *Contract) route(m *matcher, path string) *Route {
	m.split(path)
	all := m.segs
	for pi, p := range c.router.prefixes {
		n, ok := p.match(all)
		if !ok {
			continue
		}
		m.pfx = pi
		m.segs = all[n:]
		if len(m.segs) == 0 {
			m.segs = rootSegs
		}
		m.caps = m.capBuf[:0]
		if m.walk(c.router.root, 0) {
			prefixLen := 0
			for _, s := range all[:n] {
				prefixLen += 1 + len(s)
			}
			r := &Route{Op: m.op.op, Template: m.ep.template, Prefix: path[:prefixLen], op: m.op}
			r.PathParams = make([]PathParam, len(m.found))
			for i, raw := range m.found {
				r.PathParams[i] = PathParam{Name: m.ep.names[i], Raw: raw, Value: unescapePath(raw)}
			}
			return r
		}
	}
	return nil
}

func unescapePath(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}

// sortMethods orders upper-case method names as spec.Methods lists them,
// other methods after them by name.
func sortMethods(ms []string) []string {
	rank := func(m string) int {
		if i := slices.Index(spec.Methods, strings.ToLower(m)); i >= 0 {
			return i
		}
		return len(spec.Methods)
	}
	slices.SortStableFunc(ms, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return ms
}
