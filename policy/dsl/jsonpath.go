package dsl

import (
	"fmt"
	"strconv"
	"strings"
)

// A Path is a parsed JSONPath in the JSONPath-Plus dialect that Spectral
// rulesets use: `$`, `.name`, `['name']`, `*`, unions `[get,put]`, indices
// and slices, recursive descent `..`, filters `[?(...)]`, a trailing `~`
// (the property name instead of its value) and a leading alias `#Name`.
type Path struct {
	Src      string
	Alias    string // the alias the path starts with, without '#'; "" when it starts at '$'
	Segments []Segment
	KeyOf    bool // a trailing '~': the targets are property names
}

// SegmentKind says what one step selects.
type SegmentKind int

// The kinds of steps.
const (
	Child    SegmentKind = iota // one or more names (a union when several)
	Wildcard                    // every member or element
	Index                       // one or more array indices
	Slice                       // an array slice [start:end]
	Filter                      // [?(expr)]
)

// A Segment is one step of a path.
type Segment struct {
	Kind       SegmentKind
	Descend    bool // reached by '..': applies to the node and every descendant
	Names      []string
	Indices    []int
	Start, End *int
	Expr       Expr
	Offset     int // byte offset in Path.Src, for errors
}

// PathError is a syntax error in a JSONPath, at a byte offset.
type PathError struct {
	Src    string
	Offset int
	Msg    string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("invalid JSONPath %q at character %d: %s", e.Src, e.Offset+1, e.Msg)
}

// ParsePath parses a JSONPath expression.
func ParsePath(src string) (*Path, error) {
	p := &pathParser{src: src}
	path, err := p.parse()
	if err != nil {
		return nil, err
	}
	path.Src = src
	return path, nil
}

type pathParser struct {
	src string
	pos int
}

func (p *pathParser) errf(at int, format string, args ...any) error {
	return &PathError{Src: p.src, Offset: at, Msg: fmt.Sprintf(format, args...)}
}

