package contract

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// style is a parameter's serialization style (OpenAPI 3's style, or
// Swagger 2.0's collectionFormat mapped onto it).
type style uint8

const (
	styleForm style = iota
	styleSimple
	styleLabel
	styleMatrix
	styleSpace
	stylePipe
	styleDeepObject
	styleTab // Swagger 2.0 collectionFormat tsv
)

var styleNames = map[string]style{
	"form": styleForm, "simple": styleSimple, "label": styleLabel, "matrix": styleMatrix,
	"spaceDelimited": styleSpace, "pipeDelimited": stylePipe, "deepObject": styleDeepObject,
	// OpenAPI 3.2's cookie style is form without percent-encoding; cookie
	// values are decoded only where they hold a valid escape, so the two
	// read alike.
	"cookie": styleForm,
}

// param is a parameter, a response header, a Swagger formData field or a
// field of a form body: a named value serialized by a style.
type param struct {
	name          string
	in            string // path, query, header, cookie, formData
	required      bool
	style         style
	explode       bool
	allowEmpty    bool
	allowReserved bool
	sch           sref
	shape         shape
	lazy          *lazySchema
	content       *media // a parameter described by content (a JSON value)
	src           spec.Path
	label         string // how messages name it: "query parameter", "header", …
}

func defaultStyle(in string) style {
	switch in {
	case "path", "header":
		return styleSimple
	}
	return styleForm
}

func (c *Contract) newParam(sp *spec.Parameter) *param {
	n := sp.Node
	p := &param{name: sp.Name, in: sp.In, required: sp.Required || sp.In == "path", src: sp.Source,
		allowEmpty: n.Get("allowEmptyValue").IsTrue(), allowReserved: n.Get("allowReserved").IsTrue()}
	p.label = labels[sp.In]
	if c.doc.Format == spec.Swagger {
		p.style, p.explode = defaultStyle(sp.In), false
		if sp.In == "formData" {
			p.style = styleForm
		}
		format := n.GetStr("collectionFormat")
		p.style = collectionStyle(format, p.style)
		if format == "multi" {
			p.style, p.explode = styleForm, true
		}
	} else {
		p.style = defaultStyle(sp.In)
		if s, ok := styleNames[n.GetStr("style")]; ok {
			p.style = s
		}
		p.explode = p.style == styleForm
		if e := n.Get("explode"); e != nil && e.Kind == spec.Bool {
			p.explode = e.IsTrue()
		}
		if ct := n.Get("content"); ct != nil && len(ct.ObjectFields()) > 0 {
			f := ct.ObjectFields()[0]
			p.content = c.newMedia(&spec.MediaType{Name: f.Key, Node: c.deref(f.Value), Schema: sp.Schema, SchemaSource: sp.SchemaSource, Source: append(append(spec.Path{}, sp.Source...), "content", f.Key)})
		}
	}
	if sp.Schema != nil {
		p.sch = sref{n: c.deref(sp.Schema), src: sp.SchemaSource}
		p.lazy = &lazySchema{sch: p.sch}
	}
	p.shape = c.shapeOf(p.sch)
	return p
}

// collectionStyle is the style of a Swagger 2.0 collectionFormat that
// names a delimiter other than the comma; def for the others.
func collectionStyle(format string, def style) style {
	switch format {
	case "ssv":
		return styleSpace
	case "tsv":
		return styleTab
	case "pipes":
		return stylePipe
	}
	return def
}

var labels = map[string]string{
	"path": "path parameter", "query": "query parameter", "header": "header", "cookie": "cookie",
	"formData": "form field",
}

