package examples

import (
	"strconv"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// inline checks the values of an inline example, each against the schema
// of the place it is written for; values in seen were checked already
// against the same schema.
func (k *Checker) inline(ex *Example, seen map[inlineKey]bool) []Finding {
	op := ex.Operation
	if op == nil {
		return nil
	}
	var out []Finding
	check := func(v Value, sch *spec.Node, src spec.Path, dir schema.Direction, code, media string) {
		if v == nil || sch == nil {
			return
		}
		key := inlineKey{v.Where().File, v.Where().Range.Start, sch}
		if seen[key] {
			return
		}
		seen[key] = true
		if _, isString := Literalize(v).(string); isString && media != "" && !isJSONType(media) && k.doc.Deref(sch).GetStr("type") != "string" {
			return // serialized text of another media type (XML, CSV): only its codec reads it
		}
		sc, err := k.schemas.Compile(sch, src)
		if err != nil {
			return
		}
		for _, sp := range sc.Validate(Literalize(v), dir) {
			loc, exact := Locate(v, sp.Path)
			if !exact {
				loc = v.Where()
			}
			segs := k.inlineSegs(ex, v)
			full := with(segs, sp.Path...)
			out = append(out, Finding{Code: code, Example: ex.Name, Loc: loc, Path: jsonPath(full), Message: sp.String(),
				Rule: ruleLoc(sp.Schema), segs: full, keyword: sp.Keyword, rule: sp.Schema, dir: dir})
		}
	}
	param := func(in, name string) *spec.Parameter {
		for _, p := range op.Parameters {
			if p.In == in && p.Name == name {
				return p
			}
		}
		return nil
	}
	paramSchema := func(p *spec.Parameter) (*spec.Node, spec.Path) {
		if p.Schema != nil {
			return p.Schema, p.SchemaSource
		}
		if content := p.Node.Get("content"); content != nil && content.Kind == spec.Object && len(content.Fields) > 0 {
			mt := k.doc.Deref(content.Fields[0].Value)
			return mt.Get("schema"), with(p.Source, "content", content.Fields[0].Key, "schema")
		}
		return nil, nil
	}
	if r := ex.Request; r != nil {
		for _, group := range []struct {
			in     string
			params []Param
		}{{"path", r.PathParams}, {"query", r.Query}, {"header", r.Headers}} {
			for _, pv := range group.params {
				if p := param(group.in, pv.Name); p != nil {
					sch, src := paramSchema(p)
					check(pv.Value, sch, src, schema.Request, CodeParamInvalid, "")
				}
			}
		}
		if rb := op.RequestBody; rb != nil {
			for _, f := range r.FormFields {
				for _, p := range rb.FormData {
					if p.Name == f.Name {
						check(f.Value, p.Schema, p.SchemaSource, schema.Request, CodeParamInvalid, "")
					}
				}
			}
			body := r.inlineBody
			if body == nil {
				body = r.Body
			}
			for _, m := range rb.Content {
				if m.Name == r.ContentType && len(rb.FormData) == 0 {
					check(body, m.Schema, m.SchemaSource, schema.Request, CodeBodyInvalid, m.Name)
				}
			}
		}
	}
	if r := ex.Response; r != nil {
		for _, d := range op.Responses {
			if d.Status != r.SpecStatus {
				continue
			}
			for _, m := range d.Content {
				if m.Name == r.ContentType {
					check(r.Body, m.Schema, m.SchemaSource, schema.Response, CodeBodyInvalid, m.Name)
				}
			}
			for _, hv := range r.Headers {
				for _, h := range d.Headers {
					if h.Name == hv.Name {
						check(hv.Value, h.Schema, h.SchemaSource, schema.Response, CodeParamInvalid, "")
					}
				}
			}
		}
	}
	return out
}

// inlineSegs is the path of an inline value from the root of the file it
// is written in.
func (k *Checker) inlineSegs(ex *Example, v Value) []any {
	src, ok := ex.valuePaths[v]
	if !ok {
		return nil
	}
	loc := k.doc.Locate(src, nil)
	if loc.File == nil {
		return nil
	}
	return pointerSegs(loc.File.Root, loc.Pointer)
}

// pointerSegs turns a JSON pointer within root into keys and indices.
func pointerSegs(root *spec.Node, pointer string) []any {
	var out []any
	n := root
	for _, tok := range spec.PointerPath(pointer) {
		key, _ := tok.(string)
		if n != nil && n.Kind == spec.Array {
			i, err := strconv.Atoi(key)
			if err == nil {
				out = append(out, i)
				if i >= 0 && i < len(n.Items) {
					n = n.Items[i]
				} else {
					n = nil
				}
				continue
			}
		}
		out = append(out, key)
		if n != nil {
			n = n.Get(key)
		}
	}
	return out
}
