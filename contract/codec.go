package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/specgate/specgate/spec"
)

// Codec reads and writes the bodies of one family of media types. The
// mock decodes what the tester encodes with the same codec, so that the
// two directions agree.
type Codec interface {
	// Decode reads a body into a JSON value (as encoding/json decodes with
	// UseNumber) that the media type's schema can validate.
	Decode(body []byte, t *BodyType) (any, error)
	// Encode writes a value as a body, and returns it with the
	// Content-Type to send (parameters included, such as a multipart
	// boundary).
	Encode(v any, t *BodyType) ([]byte, string, error)
}

// BodyType is what a codec knows of a body: the media type it travels as
// and what the document declares for it.
type BodyType struct {
	// ContentType is the media type with its parameters, as sent or to be
	// sent.
	ContentType string
	// Declared is the entry of the document's content that applies; nil
	// when none does.
	Declared *spec.MediaType

	c     *Contract
	m     *media
	probs []Problem // what a built-in codec found while typing fields
	parts []Part    // what the multipart codec read
}

// Param returns a parameter of the Content-Type ("charset", "boundary").
func (t *BodyType) Param(name string) string {
	m, _ := parseMediaRange(t.ContentType)
	return m.param(name)
}

// Schema is the declared schema of the body, $refs followed; nil when
// none is declared.
func (t *BodyType) Schema() *spec.Node {
	if t.m == nil {
		return nil
	}
	return t.m.sch.n
}

// File is the content of a file: a file part of a multipart body (its
// filename and content type go in the part's headers), or a whole binary
// body. Values given to BuildRequest may hold it where a schema has
// format: binary.
type File struct {
	Filename    string
	ContentType string
	Data        []byte
}

// codecFor picks the codec of a media type: one of Options.Codecs by
// essence, then by suffix; else the built-in codec of its family. nil means
// the body is not read (its content type alone is checked).
func (c *Contract) codecFor(m mediaRange) Codec {
	if len(c.opts.Codecs) > 0 {
		if cd := c.opts.Codecs[m.essence()]; cd != nil {
			return cd
		}
		if sfx := m.suffix(); sfx != "" {
			if cd := c.opts.Codecs["+"+sfx]; cd != nil {
				return cd
			}
		}
	}
	switch familyOf(m) {
	case famJSON:
		return jsonCodec{}
	case famForm:
		return formCodec{}
	case famMultipart:
		return multipartCodec{}
	case famText:
		return textCodec{}
	case famXML:
		return xmlCodec{}
	case famBinary:
		return binaryCodec{}
	}
	return nil
}

// errUnread marks a body that is not read: binary content, or a media
// type no codec knows. Only its content type is checked.
var errUnread = errors.New("body not read")

// decode reads a body sent as contentType, declared by m (nil when the
// document declares nothing that applies).
func (c *Contract) decode(data []byte, m *media, contentType string) (any, error) {
	v, _, err := c.decodeBody(data, m, contentType)
	return v, err
}

// decodeBody is decode that also returns what a built-in codec found on
// the way: problems typing the fields of a form, the parts of a
// multipart body.
func (c *Contract) decodeBody(data []byte, m *media, contentType string) (any, *BodyType, error) {
	t := &BodyType{ContentType: contentType, c: c, m: m}
	if m != nil {
		t.Declared = m.mt
	}
	ct, ok := parseMediaRange(contentType)
	if !ok && m != nil {
		ct = m.rng
	}
	cd := c.codecFor(ct)
	if cd == nil {
		return nil, t, errUnread
	}
	if m != nil && m.sch.n != nil && c.isBinary(m.sch) && familyOf(ct) != famMultipart && familyOf(ct) != famForm {
		return nil, t, errUnread
	}
	v, err := cd.Decode(data, t)
	return v, t, err
}

// encode writes a value as a body of the media type m declares (or the
// concrete contentType asked for).
func (c *Contract) encode(v any, m *media, contentType string) ([]byte, string, error) {
	ct, ok := parseMediaRange(contentType)
	if !ok || ct.typ == "*" || ct.sub == "*" {
		return nil, "", fmt.Errorf("cannot encode a body as %q: not a concrete media type", contentType)
	}
	t := &BodyType{ContentType: contentType, c: c, m: m}
	if m != nil {
		t.Declared = m.mt
	}
	cd := c.codecFor(ct)
	if cd == nil {
		cd = binaryCodec{}
	}
	return cd.Encode(v, t)
}

// --- JSON ---

type jsonCodec struct{}

func (jsonCodec) Decode(body []byte, _ *BodyType) (any, error) { return DecodeJSON(body) }

func (jsonCodec) Encode(v any, t *BodyType) ([]byte, string, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, t.ContentType, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, "", err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), t.ContentType, nil
}

// DecodeJSON reads a body that holds one JSON value, with UseNumber (the
// values of every runtime package). A syntax error, a body cut short and
// anything but white space after the value are errors that name their
// line and column in the body.
func DecodeJSON(body []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty JSON document")
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			at := spec.PosAt(body, int(se.Offset)-1) // the offending byte, which Offset counts as read
			return nil, fmt.Errorf("line %d, column %d: %s", at.Line, at.Col, se.Error())
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			at := spec.PosAt(body, len(body))
			return nil, fmt.Errorf("line %d, column %d: unexpected end of JSON input", at.Line, at.Col)
		}
		return nil, err
	}
	if off := d.InputOffset(); len(bytes.TrimSpace(body[off:])) > 0 {
		at := spec.PosAt(body, int(off)+firstNonSpace(body[off:]))
		return nil, fmt.Errorf("line %d, column %d: data after the JSON value", at.Line, at.Col)
	}
	return v, nil
}

func firstNonSpace(b []byte) int {
	for i, ch := range b {
		if ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' {
			return i
		}
	}
	return len(b)
}

// --- text ---

type textCodec struct{}

// Decode reads text as a string, or as the schema's primitive type when
// that is not a string (a text/plain body declared as an integer). Text
// whose schema describes a structure (text/csv as an array of rows) is not
// read: only a codec for its media type could check it.
func (textCodec) Decode(body []byte, t *BodyType) (any, error) {
	if !utf8.Valid(body) && strings.EqualFold(t.Param("charset"), "utf-8") {
		return nil, errors.New("text is not valid UTF-8")
	}
	s := string(body)
	if t.m == nil || t.m.sch.n == nil {
		return s, nil
	}
	types := t.c.typesOf(t.m.sch)
	if types == 0 || types&TypeString != 0 {
		return s, nil
	}
	if v, ok := CoerceText(strings.TrimSpace(s), types); ok {
		return v, nil
	}
	ct, _ := parseMediaRange(t.ContentType)
	if types&(TypeObject|TypeArray) != 0 || ct.sub != "plain" {
		return nil, errUnread
	}
	return s, nil
}

func (textCodec) Encode(v any, t *BodyType) ([]byte, string, error) {
	return []byte(text(v)), t.ContentType, nil
}

// --- binary ---

type binaryCodec struct{}

// Decode does not read binary content: only its media type is checked.
func (binaryCodec) Decode([]byte, *BodyType) (any, error) { return nil, errUnread }

func (binaryCodec) Encode(v any, t *BodyType) ([]byte, string, error) {
	switch x := v.(type) {
	case File:
		return x.Data, t.ContentType, nil
	case *File:
		return x.Data, t.ContentType, nil
	case []byte:
		return x, t.ContentType, nil
	case string:
		return []byte(x), t.ContentType, nil
	case nil:
		return nil, t.ContentType, nil
	}
	return []byte(text(v)), t.ContentType, nil
}
