package examples

import (
	"encoding/json"
	"slices"
	"strings"
)

// notationText stands in for a notation whose value is not known before a
// run ($(token), ${NAME} without a default) wherever the check of an
// example needs text: in a path, a header, a body.
const notationText = "specgate-notation"

// holeKind says what the check of an example against its specification
// may say about the place of a notation.
type holeKind uint8

const (
	// holeAny: the notation stands for any valid value ($(id), a pattern
	// matcher); nothing at or below it is checked.
	holeAny holeKind = iota
	// holeType: the notation stands for any value of a type ((integer),
	// (id:string), $match(dataType: …)); only that type is checked.
	holeType
)

// hole is the place of a notation in an example, as keys and indices from
// the example file's root.
type hole struct {
	segs []any
	kind holeKind
	raw  string // the notation as written
}

type holes []hole

// plainer turns the values of an example into plain JSON for a check
// against the specification: literals as written, an environment variable
// with a default as its default (what a run without the variable sends), a
// matcher of one exact value as that value, a typed placeholder as a
// value of its type, and anything else as notationText, each notation
// recorded as a hole.
type plainer struct {
	holes holes
}

func (p *plainer) value(v Value, segs []any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case *Literal:
		return v.Value
	case *Object:
		m := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			m[f.Key] = p.value(f.Value, with(segs, f.Key))
		}
		return m
	case *Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = p.value(it, with(segs, i))
		}
		return out
	case *Template:
		return p.template(v, segs)
	case *Capture:
		return p.typed(v.Type, v.Raw, segs)
	case *TypeOf:
		return p.typed(v.Type, v.Raw, segs)
	case *Match:
		if v.Exact != nil && v.Exact.Kind == OperandLiteral && v.Pattern == nil && v.DataType == "" && v.Contains == nil {
			return v.Exact.Literal
		}
		if v.DataType != "" {
			return p.typed(v.DataType, v.Raw, segs)
		}
		p.holes = append(p.holes, hole{segs: segs, kind: holeAny, raw: v.Raw})
		return notationText
	}
	return nil
}

// template writes a string with notations: variables with a default take
// it (a whole-string variable with its JSON type, as at run time); any
// other notation makes the place a hole.
func (p *plainer) template(t *Template, segs []any) any {
	if len(t.Parts) == 1 && t.Parts[0].Env != nil && t.Parts[0].Env.HasDefault {
		return typedText(t.Parts[0].Env.Default)
	}
	var b strings.Builder
	known := true
	for _, seg := range t.Parts {
		switch {
		case seg.Env != nil && seg.Env.HasDefault:
			b.WriteString(seg.Env.Default)
		case seg.Env != nil, seg.Lookup != nil:
			b.WriteString(notationText)
			known = false
		default:
			b.WriteString(seg.Text)
		}
	}
	if !known {
		p.holes = append(p.holes, hole{segs: segs, kind: holeAny, raw: t.Raw})
	}
	return b.String()
}

// typed returns a value of type t for a placeholder, a capture or a
// dataType matcher; any and anyvalue stand for anything.
func (p *plainer) typed(t DataType, raw string, segs []any) any {
	v, ok := typeSample(t)
	kind := holeType
	if !ok {
		kind, v = holeAny, notationText
	}
	p.holes = append(p.holes, hole{segs: segs, kind: kind, raw: raw})
	return v
}

// typeSample is a value of a data type, for checking the type a notation
// stands for against a schema; ok is false for any and anyvalue.
func typeSample(t DataType) (any, bool) {
	switch t {
	case TypeString:
		return "text", true
	case TypeNumber, TypeInteger:
		return json.Number("1"), true
	case TypeBoolean:
		return true, true
	case TypeNull:
		return nil, true
	case TypeObject:
		return map[string]any{}, true
	case TypeArray:
		return []any{}, true
	case TypeEmail:
		return "user@example.com", true
	case TypeDate:
		return "2024-01-01", true
	case TypeDateTime:
		return "2024-01-01T00:00:00Z", true
	case TypeTime:
		return "10:30:00Z", true
	case TypeUUID:
		return "123e4567-e89b-42d3-a456-426614174000", true
	case TypeURL, TypeURLHTTPS:
		return "https://example.com/", true
	case TypeURLHTTP:
		return "http://example.com/", true
	case TypeURLPath:
		return "/path", true
	}
	return nil, false
}

// wholeValueKeywords are the schema keywords whose verdict on a value
// depends on the values inside it: a problem with one of them above a
// notation may come from the stand-in for the notation.
var wholeValueKeywords = []string{
	"oneOf", "anyOf", "allOf", "not", "if", "then", "else", "enum", "const", "uniqueItems",
	"contains", "minContains", "maxContains", "discriminator", "dependentSchemas", "dependencies",
	"unevaluatedProperties", "unevaluatedItems",
}

// hides reports whether a problem at segs (from the file's root) with the
// keyword is about a notation's stand-in rather than the example: at or
// below a hole (except the type a typed placeholder stands for), or above
// one with a keyword that reads the values inside.
func (hs holes) hides(segs []any, keyword string) bool {
	for _, h := range hs {
		if hasPrefix(segs, h.segs) {
			if h.kind == holeType && len(segs) == len(h.segs) && keyword == "type" {
				continue
			}
			return true
		}
		if hasPrefix(h.segs, segs) && slices.Contains(wholeValueKeywords, keyword) {
			return true
		}
	}
	return false
}

// typed returns the typed hole exactly at segs, if any.
func (hs holes) at(segs []any) *hole {
	for i := range hs {
		if len(hs[i].segs) == len(segs) && hasPrefix(segs, hs[i].segs) {
			return &hs[i]
		}
	}
	return nil
}

// under reports whether a hole lies at or below segs.
func (hs holes) under(segs []any) bool {
	for _, h := range hs {
		if hasPrefix(h.segs, segs) {
			return true
		}
	}
	return false
}

func hasPrefix(segs, prefix []any) bool {
	if len(prefix) > len(segs) {
		return false
	}
	for i, s := range prefix {
		if segs[i] != s {
			return false
		}
	}
	return true
}

// jsonPath writes keys and indices as a JSON path: $.http-request.body.tags[0].
func jsonPath(segs []any) string {
	p := "$"
	for _, s := range segs {
		switch s := s.(type) {
		case int:
			p = indexPath(p, s)
		case string:
			p = childPath(p, s)
		}
	}
	return p
}
