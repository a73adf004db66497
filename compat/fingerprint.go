package compat

import (
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// A fingerprint identifies what a schema means: two views with equal
// fingerprints accept the same values, whatever their spelling (an inline
// schema and a $ref to an identical one; anyOf alternatives in another
// order; nullable: true and type: [x, "null"]; allOf members merged or
// not). Annotations are left out. A schema that reaches itself through
// $refs has no fingerprint: it is compared keyword by keyword.
type fingerprint struct {
	sum   string
	known bool
	busy  bool // being computed: meeting it again means a cycle
}

// subschemaKeywords hold one schema; schemaMaps a schema per name;
// schemaLists a schema per position.
var (
	subschemaKeywords = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true, "additionalItems": true,
		"contains": true, "propertyNames": true, "not": true, "if": true, "then": true, "else": true, "contentSchema": true,
		"items": true,
	}
	schemaMaps  = map[string]bool{"patternProperties": true, "dependentSchemas": true}
	schemaLists = map[string]bool{"prefixItems": true, "oneOf": true, "anyOf": true}
)

// equal reports whether two views are known to mean the same.
func (vs *viewSet) equal(a, b *SchemaView) bool {
	fa, fb := vs.fingerprint(a), vs.fingerprint(b)
	return fa.known && fb.known && fa.sum == fb.sum
}

func (vs *viewSet) fingerprint(v *SchemaView) *fingerprint {
	if fp := vs.fps[v]; fp != nil {
		if fp.busy {
			return &fingerprint{}
		}
		return fp
	}
	fp := &fingerprint{busy: true}
	vs.fps[v] = fp
	var parts []string
	ok := true
	sub := func(doc *spec.Document, n *spec.Node) string {
		f := vs.fingerprint(vs.view(doc, n))
		ok = ok && f.known
		return f.sum
	}
	switch {
	case v.False:
		parts = append(parts, "false")
	case v.alts != nil:
		var branches []string
		for _, a := range vs.alternatives(v) {
			f := vs.fingerprint(a.view)
			ok = ok && f.known
			branches = append(branches, f.sum)
		}
		sort.Strings(branches)
		parts = append(parts, v.alts.keyword+"("+strings.Join(branches, ",")+")", "null="+strconv.FormatBool(v.Nullable))
	default:
		types := append([]string(nil), v.Types...)
		sort.Strings(types)
		parts = append(parts, "type="+strings.Join(types, "|"), "null="+strconv.FormatBool(v.Nullable))
		names := make([]string, 0, len(v.Properties))
		for _, p := range v.Properties {
			names = append(names, p.Name)
		}
		sort.Strings(names)
		for _, name := range names {
			parts = append(parts, "p:"+strconv.Quote(name)+"="+sub(v.doc, v.props[name].Node))
		}
		req := make([]string, 0, len(v.Required))
		for name := range v.Required {
			req = append(req, strconv.Quote(name))
		}
		sort.Strings(req)
		parts = append(parts, "required="+strings.Join(req, ","))
		kws := make([]string, 0, len(v.keywords))
		for k := range v.keywords {
			switch k {
			case "type", "nullable", "x-nullable", "properties":
			default:
				kws = append(kws, k)
			}
		}
		sort.Strings(kws)
		for _, k := range kws {
			var vals []string
			for _, o := range v.keywords[k] {
				vals = append(vals, vs.valueFingerprint(v.doc, k, o.Value, sub))
			}
			sort.Strings(vals)
			parts = append(parts, k+"="+strings.Join(vals, "&"))
		}
	}
	h := fnv.New128a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	*fp = fingerprint{sum: string(h.Sum(nil)), known: ok}
	return fp
}

// valueFingerprint renders one keyword's value: subschemas by their
// fingerprints, sets (enum, required names) in order.
func (vs *viewSet) valueFingerprint(doc *spec.Document, k string, n *spec.Node, sub func(*spec.Document, *spec.Node) string) string {
	switch {
	case subschemaKeywords[k] && n.Kind != spec.Array:
		return sub(doc, n)
	case schemaMaps[k] && n.Kind == spec.Object:
		var out []string
		for _, f := range n.Fields {
			out = append(out, strconv.Quote(f.Key)+":"+sub(doc, f.Value))
		}
		sort.Strings(out)
		return "{" + strings.Join(out, ",") + "}"
	case (schemaLists[k] || k == "items") && n.Kind == spec.Array:
		out := make([]string, len(n.Items))
		for i, it := range n.Items {
			out[i] = sub(doc, it)
		}
		if k == "oneOf" || k == "anyOf" {
			sort.Strings(out)
		}
		return "[" + strings.Join(out, ",") + "]"
	case k == "enum" || k == "x-extensible-enum":
		vals := valueSet(n, false)
		sort.Strings(vals)
		return "[" + strings.Join(vals, ",") + "]"
	case k == "dependencies" && n.Kind == spec.Object:
		var out []string
		for _, f := range n.Fields {
			if f.Value.Kind == spec.Array {
				names := valueSet(f.Value, false)
				sort.Strings(names)
				out = append(out, strconv.Quote(f.Key)+":["+strings.Join(names, ",")+"]")
			} else {
				out = append(out, strconv.Quote(f.Key)+":"+sub(doc, f.Value))
			}
		}
		sort.Strings(out)
		return "{" + strings.Join(out, ",") + "}"
	case k == "dependentRequired" && n.Kind == spec.Object:
		var out []string
		for _, f := range n.Fields {
			names := valueSet(f.Value, false)
			sort.Strings(names)
			out = append(out, strconv.Quote(f.Key)+":["+strings.Join(names, ",")+"]")
		}
		sort.Strings(out)
		return "{" + strings.Join(out, ",") + "}"
	}
	return canonical(n)
}

// valueSet lists the canonical values of an array without null (null is
// read as nullable), as text values when text is set.
func valueSet(n *spec.Node, text bool) []string {
	if n == nil || n.Kind != spec.Array {
		return nil
	}
	out := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		if it.Kind == spec.Null {
			continue
		}
		out = appendNew(out, valueText(it, text))
	}
	return out
}

// valueText renders a value canonically; a text value (a parameter's or a
// header's) is its characters on the wire, so 1 and "1" are one.
func valueText(n *spec.Node, text bool) string {
	if text && (n.Kind == spec.String || n.Kind == spec.Number || n.Kind == spec.Bool) {
		if n.Kind == spec.Number {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return strconv.Quote(strconv.FormatFloat(f, 'g', -1, 64))
			}
		}
		return strconv.Quote(n.Value)
	}
	return canonical(n)
}
