package contract

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// style is a parameter's serialization style (OpenAPI 3's style, or
// Swagger 2.0's collectionFormat mapped onto it).
type style uint8

const (
	styleForm style = iota
	styleSimple
	styleLabel
	styleMatrix
	styleSpace
	stylePipe
	styleDeepObject
	styleTab // Swagger 2.0 collectionFormat tsv
)

var styleNames = map[string]style{
	"form": styleForm, "simple": styleSimple, "label": styleLabel, "matrix": styleMatrix,
	"spaceDelimited": styleSpace, "pipeDelimited": stylePipe, "deepObject": styleDeepObject,
	// OpenAPI 3.2's cookie style is form without percent-encoding; cookie
	// values are decoded only where they hold a valid escape, so the two
	// read alike.
	"cookie": styleForm,
}

// param is a parameter, a response header, a Swagger formData field or a
// field of a form body: a named value serialized by a style.
type param struct {
	name          string
	in            string // path, query, header, cookie, formData
	required      bool
	style         style
	explode       bool
	allowEmpty    bool
	allowReserved bool
	sch           sref
	shape         shape
	lazy          *lazySchema
	content       *media // a parameter described by content (a JSON value)
	src           spec.Path
	label         string // how messages name it: "query parameter", "header", …
}

func defaultStyle(in string) style {
	switch in {
	case "path", "header":
		return styleSimple
	}
	return styleForm
}

func (c *Contract) newParam(sp *spec.Parameter) *param {
	n := sp.Node
	p := &param{name: sp.Name, in: sp.In, required: sp.Required || sp.In == "path", src: sp.Source,
		allowEmpty: n.Get("allowEmptyValue").IsTrue(), allowReserved: n.Get("allowReserved").IsTrue()}
	p.label = labels[sp.In]
	if c.doc.Format == spec.Swagger {
		p.style, p.explode = defaultStyle(sp.In), false
		if sp.In == "formData" {
			p.style = styleForm
		}
		switch n.GetStr("collectionFormat") {
		case "ssv":
			p.style = styleSpace
		case "tsv":
			p.style = styleTab
		case "pipes":
			p.style = stylePipe
		case "multi":
			p.style, p.explode = styleForm, true
		}
	} else {
		p.style = defaultStyle(sp.In)
		if s, ok := styleNames[n.GetStr("style")]; ok {
			p.style = s
		}
		p.explode = p.style == styleForm
		if e := n.Get("explode"); e != nil && e.Kind == spec.Bool {
			p.explode = e.IsTrue()
		}
		if ct := n.Get("content"); ct != nil && len(fields(ct)) > 0 {
			f := fields(ct)[0]
			p.content = c.newMedia(&spec.MediaType{Name: f.Key, Node: c.deref(f.Value), Schema: sp.Schema, SchemaSource: sp.SchemaSource, Source: append(append(spec.Path{}, sp.Source...), "content", f.Key)})
		}
	}
	if sp.Schema != nil {
		p.sch = sref{n: c.deref(sp.Schema), src: sp.SchemaSource}
		p.lazy = &lazySchema{sch: p.sch}
	}
	p.shape = c.shapeOf(p.sch)
	return p
}

var labels = map[string]string{
	"path": "path parameter", "query": "query parameter", "header": "header", "cookie": "cookie",
	"formData": "form field",
}

func (c *Contract) newHeader(h *spec.Header) *param {
	n := h.Node
	p := &param{name: h.Name, in: "header", required: h.Required, style: styleSimple, src: h.Source, label: "response header"}
	if c.doc.Format == spec.Swagger {
		switch n.GetStr("collectionFormat") {
		case "ssv":
			p.style = styleSpace
		case "tsv":
			p.style = styleTab
		case "pipes":
			p.style = stylePipe
		}
	} else {
		p.explode = n.Get("explode").IsTrue()
	}
	if h.Schema != nil {
		p.sch = sref{n: c.deref(h.Schema), src: h.SchemaSource}
	}
	// A header described by content (OpenAPI 3): the views give it no
	// schema, its media type does.
	if ct := n.Get("content"); c.doc.Format != spec.Swagger && len(fields(ct)) > 0 {
		f := fields(ct)[0]
		mt := &spec.MediaType{Name: f.Key, Node: c.deref(f.Value), Source: append(append(spec.Path{}, h.Source...), "content", f.Key)}
		if s := mt.Node.Get("schema"); s != nil {
			mt.Schema, mt.SchemaSource = c.deref(s), append(append(spec.Path{}, mt.Source...), "schema")
			p.sch = sref{n: mt.Schema, src: mt.SchemaSource}
		}
		p.content = c.newMedia(mt)
	}
	if p.sch.n != nil {
		p.lazy = &lazySchema{sch: p.sch}
	}
	p.shape = c.shapeOf(p.sch)
	return p
}

