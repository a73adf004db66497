package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

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
		return nil, "", fmt.Errorf("a form body is an object of fields, not %s", KindOf(v))
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

// KindOf names the JSON type of a value as messages say it ("a string",
// "an object", "null").
func KindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, float32, int, int64, int32, uint64:
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

// InlineText writes a JSON value inside a longer string (a template of an
// example, a runtime expression of a workflow, the subject of a regular
// expression): strings as they are, numbers and booleans as written, null
// as "null", objects and arrays as compact JSON with <, > and & kept.
func InlineText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
