package examples

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// strAt locates the characters of one string scalar, so that a notation
// and an error inside it are reported at their own column.
type strAt struct {
	file  string
	src   *source // nil when the text of the file is not at hand
	start spec.Pos
	end   spec.Pos
}

func (c strAt) pos(k int) spec.Pos {
	if c.src == nil {
		return c.start
	}
	return c.src.inString(c.start, k)
}

func (c strAt) loc(k, e int) Loc {
	if c.src == nil {
		return Loc{File: c.file, Range: spec.Range{Start: c.start, End: c.end}}
	}
	start, end := c.pos(k), c.pos(e)
	if end == c.start && e > k { // the end could not be placed: the rest of the scalar
		end = c.end
	}
	return Loc{File: c.file, Range: spec.Range{Start: start, End: end}}
}

func (c strAt) whole() Loc {
	return Loc{File: c.file, Range: spec.Range{Start: c.start, End: c.end}}
}

func (c strAt) errorf(k int, format string, args ...any) *spec.Error {
	return &spec.Error{File: c.file, Pos: c.pos(k), Msg: fmt.Sprintf(format, args...)}
}

var (
	typeOnlyRE = lazyregexp.New(`^\(([a-z][a-z-]*)\)$`)
	captureRE  = lazyregexp.New(`^\(([A-Za-z_][A-Za-z0-9_-]*):([A-Za-z][A-Za-z-]*)\)$`)
	envNameRE  = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
)

const matchPrefix = "$match("

// parseString parses the notations of a string value. A string without
// any is a Literal (with $$ escapes undone); a whole-string $match(...),
// (NAME:type) or (type) is a Match, Capture or TypeOf; anything holding
// ${...} or $(...) is a Template.
func parseString(s string, c strAt) (Value, *spec.Error) {
	if strings.HasPrefix(s, matchPrefix) {
		if !strings.HasSuffix(s, ")") {
			return nil, c.errorf(0, "unclosed %s: a matcher is the whole string and ends with \")\"", matchPrefix)
		}
		return parseMatch(s, c)
	}
	if m := captureRE().FindStringSubmatch(s); m != nil {
		t, ok := ParseDataType(m[2])
		if !ok {
			return nil, c.errorf(len(m[1])+2, "unknown type %q in the capture %s (types: %s)%s", m[2], s, strings.Join(dataTypes, ", "), suggest.Hint(m[2], dataTypes))
		}
		return &Capture{Name: m[1], Type: t, Raw: s, At: c.whole()}, nil
	}
	if m := typeOnlyRE().FindStringSubmatch(s); m != nil {
		if t, ok := ParseDataType(m[1]); ok {
			return &TypeOf{Type: t, Raw: s, At: c.whole()}, nil
		}
	}
	var parts []Segment
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, Segment{Text: text.String()})
			text.Reset()
		}
	}
	notations := false
	for i := 0; i < len(s); {
		if s[i] != '$' || i+1 >= len(s) {
			text.WriteByte(s[i])
			i++
			continue
		}
		rest := s[i+1:]
		switch {
		case rest[0] == '$' && (strings.HasPrefix(rest[1:], "(") || strings.HasPrefix(rest[1:], "{") || strings.HasPrefix(rest[1:], "match(")):
			text.WriteByte('$') // $$( $${ $$match( write the notation's text literally
			i += 2
		case rest[0] == '{':
			end := closingBrace(s, i+1)
			if end < 0 {
				return nil, c.errorf(i, "unclosed ${: missing \"}\"")
			}
			env, err := parseEnv(s, i, end, c)
			if err != nil {
				return nil, err
			}
			flush()
			parts = append(parts, Segment{Env: env})
			notations = true
			i = end + 1
		case rest[0] == '(':
			end := closingParen(s, i+1)
			if end < 0 {
				return nil, c.errorf(i, "unclosed $(: missing \")\"")
			}
			l, err := parseLookup(s[i+2:end], i+2, c)
			if err != nil {
				return nil, err
			}
			l.Raw, l.At = s[i:end+1], c.loc(i, end+1)
			flush()
			parts = append(parts, Segment{Lookup: l})
			notations = true
			i = end + 1
		case strings.HasPrefix(s[i:], matchPrefix):
			return nil, c.errorf(i, "a $match(...) matcher must be the whole string value, not part of %q", s)
		default:
			text.WriteByte('$')
			i++
		}
	}
	if !notations {
		return &Literal{Value: text.String(), At: c.whole()}, nil
	}
	flush()
	return &Template{Parts: parts, Raw: s, At: c.whole()}, nil
}

// closingBrace returns the index of the "}" closing the "{" at open,
// counting nested braces (a default may be a JSON object), or -1.
func closingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// closingParen returns the index of the ")" closing the "(" at open, or
// -1. Brackets nest, and quoted keys inside brackets may hold any character.
func closingParen(s string, open int) int {
	var stack []byte
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[':
			stack = append(stack, c)
		case ')', ']':
			want := byte('(')
			if c == ']' {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i
			}
		case '"', '\'':
			if len(stack) > 0 && stack[len(stack)-1] == '[' {
				end := closingQuote(s, i)
				if end < 0 {
					return -1
				}
				i = end
			}
		}
	}
	return -1
}