// encoding is an Encoding Object of a form or multipart body's property.
type encoding struct {
	contentType   string
	style         style
	styleSet      bool
	explode       bool
	explodeSet    bool
	allowReserved bool
	headers       *spec.Node
}

func newEncoding(n *spec.Node) *encoding {
	e := &encoding{contentType: n.GetStr("contentType"), headers: n.Get("headers"), allowReserved: n.Get("allowReserved").IsTrue()}
	if s, ok := styleNames[n.GetStr("style")]; ok {
		e.style, e.styleSet = s, true
	}
	if x := n.Get("explode"); x != nil && x.Kind == spec.Bool {
		e.explode, e.explodeSet = x.IsTrue(), true
	}
	return e
}

// fieldParam is a property of a form body seen as a form-style parameter,
// as the Encoding Object describes it (form, exploded, by default).
func (c *Contract) fieldParam(name string, sch sref, enc *encoding) *param {
	p := &param{name: name, in: "formData", style: styleForm, explode: true, sch: sch, label: "form field"}
	if enc != nil {
		if enc.styleSet {
			p.style = enc.style
			p.explode = enc.style == styleForm
		}
		if enc.explodeSet {
			p.explode = enc.explode
		}
		p.allowReserved = enc.allowReserved
	}
	p.shape = c.shapeOf(sch)
	return p
}

// wire splits the path of a failing value into the serialized key it
// travels under and the rest of the path: deepObject's filter[status], an
// exploded form object's own keys, else the parameter's name.
func (p *param) wire(path []any) (string, []any) {
	switch {
	case p.style == styleDeepObject:
		key, i := p.name, 0
		for ; i < len(path); i++ {
			s, ok := path[i].(string)
			if !ok {
				break
			}
			key += "[" + s + "]"
		}
		return key, path[i:]
	case p.shape == object && p.explode && p.style == styleForm && len(path) > 0:
		if s, ok := path[0].(string); ok {
			return s, path[1:]
		}
	}
	return p.name, path
}

// problem is a problem with a parameter's value at path.
func (c *Contract) problem(p *param, in In, path []any, keyword, msg string, at spec.Path) Problem {
	key, rest := p.wire(path)
	return Problem{In: in, Key: key, Path: path, Keyword: keyword, Message: p.label + " " + keyPath(key, rest) + ": " + msg, Schema: c.locate(at)}
}

// typeProblem reports text that cannot be read as the schema's type.
func (c *Contract) typeProblem(p *param, in In, path []any, text string, s sref, t Types) Problem {
	got := strconv.Quote(text)
	if text == "" {
		got = "an empty value"
	}
	at := s.src
	if s.n != nil && s.n.Get("type") != nil {
		at = s.at("type")
	}
	return c.problem(p, in, path, "type", "expected "+t.String()+", got "+got, at)
}

// readText types one piece of text by schema s.
func (c *Contract) readText(p *param, in In, path []any, text string, s sref) (any, *Problem) {
	if c.isBinary(s) {
		return text, nil
	}
	t := c.typesOf(s)
	v, ok := CoerceText(text, t)
	if !ok {
		// The text stays as sent, for the caller to see.
		pr := c.typeProblem(p, in, path, text, s, t)
		return text, &pr
	}
	return v, nil
}

// readList types the items of an array parameter.
func (c *Contract) readList(p *param, in In, pieces []string) (any, []Problem) {
	items := c.itemsOf(p.sch)
	out := make([]any, len(pieces))
	var probs []Problem
	for i, s := range pieces {
		v, pr := c.readText(p, in, []any{i}, s, items)
		if pr != nil {
			probs = append(probs, *pr)
		}
		out[i] = v
	}
	return out, probs
}

