package arazzo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A simple condition (the Criterion Object's default type) combines
// literals (numbers, 'strings' with '' for a quote, true, false, null) and
// runtime expressions with < <= > >= == != ! && || and parentheses, and
// reads into values with [index] and .name. String comparisons ignore
// case, as the specification asks; a number compares with a string that
// spells a number by value ("loose" comparison).

// Condition is a parsed simple condition.
type Condition struct {
	Src  string
	root cnode
}

// Exprs lists the runtime expressions of the condition, in order.
func (c *Condition) Exprs() []*Expr {
	var out []*Expr
	var walk func(n cnode)
	walk = func(n cnode) {
		switch n := n.(type) {
		case *cexpr:
			out = append(out, n.e)
		case *cunary:
			walk(n.x)
		case *cbinary:
			walk(n.l)
			walk(n.r)
		case *cindex:
			walk(n.x)
		}
	}
	walk(c.root)
	return out
}

type cnode interface{}

type (
	clit    struct{ v any }
	cexpr   struct{ e *Expr }
	cunary  struct{ x cnode }
	cbinary struct {
		op   string
		l, r cnode
	}
	// cindex reads an array item ([n]) or an object member (.name).
	cindex struct {
		x   cnode
		key any // int or string
	}
)

// ParseCondition parses a simple condition.
func ParseCondition(src string) (*Condition, error) {
	p := &condParser{src: src}
	p.next()
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		return nil, p.errf("unexpected %s", p.tok.describe())
	}
	return &Condition{Src: src, root: n}, nil
}

// CondError is a simple condition that does not parse.
type CondError struct {
	Src    string
	Offset int
	Msg    string
}

func (e *CondError) Error() string {
	return fmt.Sprintf("condition %q does not parse at column %d: %s", e.Src, e.Offset+1, e.Msg)
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tNum
	tStr
	tIdent // true, false, null, or a name after '.'
	tExpr
	tOp
)

type token struct {
	kind tokKind
	text string
	off  int
	expr *Expr
}

func (t token) describe() string {
	if t.kind == tEOF {
		return "end of condition"
	}
	return strconv.Quote(t.text)
}

type condParser struct {
	src string
	pos int
	tok token
	err error
}

func (p *condParser) errf(format string, args ...any) error {
	return &CondError{Src: p.src, Offset: p.tok.off, Msg: fmt.Sprintf(format, args...)}
}

// exprEnd is where a runtime expression written in a condition ends.
func exprEnd(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte("=!<>&|()[]", c) >= 0 {
			break
		}
		i++
	}
	return i
}

func (p *condParser) next() {
	s := p.src
	for p.pos < len(s) && strings.IndexByte(" \t\r\n", s[p.pos]) >= 0 {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(s) {
		p.tok = token{kind: tEOF, off: start}
		return
	}
	c := s[p.pos]
	switch {
	case c == '$':
		end := exprEnd(s, p.pos)
		text := s[p.pos:end]
		p.pos = end
		e, err := ParseExpr(text)
		if err != nil && p.err == nil {
			p.err = &CondError{Src: s, Offset: start, Msg: err.Error()}
		}
		p.tok = token{kind: tExpr, text: text, off: start, expr: e}
	case c == '\'':
		var b strings.Builder
		i := p.pos + 1
		for {
			if i >= len(s) {
				if p.err == nil {
					p.err = &CondError{Src: s, Offset: start, Msg: "a string has no closing '"}
				}
				break
			}
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte('\'')
					i += 2
					continue
				}
				i++
				break
			}
			b.WriteByte(s[i])
			i++
		}
		p.pos = i
		p.tok = token{kind: tStr, text: b.String(), off: start}
	case c == '-' || c >= '0' && c <= '9':
		i := p.pos + 1
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || strings.IndexByte(".eE+-", s[i]) >= 0) {
			if (s[i] == '+' || s[i] == '-') && s[i-1] != 'e' && s[i-1] != 'E' {
				break
			}
			i++
		}
		p.pos = i
		p.tok = token{kind: tNum, text: s[start:i], off: start}
	case strings.HasPrefix(s[p.pos:], "&&") || strings.HasPrefix(s[p.pos:], "||") || strings.HasPrefix(s[p.pos:], "==") ||
		strings.HasPrefix(s[p.pos:], "!=") || strings.HasPrefix(s[p.pos:], "<=") || strings.HasPrefix(s[p.pos:], ">="):
		p.pos += 2
		p.tok = token{kind: tOp, text: s[start:p.pos], off: start}
	case strings.IndexByte("<>!()[].", c) >= 0:
		p.pos++
		p.tok = token{kind: tOp, text: s[start:p.pos], off: start}
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		i := p.pos
		for i < len(s) && (s[i] == '_' || s[i] == '-' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
			i++
		}
		p.pos = i
		p.tok = token{kind: tIdent, text: s[start:i], off: start}
	default:
		p.pos++
		p.tok = token{kind: tOp, text: s[start:p.pos], off: start}
	}
}

