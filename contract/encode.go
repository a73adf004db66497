package contract

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
)

// EncodeResponse writes v as the body of op's response for status in
// mediaType (a media type the response declares, or a concrete type within
// a declared range such as application/*), with the codec the request side
// reads it with: JSON, forms, multipart, XML with the schema's xml names,
// text, bytes. It returns the body and the Content-Type to send.
func (c *Contract) EncodeResponse(op *spec.Operation, status int, mediaType string, v any) ([]byte, string, error) {
	o := c.byOp[op]
	if o == nil {
		return nil, "", fmt.Errorf("%s %s is not an operation of this contract", strings.ToUpper(op.Method), op.Path)
	}
	r := o.statusOf(status)
	if r == nil {
		return nil, "", fmt.Errorf("%s %s declares no response for %d", strings.ToUpper(op.Method), op.Path, status)
	}
	key, ok := MatchMediaType(mediaType, r.names)
	if !ok {
		return nil, "", fmt.Errorf("response %s of %s %s declares no content of %s (it declares %s)", r.r.Status, strings.ToUpper(op.Method), op.Path, mediaType, strings.Join(r.names, ", "))
	}
	m := r.media[slices.Index(r.names, key)]
	concrete := mediaType
	if rng, _ := parseMediaRange(mediaType); rng.typ == "*" || rng.sub == "*" {
		concrete = concreteType(rng, v)
	}
	return c.encode(v, m, concrete)
}

// DecodeResponse reads the body of op's response for status, sent as
// contentType, into a JSON-like value with the codec of the media type the
// response declares for it (XML by the schema's xml names, forms and
// multipart by field); a media type the response does not declare, or one
// no codec reads (bytes), is an error.
func (c *Contract) DecodeResponse(op *spec.Operation, status int, contentType string, body []byte) (any, error) {
	o := c.byOp[op]
	if o == nil {
		return nil, fmt.Errorf("%s %s is not an operation of this contract", strings.ToUpper(op.Method), op.Path)
	}
	r := o.statusOf(status)
	if r == nil {
		return nil, fmt.Errorf("%s %s declares no response for %d", strings.ToUpper(op.Method), op.Path, status)
	}
	key, ok := MatchMediaType(contentType, r.names)
	if !ok {
		return nil, fmt.Errorf("response %s of %s %s declares no content of %s", r.r.Status, strings.ToUpper(op.Method), op.Path, contentType)
	}
	v, _, err := c.decodeBody(body, r.media[slices.Index(r.names, key)], contentType)
	if errors.Is(err, errUnread) {
		return nil, fmt.Errorf("%s bodies are not read", key)
	}
	return v, err
}