// readObject types the properties of an object parameter given as pairs.
func (c *Contract) readObject(p *param, in In, pairs [][2]string) (any, []Problem) {
	out := make(map[string]any, len(pairs))
	var probs []Problem
	for _, kv := range pairs {
		ps, _ := c.propertyOf(p.sch, kv[0])
		if c.shapeOf(ps) == array {
			// A repeated key of an array property (deepObject's
			// filter[tags]=a&filter[tags]=b) collects its values.
			prev, _ := out[kv[0]].([]any)
			pv, pr := c.readText(p, in, []any{kv[0], len(prev)}, kv[1], c.itemsOf(ps))
			if pr != nil {
				probs = append(probs, *pr)
			}
			out[kv[0]] = append(prev, pv)
			continue
		}
		v, pr := c.readText(p, in, []any{kv[0]}, kv[1], ps)
		if pr != nil {
			probs = append(probs, *pr)
		}
		out[kv[0]] = v
	}
	return out, probs
}

// pairsOf reads the still-encoded pieces k1,v1,k2,v2 (exploded:
// k1=v1,k2=v2) into decoded pairs.
func pairsOf(pieces []string, exploded bool, unesc func(string) string) ([][2]string, bool) {
	var out [][2]string
	if exploded {
		for _, s := range pieces {
			k, v, ok := strings.Cut(s, "=")
			if !ok {
				return nil, false
			}
			out = append(out, [2]string{unesc(k), unesc(v)})
		}
		return out, true
	}
	if len(pieces)%2 != 0 {
		return nil, false
	}
	for i := 0; i < len(pieces); i += 2 {
		out = append(out, [2]string{unesc(pieces[i]), unesc(pieces[i+1])})
	}
	return out, true
}

func identity(s string) string { return s }

// readPieces turns the pieces of a value, still encoded, into the
// parameter's value by its shape: an array of them, an object of their
// pairs, or the one primitive whole (already decoded).
func (c *Contract) readPieces(p *param, in In, pieces []string, pairsExploded bool, whole string, unesc func(string) string) (any, []Problem) {
	switch p.shape {
	case array:
		return c.readList(p, in, decodeAll(pieces, unesc))
	case object:
		pairs, ok := pairsOf(pieces, pairsExploded, unesc)
		if !ok {
			form := "name,value pairs"
			if pairsExploded {
				form = "name=value pairs"
			}
			return nil, []Problem{c.problem(p, in, nil, "style", fmt.Sprintf("expected an object as %s, got %q", form, whole), p.src)}
		}
		return c.readObject(p, in, pairs)
	}
	v, pr := c.readText(p, in, nil, whole, p.sch)
	if pr != nil {
		return v, []Problem{*pr}
	}
	return v, nil
}

// readContent decodes a parameter described by content (JSON text, most
// often).
func (c *Contract) readContent(p *param, in In, text string) (any, []Problem) {
	v, err := c.decode([]byte(text), p.content, p.content.name)
	if err != nil {
		return nil, []Problem{c.problem(p, in, nil, "syntax", "not "+p.content.name+": "+err.Error(), p.src)}
	}
	return v, nil
}

// --- query ---

// qpair is one key=value of a query string: the key decoded, the value as
// sent (split by style before it is decoded).
type qpair struct {
	key, raw string
	eq       bool // the pair had an "=" (key= is an empty value, key alone none)
}

func parseQuery(raw string) []qpair {
	var out []qpair
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if part == "" {
			continue
		}
		k, v, eq := strings.Cut(part, "=")
		out = append(out, qpair{key: queryUnescape(k), raw: v, eq: eq})
	}
	return out
}

// queryUnescape decodes a query component ("+" is a space); text with a
// broken escape is kept as written.
func queryUnescape(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s
	}
	if d, err := url.QueryUnescape(s); err == nil {
		return d
	}
	return s
}

