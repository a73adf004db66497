package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"strconv"
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

func (jsonCodec) Decode(body []byte, _ *BodyType) (any, error) { return decodeJSON(body) }

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

// decodeJSON reads one JSON value with UseNumber. A syntax error names its
// line and column in the body.
func decodeJSON(body []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty JSON document")
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(body, int(se.Offset))
			return nil, fmt.Errorf("line %d, column %d: %s", line, col, se.Error())
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			line, col := lineCol(body, len(body))
			return nil, fmt.Errorf("line %d, column %d: unexpected end of JSON input", line, col)
		}
		return nil, err
	}
	if off := d.InputOffset(); len(bytes.TrimSpace(body[off:])) > 0 {
		line, col := lineCol(body, int(off)+firstNonSpace(body[off:]))
		return nil, fmt.Errorf("line %d, column %d: data after the JSON value", line, col)
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

// lineCol converts a byte offset into a 1-based line and column (in
// characters).
func lineCol(b []byte, off int) (int, int) {
	if off > len(b) {
		off = len(b)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if b[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(b[start:off]) + 1
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

// --- application/x-www-form-urlencoded ---

type formCodec struct{}

// Decode reads the fields of a form, each typed by its property's schema
// and read by its Encoding Object (form style, exploded, by default; a
// contentType of JSON reads the field as JSON text). Fields the schema does
// not declare are strings, or lists of strings when repeated.
func (formCodec) Decode(body []byte, t *BodyType) (any, error) {
	c := t.c
	pairs := parseQuery(string(body))
	used := make([]bool, len(pairs))
	out := map[string]any{}
	for _, fp := range c.formFields(t.m) {
		v, present, probs := c.readQuery(fp, InBody, pairs, used, nil)
		t.probs = append(t.probs, inField(fp.name, probs)...)
		if present {
			out[fp.name] = v
		}
	}
	for i, q := range pairs {
		if used[i] {
			continue
		}
		v := queryUnescape(q.raw)
		switch prev := out[q.key].(type) {
		case nil:
			out[q.key] = v
		case []any:
			out[q.key] = append(prev, v)
		case string:
			out[q.key] = []any{prev, v}
		}
	}
	return out, nil
}

func (formCodec) Encode(v any, t *BodyType) ([]byte, string, error) {
	c := t.c
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		return nil, "", fmt.Errorf("a form body is an object of fields, not %s", kindOf(v))
	}
	var parts []string
	done := map[string]bool{}
	var err error
	for _, fp := range c.formFields(t.m) {
		fv, ok := m[fp.name]
		if !ok {
			continue
		}
		done[fp.name] = true
		if fv == nil {
			continue // a form has no null: the field is left out
		}
		if parts, err = c.writeQuery(fp, fv, parts); err != nil {
			return nil, "", err
		}
	}
	for _, kv := range c.pairsOfValue(sref{}, m) {
		if name := kv[0].(string); !done[name] && kv[1] != nil {
			fp := &param{name: name, style: styleForm, explode: true, shape: shapeOfValue(kv[1])}
			if parts, err = c.writeQuery(fp, kv[1], parts); err != nil {
				return nil, "", err
			}
		}
	}
	return []byte(strings.Join(parts, "&")), t.ContentType, nil
}

// formFields are the fields of a form or multipart body as parameters: the
// properties of its schema with their Encoding Objects (OpenAPI 3), or
// Swagger 2.0's formData parameters.
func (c *Contract) formFields(m *media) []*param {
	if m == nil {
		return nil
	}
	if m.fields != nil {
		return m.fields
	}
	return c.schemaFields(m)
}

func (c *Contract) schemaFields(m *media) []*param {
	var out []*param
	for _, name := range c.propertyNames(m.sch) {
		ps, _ := c.propertyOf(m.sch, name)
		enc := m.encoding[name]
		fp := c.fieldParam(name, ps, enc)
		if enc == nil || !enc.styleSet && !enc.explodeSet && !enc.allowReserved {
			// Without style fields a field is written as its content type
			// says (OpenAPI 3.1.1): JSON by default for an object.
			ct := ""
			if enc != nil {
				ct = strings.TrimSpace(strings.Split(enc.contentType, ",")[0])
			}
			if t := c.typesOf(ps); ct == "" && t&TypeObject != 0 && t&(TypeString|TypeNumber|TypeInteger|TypeBoolean|TypeArray) == 0 {
				ct = "application/json"
			}
			if r, ok := parseMediaRange(ct); ok && familyOf(r) == famJSON {
				fp.content = &media{name: r.essence(), rng: r, fam: famJSON}
			}
		}
		out = append(out, fp)
	}
	return out
}

func shapeOfValue(v any) shape {
	switch v.(type) {
	case []any, []string:
		return array
	case map[string]any:
		return object
	}
	return primitive
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, int, int64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// --- multipart ---

// Part is one part of a multipart body.
type Part struct {
	Name        string // the form-data name
	Filename    string // "" for a part that is not a file
	ContentType string // the part's Content-Type; "" when it sends none
	Header      textproto.MIMEHeader
	Data        []byte
}

// ParseMultipart reads the parts of a multipart body sent with
// contentType (which carries the boundary).
func ParseMultipart(body []byte, contentType string) ([]Part, error) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("content type %q: %w", contentType, err)
	}
	boundary := params["boundary"]
	if boundary == "" {
		return nil, fmt.Errorf("content type %q has no boundary", contentType)
	}
	r := multipart.NewReader(bytes.NewReader(body), boundary)
	var parts []Part
	for {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			return parts, nil
		}
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", len(parts)+1, err)
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", len(parts)+1, err)
		}
		parts = append(parts, Part{Name: p.FormName(), Filename: p.FileName(), ContentType: p.Header.Get("Content-Type"), Header: p.Header, Data: data})
	}
}

