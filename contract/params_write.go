package contract

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// text writes a primitive value as text: numbers as written, booleans as
// true/false, null as empty; an object or array where a primitive belongs
// as JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e21 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return text(float64(x))
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case []byte:
		return string(x)
	case File:
		return string(x.Data)
	case *File:
		return string(x.Data)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// listOf returns the items of an array value (a single value is a list of
// one).
func listOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case nil:
		return nil
	}
	return []any{v}
}

// pairsOfValue returns an object's properties in the schema's order, then
// the others by name, so that a serialized object reads the same each time.
func (c *Contract) pairsOfValue(s sref, v any) [][2]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out [][2]any
	seen := map[string]bool{}
	for _, name := range c.propertyNames(s) {
		if val, ok := m[name]; ok {
			out = append(out, [2]any{name, val})
			seen[name] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, [2]any{k, m[k]})
	}
	return out
}

// escaper percent-encodes for one place of a URL.
type escaper func(string) string

// escapeQuery encodes a query key or value: everything but RFC 3986's
// unreserved characters, and with allowReserved its reserved ones too,
// except those that would end the value (&, =, #, +).
func escapeQuery(allowReserved bool) escaper {
	return func(s string) string { return escape(s, allowReserved) }
}

// escapePathValue encodes a path parameter value: everything but
// unreserved characters.
func escapePathValue(s string) string { return escape(s, false) }

func escape(s string, reserved bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if isUnreserved(ch) || reserved && strings.IndexByte(":/?[]@!$'()*,;", ch) >= 0 {
			if b.Len() > 0 {
				b.WriteByte(ch)
			}
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 8)
			b.WriteString(s[:i])
		}
		b.WriteByte('%')
		b.WriteByte(hex[ch>>4])
		b.WriteByte(hex[ch&15])
	}
	if b.Len() == 0 {
		return s
	}
	return b.String()
}

func isUnreserved(ch byte) bool {
	return 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || ch == '-' || ch == '.' || ch == '_' || ch == '~'
}

// delimiter is the text between items of a non-exploded value, as sent.
func (p *param) delimiter() string {
	switch p.style {
	case styleSpace:
		return "%20"
	case stylePipe:
		return "%7C"
	case styleTab:
		return "%09"
	}
	return ","
}

// joined writes the items of an array, or the name,value pairs of an
// object (name=value pairs when exploded), each escaped, between sep.
func (c *Contract) joined(p *param, v any, esc escaper, sep string, exploded bool) string {
	var parts []string
	if p.shape == object {
		for _, kv := range c.pairsOfValue(p.sch, v) {
			if exploded {
				parts = append(parts, esc(kv[0].(string))+"="+esc(text(kv[1])))
			} else {
				parts = append(parts, esc(kv[0].(string)), esc(text(kv[1])))
			}
		}
	} else {
		for _, it := range listOf(v) {
			parts = append(parts, esc(text(it)))
		}
	}
	return strings.Join(parts, sep)
}

// contentText encodes the value of a content-typed parameter.
func (c *Contract) contentText(p *param, v any) (string, error) {
	b, _, err := c.encode(v, p.content, p.content.name)
	return string(b), err
}

// writeQuery appends the query pairs of a parameter's value, escaped.
func (c *Contract) writeQuery(p *param, v any, out []string) ([]string, error) {
	esc := escapeQuery(p.allowReserved)
	name := esc(p.name)
	if p.content != nil {
		s, err := c.contentText(p, v)
		return append(out, name+"="+esc(s)), err
	}
	switch {
	case p.style == styleDeepObject:
		return c.writeDeep(p.sch, p.name, v, esc, out), nil
	case p.shape == object && p.explode:
		for _, kv := range c.pairsOfValue(p.sch, v) {
			out = append(out, esc(kv[0].(string))+"="+esc(text(kv[1])))
		}
		return out, nil
	case p.shape == array && p.explode:
		for _, it := range listOf(v) {
			out = append(out, name+"="+esc(text(it)))
		}
		return out, nil
	case p.shape != primitive:
		return append(out, name+"="+c.joined(p, v, esc, p.delimiter(), false)), nil
	}
	return append(out, name+"="+esc(text(v))), nil
}