// splitRaw splits an undecoded value at a style's delimiter: commas for
// form and simple (an encoded %2C is data), spaces ("%20", "+", " ") for
// spaceDelimited, "|" or "%7C" for pipeDelimited. The pieces stay encoded.
func splitRaw(raw string, st style) []string {
	var seps []string
	switch st {
	case styleSpace:
		seps = []string{"%20", "+", " "}
	case stylePipe:
		seps = []string{"%7C", "%7c", "|"}
	case styleTab:
		seps = []string{"%09", "\t"}
	default:
		seps = []string{","}
	}
	var out []string
	start := 0
	for i := 0; i < len(raw); {
		matched := ""
		for _, s := range seps {
			if strings.HasPrefix(raw[i:], s) {
				matched = s
				break
			}
		}
		if matched == "" {
			i++
			continue
		}
		out = append(out, raw[start:i])
		i += len(matched)
		start = i
	}
	return append(out, raw[start:])
}

// readQuery reads a query parameter (or a field of a form body) from the
// pairs of the query string, marking the pairs it takes in used.
func (c *Contract) readQuery(p *param, in In, pairs []qpair, used []bool, declared map[string]bool) (any, bool, []Problem) {
	switch {
	case p.content == nil && p.style == styleDeepObject:
		return c.readDeepObject(p, in, pairs, used)
	case p.content == nil && p.shape == object && p.explode:
		return c.readExplodedObject(p, in, pairs, used, declared, queryUnescape)
	}
	var mine []string
	for i, q := range pairs {
		if q.key == p.name {
			used[i] = true
			mine = append(mine, q.raw)
		}
	}
	if len(mine) == 0 {
		return nil, false, nil
	}
	if p.content != nil {
		v, probs := c.readContent(p, in, queryUnescape(mine[0]))
		return v, true, probs
	}
	if mine[0] == "" && len(mine) == 1 && p.allowEmpty {
		return "", true, nil
	}
	shape := p.shape
	if shape == primitive && len(mine) > 1 && c.typesOf(p.sch)&TypeArray != 0 {
		// Several values of a parameter whose schema admits a list as well
		// as a single value (anyOf of an array and a string).
		shape = array
	}
	var pieces []string
	switch {
	case shape == array && (p.explode || p.shape != array):
		// ids=1&ids=2: each pair is an item.
		pieces = mine
	case p.shape != primitive:
		// ids=1,2 (or 1%202, 1|2), several pairs of them in a row.
		for _, m := range mine {
			if m != "" || p.shape == object {
				pieces = append(pieces, splitRaw(m, p.style)...)
			}
		}
		if pieces == nil {
			pieces = []string{}
		}
	}
	if shape != p.shape {
		v, probs := c.readList(p, in, decodeAll(pieces, queryUnescape))
		return v, true, probs
	}
	v, probs := c.readPieces(p, in, pieces, false, queryUnescape(mine[0]), queryUnescape)
	return v, true, probs
}

func decodeAll(pieces []string, unesc func(string) string) []string {
	out := make([]string, len(pieces))
	for i, s := range pieces {
		out[i] = unesc(s)
	}
	return out
}

// readDeepObject reads name[key]=value pairs into an object, and deeper
// keys into nested values as most form libraries write them (the OpenAPI
// specification defines one level only): name[a][b]=v for nested objects,
// name[list][0]=v, name[list][]=v or a repeated name[list]=v for arrays,
// where the schema admits an array. A plain name=value is the value
// itself, for a schema that also admits a primitive (anyOf of an object
// and a string).
func (c *Contract) readDeepObject(p *param, in In, pairs []qpair, used []bool) (any, bool, []Problem) {
	root := &dnode{}
	found := false
	for i, q := range pairs {
		var keys []string
		switch {
		case q.key == p.name:
		case strings.HasPrefix(q.key, p.name+"[") && strings.HasSuffix(q.key, "]"):
			keys = strings.SplitN(q.key[len(p.name)+1:len(q.key)-1], "][", maxDepth)
		default:
			continue
		}
		used[i], found = true, true
		root.add(keys, queryUnescape(q.raw))
	}
	if !found {
		return nil, false, nil
	}
	var probs []Problem
	v := c.deepValue(p, in, p.sch, root, nil, &probs)
	return v, true, probs
}

// dnode is a node of the tree of deepObject keys: the values given at it,
// and its children by key in the order first seen.
type dnode struct {
	values []string
	keys   []string
	kids   map[string]*dnode
}