func (p *condParser) or() (cnode, error) {
	l, err := p.and()
	for err == nil && p.tok.kind == tOp && p.tok.text == "||" {
		p.next()
		var r cnode
		r, err = p.and()
		l = &cbinary{op: "||", l: l, r: r}
	}
	return l, err
}

func (p *condParser) and() (cnode, error) {
	l, err := p.unary()
	for err == nil && p.tok.kind == tOp && p.tok.text == "&&" {
		p.next()
		var r cnode
		r, err = p.unary()
		l = &cbinary{op: "&&", l: l, r: r}
	}
	return l, err
}

func (p *condParser) unary() (cnode, error) {
	if p.tok.kind == tOp && p.tok.text == "!" {
		p.next()
		x, err := p.unary()
		return &cunary{x: x}, err
	}
	return p.compare()
}

func (p *condParser) compare() (cnode, error) {
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	if p.tok.kind == tOp {
		switch op := p.tok.text; op {
		case "==", "!=", "<", "<=", ">", ">=":
			p.next()
			r, err := p.operand()
			return &cbinary{op: op, l: l, r: r}, err
		}
	}
	return l, nil
}

func (p *condParser) operand() (cnode, error) {
	if p.err != nil {
		return nil, p.err
	}
	var n cnode
	t := p.tok
	switch {
	case t.kind == tNum:
		if _, ok := new(big.Rat).SetString(t.text); !ok {
			return nil, p.errf("%q is not a number", t.text)
		}
		n = &clit{v: json.Number(t.text)}
	case t.kind == tStr:
		n = &clit{v: t.text}
	case t.kind == tIdent && t.text == "true":
		n = &clit{v: true}
	case t.kind == tIdent && t.text == "false":
		n = &clit{v: false}
	case t.kind == tIdent && t.text == "null":
		n = &clit{v: nil}
	case t.kind == tExpr:
		n = &cexpr{e: t.expr}
	case t.kind == tOp && t.text == "(":
		p.next()
		inner, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tOp || p.tok.text != ")" {
			return nil, p.errf("expected ) to close the ( at column %d, found %s", t.off+1, p.tok.describe())
		}
		n = inner
	case t.kind == tIdent:
		return nil, p.errf("unknown word %q: a string is written in single quotes ('%s'), a runtime expression starts with $", t.text, t.text)
	default:
		return nil, p.errf("expected a value (a runtime expression, a number, a 'string', true, false or null), found %s", t.describe())
	}
	p.next()
	for p.tok.kind == tOp && (p.tok.text == "[" || p.tok.text == ".") {
		if p.tok.text == "[" {
			p.next()
			if p.tok.kind != tNum && p.tok.kind != tStr {
				return nil, p.errf("expected an index or a 'name' inside [ ], found %s", p.tok.describe())
			}
			var key any = p.tok.text
			if p.tok.kind == tNum {
				i, err := strconv.Atoi(p.tok.text)
				if err != nil || i < 0 {
					return nil, p.errf("an index is a whole number from 0, found %s", p.tok.text)
				}
				key = i
			}
			p.next()
			if p.tok.kind != tOp || p.tok.text != "]" {
				return nil, p.errf("expected ], found %s", p.tok.describe())
			}
			p.next()
			n = &cindex{x: n, key: key}
			continue
		}
		p.next()
		if p.tok.kind != tIdent {
			return nil, p.errf("expected a property name after ., found %s", p.tok.describe())
		}
		n = &cindex{x: n, key: p.tok.text}
		p.next()
	}
	return n, nil
}

