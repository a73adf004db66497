package spec

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// parseJSON parses data as one JSON value into a node tree with positions.
// It is the fast path for .json specifications: a single pass, no reflection,
// nodes allocated in slabs, object keys and string values interned.
func parseJSON(data []byte, lim Limits) (*Node, error) {
	p := &jsonParser{data: data, line: 1, colVal: 1, lim: lim, keys: newStringTable()}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.errorf("empty document")
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.errorf("unexpected %s after the top-level value", p.describe())
	}
	return n, nil
}

type jsonParser struct {
	data []byte
	pos  int
	lim  Limits

	line      int32
	lineStart int
	// colCache remembers the last column computed on the current line, so
	// columns on one very long (minified) line cost O(n) in total.
	colAt, colVal int

	slab   []Node
	keys   *stringTable
	fields []Field
	items  []*Node
	nodes  int
	// fieldSlab and itemSlab hold the room that objects' fields and
	// arrays' items are cut from, as nodes are from slab: one allocation
	// for many objects instead of one each.
	fieldSlab []Field
	itemSlab  []*Node
}

// slabFields and slabItems are how many fields and items a slab holds; a
// list longer than an eighth of that is allocated alone, so that a slab
// wastes little at its end.
const (
	slabFields = 1024
	slabItems  = 1024
)

// keepFields returns a copy of fs, cut from the parser's slab: its
// capacity is its length, so an append to it copies.
func (p *jsonParser) keepFields(fs []Field) []Field {
	n := len(fs)
	if n == 0 {
		return nil
	}
	if n > slabFields/8 {
		return append([]Field(nil), fs...)
	}
	if len(p.fieldSlab) < n {
		p.fieldSlab = make([]Field, slabFields)
	}
	out := p.fieldSlab[:n:n]
	copy(out, fs)
	p.fieldSlab = p.fieldSlab[n:]
	return out
}

// keepItems is keepFields for the items of an array.
func (p *jsonParser) keepItems(items []*Node) []*Node {
	n := len(items)
	if n == 0 {
		return nil
	}
	if n > slabItems/8 {
		return append([]*Node(nil), items...)
	}
	if len(p.itemSlab) < n {
		p.itemSlab = make([]*Node, slabItems)
	}
	out := p.itemSlab[:n:n]
	copy(out, items)
	p.itemSlab = p.itemSlab[n:]
	return out
}

// SyntaxError is a parse error at a position of a file.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

func (p *jsonParser) here() Pos {
	if p.colAt < p.lineStart || p.colAt > p.pos {
		p.colAt, p.colVal = p.lineStart, 1
	}
	col := p.colVal
	for i := p.colAt; i < p.pos; i++ {
		if p.data[i]&0xC0 != 0x80 {
			col++
		}
	}
	p.colAt, p.colVal = p.pos, col
	return Pos{Line: p.line, Col: int32(col)}
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.here(), Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	c := p.data[p.pos]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("character %q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *jsonParser) newNode(k Kind, start Pos) (*Node, error) {
	p.nodes++
	if p.lim.MaxNodes > 0 && p.nodes > p.lim.MaxNodes {
		return nil, &SyntaxError{Pos: start, Msg: fmt.Sprintf("document has more than %d values (--max-values)", p.lim.MaxNodes)}
	}
	if len(p.slab) == 0 {
		p.slab = make([]Node, 512)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind = k
	n.Range.Start = start
	return n, nil
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\r':
			p.pos++
		case '\n':
			p.pos++
			p.line++
			p.lineStart = p.pos
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (*Node, error) {
	if depth > p.lim.MaxDepth {
		return nil, p.errorf("nesting deeper than %d levels (--max-depth)", p.lim.MaxDepth)
	}
	start := p.here()
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth, start)
	case c == '[':
		return p.array(depth, start)
	case c == '"':
		s, err := p.str(p.keys)
		if err != nil {
			return nil, err
		}
		return p.scalar(String, s, start)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(start)
	case c == 't':
		return p.literal("true", Bool, start)
	case c == 'f':
		return p.literal("false", Bool, start)
	case c == 'n':
		return p.literal("null", Null, start)
	default:
		return nil, p.errorf("unexpected %s, expected a JSON value", p.describe())
	}
}

func (p *jsonParser) literal(word string, k Kind, start Pos) (*Node, error) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return nil, p.errorf("invalid literal, expected %q", word)
	}
	p.pos += len(word)
	return p.scalar(k, word, start)
}