func (n *dnode) add(keys []string, value string) {
	for _, k := range keys {
		if k == "" {
			// name[]=v: each is an item of its own, after those before it.
			k = "\x00" + strconv.Itoa(len(n.keys))
		}
		kid := n.kids[k]
		if kid == nil {
			if n.kids == nil {
				n.kids = map[string]*dnode{}
			}
			kid = &dnode{}
			n.kids[k] = kid
			n.keys = append(n.keys, k)
		}
		n = kid
	}
	n.values = append(n.values, value)
}

func isIndex(k string) bool {
	if strings.HasPrefix(k, "\x00") {
		return true
	}
	_, err := strconv.Atoi(k)
	return err == nil && k != "" && k[0] != '-' && k[0] != '+'
}

// deepValue converts a node of deepObject keys into a value, typed by the
// schema at that node.
func (c *Contract) deepValue(p *param, in In, s sref, n *dnode, path []any, probs *[]Problem) any {
	types := c.typesOf(s)
	if len(n.keys) == 0 {
		if len(n.values) > 1 || c.shapeOf(s) == array && len(n.values) > 0 {
			items := c.itemsOf(s)
			out := make([]any, len(n.values))
			for i, text := range n.values {
				out[i] = c.deepLeaf(p, in, items, text, append(slices.Clone(path), i), probs)
			}
			return out
		}
		if len(n.values) == 0 {
			return nil
		}
		return c.deepLeaf(p, in, s, n.values[0], slices.Clone(path), probs)
	}
	array := types&TypeArray != 0 || types == 0
	for _, k := range n.keys {
		array = array && isIndex(k)
	}
	if array {
		items := c.itemsOf(s)
		idx := slices.Clone(n.keys)
		slices.SortStableFunc(idx, func(a, b string) int {
			if strings.HasPrefix(a, "\x00") || strings.HasPrefix(b, "\x00") {
				return 0
			}
			x, _ := strconv.Atoi(a)
			y, _ := strconv.Atoi(b)
			return x - y
		})
		out := make([]any, 0, len(idx))
		for _, k := range idx {
			out = append(out, c.deepValue(p, in, items, n.kids[k], append(slices.Clone(path), len(out)), probs))
		}
		return out
	}
	out := make(map[string]any, len(n.keys))
	for _, k := range n.keys {
		ps, _ := c.propertyOf(s, k)
		out[k] = c.deepValue(p, in, ps, n.kids[k], append(slices.Clone(path), k), probs)
	}
	return out
}

func (c *Contract) deepLeaf(p *param, in In, s sref, text string, path []any, probs *[]Problem) any {
	v, pr := c.readText(p, in, path, text, s)
	if pr != nil {
		*probs = append(*probs, *pr)
	}
	return v
}

// readExplodedObject reads an exploded form object, whose properties are
// query (or cookie) keys of their own: the schema's properties, and any key
// no other parameter declares when the schema takes other properties.
func (c *Contract) readExplodedObject(p *param, in In, pairs []qpair, used []bool, declared map[string]bool, unesc func(string) string) (any, bool, []Problem) {
	names := c.propertyNames(p.sch)
	open := c.openObject(p.sch)
	var kv [][2]string
	for i, q := range pairs {
		if used[i] || declared[q.key] && !slices.Contains(names, q.key) {
			continue
		}
		if slices.Contains(names, q.key) || open {
			used[i] = true
			kv = append(kv, [2]string{q.key, unesc(q.raw)})
		}
	}
	if len(kv) == 0 {
		return nil, false, nil
	}
	v, probs := c.readObject(p, in, kv)
	return v, true, probs
}

// --- path ---