// Resolver gives the value of a runtime expression; ok false when it names
// nothing (a missing header, an absent body member), which conditions read
// as null.
type Resolver func(e *Expr) (v any, ok bool, err error)

// Eval evaluates the condition; a value that is not a boolean where one is
// needed is an error.
func (c *Condition) Eval(resolve Resolver) (bool, error) {
	v, err := evalNode(c.root, resolve)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("condition %q is %s, not true or false", c.Src, describeValue(v))
	}
	return b, nil
}

func evalNode(n cnode, resolve Resolver) (any, error) {
	switch n := n.(type) {
	case *clit:
		return n.v, nil
	case *cexpr:
		v, ok, err := resolve(n.e)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		return v, nil
	case *cindex:
		v, err := evalNode(n.x, resolve)
		if err != nil {
			return nil, err
		}
		switch k := n.key.(type) {
		case int:
			if a, ok := v.([]any); ok && k < len(a) {
				return a[k], nil
			}
		case string:
			if m, ok := v.(map[string]any); ok {
				return m[k], nil
			}
		}
		return nil, nil
	case *cunary:
		v, err := evalNode(n.x, resolve)
		if err != nil {
			return nil, err
		}
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("! needs true or false, found %s", describeValue(v))
		}
		return !b, nil
	case *cbinary:
		l, err := evalNode(n.l, resolve)
		if err != nil {
			return nil, err
		}
		if n.op == "&&" || n.op == "||" {
			lb, ok := l.(bool)
			if !ok {
				return nil, fmt.Errorf("%s needs true or false on its left, found %s", n.op, describeValue(l))
			}
			if (n.op == "&&" && !lb) || (n.op == "||" && lb) {
				return lb, nil
			}
			r, err := evalNode(n.r, resolve)
			if err != nil {
				return nil, err
			}
			rb, ok := r.(bool)
			if !ok {
				return nil, fmt.Errorf("%s needs true or false on its right, found %s", n.op, describeValue(r))
			}
			return rb, nil
		}
		r, err := evalNode(n.r, resolve)
		if err != nil {
			return nil, err
		}
		return compare(n.op, l, r)
	}
	return nil, fmt.Errorf("unknown condition node %T", n)
}

// compare applies a comparison loosely: numbers by value (a string that
// spells a number counts as one), strings without case, booleans and null
// by identity; containers are equal when their JSON is.
func compare(op string, l, r any) (bool, error) {
	ln, lok := number(l)
	rn, rok := number(r)
	if lok && rok {
		c := ln.Cmp(rn)
		return cmpResult(op, c), nil
	}
	ls, lsok := l.(string)
	rs, rsok := r.(string)
	if lsok && rsok {
		return cmpResult(op, strings.Compare(strings.ToLower(ls), strings.ToLower(rs))), nil
	}
	switch op {
	case "==", "!=":
		eq := equalLoose(l, r)
		return eq == (op == "=="), nil
	}
	return false, fmt.Errorf("%s cannot order %s and %s", op, describeValue(l), describeValue(r))
}

func cmpResult(op string, c int) bool {
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func equalLoose(l, r any) bool {
	if lb, ok := l.(bool); ok {
		if rs, ok := r.(string); ok {
			return strings.EqualFold(rs, strconv.FormatBool(lb))
		}
	}
	if rb, ok := r.(bool); ok {
		if ls, ok := l.(string); ok {
			return strings.EqualFold(ls, strconv.FormatBool(rb))
		}
	}
	lj, err1 := json.Marshal(l)
	rj, err2 := json.Marshal(r)
	return err1 == nil && err2 == nil && string(lj) == string(rj)
}

// number reads a JSON number, or a string that spells one.
func number(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(v))
	case int:
		return new(big.Rat).SetInt64(int64(v)), true
	case int64:
		return new(big.Rat).SetInt64(v), true
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(v) == nil {
			return nil, false
		}
		return r, true
	case string:
		s := strings.TrimSpace(v)
		if s == "" {
			return nil, false
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return nil, false
		}
		return new(big.Rat).SetString(s)
	}
	return nil, false
}

// describeValue names a value in messages: its JSON, cut short.
func describeValue(v any) string {
	if v == nil {
		return "null"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if len(s) > 80 {
		cut := 77
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
