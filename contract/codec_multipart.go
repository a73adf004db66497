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
)

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
		v, err := DecodeJSON(part.Data)
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
		return nil, "", fmt.Errorf("a multipart body is an object of parts, not %s", KindOf(v))
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