// readPath reads a path parameter from the text its template variable
// matched, still percent-encoded.
func (c *Contract) readPath(p *param, raw string) (any, []Problem) {
	if p.content != nil {
		return c.readContent(p, InPath, unescapePath(raw))
	}
	whole := raw
	exploded := p.explode
	var pieces []string
	switch p.style {
	case styleLabel:
		if !strings.HasPrefix(raw, ".") {
			return nil, []Problem{c.problem(p, InPath, nil, "style", fmt.Sprintf("expected label style, a value after \".\", got %q", unescapePath(raw)), p.src)}
		}
		whole = raw[1:]
		sep := ","
		if p.explode {
			sep = "."
		}
		if p.shape != primitive && whole != "" {
			pieces = strings.Split(whole, sep)
		}
	case styleMatrix:
		if !strings.HasPrefix(raw, ";") {
			return nil, []Problem{c.problem(p, InPath, nil, "style", fmt.Sprintf("expected matrix style, \";%s=\" and a value, got %q", p.name, unescapePath(raw)), p.src)}
		}
		body := raw[1:]
		if p.explode && p.shape != primitive {
			// ;color=blue;color=black or ;R=100;G=200
			for _, part := range strings.Split(body, ";") {
				k, v, _ := strings.Cut(part, "=")
				if p.shape == array {
					if k != p.name {
						return nil, []Problem{c.problem(p, InPath, nil, "style", fmt.Sprintf("expected \";%s=\" before each item, got %q", p.name, unescapePath(raw)), p.src)}
					}
					pieces = append(pieces, v)
				} else {
					pieces = append(pieces, k+"="+v)
				}
			}
			whole = body
			break
		}
		k, v, _ := strings.Cut(body, "=")
		if k != p.name {
			return nil, []Problem{c.problem(p, InPath, nil, "style", fmt.Sprintf("expected matrix style, \";%s=\" and a value, got %q", p.name, unescapePath(raw)), p.src)}
		}
		whole = v
		exploded = false
		if p.shape != primitive && v != "" {
			pieces = strings.Split(v, ",")
		}
	default:
		if p.shape != primitive && raw != "" {
			pieces = strings.Split(raw, ",")
		}
	}
	if p.shape == array && pieces == nil {
		pieces = []string{}
	}
	return c.readPieces(p, InPath, pieces, exploded, unescapePath(whole), unescapePath)
}

// --- headers ---

// readHeader reads a header parameter or response header (simple style;
// several lines of one header join as one list).
func (c *Contract) readHeader(p *param, in In, h http.Header) (any, bool, []Problem) {
	lines := headerValues(h, p.name)
	if len(lines) == 0 {
		return nil, false, nil
	}
	text := strings.TrimSpace(strings.Join(lines, ","))
	if p.content != nil {
		v, probs := c.readContent(p, in, text)
		return v, true, probs
	}
	var pieces []string
	if p.shape != primitive && text != "" {
		st := p.style
		if st != styleSpace && st != stylePipe && st != styleTab {
			st = styleSimple
		}
		for _, s := range splitRaw(text, st) {
			pieces = append(pieces, strings.TrimSpace(s))
		}
	}
	if p.shape == array && pieces == nil {
		pieces = []string{}
	}
	v, probs := c.readPieces(p, in, pieces, p.explode, text, identity)
	return v, true, probs
}

// headerValues is h.Values(name), also for a header whose key is not in
// canonical form (a header map written by hand, or read from an example).
func headerValues(h http.Header, name string) []string {
	if vs := h.Values(name); len(vs) > 0 {
		return vs
	}
	for k, vs := range h {
		if strings.EqualFold(k, name) {
			return vs
		}
	}
	return nil
}

// headerValue is the first value of a header, in any case.
func headerValue(h http.Header, name string) string {
	if vs := headerValues(h, name); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// --- cookies ---

// parseCookies reads the name=value pairs of every Cookie header.
func parseCookies(h http.Header) []qpair {
	var out []qpair
	for _, line := range headerValues(h, "Cookie") {
		for part := range strings.SplitSeq(line, ";") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			k, v, eq := strings.Cut(part, "=")
			v = strings.TrimSpace(v)
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1]
			}
			out = append(out, qpair{key: strings.TrimSpace(k), raw: v, eq: eq})
		}
	}
	return out
}

// cookieUnescape decodes percent-escapes in a cookie value where they are
// valid, and keeps the text as sent where they are not ("+" stays).
func cookieUnescape(s string) string { return unescapePath(s) }

// readCookie reads a cookie parameter (form style: several cookies of the
// name for an exploded array, name=a,b for one that is not).
func (c *Contract) readCookie(p *param, pairs []qpair, used []bool, declared map[string]bool) (any, bool, []Problem) {
	if p.content == nil && p.shape == object && p.explode {
		return c.readExplodedObject(p, InCookie, pairs, used, declared, cookieUnescape)
	}
	var mine []string
	for i, q := range pairs {
		if q.key == p.name {
			used[i] = true
			mine = append(mine, q.raw)
		}
	}
	if len(mine) == 0 {
		return nil, false, nil
	}
	if p.content != nil {
		v, probs := c.readContent(p, InCookie, cookieUnescape(mine[0]))
		return v, true, probs
	}
	var pieces []string
	switch {
	case p.shape == array && p.explode:
		pieces = mine
	case p.shape != primitive:
		if mine[0] != "" {
			pieces = splitRaw(mine[0], styleForm)
		}
	}
	if p.shape == array && pieces == nil {
		pieces = []string{}
	}
	v, probs := c.readPieces(p, InCookie, pieces, false, cookieUnescape(mine[0]), cookieUnescape)
	return v, true, probs
}