func (c *Contract) newHeader(h *spec.Header) *param {
	n := h.Node
	p := &param{name: h.Name, in: "header", required: h.Required, style: styleSimple, src: h.Source, label: "response header"}
	if c.doc.Format == spec.Swagger {
		p.style = collectionStyle(n.GetStr("collectionFormat"), p.style)
	} else {
		p.explode = n.Get("explode").IsTrue()
	}
	if h.Schema != nil {
		p.sch = sref{n: c.deref(h.Schema), src: h.SchemaSource}
	}
	// A header described by content (OpenAPI 3): the views give it no
	// schema, its media type does.
	if ct := n.Get("content"); c.doc.Format != spec.Swagger && len(ct.ObjectFields()) > 0 {
		f := ct.ObjectFields()[0]
		mt := &spec.MediaType{Name: f.Key, Node: c.deref(f.Value), Source: append(append(spec.Path{}, h.Source...), "content", f.Key)}
		if s := mt.Node.Get("schema"); s != nil {
			mt.Schema, mt.SchemaSource = c.deref(s), append(append(spec.Path{}, mt.Source...), "schema")
			p.sch = sref{n: mt.Schema, src: mt.SchemaSource}
		}
		p.content = c.newMedia(mt)
	}
	if p.sch.n != nil {
		p.lazy = &lazySchema{sch: p.sch}
	}
	p.shape = c.shapeOf(p.sch)
	return p
}

// encoding is an Encoding Object of a form or multipart body's property.
type encoding struct {
	contentType   string
	style         style
	styleSet      bool
	explode       bool
	explodeSet    bool
	allowReserved bool
	headers       *spec.Node
}

func newEncoding(n *spec.Node) *encoding {
	e := &encoding{contentType: n.GetStr("contentType"), headers: n.Get("headers"), allowReserved: n.Get("allowReserved").IsTrue()}
	if s, ok := styleNames[n.GetStr("style")]; ok {
		e.style, e.styleSet = s, true
	}
	if x := n.Get("explode"); x != nil && x.Kind == spec.Bool {
		e.explode, e.explodeSet = x.IsTrue(), true
	}
	return e
}

// fieldParam is a property of a form body seen as a form-style parameter,
// as the Encoding Object describes it (form, exploded, by default).
func (c *Contract) fieldParam(name string, sch sref, enc *encoding) *param {
	p := &param{name: name, in: "formData", style: styleForm, explode: true, sch: sch, label: "form field"}
	if enc != nil {
		if enc.styleSet {
			p.style = enc.style
			p.explode = enc.style == styleForm
		}
		if enc.explodeSet {
			p.explode = enc.explode
		}
		p.allowReserved = enc.allowReserved
	}
	p.shape = c.shapeOf(sch)
	return p
}

// wire splits the path of a failing value into the serialized key it
// travels under and the rest of the path: deepObject's filter[status], an
// exploded form object's own keys, else the parameter's name.
func (p *param) wire(path []any) (string, []any) {
	switch {
	case p.style == styleDeepObject:
		key, i := p.name, 0
		for ; i < len(path); i++ {
			s, ok := path[i].(string)
			if !ok {
				break
			}
			key += "[" + s + "]"
		}
		return key, path[i:]
	case p.shape == object && p.explode && p.style == styleForm && len(path) > 0:
		if s, ok := path[0].(string); ok {
			return s, path[1:]
		}
	}
	return p.name, path
}

// problem is a problem with a parameter's value at path.
func (c *Contract) problem(p *param, in In, path []any, keyword, msg string, at spec.Path) Problem {
	key, rest := p.wire(path)
	return Problem{In: in, Key: key, Path: path, Keyword: keyword, Message: p.label + " " + keyPath(key, rest) + ": " + msg, Schema: c.locate(at)}
}

// typeProblem reports text that cannot be read as the schema's type.
func (c *Contract) typeProblem(p *param, in In, path []any, text string, s sref, t Types) Problem {
	got := strconv.Quote(text)
	if text == "" {
		got = "an empty value"
	}
	at := s.src
	if s.n != nil && s.n.Get("type") != nil {
		at = s.at("type")
	}
	return c.problem(p, in, path, "type", "expected "+t.String()+", got "+got, at)
}