// scalar is a node of kind k holding value, read from start to here.
func (p *jsonParser) scalar(k Kind, value string, start Pos) (*Node, error) {
	n, err := p.newNode(k, start)
	if err != nil {
		return nil, err
	}
	n.Value = value
	n.Range.End = p.here()
	return n, nil
}

func (p *jsonParser) number(start Pos) (*Node, error) {
	b := p.pos
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() int {
		s := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i - s
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		p.pos = i
		return nil, p.errorf("invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			p.pos = i
			return nil, p.errorf("invalid number: digits expected after '.'")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return nil, p.errorf("invalid number: digits expected in exponent")
		}
	}
	p.pos = i
	return p.scalar(Number, string(d[b:i]), start)
}

// invalidUTF8 reports the first invalid UTF-8 byte of the string written
// between offsets b and end. Escapes are ASCII, so the byte is in the
// source; without one (an escape decoding to invalid text) the string's
// start is reported.
func (p *jsonParser) invalidUTF8(b, end int) error {
	p.pos = b
	for i := b; i < end; {
		r, size := utf8.DecodeRune(p.data[i:end])
		if r == utf8.RuneError && size <= 1 {
			p.pos = i
			return p.errorf("invalid UTF-8 (byte 0x%02x) in string; specifications must be UTF-8 text", p.data[i])
		}
		i += size
	}
	return p.errorf("invalid UTF-8 in string")
}

// str parses a string starting at the opening quote and returns its decoded
// value: the equal string in intern when there is one (nothing is
// allocated), else a new string, added to intern when intern is not nil.
func (p *jsonParser) str(intern *stringTable) (string, error) {
	d := p.data
	p.pos++ // opening quote
	b := p.pos
	i := b
	ascii := true
	for i < len(d) {
		c := d[i]
		if c == '"' {
			raw := d[b:i]
			if !ascii && !utf8.Valid(raw) {
				return "", p.invalidUTF8(b, i)
			}
			p.pos = i + 1
			return intern.bytes(raw), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			p.pos = i
			if c == '\n' {
				return "", p.errorf("unterminated string (newline inside a string)")
			}
			return "", p.errorf("control character 0x%02x in string", c)
		}
		if c >= 0x80 {
			ascii = false
		}
		i++
	}
	if i >= len(d) {
		p.pos = i
		return "", p.errorf("unterminated string")
	}
	// Slow path: the string has escapes.
	buf := make([]byte, 0, i-b+16)
	buf = append(buf, d[b:i]...)
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return "", p.invalidUTF8(b, i)
			}
			p.pos = i + 1
			return intern.bytes(buf), nil
		case c == '\\':
			if i+1 >= len(d) {
				p.pos = i
				return "", p.errorf("unterminated string")
			}
			next, ok := 0, false
			if buf, next, ok = appendUnescaped(buf, d, i); !ok {
				p.pos = i
				if d[i+1] == 'u' {
					return "", p.errorf(`invalid \u escape`)
				}
				return "", p.errorf("invalid escape \\%c in string", d[i+1])
			}
			i = next
		case c < 0x20:
			p.pos = i
			return "", p.errorf("control character 0x%02x in string", c)
		default:
			buf = append(buf, c)
			i++
		}
	}
	p.pos = i
	return "", p.errorf("unterminated string")
}

// UnquoteJSON is the text of a JSON string written in quoted (its
// quotes included) in text already found well-formed: its escapes
// decoded, its other bytes kept as they are, UTF-8 or not (where
// encoding/json would put U+FFFD).
func UnquoteJSON(quoted []byte) string {
	raw := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	buf := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			buf = append(buf, raw[i])
			i++
			continue
		}
		var ok bool
		if buf, i, ok = appendUnescaped(buf, raw, i); !ok { // a text not checked: the backslash as it is
			buf = append(buf, raw[i])
			i++
		}
	}
	return string(buf)
}