// --- serialization ---

// text writes a primitive value as text: numbers as written, booleans as
// true/false, null as empty; an object or array where a primitive belongs
// as JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e21 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return text(float64(x))
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case []byte:
		return string(x)
	case File:
		return string(x.Data)
	case *File:
		return string(x.Data)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// listOf returns the items of an array value (a single value is a list of
// one).
func listOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case nil:
		return nil
	}
	return []any{v}
}

// pairsOfValue returns an object's properties in the schema's order, then
// the others by name, so that a serialized object reads the same each time.
func (c *Contract) pairsOfValue(s sref, v any) [][2]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out [][2]any
	seen := map[string]bool{}
	for _, name := range c.propertyNames(s) {
		if val, ok := m[name]; ok {
			out = append(out, [2]any{name, val})
			seen[name] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, [2]any{k, m[k]})
	}
	return out
}

// escaper percent-encodes for one place of a URL.
type escaper func(string) string

// escapeQuery encodes a query key or value: everything but RFC 3986's
// unreserved characters, and with allowReserved its reserved ones too,
// except those that would end the value (&, =, #, +).
func escapeQuery(allowReserved bool) escaper {
	return func(s string) string { return escape(s, allowReserved) }
}

// escapePathValue encodes a path parameter value: everything but
// unreserved characters.
func escapePathValue(s string) string { return escape(s, false) }

func escape(s string, reserved bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if isUnreserved(ch) || reserved && strings.IndexByte(":/?[]@!$'()*,;", ch) >= 0 {
			if b.Len() > 0 {
				b.WriteByte(ch)
			}
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 8)
			b.WriteString(s[:i])
		}
		b.WriteByte('%')
		b.WriteByte(hex[ch>>4])
		b.WriteByte(hex[ch&15])
	}
	if b.Len() == 0 {
		return s
	}
	return b.String()
}

func isUnreserved(ch byte) bool {
	return 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || ch == '-' || ch == '.' || ch == '_' || ch == '~'
}

// delimiter is the text between items of a non-exploded value, as sent.
func (p *param) delimiter() string {
	switch p.style {
	case styleSpace:
		return "%20"
	case stylePipe:
		return "%7C"
	case styleTab:
		return "%09"
	}
	return ","
}

// joined writes the items of an array, or the name,value pairs of an
// object (name=value pairs when exploded), each escaped, between sep.
func (c *Contract) joined(p *param, v any, esc escaper, sep string, exploded bool) string {
	var parts []string
	if p.shape == object {
		for _, kv := range c.pairsOfValue(p.sch, v) {
			if exploded {
				parts = append(parts, esc(kv[0].(string))+"="+esc(text(kv[1])))
			} else {
				parts = append(parts, esc(kv[0].(string)), esc(text(kv[1])))
			}
		}
	} else {
		for _, it := range listOf(v) {
			parts = append(parts, esc(text(it)))
		}
	}
	return strings.Join(parts, sep)
}

// contentText encodes the value of a content-typed parameter.
func (c *Contract) contentText(p *param, v any) (string, error) {
	b, _, err := c.encode(v, p.content, p.content.name)
	return string(b), err
}

// writeQuery appends the query pairs of a parameter's value, escaped.
func (c *Contract) writeQuery(p *param, v any, out []string) ([]string, error) {
	esc := escapeQuery(p.allowReserved)
	name := esc(p.name)
	if p.content != nil {
		s, err := c.contentText(p, v)
		return append(out, name+"="+esc(s)), err
	}
	switch {
	case p.style == styleDeepObject:
		return c.writeDeep(p.sch, p.name, v, esc, out), nil
	case p.shape == object && p.explode:
		for _, kv := range c.pairsOfValue(p.sch, v) {
			out = append(out, esc(kv[0].(string))+"="+esc(text(kv[1])))
		}
		return out, nil
	case p.shape == array && p.explode:
		for _, it := range listOf(v) {
			out = append(out, name+"="+esc(text(it)))
		}
		return out, nil
	case p.shape != primitive:
		return append(out, name+"="+c.joined(p, v, esc, p.delimiter(), false)), nil
	}
	return append(out, name+"="+esc(text(v))), nil
}

