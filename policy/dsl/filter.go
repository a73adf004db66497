package dsl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Expr is a filter expression: the JavaScript subset that Spectral
// rulesets write inside [?(...)].
type Expr interface{ exprNode() }

// The expression nodes.
type (
	// Binary is a comparison (== === != !== < <= > >=) or a logical
	// operator (&& ||).
	Binary struct {
		Op   string
		L, R Expr
	}
	// Not is !X.
	Not struct{ X Expr }
	// Current is @, the candidate value.
	Current struct{}
	// Property is @property, the candidate's key or index.
	Property struct{}
	// ParentProperty is @parentProperty, the key of the candidate's parent.
	ParentProperty struct{}
	// Member is X.name or X['name'] (X[0] for an index).
	Member struct {
		X    Expr
		Name string
		Idx  *int
	}
	// Call is a method call on a value: match, test, startsWith, endsWith,
	// includes, indexOf, toLowerCase, toUpperCase, trim.
	Call struct {
		X      Expr
		Method string
		Args   []Expr
		Offset int
	}
	// Literal is a string, number (float64), boolean, null (nil) or undefined.
	Literal struct{ Value any }
	// Regex is a regular expression literal /source/flags, already
	// translated to RE2.
	Regex struct{ Source, Flags, RE2 string }
	// TypeOf is typeof X.
	TypeOf struct{ X Expr }
)

// Undefined is the literal undefined.
type Undefined struct{}

func (Binary) exprNode()         {}
func (Not) exprNode()            {}
func (Current) exprNode()        {}
func (Property) exprNode()       {}
func (ParentProperty) exprNode() {}
func (Member) exprNode()         {}
func (Call) exprNode()           {}
func (Literal) exprNode()        {}
func (Regex) exprNode()          {}
func (TypeOf) exprNode()         {}

// methods lists the methods a filter may call, with their argument counts.
var methods = map[string]int{
	"match": 1, "test": 1, "startsWith": 1, "endsWith": 1, "includes": 1, "indexOf": 1,
	"toLowerCase": 0, "toUpperCase": 0, "trim": 0,
}

// parseFilter parses "(expr)" at the start of s and returns the
// expression and the bytes consumed (through the closing parenthesis).
func parseFilter(s string) (Expr, int, error) {
	p := &filterParser{src: s}
	p.next()
	if p.tok.kind != tPunct || p.tok.text != "(" {
		return nil, 0, p.errf(0, "a filter starts with '('")
	}
	p.next()
	e, err := p.or()
	if err != nil {
		return nil, 0, err
	}
	if p.tok.kind != tPunct || p.tok.text != ")" {
		return nil, 0, p.errf(p.tok.pos, "expected ')' to end the filter, found %s", p.tok.describe())
	}
	return e, p.tok.pos + 1, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tString
	tNumber
	tRegex
	tPunct
)

type token struct {
	kind tokKind
	text string // identifier, operator or punctuation; the literal's value for strings
	num  float64
	re   Regex
	pos  int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the path"
	case tString:
		return strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

type filterParser struct {
	src string
	pos int
	tok token
	err error
}

func (p *filterParser) errf(at int, format string, args ...any) error {
	return &PathError{Src: p.src, Offset: at, Msg: fmt.Sprintf(format, args...)}
}

var operators = []string{"===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ".", ","}

// next reads the next token; a '/' where an operand may start begins a
// regular expression literal.
func (p *filterParser) next() {
	if p.err != nil {
		p.tok = token{kind: tEOF, pos: p.pos}
		return
	}
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n') {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = token{kind: tEOF, pos: start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c == '\'' || c == '"':
		s, n, err := unquote(p.src[p.pos:])
		if err != nil {
			p.fail(p.errf(start, "%v", err))
			return
		}
		p.pos += n
		p.tok = token{kind: tString, text: s, pos: start}
	case c == '/':
		re, n, err := regexLiteral(p.src[p.pos:])
		if err != nil {
			p.fail(p.errf(start, "%v", err))
			return
		}
		p.pos += n
		p.tok = token{kind: tRegex, re: re, text: p.src[start:p.pos], pos: start}
	case c >= '0' && c <= '9' || c == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		p.pos++
		for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.' || p.src[p.pos] == 'e') {
			p.pos++
		}
		f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
		if err != nil {
			p.fail(p.errf(start, "bad number %q", p.src[start:p.pos]))
			return
		}
		p.tok = token{kind: tNumber, num: f, text: p.src[start:p.pos], pos: start}
	case c == '@' || c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		p.pos++
		for p.pos < len(p.src) && isIdentByte(p.src[p.pos]) {
			p.pos++
		}
		p.tok = token{kind: tIdent, text: p.src[start:p.pos], pos: start}
	default:
		for _, op := range operators {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += len(op)
				p.tok = token{kind: tPunct, text: op, pos: start}
				return
			}
		}
		p.fail(p.errf(start, "unexpected %q in filter", string(c)))
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *filterParser) fail(err error) {
	if p.err == nil {
		p.err = err
	}
	p.tok = token{kind: tEOF, pos: p.pos}
}

