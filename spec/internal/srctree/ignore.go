package srctree

import (
	"sort"
	"strings"

	"github.com/specgate/specgate/spec"
)

// IgnoreDirective starts the comments that silence lint rules on an
// element of a .proto, .graphql or .wsdl file, as buf's
// "buf:lint:ignore ID" and ESLint's "eslint-disable-next-line rule" do:
// "specgate:ignore rule-id [rule-id …] [-- reason]".
const IgnoreDirective = "specgate:ignore"

// IgnoreKey is the key the linter honours on a node: the rules it names
// are silenced on the node and everything under it (linter.IgnoreKey,
// which YAML and JSON documents write themselves).
const IgnoreKey = "x-lint-ignore"

// A Comment is a comment of a source file: its text without the comment
// markers, where it is written, and the line it stands for. A comment
// after code on its line stands for that line; a comment on lines of its
// own stands for the next line that holds code (Target 0 when none does).
type Comment struct {
	Text   string
	At     spec.Range
	Target int32
}

// Comments gathers the comments of a file as a format's lexer meets them:
// the lines that hold code, and each comment with the line it stands for.
type Comments struct {
	lines    *Lines
	code     []int32 // the lines that hold code, ascending
	comments []Comment
	trailing []bool
}

// NewComments starts gathering the comments of data.
func NewComments(data []byte) *Comments { return &Comments{lines: NewLines(data)} }

// Code records that a line holds code.
func (c *Comments) Code(line int32) {
	if n := len(c.code); n == 0 || c.code[n-1] < line {
		c.code = append(c.code, line)
	}
}

// Comment records a comment spanning the bytes [start, end) whose text,
// without its markers, is text.
func (c *Comments) Comment(start, end int, text string) {
	at := c.lines.Range(start, end)
	n := len(c.code)
	c.comments = append(c.comments, Comment{Text: text, At: at})
	c.trailing = append(c.trailing, n > 0 && c.code[n-1] == at.Start.Line)
}

// SkipString is the index just past the one-line string literal that data
// opens at start with the quote data[start]: past its closing quote (a
// backslash escapes the byte after it, but not a line break), or, for a
// string left open, past the line break that ends it or beyond the end
// of data.
func SkipString(data []byte, start int) int {
	quote, i := data[start], start+1
	for i < len(data) && data[i] != quote && data[i] != '\n' {
		if data[i] == '\\' && i+1 < len(data) && data[i+1] != '\n' {
			i++
		}
		i++
	}
	return i + 1
}

// List is the comments met, each with the line it stands for.
func (c *Comments) List() []Comment {
	for i := range c.comments {
		cm := &c.comments[i]
		if c.trailing[i] {
			cm.Target = cm.At.Start.Line
			continue
		}
		k := sort.Search(len(c.code), func(k int) bool { return c.code[k] > cm.At.End.Line })
		if k < len(c.code) {
			cm.Target = c.code[k]
		}
	}
	return c.comments
}

// Elements are the elements of a file's tree (messages, fields, types,
// operations), each by the line its declaration starts on; the first
// added on a line, the outermost as builders go, keeps it.
type Elements map[int32]*spec.Node

// Add records an element's node at a line.
func (e Elements) Add(line int32, n *spec.Node) {
	if _, ok := e[line]; !ok && line > 0 {
		e[line] = n
	}
}

// Ignore gives the element each ignore directive stands for an IgnoreKey
// listing the rules it names, so that the linter silences them on the
// element and everything under it. A directive that stands for no
// element is left alone.
func Ignore(e Elements, comments []Comment) {
	for _, c := range comments {
		rules := directiveRules(c.Text)
		n := e[c.Target]
		if len(rules) == 0 || n == nil || n.Kind != spec.Object {
			continue
		}
		list := n.Get(IgnoreKey)
		if list == nil {
			list = Array(c.At)
			Set(n, IgnoreKey, c.At, list)
		}
		for _, r := range rules {
			Append(list, String(r, c.At))
		}
	}
}

// directiveRules are the rule ids of the ignore directive a comment's
// text holds on a line of its own, or nil.
func directiveRules(text string) []string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "*")
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), IgnoreDirective)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		rest, _, _ = strings.Cut(rest, "--")
		return strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	}
	return nil
}
