package compat

import (
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// differ pairs the items of base and revision and runs the rules on each
// pair. The pairing lives here; what a difference means lives in the
// rules.
type differ struct {
	base, rev *spec.Document
	raw       []rawChange
	rules     []*Rule
	vs        *viewSet
	schemas   *schemaDiffer
	shapes    map[[2]*spec.Parameter]*paramShape
	// schemeNames lists security schemes by name on each side.
	baseSchemes, revSchemes map[string]*spec.SecurityScheme
}

func newDiffer(base, rev *spec.Document) *differ {
	d := &differ{base: base, rev: rev, rules: Rules, vs: newViewSet(), shapes: map[[2]*spec.Parameter]*paramShape{}}
	d.schemas = newSchemaDiffer(d, d.vs, 0)
	d.baseSchemes = schemesByName(base.Views())
	d.revSchemes = schemesByName(rev.Views())
	return d
}

func schemesByName(v *spec.Views) map[string]*spec.SecurityScheme {
	m := make(map[string]*spec.SecurityScheme, len(v.SecuritySchemes))
	for _, s := range v.SecuritySchemes {
		m[s.Name] = s
	}
	return m
}

// scope is what the rules of one pair see besides the pair: the
// operations affected and who writes the data.
type scope struct {
	ops []string
	dir Direction
	// pathRemoved is set for the operations of a path the revision no
	// longer has: path-removed reports them once.
	pathRemoved bool
	where       string
	// inBasePath holds the parameters the base operation's path template
	// names: consumers send them in the URL whether declared or not.
	inBasePath map[string]bool
	// at is where the pair the rules see is written on each side, indexed
	// by Side (Check.at).
	at [2]spec.Path
}

// within returns the scope of a pair whose items are written at b and r
// (nil for a side that lacks its item, which is then placed where sc is).
func (sc scope) within(b, r spec.Path, hasB, hasR bool) scope {
	if hasB {
		sc.at[Base] = b
	}
	if hasR {
		sc.at[Revision] = r
	}
	return sc
}

// under places each side at the first of keys its item writes (b at
// bsrc, r at rsrc), or at the item when it writes none: where the items
// of a list (parameters, responses, content, headers, messages) that one
// side lacks go.
func (sc scope) under(bsrc spec.Path, b *spec.Node, rsrc spec.Path, r *spec.Node, keys ...string) scope {
	sc.at = [2]spec.Path{Revision: at(rsrc, r, keys...), Base: at(bsrc, b, keys...)}
	return sc
}

// sources are the sides' places of two items, either of which may be nil.
func sources[T any](b, r *T, src func(*T) spec.Path) (spec.Path, spec.Path, bool, bool) {
	var bs, rs spec.Path
	if b != nil {
		bs = src(b)
	}
	if r != nil {
		rs = src(r)
	}
	return bs, rs, b != nil, r != nil
}

// run calls hook for every rule that has one.
func (d *differ) run(sc scope, has func(*Rule) bool, call func(*Check)) {
	for _, r := range d.rules {
		if has(r) {
			call(&Check{d: d, rule: r, Dir: sc.dir, ops: sc.ops, PathRemoved: sc.pathRemoved, Where: sc.where, inBasePath: sc.inBasePath, at: sc.at})
		}
	}
}

// templateParam matches a path template parameter such as {petId}; it is
// compiled on first use, as lint never needs it.
var templateParam = lazyregexp.New(`\{[^}/]*\}`)

// pathKey identifies a path whatever its parameters are named:
// /pets/{id} and /pets/{petId} are the same path.
func pathKey(p string) string { return templateParam().ReplaceAllString(p, "{}") }

func (d *differ) openapi() {
	bv, rv := d.base.Views(), d.rev.Views()
	paths := scope{at: [2]spec.Path{Revision: {"paths"}, Base: {"paths"}}}
	for _, p := range pairPaths(bv.PathItems, rv.PathItems) {
		bp, rp := p[0], p[1]
		ps := paths.within(sources(bp, rp, func(p *spec.PathItem) spec.Path { return p.Source }))
		switch {
		case rp == nil:
			labels := make([]string, len(bp.Operations))
			for i, op := range bp.Operations {
				labels[i] = opLabel(op, "")
			}
			sc := ps
			sc.ops, sc.dir, sc.pathRemoved = labels, Request, true
			d.run(sc, func(r *Rule) bool { return r.Path != nil }, func(c *Check) { c.rule.Path(c, bp, nil) })
			for _, op := range bp.Operations {
				sc.ops = []string{opLabel(op, "")}
				sc.at[Base] = op.Source
				d.run(sc, func(r *Rule) bool { return r.Operation != nil }, func(c *Check) { c.rule.Operation(c, op, nil) })
			}
		case bp == nil:
			d.operations(ps, nil, rp.Operations, Request, "")
		default:
			d.operations(ps, bp.Operations, rp.Operations, Request, "")
		}
	}
	hooks := scope{at: [2]spec.Path{Revision: {"webhooks"}, Base: {"webhooks"}}}
	d.operations(hooks, bv.Webhooks, rv.Webhooks, Response, "")
}

// pairPaths pairs path items: the same template first, then templates
// that differ only in parameter names (/pets/{id} and /pets/{petId}).
// Distinct templates may share a shape (/a/{x} and /a/{y} both written),
// so a path pairs by shape only with one the first pass left over.
func pairPaths(base, rev []*spec.PathItem) [][2]*spec.PathItem {
	var out [][2]*spec.PathItem
	exact := make(map[string]*spec.PathItem, len(rev))
	for _, r := range rev {
		exact[r.Path] = r
	}
	taken := map[*spec.PathItem]bool{}
	var left []*spec.PathItem
	for _, b := range base {
		if r := exact[b.Path]; r != nil && !taken[r] {
			taken[r] = true
			out = append(out, [2]*spec.PathItem{b, r})
		} else {
			left = append(left, b)
		}
	}
	byShape := map[string][]*spec.PathItem{}
	for _, r := range rev {
		if !taken[r] {
			byShape[pathKey(r.Path)] = append(byShape[pathKey(r.Path)], r)
		}
	}
	for _, b := range left {
		var r *spec.PathItem
		if cands := byShape[pathKey(b.Path)]; len(cands) > 0 {
			r, byShape[pathKey(b.Path)] = cands[0], cands[1:]
			taken[r] = true
		}
		out = append(out, [2]*spec.PathItem{b, r})
	}
	for _, r := range rev {
		if !taken[r] {
			out = append(out, [2]*spec.PathItem{nil, r})
		}
	}
	return out
}

// operations pairs operations by method (and webhook or callback name)
// and diffs each pair. reqDir is who writes the requests: consumers for
// paths, the API for webhooks and callbacks. in places what one side
// lacks: the path item, webhooks or callbacks the operations are in.
func (d *differ) operations(in scope, base, rev []*spec.Operation, reqDir Direction, parent string) {
	key := func(op *spec.Operation) string {
		return op.Webhook + "\x00" + op.Callback + "\x00" + pathKey(op.Path) + "\x00" + op.Method
	}
	revByKey := make(map[string]*spec.Operation, len(rev))
	for _, op := range rev {
		revByKey[key(op)] = op
	}
	seen := make(map[string]bool, len(base))
	for _, b := range base {
		seen[key(b)] = true
		d.operation(in, b, revByKey[key(b)], reqDir, parent)
	}
	for _, r := range rev {
		if !seen[key(r)] {
			d.operation(in, nil, r, reqDir, parent)
		}
	}
}

func (d *differ) operation(in scope, b, r *spec.Operation, reqDir Direction, parent string) {
	label := opLabel(either(b, r), parent)
	sc := scope{ops: []string{label}, dir: reqDir, at: in.at}.within(sources(b, r, func(o *spec.Operation) spec.Path { return o.Source }))
	d.run(sc, func(r *Rule) bool { return r.Operation != nil }, func(c *Check) { c.rule.Operation(c, b, r) })
	if b == nil || r == nil {
		return
	}
	psc := sc
	psc.inBasePath = map[string]bool{}
	for _, m := range templateParam().FindAllString(b.Path, -1) {
		psc.inBasePath[strings.Trim(m, "{}")] = true
	}
	d.parameters(psc.under(b.Source, b.Node, r.Source, r.Node, "parameters"), paramsOf(b), paramsOf(r))
	d.requestBody(sc, b.RequestBody, r.RequestBody)
	d.responses(scope{ops: sc.ops, dir: reqDir.flip()}.under(b.Source, b.Node, r.Source, r.Node, "responses"), b.Responses, r.Responses)
	cbs := sc.within(at(b.Source, b.Node, "callbacks"), at(r.Source, r.Node, "callbacks"), true, true)
	d.operations(cbs, b.Callbacks, r.Callbacks, reqDir.flip(), label)
}

func either[T any](b, r *T) *T {
	if b != nil {
		return b
	}
	return r
}

// opLabel names an operation for people: "GET /pets", "webhook newPet
// POST", "callback onEvent POST {$request.body#/url} of POST /subscribe".
func opLabel(op *spec.Operation, parent string) string {
	m := strings.ToUpper(op.Method)
	switch {
	case op.Webhook != "":
		return "webhook " + op.Webhook + " " + m
	case op.Callback != "" && parent != "":
		return "callback " + op.Callback + " " + m + " " + op.Path + " of " + parent
	case op.Callback != "":
		return "callback " + op.Callback + " " + m + " " + op.Path
	}
	return m + " " + op.Path
}

// paramsOf lists an operation's parameters with the key that pairs them
// across versions: location and name (header names ignore case), and for
// path parameters their position in the template, so that renaming
// {id} to {petId} pairs them.
func paramsOf(op *spec.Operation) []keyed[spec.Parameter] {
	pos := map[string]int{}
	for i, m := range templateParam().FindAllString(op.Path, -1) {
		pos[strings.Trim(m, "{}")] = i
	}
	out := make([]keyed[spec.Parameter], 0, len(op.Parameters))
	for _, p := range op.Parameters {
		k := p.In + ":" + p.Name
		switch p.In {
		case "header":
			k = p.In + ":" + strings.ToLower(p.Name)
		case "path":
			if i, ok := pos[p.Name]; ok {
				k = "path#" + strconv.Itoa(i)
			}
		}
		out = append(out, keyed[spec.Parameter]{k, p})
	}
	return out
}

type keyed[T any] struct {
	key  string
	item *T
}

// pair calls fn for each key of base and rev, base order first, with nil
// for the side that lacks it.
func pair[T any](base, rev []keyed[T], fn func(b, r *T)) {
	revBy := make(map[string]*T, len(rev))
	for _, r := range rev {
		if _, dup := revBy[r.key]; !dup {
			revBy[r.key] = r.item
		}
	}
	seen := make(map[string]bool, len(base))
	for _, b := range base {
		if seen[b.key] {
			continue
		}
		seen[b.key] = true
		fn(b.item, revBy[b.key])
	}
	for _, r := range rev {
		if !seen[r.key] {
			seen[r.key] = true
			fn(nil, r.item)
		}
	}
}

func (d *differ) parameters(sc scope, base, rev []keyed[spec.Parameter]) {
	pair(base, rev, func(b, r *spec.Parameter) {
		sc := sc.within(sources(b, r, func(p *spec.Parameter) spec.Path { return p.Source }))
		d.run(sc, func(r *Rule) bool { return r.Parameter != nil }, func(c *Check) { c.rule.Parameter(c, b, r) })
		if b == nil || r == nil {
			return
		}
		sh := d.paramShape(b, r)
		switch {
		case sh.base == nil || sh.rev == nil:
		case sc.dir == Request && sh.becameArray:
			// A scalar became an array: what consumers send is its first item.
			d.schemas.compareViews(sc, sh.base, b.SchemaSource, sh.items, join(r.SchemaSource, sh.itemsPath), sh.text)
		default:
			d.schemas.compareViews(sc, sh.base, b.SchemaSource, sh.rev, r.SchemaSource, sh.text)
		}
	})
}

func (d *differ) requestBody(sc scope, b, r *spec.RequestBody) {
	if b == nil && r == nil {
		return
	}
	op := sc
	sc = sc.within(sources(b, r, func(b *spec.RequestBody) spec.Path { return b.Source }))
	d.run(sc, func(r *Rule) bool { return r.Body != nil }, func(c *Check) { c.rule.Body(c, b, r) })
	if b == nil || r == nil {
		return
	}
	d.content(scope{ops: sc.ops, dir: sc.dir, where: "request body"}.under(b.Source, b.Node, r.Source, r.Node, "content"), b.Content, r.Content)
	form := func(ps []*spec.Parameter) []keyed[spec.Parameter] {
		out := make([]keyed[spec.Parameter], len(ps))
		for i, p := range ps {
			out[i] = keyed[spec.Parameter]{p.Name, p}
		}
		return out
	}
	d.parameters(op, form(b.FormData), form(r.FormData))
}

// content pairs media types by their type without parameters; a media
// type the other side lacks pairs with a matching wildcard (image/* or
// */*) when there is one.
func (d *differ) content(sc scope, base, rev []*spec.MediaType) {
	revBy := map[string]*spec.MediaType{}
	for _, m := range rev {
		revBy[mediaKey(m.Name)] = m
	}
	baseBy := map[string]*spec.MediaType{}
	for _, m := range base {
		baseBy[mediaKey(m.Name)] = m
	}
	find := func(by map[string]*spec.MediaType, name string) *spec.MediaType {
		k := mediaKey(name)
		if m := by[k]; m != nil {
			return m
		}
		if i := strings.IndexByte(k, '/'); i > 0 {
			if m := by[k[:i]+"/*"]; m != nil {
				return m
			}
		}
		return by["*/*"]
	}
	each := func(b, r *spec.MediaType) {
		sc := sc.within(sources(b, r, func(m *spec.MediaType) spec.Path { return m.Source }))
		d.run(sc, func(r *Rule) bool { return r.MediaType != nil }, func(c *Check) { c.rule.MediaType(c, b, r) })
		if b == nil || r == nil {
			return
		}
		if b.Schema != nil && r.Schema != nil {
			d.schemas.compare(sc, written(b.Node, "schema", b.Schema), b.SchemaSource, written(r.Node, "schema", r.Schema), r.SchemaSource, false)
		}
		// OpenAPI 3.2 sequential media types (JSON Lines, event streams)
		// describe each item with itemSchema.
		if bi, ri := b.Node.Get("itemSchema"), r.Node.Get("itemSchema"); bi != nil && ri != nil {
			d.schemas.compare(sc, bi, join(b.Source, spec.Path{"itemSchema"}), ri, join(r.Source, spec.Path{"itemSchema"}), false)
		}
	}
	for _, b := range base {
		each(b, find(revBy, b.Name))
	}
	for _, r := range rev {
		if find(baseBy, r.Name) == nil {
			each(nil, r)
		}
	}
}

// written returns the schema under key of n as written (a $ref with its
// sibling keywords), or the dereferenced one the views hold when n does
// not write it there (Swagger 2.0 headers are their own schema).
func written(n *spec.Node, key string, deref *spec.Node) *spec.Node {
	if s := n.Get(key); s != nil {
		return s
	}
	return deref
}

func mediaKey(name string) string {
	if i := strings.IndexByte(name, ';'); i >= 0 {
		name = name[:i]
	}
	return strings.ToLower(strings.TrimSpace(name))
}

// responses pairs responses by status. A status one side lacks pairs with
// the range (4XX) or default response of the other side when there is
// one, since those describe every status not declared: removing 404 while
// a default response exists moves 404 responses under default.
func (d *differ) responses(sc scope, base, rev []*spec.Response) {
	byStatus := func(rs []*spec.Response) map[string]*spec.Response {
		m := make(map[string]*spec.Response, len(rs))
		for _, r := range rs {
			m[strings.ToUpper(r.Status)] = r
		}
		return m
	}
	baseBy, revBy := byStatus(base), byStatus(rev)
	fallback := func(by map[string]*spec.Response, status string) *spec.Response {
		s := strings.ToUpper(status)
		if r := by[s]; r != nil {
			return r
		}
		if len(s) == 3 && s != "DEFAULT" && !strings.HasSuffix(s, "XX") {
			if r := by[s[:1]+"XX"]; r != nil {
				return r
			}
		}
		if s == "DEFAULT" {
			return nil
		}
		return by["DEFAULT"]
	}
	each := func(b, r *spec.Response) {
		sc := sc.within(sources(b, r, func(r *spec.Response) spec.Path { return r.Source }))
		d.run(sc, func(r *Rule) bool { return r.Response != nil }, func(c *Check) { c.rule.Response(c, b, r) })
		if b == nil || r == nil {
			return
		}
		sc = scope{ops: sc.ops, dir: sc.dir, where: "response " + r.Status}
		d.content(sc.under(b.Source, b.Node, r.Source, r.Node, "content"), b.Content, r.Content)
		sc = sc.under(b.Source, b.Node, r.Source, r.Node, "headers")
		headers := func(hs []*spec.Header) []keyed[spec.Header] {
			out := make([]keyed[spec.Header], len(hs))
			for i, h := range hs {
				out[i] = keyed[spec.Header]{strings.ToLower(h.Name), h}
			}
			return out
		}
		pair(headers(b.Headers), headers(r.Headers), func(bh, rh *spec.Header) {
			sc := sc.within(sources(bh, rh, func(h *spec.Header) spec.Path { return h.Source }))
			d.run(sc, func(r *Rule) bool { return r.Header != nil }, func(c *Check) { c.rule.Header(c, bh, rh) })
			if bh != nil && rh != nil && bh.Schema != nil && rh.Schema != nil {
				text := bh.Node.Get("content") == nil && rh.Node.Get("content") == nil
				d.schemas.compare(sc, written(bh.Node, "schema", bh.Schema), bh.SchemaSource, written(rh.Node, "schema", rh.Schema), rh.SchemaSource, text)
			}
		})
	}
	for _, b := range base {
		each(b, fallback(revBy, b.Status))
	}
	for _, r := range rev {
		if baseBy[strings.ToUpper(r.Status)] == nil {
			if fb := fallback(baseBy, r.Status); fb != nil {
				each(fb, r)
			} else {
				each(nil, r)
			}
		}
	}
}