// writeDeep writes a value as deepObject pairs: key[name]=value for each
// property, key[a][b]=value for nested objects, key[0]=value for the items
// of an array (as readDeepObject reads them back), and key=value for a
// primitive.
func (c *Contract) writeDeep(s sref, key string, v any, esc escaper, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for _, kv := range c.pairsOfValue(s, x) {
			ps, _ := c.propertyOf(s, kv[0].(string))
			out = c.writeDeep(ps, key+"["+kv[0].(string)+"]", kv[1], esc, out)
		}
	case []any:
		items := c.itemsOf(s)
		for i, it := range x {
			out = c.writeDeep(items, key+"["+strconv.Itoa(i)+"]", it, esc, out)
		}
	case nil:
		// A form has no null: the key is left out.
	default:
		out = append(out, esc(key)+"="+esc(text(x)))
	}
	return out
}

// pathText serializes a path parameter's value by its style.
func (c *Contract) pathText(p *param, v any) (string, error) {
	if p.content != nil {
		s, err := c.contentText(p, v)
		return escapePathValue(s), err
	}
	esc := escaper(escapePathValue)
	switch p.style {
	case styleLabel:
		if p.shape == primitive {
			return "." + esc(text(v)), nil
		}
		sep := ","
		if p.explode {
			sep = "."
		}
		return "." + c.joined(p, v, esc, sep, p.explode), nil
	case styleMatrix:
		name := esc(p.name)
		switch {
		case p.shape == primitive:
			if v == nil {
				return ";" + name, nil
			}
			return ";" + name + "=" + esc(text(v)), nil
		case p.explode && p.shape == array:
			var b strings.Builder
			for _, it := range listOf(v) {
				b.WriteString(";" + name + "=" + esc(text(it)))
			}
			return b.String(), nil
		case p.explode:
			return ";" + c.joined(p, v, esc, ";", true), nil
		}
		return ";" + name + "=" + c.joined(p, v, esc, ",", false), nil
	}
	if p.shape == primitive {
		return esc(text(v)), nil
	}
	return c.joined(p, v, esc, ",", p.explode), nil
}

// headerText serializes a header's value (simple style, not escaped).
func (c *Contract) headerText(p *param, v any) (string, error) {
	if p.content != nil {
		return c.contentText(p, v)
	}
	if p.shape == primitive {
		return text(v), nil
	}
	sep := ","
	switch p.style {
	case styleSpace:
		sep = " "
	case stylePipe:
		sep = "|"
	case styleTab:
		sep = "\t"
	}
	return c.joined(p, v, identity, sep, p.explode), nil
}

// escapeCookie encodes what a cookie value cannot hold (controls, space,
// quotes, comma, semicolon, backslash, percent).
func escapeCookie(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch <= ' ' || ch >= 0x7f || strings.IndexByte("\",;\\%", ch) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// cookiePairs serializes a cookie parameter into name=value pairs.
func (c *Contract) cookiePairs(p *param, v any) ([]string, error) {
	if p.content != nil {
		s, err := c.contentText(p, v)
		return []string{p.name + "=" + escapeCookie(s)}, err
	}
	switch {
	case p.shape == object && p.explode:
		var out []string
		for _, kv := range c.pairsOfValue(p.sch, v) {
			out = append(out, kv[0].(string)+"="+escapeCookie(text(kv[1])))
		}
		return out, nil
	case p.shape == array && p.explode:
		var out []string
		for _, it := range listOf(v) {
			out = append(out, p.name+"="+escapeCookie(text(it)))
		}
		return out, nil
	case p.shape != primitive:
		return []string{p.name + "=" + c.joined(p, v, escapeCookie, ",", false)}, nil
	}
	return []string{p.name + "=" + escapeCookie(text(v))}, nil
}
