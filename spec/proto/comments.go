package proto

import (
	"strings"

	"github.com/specgate/specgate/spec/internal/srctree"
)

// comments lexes the comments of a .proto file (// to the end of the
// line, /* to */), skipping string literals, and which lines hold code.
func comments(data []byte) []srctree.Comment {
	c := srctree.NewComments(data)
	line := int32(1)
	for i := 0; i < len(data); {
		switch ch := data[i]; {
		case ch == '\n':
			line++
			i++
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v':
			i++
		case ch == '/' && i+1 < len(data) && data[i+1] == '/':
			end := i + 2
			for end < len(data) && data[end] != '\n' {
				end++
			}
			c.Comment(i, end, string(data[i+2:end]))
			i = end
		case ch == '/' && i+1 < len(data) && data[i+1] == '*':
			end := i + 2
			for end+1 < len(data) && !(data[end] == '*' && data[end+1] == '/') {
				end++
			}
			body := data[i+2 : min(end, len(data))]
			end = min(end+2, len(data))
			c.Comment(i, end, string(body))
			line += int32(strings.Count(string(data[i:end]), "\n"))
			i = end
		case ch == '"' || ch == '\'':
			c.Code(line)
			i = srctree.SkipString(data, i)
		default:
			c.Code(line)
			i++
		}
	}
	return c.List()
}