// appendUnescaped appends the character of the JSON escape at d[i] (a
// backslash) to buf and returns the index after the escape; a \u escape of
// a UTF-16 surrogate pair takes both halves. ok is false for an invalid
// escape.
func appendUnescaped(buf, d []byte, i int) (_ []byte, next int, ok bool) {
	if i+1 >= len(d) {
		return buf, i, false
	}
	switch e := d[i+1]; e {
	case '"', '\\', '/':
		return append(buf, e), i + 2, true
	case 'b':
		return append(buf, '\b'), i + 2, true
	case 'f':
		return append(buf, '\f'), i + 2, true
	case 'n':
		return append(buf, '\n'), i + 2, true
	case 'r':
		return append(buf, '\r'), i + 2, true
	case 't':
		return append(buf, '\t'), i + 2, true
	case 'u':
		r, ok := hex4(d, i+2)
		if !ok {
			return buf, i, false
		}
		i += 6
		if utf16.IsSurrogate(r) {
			if r2, ok := hex4(d, i+2); ok && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					i += 6
					r = dec
				}
			}
		}
		return utf8.AppendRune(buf, r), i, true
	}
	return buf, i, false
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func (p *jsonParser) object(depth int, start Pos) (*Node, error) {
	n, err := p.newNode(Object, start)
	if err != nil {
		return nil, err
	}
	p.pos++ // {
	base := len(p.fields)
	defer func() { p.fields = p.fields[:base] }()
	var seen map[string]int // key → index in p.fields, for large objects
	err = p.elements('}', "object", start, func() error {
		if p.data[p.pos] != '"' {
			return p.errorf("unexpected %s, expected a string key", p.describe())
		}
		kstart := p.here()
		k, err := p.str(p.keys)
		if err != nil {
			return err
		}
		kr := Range{Start: kstart, End: p.here()}
		// Duplicate keys: linear for small objects, a set for large ones.
		if cur := p.fields[base:]; len(cur) < 16 {
			for _, f := range cur {
				if f.Key == k {
					return &SyntaxError{Pos: kstart, Msg: fmt.Sprintf("duplicate key %q (first defined at %d:%d)", k, f.KeyRange.Start.Line, f.KeyRange.Start.Col)}
				}
			}
		} else {
			if seen == nil {
				seen = make(map[string]int, 2*len(cur))
				for i, f := range cur {
					seen[f.Key] = base + i
				}
			}
			if i, dup := seen[k]; dup {
				first := p.fields[i].KeyRange.Start
				return &SyntaxError{Pos: kstart, Msg: fmt.Sprintf("duplicate key %q (first defined at %d:%d)", k, first.Line, first.Col)}
			}
			seen[k] = len(p.fields)
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.errorf("unexpected %s, expected ':' after key %q", p.describe(), k)
		}
		p.pos++
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorf("unexpected end of input, expected a value for key %q", k)
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		p.fields = append(p.fields, Field{Key: k, KeyRange: kr, Value: v})
		return nil
	})
	if err != nil {
		return nil, err
	}
	n.Fields = p.keepFields(p.fields[base:]) // nil when empty
	n.Range.End = p.here()
	return n, nil
}

func (p *jsonParser) array(depth int, start Pos) (*Node, error) {
	n, err := p.newNode(Array, start)
	if err != nil {
		return nil, err
	}
	p.pos++ // [
	base := len(p.items)
	defer func() { p.items = p.items[:base] }()
	err = p.elements(']', "array", start, func() error {
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		p.items = append(p.items, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	n.Items = p.keepItems(p.items[base:]) // nil when empty
	n.Range.End = p.here()
	return n, nil
}

// elements reads the members of an object or the elements of an array
// whose opening byte was just read, through its closing byte: element
// reads one, from its first byte, and the commas between them are read
// here.
func (p *jsonParser) elements(closing byte, kind string, start Pos, element func() error) error {
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == closing {
		p.pos++
		return nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.unterminated(kind, start)
		}
		if err := element(); err != nil {
			return err
		}
		if closed, err := p.next(closing, kind, start); err != nil || closed {
			return err
		}
	}
}

// next consumes what follows a member of an object or an element of an
// array: a comma (closed is false) or the closing byte (closed is true).
func (p *jsonParser) next(closing byte, kind string, start Pos) (closed bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, p.unterminated(kind, start)
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case closing:
		p.pos++
		return true, nil
	}
	return false, p.errorf("unexpected %s, expected ',' or '%c'", p.describe(), closing)
}

// unterminated is the error of input that ends inside the object or array
// that began at start.
func (p *jsonParser) unterminated(kind string, start Pos) error {
	return p.errorf("unexpected end of input in %s started at %d:%d", kind, start.Line, start.Col)
}
