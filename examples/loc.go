package examples

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/specgate/specgate/spec"
)

// Loc is where something is written: a file and a range in it (1-based
// lines and columns, as spec.Range).
type Loc struct {
	File  string
	Range spec.Range
}

// String writes the location as file:line:col, or the file alone when it
// has no position.
func (l Loc) String() string {
	if l.Range.Start.Line == 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Range.Start.Line, l.Range.Start.Col)
}

// Errors is a list of problems found while reading examples, each with its
// file and position. It is an error when not empty.
type Errors []*spec.Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns es as an error, or nil when it is empty.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// sortErrors orders errors by file, line and column, so that a report reads
// in the order of the files.
func sortErrors(es Errors) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Col < b.Pos.Col
	})
}

// source is the text of an example file, kept while it is read so that a
// notation inside a string can be located at its own column rather than at
// the string's start.
type source struct {
	name  string
	data  []byte
	lines []int // byte offset of the start of each line
}

func newSource(name string, data []byte) *source {
	s := &source{name: name, data: data, lines: []int{0}}
	for i, c := range data {
		if c == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// offset returns the byte offset of a 1-based line and column (columns
// count code points), or -1 when the position is outside the text.
func (s *source) offset(p spec.Pos) int {
	if s == nil || p.Line < 1 || int(p.Line) > len(s.lines) {
		return -1
	}
	off := s.lines[p.Line-1]
	for col := int32(1); col < p.Col; col++ {
		if off >= len(s.data) || s.data[off] == '\n' {
			return -1
		}
		_, n := utf8.DecodeRune(s.data[off:])
		off += n
	}
	return off
}

// pos returns the line and column of a byte offset.
func (s *source) pos(off int) spec.Pos {
	line := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	col := utf8.RuneCount(s.data[s.lines[line]:off]) + 1
	return spec.Pos{Line: int32(line + 1), Col: int32(col)}
}

// inString returns the position of the byte at offset k of the decoded
// text of the scalar written at start: a JSON or YAML double-quoted string
// (escapes decoded), a YAML single-quoted string (where two quotes stand for one) or a
// plain scalar on one line. Anything else (a block scalar, a string folded
// over lines) gives start itself.
func (s *source) inString(start spec.Pos, k int) spec.Pos {
	off := s.offset(start)
	if off < 0 || off >= len(s.data) {
		return start
	}
	i, decoded := off, 0
	switch s.data[off] {
	case '"':
		i++
		for decoded < k {
			if i >= len(s.data) || s.data[i] == '\n' || s.data[i] == '"' {
				return start
			}
			if s.data[i] == '\\' && i+1 < len(s.data) {
				srcLen, outLen := escapeLen(s.data[i:])
				i += srcLen
				decoded += outLen
				continue
			}
			_, n := utf8.DecodeRune(s.data[i:])
			i += n
			decoded += n
		}
	case '\'':
		i++
		for decoded < k {
			if i >= len(s.data) || s.data[i] == '\n' {
				return start
			}
			if s.data[i] == '\'' {
				if i+1 < len(s.data) && s.data[i+1] == '\'' {
					i += 2
					decoded++
					continue
				}
				return start
			}
			_, n := utf8.DecodeRune(s.data[i:])
			i += n
			decoded += n
		}
	case '|', '>':
		return start
	default:
		end := off + k
		if end > len(s.data) {
			return start
		}
		for j := off; j < end; j++ {
			if s.data[j] == '\n' {
				return start
			}
		}
		i, decoded = end, k
	}
	if decoded != k {
		return start
	}
	return s.pos(i)
}

// escapeLen returns how many bytes a backslash escape takes in the source
// and how many bytes it decodes to.
func escapeLen(b []byte) (srcLen, outLen int) {
	hexRune := func(digits int) (int, int) {
		if len(b) < 2+digits {
			return len(b), 1
		}
		var r rune
		for _, c := range b[2 : 2+digits] {
			r <<= 4
			switch {
			case c >= '0' && c <= '9':
				r |= rune(c - '0')
			case c >= 'a' && c <= 'f':
				r |= rune(c-'a') + 10
			case c >= 'A' && c <= 'F':
				r |= rune(c-'A') + 10
			default:
				return 2 + digits, 1
			}
		}
		if r >= 0xD800 && r < 0xDC00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			return 12, 4 // a surrogate pair is one code point of four bytes
		}
		if n := utf8.RuneLen(r); n > 0 {
			return 2 + digits, n
		}
		return 2 + digits, 3 // decoded as U+FFFD
	}
	switch b[1] {
	case 'N', '_': // YAML's next line and non-breaking space
		return 2, 2
	case 'L', 'P': // YAML's line and paragraph separators
		return 2, 3
	case 'u':
		return hexRune(4)
	case 'U':
		return hexRune(8)
	case 'x':
		return hexRune(2)
	}
	return 2, 1
}
