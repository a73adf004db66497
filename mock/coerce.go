package mock

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/spec"
)

// Values written as text (a path, a query string, a header, a form field,
// or a request echoed into a response) are typed by their schema before
// they are compared or sent: "1" from a URL is the integer 1 where the
// schema says integer, by the contract's own reading (contract.TypesOf and
// contract.CoerceText), so that the mock and the contract never disagree.

// typer reads the types of a document's schemas.
type typer struct{ doc *spec.Document }

// types reads the types schema n admits, as the contract reads them.
func (t typer) types(n *spec.Node) contract.Types { return contract.TypesOf(t.doc, n) }

// property is the schema of a property of object schema n (through allOf,
// anyOf and oneOf), or nil.
func (t typer) property(n *spec.Node, name string, depth int) *spec.Node {
	n = t.doc.Deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return nil
	}
	if p := n.Get("properties"); p != nil {
		if s := p.Get(name); s != nil {
			return s
		}
	}
	for _, k := range [...]string{"allOf", "anyOf", "oneOf"} {
		if list := n.Get(k); list != nil && list.Kind == spec.Array {
			for _, m := range list.Items {
				if s := t.property(m, name, depth+1); s != nil {
					return s
				}
			}
		}
	}
	if ap := n.Get("additionalProperties"); ap != nil && ap.Kind == spec.Object {
		return ap
	}
	return nil
}

// items is the items schema of array schema n, or nil.
func (t typer) items(n *spec.Node) *spec.Node {
	n = t.doc.Deref(n)
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	if it := n.Get("items"); it != nil && it.Kind == spec.Object {
		return it
	}
	return nil
}

// coerce types the text scalars of v by schema n: strings where the
// schema does not admit a string but reads them as another type, inside
// objects and arrays too. Everything else is returned as it is.
func (t typer) coerce(n *spec.Node, v any, depth int) any {
	if n == nil || depth > 32 {
		return v
	}
	switch x := v.(type) {
	case string:
		ts := t.types(n)
		if ts&contract.TypeString != 0 || ts == 0 {
			return v
		}
		if ts&contract.TypeArray != 0 && ts&^(contract.TypeArray|contract.TypeNull) == 0 && !strings.HasPrefix(x, "[") {
			// A list sent as comma-separated text (a simple-style array).
			item := t.items(n)
			parts := strings.Split(x, ",")
			out := make([]any, len(parts))
			for i, p := range parts {
				out[i] = t.coerce(item, p, depth+1)
			}
			return out
		}
		if c, ok := contract.CoerceText(x, ts); ok {
			return c
		}
	case []any:
		item := t.items(n)
		if item == nil {
			return v
		}
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = t.coerce(item, it, depth+1)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, it := range x {
			out[k] = t.coerce(t.property(n, k, 0), it, depth+1)
		}
		return out
	}
	return v
}

// coerceValue types the literal text of an example's value by schema n,
// and writes as text the literal numbers and booleans where n takes a
// string and not their type, keeping notations and their positions as
// they are. It is for values that travel as text: parameters, form fields
// and parts.
func (t typer) coerceValue(n *spec.Node, v examples.Value, depth int) examples.Value {
	if n == nil || v == nil || depth > 32 {
		return v
	}
	switch x := v.(type) {
	case *examples.Literal:
		var own contract.Types
		switch lv := x.Value.(type) {
		case string:
			if c := t.coerce(n, lv, depth); !sameScalar(c, lv) {
				return literalTree(c, x.At)
			}
		case bool:
			own = contract.TypeBoolean
		case json.Number, float64, int:
			own = contract.TypeInteger | contract.TypeNumber
		}
		// A number or boolean written where the schema takes a string
		// only (Azure's queryId: 1 for a string parameter) is its text,
		// as the request carries it.
		if ts := t.types(n); own != 0 && ts != 0 && ts&own == 0 && ts&contract.TypeString != 0 {
			return &examples.Literal{Value: scalarText(x.Value), At: x.At}
		}
	case *examples.Array:
		item := t.items(n)
		out := &examples.Array{At: x.At, Items: make([]examples.Value, len(x.Items))}
		for i, it := range x.Items {
			out.Items[i] = t.coerceValue(item, it, depth+1)
		}
		return out
	case *examples.Object:
		out := &examples.Object{At: x.At, Fields: make([]examples.Field, len(x.Fields))}
		for i, f := range x.Fields {
			f.Value = t.coerceValue(t.property(n, f.Key, 0), f.Value, depth+1)
			out.Fields[i] = f
		}
		return out
	}
	return v
}

func sameScalar(a any, s string) bool {
	b, ok := a.(string)
	return ok && b == s
}

// literalTree writes a JSON value as example values located at at.
func literalTree(v any, at examples.Loc) examples.Value {
	switch x := v.(type) {
	case []any:
		out := &examples.Array{At: at, Items: make([]examples.Value, len(x))}
		for i, it := range x {
			out.Items[i] = literalTree(it, at)
		}
		return out
	case map[string]any:
		out := &examples.Object{At: at}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out.Fields = append(out.Fields, examples.Field{Key: k, KeyAt: at, Value: literalTree(x[k], at)})
		}
		return out
	}
	return &examples.Literal{Value: v, At: at}
}