func (p *pathParser) peek(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

func (p *pathParser) parse() (*Path, error) {
	path := &Path{}
	s := strings.TrimSpace(p.src)
	if s != p.src {
		return nil, p.errf(0, "leading or trailing spaces")
	}
	switch {
	case p.peek("$"):
		p.pos++
	case p.peek("#"):
		p.pos++
		start := p.pos
		for p.pos < len(p.src) && isNameByte(p.src[p.pos]) {
			p.pos++
		}
		if p.pos == start {
			return nil, p.errf(start, "an alias name must follow '#'")
		}
		path.Alias = p.src[start:p.pos]
	default:
		return nil, p.errf(0, "a path starts with '$' (the document) or '#Alias'")
	}
	for p.pos < len(p.src) {
		if p.peek("~") {
			if p.pos != len(p.src)-1 {
				return nil, p.errf(p.pos, "'~' may only end the path")
			}
			if len(path.Segments) == 0 {
				return nil, p.errf(p.pos, "'~' needs a property before it")
			}
			path.KeyOf = true
			p.pos++
			break
		}
		seg, err := p.segment()
		if err != nil {
			return nil, err
		}
		path.Segments = append(path.Segments, seg)
	}
	return path, nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// dotNameByte is what a name after '.' may hold: JSONPath-Plus splits on
// '.' and '[' only, so paths like $.paths./pets work.
func dotNameByte(c byte) bool {
	return c != '.' && c != '[' && c != ']' && c != '~' && c != ' ' && c != '(' && c != ')' && c != '\'' && c != '"'
}

func (p *pathParser) segment() (Segment, error) {
	start := p.pos
	descend := false
	switch {
	case p.peek(".."):
		descend = true
		p.pos += 2
		if p.pos == len(p.src) {
			return Segment{}, p.errf(start, "'..' must be followed by a name, '*' or a bracket")
		}
		if p.peek("[") {
			seg, err := p.bracket()
			seg.Descend, seg.Offset = true, start
			return seg, err
		}
	case p.peek("."):
		p.pos++
		if p.peek("[") {
			// $.paths.[*] is accepted by JSONPath-Plus.
			seg, err := p.bracket()
			seg.Offset = start
			return seg, err
		}
	case p.peek("["):
		seg, err := p.bracket()
		seg.Offset = start
		return seg, err
	default:
		return Segment{}, p.errf(p.pos, "expected '.', '..' or '[', found %q", p.src[p.pos:p.pos+1])
	}
	// A name or '*' after '.' or '..'.
	if p.peek("*") {
		p.pos++
		return Segment{Kind: Wildcard, Descend: descend, Offset: start}, nil
	}
	nameStart := p.pos
	for p.pos < len(p.src) && dotNameByte(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == nameStart {
		return Segment{}, p.errf(nameStart, "expected a property name or '*'")
	}
	name := p.src[nameStart:p.pos]
	if strings.HasPrefix(name, "@") {
		return Segment{}, p.errf(nameStart, "%s is only meaningful inside a filter [?(...)]", name)
	}
	return Segment{Kind: Child, Names: []string{name}, Descend: descend, Offset: start}, nil
}

// bracket parses [..] at p.pos.
func (p *pathParser) bracket() (Segment, error) {
	open := p.pos
	p.pos++ // '['
	p.skipSpace()
	switch {
	case p.peek("?"):
		p.pos++
		p.skipSpace()
		if !p.peek("(") {
			return Segment{}, p.errf(p.pos, "a filter is written [?(expression)]")
		}
		exprStart := p.pos
		expr, n, err := parseFilter(p.src[p.pos:])
		if err != nil {
			if fe, ok := err.(*PathError); ok {
				return Segment{}, p.errf(exprStart+fe.Offset, "%s", fe.Msg)
			}
			return Segment{}, err
		}
		p.pos += n
		p.skipSpace()
		if !p.peek("]") {
			return Segment{}, p.errf(p.pos, "expected ']' to close the filter")
		}
		p.pos++
		return Segment{Kind: Filter, Expr: expr}, nil
	case p.peek("("):
		return Segment{}, p.errf(p.pos, "script expressions [(...)] are not supported; use a filter [?(...)]")
	case p.peek("*"):
		p.pos++
		p.skipSpace()
		if !p.peek("]") {
			return Segment{}, p.errf(p.pos, "expected ']' after '*'")
		}
		p.pos++
		return Segment{Kind: Wildcard}, nil
	}
	// Names, indices or a slice, separated by commas.
	var seg Segment
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return Segment{}, p.errf(open, "unclosed '['")
		}
		c := p.src[p.pos]
		switch {
		case c == '\'' || c == '"':
			s, err := p.quoted()
			if err != nil {
				return Segment{}, err
			}
			seg.Names = append(seg.Names, s)
		case c == '-' || c == ':' || c >= '0' && c <= '9':
			if err := p.indexOrSlice(&seg); err != nil {
				return Segment{}, err
			}
		case isNameByte(c):
			start := p.pos
			for p.pos < len(p.src) && isNameByte(p.src[p.pos]) {
				p.pos++
			}
			seg.Names = append(seg.Names, p.src[start:p.pos])
		default:
			return Segment{}, p.errf(p.pos, "unexpected %q in brackets", string(c))
		}
		p.skipSpace()
		if p.peek(",") {
			p.pos++
			continue
		}
		if p.peek("]") {
			p.pos++
			break
		}
		return Segment{}, p.errf(p.pos, "expected ',' or ']'")
	}
	switch {
	case seg.Kind == Slice:
		if len(seg.Names) > 0 || len(seg.Indices) > 0 {
			return Segment{}, p.errf(open, "a slice cannot be combined with names or indices")
		}
	case len(seg.Names) > 0 && len(seg.Indices) > 0:
		// ['a', 0] mixes object and array access; treat indices as names
		// so that both kinds of container are served.
		for _, i := range seg.Indices {
			seg.Names = append(seg.Names, strconv.Itoa(i))
		}
		seg.Indices = nil
		seg.Kind = Child
	case len(seg.Names) > 0:
		seg.Kind = Child
	default:
		seg.Kind = Index
	}
	return seg, nil
}

func (p *pathParser) indexOrSlice(seg *Segment) error {
	start := p.pos
	num := func() (*int, error) {
		s := p.pos
		if p.peek("-") {
			p.pos++
		}
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		if p.pos == s {
			return nil, nil
		}
		n, err := strconv.Atoi(p.src[s:p.pos])
		if err != nil {
			return nil, p.errf(s, "bad number %q", p.src[s:p.pos])
		}
		return &n, nil
	}
	a, err := num()
	if err != nil {
		return err
	}
	p.skipSpace()
	if !p.peek(":") {
		if a == nil {
			return p.errf(start, "expected an index")
		}
		seg.Indices = append(seg.Indices, *a)
		return nil
	}
	p.pos++
	p.skipSpace()
	b, err := num()
	if err != nil {
		return err
	}
	p.skipSpace()
	if p.peek(":") {
		return p.errf(p.pos, "slice steps [a:b:step] are not supported")
	}
	if seg.Kind == Slice {
		return p.errf(start, "only one slice per bracket")
	}
	seg.Kind, seg.Start, seg.End = Slice, a, b
	return nil
}

func (p *pathParser) quoted() (string, error) {
	s, n, err := unquote(p.src[p.pos:])
	if err != nil {
		return "", p.errf(p.pos, "%v", err)
	}
	p.pos += n
	return s, nil
}

// unquote reads a JavaScript string literal in single or double quotes at
// the start of s and returns it with the number of bytes read.
func unquote(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, nil
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

func (p *pathParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}
