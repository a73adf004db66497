package dsl

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
func jsonLit(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
func regoArray(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
func regoSet(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "{" + strings.Join(q, ", ") + "}"
}
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// nodeJSON writes a node as JSON (valid Rego), keys in source order.
func nodeJSON(n *spec.Node) string {
	var b strings.Builder
	writeJSON(&b, n)
	return b.String()
}
func writeJSON(b *strings.Builder, n *spec.Node) {
	switch n.Kind {
	case spec.Null:
		b.WriteString("null")
	case spec.Bool:
		b.WriteString(n.Value)
	case spec.Number:
		if _, err := strconv.ParseFloat(n.Value, 64); err == nil && !strings.ContainsAny(n.Value, "xob_") {
			b.WriteString(n.Value)
		} else {
			b.WriteString(quote(n.Value))
		}
	case spec.String:
		b.WriteString(quote(n.Value))
	case spec.Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, it)
		}
		b.WriteByte(']')
	case spec.Object:
		b.WriteByte('{')
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(f.Key))
			b.WriteString(": ")
			writeJSON(b, f.Value)
		}
		b.WriteByte('}')
	}
}
