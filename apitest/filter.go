package apitest

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/specgate/specgate/internal/suggest"
)

// Filter selects tests by an expression over their PATH, METHOD and
// STATUS, in the syntax Specmatic's users know:
//
//	PATH='/pets/*' && METHOD=GET,POST
//	STATUS=2xx || (STATUS=404 && PATH!='/health')
//	!METHOD=DELETE
//
// A condition is a field, = or !=, and a comma-separated list of values,
// quoted or not; it holds when any value matches (= ) or none does (!=).
// && binds tighter than ||; ! negates; parentheses group. Values match
// as follows: PATH against the path template, where * stands for any text
// ("/pets/*") and a concrete path matches the template it fills
// ("/pets/12" matches "/pets/{id}"); METHOD in any case; STATUS as a
// status ("404"), a class ("4xx", matching "404" and "4XX" alike),
// "default", or *.
type Filter struct {
	src  string
	root fnode
}

// fnode is a node of a parsed filter expression.
type fnode interface {
	match(t *Test) bool
}

type (
	orNode   struct{ l, r fnode }
	andNode  struct{ l, r fnode }
	notNode  struct{ x fnode }
	condNode struct {
		field  string // PATH, METHOD, STATUS
		negate bool
		values []string
	}
)

func (n orNode) match(t *Test) bool  { return n.l.match(t) || n.r.match(t) }
func (n andNode) match(t *Test) bool { return n.l.match(t) && n.r.match(t) }
func (n notNode) match(t *Test) bool { return !n.x.match(t) }

func (n condNode) match(t *Test) bool {
	hit := false
	for _, v := range n.values {
		var ok bool
		switch n.field {
		case "PATH":
			ok = matchPath(v, t.Path)
		case "METHOD":
			ok = v == "*" || strings.EqualFold(v, t.Method)
		case "STATUS":
			ok = matchStatus(v, t.Status)
		}
		if ok {
			hit = true
			break
		}
	}
	return hit != n.negate
}

// filterFields are the fields a filter may test.
var filterFields = []string{"PATH", "METHOD", "STATUS"}

// ParseFilter reads a filter expression; the empty expression selects
// every test. An error names the column where the expression goes wrong.
func ParseFilter(expr string) (*Filter, error) {
	f := &Filter{src: expr}
	if strings.TrimSpace(expr) == "" {
		return f, nil
	}
	p := &filterParser{src: expr}
	p.next()
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		return nil, p.errorf("unexpected %s", p.tok)
	}
	f.root = root
	return f, nil
}

// Match reports whether the filter selects t; a nil filter selects every
// test.
func (f *Filter) Match(t *Test) bool {
	return f == nil || f.root == nil || f.root.match(t)
}

func (f *Filter) String() string {
	if f == nil {
		return ""
	}
	return f.src
}

// Empty reports whether the filter selects every test.
func (f *Filter) Empty() bool { return f == nil || f.root == nil }

type tokKind uint8

const (
	tEOF tokKind = iota
	tWord
	tQuoted
	tAnd
	tOr
	tNot
	tEq
	tNe
	tComma
	tLParen
	tRParen
)