// readText types one piece of text by schema s.
func (c *Contract) readText(p *param, in In, path []any, text string, s sref) (any, *Problem) {
	if c.isBinary(s) {
		return text, nil
	}
	t := c.typesOf(s)
	v, ok := CoerceText(text, t)
	if !ok {
		// The text stays as sent, for the caller to see.
		pr := c.typeProblem(p, in, path, text, s, t)
		return text, &pr
	}
	return v, nil
}

// readList types the items of an array parameter.
func (c *Contract) readList(p *param, in In, pieces []string) (any, []Problem) {
	items := c.itemsOf(p.sch)
	out := make([]any, len(pieces))
	var probs []Problem
	for i, s := range pieces {
		v, pr := c.readText(p, in, []any{i}, s, items)
		if pr != nil {
			probs = append(probs, *pr)
		}
		out[i] = v
	}
	return out, probs
}

// readObject types the properties of an object parameter given as pairs.
func (c *Contract) readObject(p *param, in In, pairs [][2]string) (any, []Problem) {
	out := make(map[string]any, len(pairs))
	var probs []Problem
	for _, kv := range pairs {
		ps, _ := c.propertyOf(p.sch, kv[0])
		if c.shapeOf(ps) == array {
			// A repeated key of an array property (deepObject's
			// filter[tags]=a&filter[tags]=b) collects its values.
			prev, _ := out[kv[0]].([]any)
			pv, pr := c.readText(p, in, []any{kv[0], len(prev)}, kv[1], c.itemsOf(ps))
			if pr != nil {
				probs = append(probs, *pr)
			}
			out[kv[0]] = append(prev, pv)
			continue
		}
		v, pr := c.readText(p, in, []any{kv[0]}, kv[1], ps)
		if pr != nil {
			probs = append(probs, *pr)
		}
		out[kv[0]] = v
	}
	return out, probs
}

// pairsOf reads the still-encoded pieces k1,v1,k2,v2 (exploded:
// k1=v1,k2=v2) into decoded pairs.
func pairsOf(pieces []string, exploded bool, unesc func(string) string) ([][2]string, bool) {
	var out [][2]string
	if exploded {
		for _, s := range pieces {
			k, v, ok := strings.Cut(s, "=")
			if !ok {
				return nil, false
			}
			out = append(out, [2]string{unesc(k), unesc(v)})
		}
		return out, true
	}
	if len(pieces)%2 != 0 {
		return nil, false
	}
	for i := 0; i < len(pieces); i += 2 {
		out = append(out, [2]string{unesc(pieces[i]), unesc(pieces[i+1])})
	}
	return out, true
}

func identity(s string) string { return s }

// readPieces turns the pieces of a value, still encoded, into the
// parameter's value by its shape: an array of them, an object of their
// pairs, or the one primitive whole (already decoded).
func (c *Contract) readPieces(p *param, in In, pieces []string, pairsExploded bool, whole string, unesc func(string) string) (any, []Problem) {
	switch p.shape {
	case array:
		return c.readList(p, in, decodeAll(pieces, unesc))
	case object:
		pairs, ok := pairsOf(pieces, pairsExploded, unesc)
		if !ok {
			form := "name,value pairs"
			if pairsExploded {
				form = "name=value pairs"
			}
			return nil, []Problem{c.problem(p, in, nil, "style", fmt.Sprintf("expected an object as %s, got %q", form, whole), p.src)}
		}
		return c.readObject(p, in, pairs)
	}
	v, pr := c.readText(p, in, nil, whole, p.sch)
	if pr != nil {
		return v, []Problem{*pr}
	}
	return v, nil
}

// readContent decodes a parameter described by content (JSON text, most
// often).
func (c *Contract) readContent(p *param, in In, text string) (any, []Problem) {
	v, err := c.decode([]byte(text), p.content, p.content.name)
	if err != nil {
		return nil, []Problem{c.problem(p, in, nil, "syntax", "not "+p.content.name+": "+err.Error(), p.src)}
	}
	return v, nil
}