type multipartCodec struct{}

// Decode reads the parts of a multipart body into an object by part name:
// a file part (one with a filename, or a binary property's) as the string
// of its bytes, a JSON part (by its Content-Type, its Encoding Object's, or
// an object or array property's default) as its JSON value, a text part
// typed by its property's schema; repeated parts of an array property as
// its items.
func (multipartCodec) Decode(body []byte, t *BodyType) (any, error) {
	parts, err := ParseMultipart(body, t.ContentType)
	if err != nil {
		return nil, err
	}
	t.parts = parts
	c := t.c
	fields := map[string]*param{}
	for _, fp := range c.formFields(t.m) {
		fields[fp.name] = fp
	}
	out := map[string]any{}
	counts := map[string]int{}
	for i := range parts {
		part := parts[i]
		fp := fields[part.Name]
		if fp == nil {
			fp = &param{name: part.Name, label: "part", in: "formData"}
		}
		s, isArray := fp.sch, fp.shape == array
		if isArray {
			s = c.itemsOf(fp.sch)
		}
		var inner []any
		if isArray {
			inner = []any{counts[part.Name]}
		}
		counts[part.Name]++
		v, pr := c.partValue(fp, part, s, inner, t.m)
		if pr != nil {
			t.probs = append(t.probs, inField(part.Name, []Problem{*pr})...)
		}
		switch prev, seen := out[part.Name]; {
		case isArray && !seen && counts[part.Name] == 1 && isList(v) && lastOf(parts, part.Name) == &parts[i]:
			// The whole list in one JSON part.
			out[part.Name] = v
		case isArray:
			list, _ := prev.([]any)
			out[part.Name] = append(list, v)
		case !seen:
			out[part.Name] = v
		}
	}
	return out, nil
}

// inField makes the paths of problems found in a field's value paths in
// the body, under the field's name.
func inField(name string, probs []Problem) []Problem {
	for i := range probs {
		probs[i].Path = append([]any{name}, probs[i].Path...)
	}
	return probs
}

// partValue reads one part as the value of its property; path is where
// the part's value sits in the property's (an index for an array's item).
func (c *Contract) partValue(fp *param, part Part, s sref, path []any, m *media) (any, *Problem) {
	if part.Filename != "" || c.isBinary(s) {
		return string(part.Data), nil
	}
	ct := part.ContentType
	if ct == "" && m != nil && m.encoding[part.Name] != nil {
		ct = m.encoding[part.Name].contentType
	}
	if ct == "" && c.typesOf(s)&(TypeObject|TypeArray) != 0 && c.typesOf(s)&TypeString == 0 {
		ct = "application/json"
	}
	if r, ok := parseMediaRange(ct); ok && familyOf(r) == famJSON {
		v, err := decodeJSON(part.Data)
		if err != nil {
			pr := Problem{In: InBody, Key: part.Name, Path: path, Keyword: "syntax", Message: "part " + keyPath(part.Name, path) + ": not JSON: " + err.Error()}
			return nil, &pr
		}
		return v, nil
	}
	fpl := *fp
	fpl.label = "part"
	return c.readText(&fpl, InBody, path, string(part.Data), s)
}