type token struct {
	kind tokKind
	text string
	col  int // 1-based, in characters
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of the expression"
	case tQuoted:
		return fmt.Sprintf("'%s'", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

type filterParser struct {
	src string
	pos int // byte offset
	tok token
}

func (p *filterParser) errorf(format string, args ...any) error {
	return fmt.Errorf("filter %q: column %d: %s", p.src, p.tok.col, fmt.Sprintf(format, args...))
}

func (p *filterParser) col(off int) int { return len([]rune(p.src[:off])) + 1 }

// next reads the next token into p.tok.
func (p *filterParser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
	start := p.pos
	col := p.col(start)
	if p.pos >= len(p.src) {
		p.tok = token{kind: tEOF, col: col}
		return
	}
	two := ""
	if p.pos+2 <= len(p.src) {
		two = p.src[p.pos : p.pos+2]
	}
	switch {
	case two == "&&":
		p.pos += 2
		p.tok = token{tAnd, two, col}
	case two == "||":
		p.pos += 2
		p.tok = token{tOr, two, col}
	case two == "!=":
		p.pos += 2
		p.tok = token{tNe, two, col}
	case p.src[p.pos] == '!':
		p.pos++
		p.tok = token{tNot, "!", col}
	case p.src[p.pos] == '=':
		p.pos++
		if p.pos < len(p.src) && p.src[p.pos] == '=' { // == reads as =
			p.pos++
		}
		p.tok = token{tEq, "=", col}
	case p.src[p.pos] == ',':
		p.pos++
		p.tok = token{tComma, ",", col}
	case p.src[p.pos] == '(':
		p.pos++
		p.tok = token{tLParen, "(", col}
	case p.src[p.pos] == ')':
		p.pos++
		p.tok = token{tRParen, ")", col}
	case p.src[p.pos] == '\'' || p.src[p.pos] == '"':
		q := p.src[p.pos]
		end := strings.IndexByte(p.src[p.pos+1:], q)
		if end < 0 {
			p.pos = len(p.src)
			p.tok = token{kind: tQuoted, text: "\x00unclosed", col: col}
			return
		}
		p.tok = token{tQuoted, p.src[p.pos+1 : p.pos+1+end], col}
		p.pos += end + 2
	default:
		for p.pos < len(p.src) && !strings.ContainsRune(" \t\r\n,()=!&|'\"", rune(p.src[p.pos])) {
			p.pos++
		}
		if p.pos == start { // a lone & or |
			p.pos++
		}
		p.tok = token{tWord, p.src[start:p.pos], col}
	}
}

func (p *filterParser) or() (fnode, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tOr {
		p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = orNode{l, r}
	}
	return l, nil
}

func (p *filterParser) and() (fnode, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tAnd {
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = andNode{l, r}
	}
	return l, nil
}

func (p *filterParser) unary() (fnode, error) {
	switch p.tok.kind {
	case tNot:
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return notNode{x}, nil
	case tLParen:
		p.next()
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tRParen {
			return nil, p.errorf("expected ) to close the parenthesis, found %s", p.tok)
		}
		p.next()
		return x, nil
	}
	return p.cond()
}

func (p *filterParser) cond() (fnode, error) {
	if p.tok.kind != tWord {
		return nil, p.errorf("expected a field (%s), found %s", strings.Join(filterFields, ", "), p.tok)
	}
	field := strings.ToUpper(p.tok.text)
	known := false
	for _, f := range filterFields {
		known = known || f == field
	}
	if !known {
		return nil, p.errorf("unknown field %q: a filter tests %s", p.tok.text, strings.Join(filterFields, ", "))
	}
	p.next()
	c := condNode{field: field}
	switch p.tok.kind {
	case tEq:
	case tNe:
		c.negate = true
	default:
		return nil, p.errorf("expected = or != after %s, found %s", field, p.tok)
	}
	p.next()
	for {
		switch p.tok.kind {
		case tWord, tQuoted:
			if p.tok.text == "\x00unclosed" {
				return nil, p.errorf("unclosed quote")
			}
			for _, v := range strings.Split(p.tok.text, ",") {
				if v = strings.TrimSpace(v); v != "" {
					if err := p.checkValue(field, v); err != nil {
						return nil, err
					}
					c.values = append(c.values, v)
				}
			}
		default:
			return nil, p.errorf("expected a value for %s, found %s", field, p.tok)
		}
		p.next()
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	if len(c.values) == 0 {
		return nil, p.errorf("%s has no value", field)
	}
	return c, nil
}

func (p *filterParser) checkValue(field, v string) error {
	switch field {
	case "STATUS":
		if !validStatusPattern(v) {
			return p.errorf("STATUS %q is not a status (200), a class (2xx), default or *", v)
		}
	case "METHOD":
		for _, r := range v {
			if r != '*' && !unicode.IsLetter(r) {
				return p.errorf("METHOD %q is not an HTTP method", v)
			}
		}
	}
	return nil
}

func validStatusPattern(v string) bool {
	if v == "*" || strings.EqualFold(v, "default") {
		return true
	}
	if len(v) != 3 || v[0] < '1' || v[0] > '5' {
		return false
	}
	if strings.EqualFold(v[1:], "xx") {
		return true
	}
	return v[1] >= '0' && v[1] <= '9' && v[2] >= '0' && v[2] <= '9'
}

// matchStatus matches a STATUS value against a test's status.
func matchStatus(pattern, status string) bool {
	switch {
	case pattern == "*":
		return true
	case strings.EqualFold(pattern, "default"):
		return strings.EqualFold(status, "default")
	case strings.EqualFold(pattern[1:], "xx"):
		return len(status) == 3 && status[0] == pattern[0]
	}
	return pattern == status
}

// matchPath matches a PATH value against a path template: as a glob
// where * is any text, or as a concrete path that fills the template.
func matchPath(pattern, template string) bool {
	if pattern == template || globMatch(pattern, template) {
		return true
	}
	if strings.ContainsAny(pattern, "*{") {
		return false
	}
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	ts := strings.Split(strings.Trim(template, "/"), "/")
	if len(ps) != len(ts) {
		return false
	}
	for i := range ps {
		if !segmentFills(ps[i], ts[i]) {
			return false
		}
	}
	return true
}

// segmentFills reports whether a concrete segment fills a template
// segment: its literal text in place and each variable non-empty.
func segmentFills(seg, tmpl string) bool {
	if !strings.Contains(tmpl, "{") {
		return seg == tmpl
	}
	var glob strings.Builder
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		end := strings.IndexByte(tmpl, '}')
		if open < 0 || end < open {
			glob.WriteString(globEscape(tmpl))
			break
		}
		glob.WriteString(globEscape(tmpl[:open]))
		glob.WriteString("?*")
		tmpl = tmpl[end+1:]
	}
	ok, err := path.Match(glob.String(), seg)
	return err == nil && ok
}

func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(s)
}

// globMatch matches s against a pattern in which * is any text
// (slashes included) and everything else is literal.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// positive lists the conditions of the filter that must hold for a test
// to be selected (not under a !, not !=): a value of one that matches no
// test can only be a mistake.
func (f *Filter) positive() []condNode {
	if f.Empty() {
		return nil
	}
	var out []condNode
	var walk func(n fnode)
	walk = func(n fnode) {
		switch n := n.(type) {
		case orNode:
			walk(n.l)
			walk(n.r)
		case andNode:
			walk(n.l)
			walk(n.r)
		case condNode:
			if !n.negate {
				out = append(out, n)
			}
		}
	}
	walk(f.root)
	return out
}

// unmatched checks each value of the filter's positive conditions against
// the paths, methods and statuses of tests (those of specs, named by of),
// and says of each that matches none which one it is, with the nearest
// path or method that exists, or the statuses tests expect:
// PATH /itemz matches no operation of items.yaml; did you mean "/items"?
func (f *Filter) unmatched(tests []*Test, of string) []string {
	var out []string
	for _, c := range f.positive() {
		for _, v := range c.values {
			one := condNode{field: c.field, values: []string{v}}
			if slices.ContainsFunc(tests, one.match) {
				continue
			}
			var have []string
			for _, t := range tests {
				have = append(have, map[string]string{"PATH": t.Path, "METHOD": t.Method, "STATUS": t.Status}[c.field])
			}
			slices.Sort(have)
			have = slices.Compact(have)
			if c.field == "STATUS" {
				out = append(out, fmt.Sprintf("STATUS %s matches no test of %s (they expect %s)", v, of, strings.Join(have, ", ")))
				continue
			}
			out = append(out, fmt.Sprintf("%s %s matches no operation of %s%s", c.field, v, of, suggest.Hint(v, have)))
		}
	}
	return out
}