// closingQuote returns the index of the quote closing the one at open: a
// backslash escapes the next character, and two quotes are one inside '...'.
func closingQuote(s string, open int) int {
	q := s[open]
	for i := open + 1; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// parseEnv parses ${names[:default]} written from s[start] ("$") to s[end]
// ("}").
func parseEnv(s string, start, end int, c strAt) (*Env, *spec.Error) {
	inner := s[start+2 : end]
	env := &Env{Raw: s[start : end+1], At: c.loc(start, end+1)}
	names := inner
	if colon := strings.IndexByte(inner, ':'); colon >= 0 {
		names, env.Default, env.HasDefault = inner[:colon], inner[colon+1:], true
	}
	if strings.TrimSpace(names) == "" {
		return nil, c.errorf(start, "%s names no variable: write ${NAME} or ${NAME:default}", env.Raw)
	}
	off := start + 2
	for _, name := range strings.Split(names, "|") {
		trimmed := strings.TrimSpace(name)
		if !envNameRE().MatchString(trimmed) {
			return nil, c.errorf(off+strings.Index(name, trimmed), "invalid variable name %q in %s: a name starts with a letter or _ and holds letters, digits, _, . and -", trimmed, env.Raw)
		}
		env.Names = append(env.Names, trimmed)
		off += len(name) + 1
	}
	return env, nil
}

// parseLookup parses the path of $(path); base is the offset of text within
// the string, for positions.
func parseLookup(text string, base int, c strAt) (*Lookup, *spec.Error) {
	lead := len(text) - len(strings.TrimLeft(text, " \t"))
	text = strings.TrimSpace(text)
	base += lead
	p := &lookupParser{s: text, base: base, c: c}
	l, err := p.path()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.s) {
		return nil, p.errorf("unexpected %q in $(%s): steps are .name or [index]", p.s[p.i:p.i+1], text)
	}
	return l, nil
}

type lookupParser struct {
	s    string
	i    int
	base int
	c    strAt
}

func (p *lookupParser) errorf(format string, args ...any) *spec.Error {
	return p.c.errorf(p.base+p.i, format, args...)
}

func isNameByte(b byte, first bool) bool {
	switch {
	case b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z':
		return true
	case b >= '0' && b <= '9' || b == '-':
		return !first
	}
	return false
}

func (p *lookupParser) name() (string, *spec.Error) {
	start := p.i
	for p.i < len(p.s) && isNameByte(p.s[p.i], p.i == start) {
		p.i++
	}
	if p.i == start {
		if p.i >= len(p.s) {
			return "", p.errorf("a name is missing at the end of $(%s)", p.s)
		}
		return "", p.errorf("expected a name in $(%s), found %q", p.s, p.s[p.i:p.i+1])
	}
	return p.s[start:p.i], nil
}

func (p *lookupParser) path() (*Lookup, *spec.Error) {
	if p.s == "" {
		return nil, p.errorf("$() names nothing: write $(NAME) or $(NAME.key[0])")
	}
	root, err := p.name()
	if err != nil {
		return nil, err
	}
	l := &Lookup{Root: root}
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '.':
			p.i++
			key, err := p.name()
			if err != nil {
				return nil, err
			}
			l.Steps = append(l.Steps, Step{Key: key})
		case '[':
			step, err := p.index()
			if err != nil {
				return nil, err
			}
			l.Steps = append(l.Steps, step)
		default:
			return l, nil
		}
	}
	return l, nil
}

// index parses [0], ["key"], ['key'] or [NAME.path] at p.i.
func (p *lookupParser) index() (Step, *spec.Error) {
	open := p.i
	end := closingBracket(p.s, open)
	if end < 0 {
		return Step{}, p.errorf("unclosed [ in $(%s)", p.s)
	}
	raw := p.s[open+1 : end]
	inner := strings.TrimSpace(raw)
	innerBase := p.base + open + 1 + strings.Index(raw, inner)
	p.i = end + 1
	switch {
	case inner == "":
		return Step{}, p.c.errorf(p.base+open, "empty [] in $(%s): write an index, a quoted key or a name", p.s)
	case inner[0] >= '0' && inner[0] <= '9':
		n, err := strconv.Atoi(inner)
		if err != nil || n < 0 {
			return Step{}, p.c.errorf(innerBase, "index %q in $(%s) is not a number", inner, p.s)
		}
		return Step{Index: n, IsIndex: true}, nil
	case inner[0] == '"' || inner[0] == '\'':
		if closingQuote(inner, 0) != len(inner)-1 {
			return Step{}, p.c.errorf(innerBase, "unclosed quote in [%s] of $(%s)", inner, p.s)
		}
		return Step{Key: unquote(inner)}, nil
	}
	sub := &lookupParser{s: inner, base: innerBase, c: p.c}
	ref, err := sub.path()
	if err != nil {
		return Step{}, err
	}
	if sub.i < len(sub.s) {
		return Step{}, sub.errorf("index [%s] of $(%s) is neither a number, a quoted key nor a name", inner, p.s)
	}
	ref.Raw, ref.At = inner, p.c.loc(innerBase, innerBase+len(inner))
	return Step{Ref: ref}, nil
}

// closingBracket returns the index of the "]" closing the "[" at open,
// skipping quoted keys and nested brackets, or -1.
func closingBracket(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'':
			end := closingQuote(s, i)
			if end < 0 {
				return -1
			}
			i = end
		}
	}
	return -1
}

// unquote removes the quotes of "..." or '...', undoing backslash escapes and doubled single quotes.
func unquote(s string) string {
	q := s[0]
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		switch {
		case body[i] == '\\' && i+1 < len(body):
			i++
			b.WriteByte(body[i])
		case q == '\'' && body[i] == '\'' && i+1 < len(body) && body[i+1] == '\'':
			i++
			b.WriteByte('\'')
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String()
}
