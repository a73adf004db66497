package compat

import (
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// This file reads parameters as they travel: a query, path, header or
// cookie parameter is text, written by its style and explode (OpenAPI 3)
// or collectionFormat (Swagger 2.0). What a change does to consumers
// depends on how the values they send read under the revision's rules.

// paramShape is what the comparison of two parameters needs to know.
type paramShape struct {
	base, rev *SchemaView // nil when a side has no schema
	// text is set when both are written by a style, not as content.
	text bool
	// becameArray is set when a scalar became an array of that scalar;
	// items is then the schema of the array's first item, at itemsPath
	// within the revision's schema.
	becameArray bool
	items       *SchemaView
	itemsPath   spec.Path
	// wire shows how the revision writes the array; risky is set when a
	// value the base accepted may hold the array's delimiter, which then
	// splits it into several items.
	wire      string
	delimiter string
	risky     bool
	typePath  spec.Path // where the revision's schema says array
}

// paramShape computes (once) the shape of a pair of parameters.
func (d *differ) paramShape(b, r *spec.Parameter) *paramShape {
	k := [2]*spec.Parameter{b, r}
	if sh := d.shapes[k]; sh != nil {
		return sh
	}
	sh := &paramShape{}
	d.shapes[k] = sh
	bn, rn := paramSchema(b), paramSchema(r)
	if bn == nil || rn == nil {
		return sh
	}
	sh.base, sh.rev = d.vs.view(d.base, bn), d.vs.view(d.rev, rn)
	sh.text = !isContent(d.base, b) && !isContent(d.rev, r)
	if !sh.text || kindOf(sh.base) != "primitive" || kindOf(sh.rev) != "array" {
		return sh
	}
	sh.becameArray = true
	sh.typePath = join(r.SchemaSource, sh.rev.At("type"))
	prefix, tail := d.vs.arrayItems(sh.rev)
	sh.items, sh.itemsPath = tail.view, tail.path
	if len(prefix) > 0 {
		sh.items, sh.itemsPath = prefix[0].view, prefix[0].path
	}
	style, explode := serialization(d.rev, r)
	sh.wire = wire(style, explode, "array", r.Name)
	sh.delimiter = arrayDelimiter(style, explode)
	sh.risky = sh.delimiter != "" && mayContain(sh.base, sh.delimiter)
	return sh
}

// paramSchema returns a parameter's schema as written: its schema
// keyword (with a $ref's siblings), the schema of its content, or for
// Swagger 2.0 the parameter itself.
func paramSchema(p *spec.Parameter) *spec.Node {
	if s := p.Node.Get("schema"); s != nil {
		return s
	}
	return p.Schema
}

// isContent reports whether an OpenAPI 3 parameter is written as a media
// type (content) rather than by a style.
func isContent(doc *spec.Document, p *spec.Parameter) bool {
	return doc.Format != spec.Swagger && p.Node.Get("content") != nil && p.Node.Get("schema") == nil
}

// kindOf names what a parameter's values are on the wire: "primitive",
// "array" or "object"; "" when its types do not say.
func kindOf(v *SchemaView) string {
	if len(v.Types) == 0 {
		return ""
	}
	kind := ""
	for _, t := range v.Types {
		k := "primitive"
		if t == "array" || t == "object" {
			k = t
		}
		if kind != "" && kind != k {
			return ""
		}
		kind = k
	}
	return kind
}

// serialization returns a parameter's style and explode, with the
// defaults of its location; Swagger 2.0's collectionFormat maps onto them
// (tsv as tabDelimited).
func serialization(doc *spec.Document, p *spec.Parameter) (style string, explode bool) {
	n := p.Node
	if doc.Format == spec.Swagger {
		switch n.GetStr("collectionFormat") {
		case "multi":
			return "form", true
		case "ssv":
			return "spaceDelimited", false
		case "pipes":
			return "pipeDelimited", false
		case "tsv":
			return "tabDelimited", false
		}
		if p.In == "path" || p.In == "header" {
			return "simple", false
		}
		return "form", false
	}
	style = n.GetStr("style")
	if style == "" {
		switch p.In {
		case "path", "header":
			style = "simple"
		default:
			style = "form"
		}
	}
	if e := n.Get("explode"); e != nil && e.Kind == spec.Bool {
		return style, e.IsTrue()
	}
	return style, style == "form"
}

// wire shows how a style writes a value of a kind, for parameter name.
// Equal texts mean equal requests.
func wire(style string, explode bool, kind, name string) string {
	switch kind {
	case "primitive":
		switch style {
		case "simple":
			return "v"
		case "label":
			return ".v"
		case "matrix":
			return ";" + name + "=v"
		}
		return name + "=v"
	case "array":
		switch style {
		case "form":
			if explode {
				return name + "=a&" + name + "=b"
			}
			return name + "=a,b"
		case "spaceDelimited":
			return name + "=a%20b"
		case "pipeDelimited":
			return name + "=a|b"
		case "tabDelimited":
			return name + "=a%09b"
		case "simple":
			return "a,b"
		case "label":
			if explode {
				return ".a.b"
			}
			return ".a,b"
		case "matrix":
			if explode {
				return ";" + name + "=a;" + name + "=b"
			}
			return ";" + name + "=a,b"
		}
	case "object":
		switch style {
		case "form":
			if explode {
				return "k=v&k2=v2"
			}
			return name + "=k,v,k2,v2"
		case "deepObject":
			return name + "[k]=v&" + name + "[k2]=v2"
		case "simple":
			if explode {
				return "k=v,k2=v2"
			}
			return "k,v,k2,v2"
		case "label":
			if explode {
				return ".k=v.k2=v2"
			}
			return ".k,v,k2,v2"
		case "matrix":
			if explode {
				return ";k=v;k2=v2"
			}
			return ";" + name + "=k,v,k2,v2"
		}
	}
	return style + "/" + strconv.FormatBool(explode)
}

// arrayDelimiter is what separates the items of an array in one value, ""
// when each item is its own name=value pair.
func arrayDelimiter(style string, explode bool) string {
	switch style {
	case "form":
		if explode {
			return ""
		}
		return ","
	case "spaceDelimited":
		return " "
	case "pipeDelimited":
		return "|"
	case "tabDelimited":
		return "\t"
	case "label":
		if explode {
			return "."
		}
		return ","
	case "matrix":
		if explode {
			return ""
		}
		return ","
	}
	return ","
}

// safeFormats hold no comma, space, pipe or tab.
var safeFormats = map[string]bool{
	"uuid": true, "date": true, "date-time": true, "time": true, "int32": true, "int64": true, "ipv4": true, "ipv6": true,
	"email": true, "hostname": true, "byte": true, "duration": true,
}

// mayContain reports whether a value of v may hold delim.
func mayContain(v *SchemaView, delim string) bool {
	if vals, ok := enumValues(v, true); ok {
		for _, s := range vals {
			if uq, err := strconv.Unquote(s); err != nil || strings.Contains(uq, delim) {
				return true
			}
		}
		return false
	}
	if v.May("string") && !(safeFormats[v.Str("format")] && delim != ".") {
		return true
	}
	return delim == "." && v.May("number")
}

// serializationChanged reports the parameters whose values consumers send
// read differently in the revision.
func serializationChanged(c *Check, base, rev *spec.Parameter) {
	sh := c.d.paramShape(base, rev)
	bc, rc := isContent(c.d.base, base), isContent(c.d.rev, rev)
	switch {
	case bc != rc:
		how := func(content bool) string {
			if content {
				return "as a media type (content)"
			}
			return "by its style"
		}
		c.Revision(at(rev.Source, rev.Node, "content", "schema"), "%s is now written %s (was %s)", describeParam(rev), how(rc), how(bc))
	case sh.base == nil || !sh.text:
	case sh.becameArray:
		if sh.risky {
			c.Revision(sh.typePath, "%s now takes an array written %s: a value containing %q, which the base accepted as one value, now reads as several items",
				describeParam(rev), sh.wire, sh.delimiter)
		}
	default:
		kind := kindOf(sh.base)
		if kind == "" {
			return
		}
		bs, be := serialization(c.d.base, base)
		rs, re := serialization(c.d.rev, rev)
		if bw, rw := wire(bs, be, kind, base.Name), wire(rs, re, kind, rev.Name); bw != rw {
			where := at(rev.Source, rev.Node, "explode", "style")
			if bs != rs {
				where = at(rev.Source, rev.Node, "style", "collectionFormat", "explode")
			}
			c.Revision(where, "%s is now written %s (was %s)", describeParam(rev), rw, bw)
		}
	}
}
