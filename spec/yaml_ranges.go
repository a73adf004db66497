package spec

import (
	"bytes"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// valueEnd is where the value written at y ends. An alias shares the
// anchored node, which is written elsewhere; the alias itself ends after its
// name.
func (c *yamlConv) valueEnd(y *yaml.Node, v *Node) Pos {
	if y.Kind == yaml.AliasNode {
		return Pos{int32(y.Line), int32(y.Column + 1 + utf8.RuneCountInString(y.Value))}
	}
	return v.Range.End
}

func (c *yamlConv) containerEnd(y *yaml.Node, start Pos, empty bool, last Pos) Pos {
	flow := y.Style&yaml.FlowStyle != 0
	if !flow {
		if empty {
			return start
		}
		return last
	}
	from := last
	if empty {
		from = Pos{start.Line, start.Col + 1}
	}
	if end, ok := c.closingBracket(from); ok {
		return end
	}
	return Pos{from.Line, from.Col + 1}
}

// closingBracket finds the ']' or '}' closing a flow collection whose
// content ends at from, past blanks, commas and comments, and returns the
// position just after it.
func (c *yamlConv) closingBracket(from Pos) (Pos, bool) {
	i := c.offset(from)
	if i < 0 {
		return Pos{}, false
	}
	line, col := from.Line, from.Col
	for ; i < len(c.src); i++ {
		switch c.src[i] {
		case ' ', '\t', '\r', ',':
			col++
		case '\n':
			line, col = line+1, 1
		case '#':
			for i+1 < len(c.src) && c.src[i+1] != '\n' {
				i++
			}
		case ']', '}':
			return Pos{line, col + 1}, true
		default:
			return Pos{}, false
		}
	}
	return Pos{}, false
}

// offset is the byte offset of a position in the source, or -1.
func (c *yamlConv) offset(p Pos) int {
	off := c.lineOffsets()
	if p.Line < 1 || int(p.Line) > len(off) {
		return -1
	}
	i := off[p.Line-1]
	for col := int32(1); col < p.Col && i < len(c.src) && c.src[i] != '\n'; col++ {
		_, size := utf8.DecodeRune(c.src[i:])
		i += size
	}
	return i
}

// scalarEnd computes where a scalar ends. yaml.v3 records only starts, so
// quoted scalars are scanned in the source; block scalars end on their last
// content line.
func (c *yamlConv) scalarEnd(y *yaml.Node) Pos {
	start := c.pos(y.Line, y.Column)
	switch {
	case y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		if end, ok := c.scanQuoted(y); ok {
			return end
		}
	case y.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return c.blockScalarEnd(y)
	}
	end := Pos{start.Line, start.Col + int32(utf8.RuneCountInString(y.Value))}
	if strings.IndexByte(y.Value, '\n') < 0 && int(end.Col) <= c.lineLen(y.Line)+1 {
		return end
	}
	// A plain scalar folded from several lines: its value is longer than
	// its first line. It goes on over the lines indented more than its
	// collection, up to a comment line.
	last := y.Line
	for line := y.Line + 1; ; line++ {
		text, ok := c.lineText(line)
		if !ok {
			break
		}
		trimmed := bytes.TrimLeft(text, " ")
		if len(bytes.TrimSpace(trimmed)) == 0 {
			continue
		}
		if len(text)-len(trimmed) <= c.indent || trimmed[0] == '#' {
			break
		}
		last = line
	}
	text, _ := c.lineText(last)
	if i := bytes.Index(text, []byte(" #")); i >= 0 {
		text = text[:i]
	}
	return Pos{int32(last), int32(utf8.RuneCount(bytes.TrimRight(text, " \t")) + 1)}
}

// blockScalarEnd is the end of the last non-blank line of a literal (|) or
// folded (>) scalar: its content is the lines after the header that are
// blank or indented at least as much as its first non-blank line (or as its
// indentation indicator says).
func (c *yamlConv) blockScalarEnd(y *yaml.Node) Pos {
	contentIndent := -1
	if at := c.offset(c.pos(y.Line, y.Column)); at >= 0 && at < len(c.src) {
		for _, b := range c.src[at+1:] {
			if b >= '1' && b <= '9' {
				contentIndent = c.indent + int(b-'0')
				break
			}
			if b != '+' && b != '-' {
				break
			}
		}
	}
	last := y.Line
	for line := y.Line + 1; ; line++ {
		text, ok := c.lineText(line)
		if !ok {
			break
		}
		indent := len(text) - len(bytes.TrimLeft(text, " "))
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if contentIndent < 0 {
			contentIndent = indent
		}
		if indent < contentIndent || indent <= c.indent {
			break
		}
		last = line
	}
	return Pos{int32(last), int32(c.lineLen(last) + 1)}
}

// lineText is a 1-based line of the source without its line break.
func (c *yamlConv) lineText(line int) ([]byte, bool) {
	off := c.lineOffsets()
	if line < 1 || line > len(off) {
		return nil, false
	}
	end := len(c.src)
	if line < len(off) {
		end = off[line] - 1
	}
	return bytes.TrimRight(c.src[off[line-1]:end], "\r"), true
}

func (c *yamlConv) lineOffsets() []int {
	if c.lineOff == nil {
		c.lineOff = append(make([]int, 0, bytes.Count(c.src, []byte{'\n'})+1), 0)
		for i := 0; ; {
			n := bytes.IndexByte(c.src[i:], '\n')
			if n < 0 {
				break
			}
			i += n + 1
			c.lineOff = append(c.lineOff, i)
		}
	}
	return c.lineOff
}

// lineLen is the length of a 1-based line in characters.
func (c *yamlConv) lineLen(line int) int {
	text, _ := c.lineText(line)
	return utf8.RuneCount(text)
}

func (c *yamlConv) scanQuoted(y *yaml.Node) (Pos, bool) {
	off := c.lineOffsets()
	if y.Line < 1 || y.Line > len(off) {
		return Pos{}, false
	}
	i := off[y.Line-1]
	for col := 1; col < y.Column && i < len(c.src); col++ {
		_, size := utf8.DecodeRune(c.src[i:])
		i += size
	}
	if i >= len(c.src) {
		return Pos{}, false
	}
	q := c.src[i]
	if q != '"' && q != '\'' {
		return Pos{}, false
	}
	line, col := int32(y.Line), int32(y.Column)+1
	for i++; i < len(c.src); i++ {
		b := c.src[i]
		switch {
		case b == '\n':
			line++
			col = 1
			continue
		case q == '"' && b == '\\':
			i++
			if i < len(c.src) && c.src[i] == '\n' { // an escaped line break
				line++
				col = 1
				continue
			}
			col += 2
			continue
		case b == q:
			if q == '\'' && i+1 < len(c.src) && c.src[i+1] == '\'' {
				i++
				col += 2
				continue
			}
			return Pos{line, col + 1}, true
		}
		if b&0xC0 != 0x80 {
			col++
		}
	}
	return Pos{}, false
}
