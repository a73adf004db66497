package contract

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

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

// claim returns the raw values of the pairs named name, in order, and
// marks them used.
func claim(pairs []qpair, used []bool, name string) []string {
	var mine []string
	for i, q := range pairs {
		if q.key == name {
			used[i] = true
			mine = append(mine, q.raw)
		}
	}
	return mine
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
	mine := claim(pairs, used, p.name)
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
	mine := claim(pairs, used, p.name)
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
