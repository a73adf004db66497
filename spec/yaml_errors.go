package spec

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/specgate/specgate/internal/lazyregexp"
)

var yamlLineRE = lazyregexp.New(`line (\d+):? ?`)

// yamlParserProblems are the yaml.v3 parser (not scanner) errors. yaml.v3
// reports them with the 0-based line of the construct being parsed (a
// flow sequence, a block mapping), so their line is one too low.
var yamlParserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
}

var yamlUnknownAnchorRE = lazyregexp.New(`^unknown anchor '(.*)' referenced$`)

// yamlError turns a yaml.v3 error (which names only a line) into a
// SyntaxError with a position.
func yamlError(err error, data []byte) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := yamlLineRE().FindStringSubmatchIndex(msg); m != nil {
		line, _ = strconv.Atoi(msg[m[2]:m[3]])
		msg = msg[:m[0]] + msg[m[1]:]
		if yamlParserProblems[msg] {
			line++
			msg += " (in the construct that starts on this line)"
		}
	}
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	pos := Pos{Line: int32(line), Col: 1}
	// A tab in indentation is the usual cause of these scanner errors;
	// point at it. yaml.v3 names its line, or the line before.
	if strings.HasPrefix(msg, "found character that cannot start any token") || strings.HasPrefix(msg, "found a tab character") {
		for _, l := range []int{line, line + 1} {
			if col := leadingTab(data, l); col > 0 {
				pos = Pos{Line: int32(l), Col: int32(col)}
				if !strings.Contains(msg, "tab") {
					msg += " (a tab: YAML indents with spaces)"
				}
				break
			}
		}
	}
	// yaml.v3 gives no line for an unknown alias; find it in the source.
	if m := yamlUnknownAnchorRE().FindStringSubmatch(msg); m != nil {
		if at := findAlias(data, m[1]); at.Line > 0 {
			pos = at
		}
	}
	return &SyntaxError{Pos: pos, Msg: "invalid YAML: " + msg}
}

// leadingTab returns the column of the first tab in the indentation of a
// 1-based line of data, 0 when there is none.
func leadingTab(data []byte, line int) int {
	for i := 1; i < line; i++ {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return 0
		}
		data = data[nl+1:]
	}
	for col, c := range data {
		switch c {
		case '\t':
			return col + 1
		case ' ':
			continue
		}
		return 0
	}
	return 0
}

// findAlias returns the position of the first "*name" alias in data.
func findAlias(data []byte, name string) Pos {
	re := regexp.MustCompile(`(^|[\s\[{,])\*` + regexp.QuoteMeta(name) + `($|[\s\]},])`)
	loc := re.FindIndex(data)
	if loc == nil {
		return Pos{}
	}
	i := loc[0]
	if data[i] != '*' {
		i++
	}
	line := int32(1 + bytes.Count(data[:i], []byte{'\n'}))
	col := int32(1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:i], '\n')+1:i]))
	return Pos{Line: line, Col: col}
}

// loneCRToLF returns data with every carriage return that does not start
// a CRLF replaced by a line feed. YAML (and editors) take a lone CR for a
// line break, and YAML reads every line break in a scalar as a line feed;
// replacing it byte for byte keeps offsets, so that the lines yaml.v3
// counts are the lines positions are computed from.
func loneCRToLF(data []byte) []byte {
	var out []byte
	for i := bytes.IndexByte(data, '\r'); i >= 0; {
		if i+1 >= len(data) || data[i+1] != '\n' {
			if out == nil {
				out = bytes.Clone(data)
			}
			out[i] = '\n'
		}
		next := bytes.IndexByte(data[i+1:], '\r')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	if out == nil {
		return data
	}
	return out
}

// invalidUTF8 reports the position of the first invalid UTF-8 byte.
func invalidUTF8(data []byte) error {
	line, col := int32(1), int32(1)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return &SyntaxError{Pos: Pos{line, col}, Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x); specifications must be UTF-8 text", data[i])}
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += size
	}
	return nil
}