func (p *filterParser) is(text string) bool { return p.tok.kind == tPunct && p.tok.text == text }

func (p *filterParser) or() (Expr, error) { return p.binary("||", p.and) }

func (p *filterParser) and() (Expr, error) { return p.binary("&&", p.not) }

// binary parses operands joined by op, grouped from the left.
func (p *filterParser) binary(op string, operand func() (Expr, error)) (Expr, error) {
	l, err := operand()
	for err == nil && p.is(op) {
		p.next()
		var r Expr
		r, err = operand()
		l = Binary{Op: op, L: l, R: r}
	}
	return l, p.check(err)
}

func (p *filterParser) not() (Expr, error) {
	if p.is("!") {
		p.next()
		x, err := p.not()
		return Not{X: x}, p.check(err)
	}
	return p.cmp()
}

func (p *filterParser) cmp() (Expr, error) {
	l, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if p.tok.kind == tPunct {
		switch op := p.tok.text; op {
		case "==", "===", "!=", "!==", "<", "<=", ">", ">=":
			p.next()
			r, err := p.postfix()
			return Binary{Op: op, L: l, R: r}, p.check(err)
		}
	}
	return l, p.check(nil)
}

func (p *filterParser) check(err error) error {
	if err != nil {
		return err
	}
	return p.err
}

func (p *filterParser) postfix() (Expr, error) {
	x, err := p.primary()
	for err == nil {
		switch {
		case p.is("."):
			p.next()
			if p.tok.kind != tIdent {
				return nil, p.errf(p.tok.pos, "expected a property name after '.', found %s", p.tok.describe())
			}
			name, at := p.tok.text, p.tok.pos
			p.next()
			if p.is("(") {
				args, err := p.args()
				if err != nil {
					return nil, err
				}
				n, ok := methods[name]
				if !ok {
					return nil, p.errf(at, "unsupported method %s() in filter%s", name, Suggest(name, slices.Sorted(maps.Keys(methods))))
				}
				if len(args) != n {
					return nil, p.errf(at, "%s() takes %d argument(s), found %d", name, n, len(args))
				}
				x = Call{X: x, Method: name, Args: args, Offset: at}
				continue
			}
			x = Member{X: x, Name: name}
		case p.is("["):
			p.next()
			switch p.tok.kind {
			case tString:
				x = Member{X: x, Name: p.tok.text}
			case tNumber:
				i := int(p.tok.num)
				x = Member{X: x, Name: p.tok.text, Idx: &i}
			default:
				return nil, p.errf(p.tok.pos, "expected a quoted name or an index in brackets, found %s", p.tok.describe())
			}
			p.next()
			if !p.is("]") {
				return nil, p.errf(p.tok.pos, "expected ']', found %s", p.tok.describe())
			}
			p.next()
		default:
			return x, p.check(nil)
		}
	}
	return x, err
}

func (p *filterParser) args() ([]Expr, error) {
	p.next() // '('
	var args []Expr
	for !p.is(")") {
		a, err := p.or()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.is(",") {
			p.next()
			continue
		}
		if !p.is(")") {
			return nil, p.errf(p.tok.pos, "expected ',' or ')', found %s", p.tok.describe())
		}
	}
	p.next()
	return args, p.check(nil)
}

func (p *filterParser) primary() (Expr, error) {
	t := p.tok
	switch t.kind {
	case tString:
		p.next()
		return Literal{Value: t.text}, nil
	case tNumber:
		p.next()
		return Literal{Value: t.num}, nil
	case tRegex:
		p.next()
		return t.re, nil
	case tIdent:
		p.next()
		switch t.text {
		case "@":
			return Current{}, nil
		case "@property":
			return Property{}, nil
		case "@parentProperty":
			return ParentProperty{}, nil
		case "true", "false":
			return Literal{Value: t.text == "true"}, nil
		case "null":
			return Literal{Value: nil}, nil
		case "undefined":
			return Literal{Value: Undefined{}}, nil
		case "typeof":
			x, err := p.postfix()
			return TypeOf{X: x}, err
		}
		if strings.HasPrefix(t.text, "@") {
			return nil, p.errf(t.pos, "unsupported %s in filter (supported: @, @property, @parentProperty)", t.text)
		}
		return nil, p.errf(t.pos, "unknown name %q in filter (values start with @ or are literals)", t.text)
	case tPunct:
		if t.text == "(" {
			p.next()
			e, err := p.or()
			if err != nil {
				return nil, err
			}
			if !p.is(")") {
				return nil, p.errf(p.tok.pos, "expected ')', found %s", p.tok.describe())
			}
			p.next()
			return e, nil
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return nil, p.errf(t.pos, "expected a value, found %s", t.describe())
}

// regexLiteral reads /source/flags at the start of s.
func regexLiteral(s string) (Regex, int, error) {
	inClass := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			src := s[1:i]
			j := i + 1
			for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
				j++
			}
			re, err := TranslateRegex(src, s[i+1:j])
			if err != nil {
				return Regex{}, 0, err
			}
			return re, j, nil
		}
	}
	return Regex{}, 0, fmt.Errorf("unterminated regular expression")
}
