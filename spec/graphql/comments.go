package graphql

import (
	"bytes"

	"github.com/specgate/specgate/spec/internal/srctree"
)

// comments lexes the comments of SDL (# to the end of the line), skipping
// strings and block strings, and which lines hold code. A string that
// starts its line is a description, not the code a comment above it stands
// for: a directive above a described field stands for the field's name.
func comments(data []byte) []srctree.Comment {
	c := srctree.NewComments(data)
	line := int32(1)
	first := true // no token yet on this line
	for i := 0; i < len(data); {
		switch ch := data[i]; {
		case ch == '\n':
			line++
			first = true
			i++
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == ',' || ch == 0xef && bytes.HasPrefix(data[i:], []byte("\ufeff")):
			if ch == 0xef {
				i += 2
			}
			i++
		case ch == '#':
			end := i + 1
			for end < len(data) && data[end] != '\n' && data[end] != '\r' {
				end++
			}
			c.Comment(i, end, string(data[i+1:end]))
			i = end
		case bytes.HasPrefix(data[i:], []byte(`"""`)):
			if !first {
				c.Code(line)
			}
			first = false
			i += 3
			for i < len(data) && !bytes.HasPrefix(data[i:], []byte(`"""`)) {
				switch {
				case bytes.HasPrefix(data[i:], []byte(`\"""`)):
					i += 4
				case data[i] == '\n':
					line++
					i++
				default:
					i++
				}
			}
			i += 3
		case ch == '"':
			if !first {
				c.Code(line)
			}
			first = false
			i = srctree.SkipString(data, i)
		default:
			c.Code(line)
			first = false
			i++
		}
	}
	return c.List()
}