// Encode writes an object as form-data parts, in the schema's order: a
// File, []byte or a binary property's value as a file part; an object (or
// an array whose items are objects) as a JSON part; an array of primitives
// as one part per item; anything else as a text part.
func (multipartCodec) Encode(v any, t *BodyType) ([]byte, string, error) {
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		return nil, "", fmt.Errorf("a multipart body is an object of parts, not %s", kindOf(v))
	}
	ct, _ := parseMediaRange(t.ContentType)
	if bd := t.Param("boundary"); bd != "" {
		b, _, err := t.c.writeParts(m, t.m, bd)
		return b, ct.essence() + "; boundary=" + bd, err
	}
	// The boundary is fixed, so that a request is built the same each
	// time; in the rare body that holds it, the next one is tried.
	for n := 0; ; n++ {
		bd := "specgate-boundary-" + strconv.Itoa(n)
		b, parts, err := t.c.writeParts(m, t.m, bd)
		if err != nil {
			return nil, "", err
		}
		if bytes.Count(b, []byte("--"+bd)) == parts+1 {
			return b, ct.essence() + "; boundary=" + bd, nil
		}
	}
}

// writeParts writes the form-data parts of an object between boundaries
// bd, and says how many it wrote.
func (c *Contract) writeParts(m map[string]any, md *media, bd string) ([]byte, int, error) {
	var b bytes.Buffer
	w := &countingWriter{Writer: multipart.NewWriter(&b)}
	if err := w.SetBoundary(bd); err != nil {
		return nil, 0, err
	}
	var s sref
	if md != nil {
		s = md.sch
	}
	fields := map[string]*param{}
	for _, fp := range c.formFields(md) {
		fields[fp.name] = fp
	}
	for _, kv := range c.pairsOfValue(s, m) {
		name := kv[0].(string)
		if kv[1] == nil {
			continue // no part for a null
		}
		var ps sref
		var enc *encoding
		if fp := fields[name]; fp != nil {
			ps = fp.sch
		}
		if md != nil {
			enc = md.encoding[name]
		}
		if err := c.writePart(w, name, kv[1], ps, enc); err != nil {
			return nil, 0, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, 0, err
	}
	return b.Bytes(), w.parts, nil
}

// countingWriter counts the parts a multipart.Writer creates.
type countingWriter struct {
	*multipart.Writer
	parts int
}

func (w *countingWriter) CreatePart(h textproto.MIMEHeader) (io.Writer, error) {
	w.parts++
	return w.Writer.CreatePart(h)
}

func (c *Contract) writePart(w *countingWriter, name string, v any, s sref, enc *encoding) error {
	encType := ""
	if enc != nil {
		encType = strings.TrimSpace(strings.Split(enc.contentType, ",")[0])
	}
	file := func(f File) error {
		if f.Filename == "" {
			f.Filename = name
		}
		if f.ContentType == "" {
			f.ContentType = encType
		}
		if f.ContentType == "" || strings.Contains(f.ContentType, "*") {
			f.ContentType = "application/octet-stream"
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", mime.FormatMediaType("form-data", map[string]string{"name": name, "filename": f.Filename}))
		h.Set("Content-Type", f.ContentType)
		pw, err := w.CreatePart(h)
		if err == nil {
			_, err = pw.Write(f.Data)
		}
		return err
	}
	switch x := v.(type) {
	case File:
		return file(x)
	case *File:
		return file(*x)
	case []byte:
		return file(File{Data: x})
	case string:
		if c.isBinary(s) {
			return file(File{Data: []byte(x)})
		}
	case []any:
		// One part per item, each by its own type (an object as JSON).
		items := c.itemsOf(s)
		for _, it := range x {
			if err := c.writePart(w, name, it, items, enc); err != nil {
				return err
			}
		}
		return nil
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", mime.FormatMediaType("form-data", map[string]string{"name": name}))
	var data []byte
	switch v.(type) {
	case map[string]any, []any:
		if encType == "" || strings.Contains(encType, "*") {
			encType = "application/json"
		}
		h.Set("Content-Type", encType)
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		data = b
	default:
		if encType != "" && !strings.Contains(encType, "*") && !strings.HasPrefix(encType, "text/plain") {
			h.Set("Content-Type", encType)
		}
		data = []byte(text(v))
	}
	pw, err := w.CreatePart(h)
	if err == nil {
		_, err = pw.Write(data)
	}
	return err
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// lastOf is the last part of a name.
func lastOf(parts []Part, name string) *Part {
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i].Name == name {
			return &parts[i]
		}
	}
	return nil
}
