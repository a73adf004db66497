package contract

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// In names the part of an exchange a problem is about.
type In string

const (
	InMethod      In = "method"       // the method is not declared for the path
	InPath        In = "path"         // a path parameter, or the path itself (no route)
	InQuery       In = "query"        // a query parameter
	InHeader      In = "header"       // a request or response header
	InCookie      In = "cookie"       // a cookie
	InBody        In = "body"         // the request or response body
	InStatus      In = "status"       // the response status
	InContentType In = "content-type" // the Content-Type of a body
	InAccept      In = "accept"       // the request's Accept header
	InSecurity    In = "security"     // the request's credentials
)

// Problem is one way in which a request or a response breaks the contract
// of its operation.
type Problem struct {
	In In
	// Key is the serialized key of a parameter as it appears on the wire
	// (ids, filter[status], X-Rate-Limit, the name of a form field or
	// multipart part); empty for the body itself, the status and the like.
	Key string
	// Path locates the failing value inside the decoded body or parameter
	// value: object keys as strings, array indices as ints.
	Path []any
	// Keyword is the failing check: a JSON Schema keyword ("type",
	// "required", "enum", …) or one of this package's ("missing",
	// "undeclared", "unsupported", "malformed", "unauthenticated", …).
	Keyword string
	// Message says what is wrong in one sentence and names where.
	Message string
	// Schema is where the broken rule is written in the specification: the
	// failing schema keyword, the parameter, the responses of the
	// operation. Its File is nil when no place applies.
	Schema spec.Location
}

// JSONPath is Path written as a JSON path ("$", "$.pet.tags[0]").
func (p Problem) JSONPath() string { return schema.JSONPath(p.Path) }

// String is the problem on one line, with the place of the rule it breaks:
// "query ids[1]: expected integer, got "x" (api.yaml:40:13)".
func (p Problem) String() string {
	if p.Schema.File == nil {
		return p.Message
	}
	return p.Message + " (" + where(p.Schema) + ")"
}

// Error makes a Problem usable as an error.
func (p Problem) Error() string { return p.String() }

// where renders a location as file:line:col.
func where(l spec.Location) string {
	name := l.File.Name
	if !strings.Contains(name, "://") {
		name = filepath.ToSlash(name)
	}
	return fmt.Sprintf("%s:%d:%d", name, l.Range.Start.Line, l.Range.Start.Col)
}

// keyPath renders the serialized key of a parameter followed by the rest of
// the failing value's path in bracket notation, as a reader would look for
// it on the wire: ids[1], filter[status], coords[lat].
func keyPath(key string, rest []any) string {
	if len(rest) == 0 {
		return key
	}
	var b strings.Builder
	b.WriteString(key)
	for _, seg := range rest {
		b.WriteByte('[')
		switch s := seg.(type) {
		case int:
			b.WriteString(strconv.Itoa(s))
		default:
			fmt.Fprint(&b, s)
		}
		b.WriteByte(']')
	}
	return b.String()
}