// writeDeep writes a value as deepObject pairs: key[name]=value for each
// property, key[a][b]=value for nested objects, key[0]=value for the items
// of an array (as readDeepObject reads them back), and key=value for a
// primitive.
func (c *Contract) writeDeep(s sref, key string, v any, esc escaper, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for _, kv := range c.pairsOfValue(s, x) {
			ps, _ := c.propertyOf(s, kv[0].(string))
			out = c.writeDeep(ps, key+"["+kv[0].(string)+"]", kv[1], esc, out)
		}
	case []any:
		items := c.itemsOf(s)
		for i, it := range x {
			out = c.writeDeep(items, key+"["+strconv.Itoa(i)+"]", it, esc, out)
		}
	case nil:
		// A form has no null: the key is left out.
	default:
		out = append(out, esc(key)+"="+esc(text(x)))
	}
	return out
}

// pathText serializes a path parameter's value by its style.
func (c *Contract) pathText(p *param, v any) (string, error) {
	if p.content != nil {
		s, err := c.contentText(p, v)
		return escapePathValue(s), err
	}
	esc := escaper(escapePathValue)
	switch p.style {
	case styleLabel:
		if p.shape == primitive {
			return "." + esc(text(v)), nil
		}
		sep := ","
		if p.explode {
			sep = "."
		}
		return "." + c.joined(p, v, esc, sep, p.explode), nil
	case styleMatrix:
		name := esc(p.name)
		switch {
		case p.shape == primitive:
			if v == nil {
				return ";" + name, nil
			}
			return ";" + name + "=" + esc(text(v)), nil
		case p.explode && p.shape == array:
			var b strings.Builder
			for _, it := range listOf(v) {
				b.WriteString(";" + name + "=" + esc(text(it)))
			}
			return b.String(), nil
		case p.explode:
			return ";" + c.joined(p, v, esc, ";", true), nil
		}
		return ";" + name + "=" + c.joined(p, v, esc, ",", false), nil
	}
	if p.shape == primitive {
		return esc(text(v)), nil
	}
	return c.joined(p, v, esc, ",", p.explode), nil
}

// headerText serializes a header's value (simple style, not escaped).
func (c *Contract) headerText(p *param, v any) (string, error) {
	if p.content != nil {
		return c.contentText(p, v)
	}
	if p.shape == primitive {
		return text(v), nil
	}
	sep := ","
	switch p.style {
	case styleSpace:
		sep = " "
	case stylePipe:
		sep = "|"
	case styleTab:
		sep = "\t"
	}
	return c.joined(p, v, identity, sep, p.explode), nil
}

// escapeCookie encodes what a cookie value cannot hold (controls, space,
// quotes, comma, semicolon, backslash, percent).
func escapeCookie(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch <= ' ' || ch >= 0x7f || strings.IndexByte("\",;\\%", ch) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// cookiePairs serializes a cookie parameter into name=value pairs.
func (c *Contract) cookiePairs(p *param, v any) ([]string, error) {
	if p.content != nil {
		s, err := c.contentText(p, v)
		return []string{p.name + "=" + escapeCookie(s)}, err
	}
	switch {
	case p.shape == object && p.explode:
		var out []string
		for _, kv := range c.pairsOfValue(p.sch, v) {
			out = append(out, kv[0].(string)+"="+escapeCookie(text(kv[1])))
		}
		return out, nil
	case p.shape == array && p.explode:
		var out []string
		for _, it := range listOf(v) {
			out = append(out, p.name+"="+escapeCookie(text(it)))
		}
		return out, nil
	case p.shape != primitive:
		return []string{p.name + "=" + c.joined(p, v, escapeCookie, ",", false)}, nil
	}
	return []string{p.name + "=" + escapeCookie(text(v))}, nil
}
