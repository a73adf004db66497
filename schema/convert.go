package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
)

// dialect is the schema language of a document.
type dialect uint8

const (
	swagger2   dialect = iota + 1 // Swagger 2.0: draft 4 with x-nullable, file, boolean exclusive bounds
	oas30                         // OpenAPI 3.0: draft 4/5 with nullable, discriminator, readOnly/writeOnly
	jsonSchema                    // OpenAPI 3.1 and 3.2 (JSON Schema 2020-12 or jsonSchemaDialect), AsyncAPI (draft 7)
)

// Reserved keywords of the converted schemas. Each holds, as the only key
// of its object or beside others, what the source wrote at the same place
// without it: a schema position maps back to the source by dropping them.
const (
	kwNullable      = "x-specgate-nullable"      // {kwNullable: schema}: null, or the schema
	kwDiscriminator = "x-specgate-discriminator" // the discriminator with the oneOf/anyOf it selects from
)

// converter turns the spec.Node tree of one unit into the value
// jsonschema compiles: JSON Schema draft 7 for Swagger 2.0 and OpenAPI 3.0
// (whose keywords it maps), the document's own dialect for OpenAPI 3.1.
type converter struct {
	s          *Set
	u          *unit
	path       []string  // of the node converted, from the unit's root, for errors
	cpath      []string  // the same in the converted value
	registered []unitKey // the schemas noted as inside the unit
	err        error     // the first error
}

func (cv *converter) fail(n *spec.Node, format string, args ...any) {
	if cv.err != nil {
		return
	}
	e := &spec.Error{File: cv.u.file.Name, Pointer: cv.u.ptr + spec.Pointer(pathOf(cv.path)), Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Pos = n.Range.Start
	}
	cv.err = e
}

func pathOf(segs []string) []any {
	out := make([]any, len(segs))
	for i, s := range segs {
		out[i] = s
	}
	return out
}

func (cv *converter) push(segs ...string) {
	cv.path = append(cv.path, segs...)
	cv.cpath = append(cv.cpath, segs...)
}

func (cv *converter) pop(n int) {
	cv.path = cv.path[:len(cv.path)-n]
	cv.cpath = cv.cpath[:len(cv.cpath)-n]
}

// JSONValue converts a node into a JSON value as encoding/json decodes it
// with UseNumber.
func JSONValue(n *spec.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case spec.Bool:
		return n.Value == "true"
	case spec.Number:
		return json.Number(n.Value)
	case spec.String:
		return n.Value
	case spec.Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Key] = JSONValue(f.Value)
		}
		return m
	case spec.Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = JSONValue(it)
		}
		return s
	}
	return nil
}

// Keywords by the shape of their values. oas30Keywords are those an
// OpenAPI 3.0 Schema Object defines (Swagger 2.0's are fewer); the rest of
// JSON Schema, and extensions, are ignored there as unknown keywords.
var (
	oas30Keywords = map[string]bool{
		"type": true, "format": true, "enum": true, "default": true, "example": true,
		"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
		"maxLength": true, "minLength": true, "pattern": true, "maxItems": true, "minItems": true, "uniqueItems": true,
		"maxProperties": true, "minProperties": true, "required": true,
		"items": true, "properties": true, "additionalProperties": true,
		"allOf": true, "anyOf": true, "oneOf": true, "not": true,
		"readOnly": true, "writeOnly": true,
	}
	swaggerSkips = map[string]bool{"anyOf": true, "oneOf": true, "not": true, "writeOnly": true}

	// Values that are data, not schemas.
	dataKeywords = map[string]bool{"enum": true, "const": true, "default": true}
	// Schema-valued keywords (3.1).
	singleSchemaKeywords = map[string]bool{
		"items": true, "additionalProperties": true, "not": true, "contains": true, "if": true, "then": true, "else": true,
		"propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true, "additionalItems": true, "contentSchema": true,
	}
	mapSchemaKeywords  = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true, "$defs": true, "definitions": true}
	listSchemaKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	countKeywords      = map[string]bool{
		"maxLength": true, "minLength": true, "maxItems": true, "minItems": true, "maxProperties": true, "minProperties": true,
		"minContains": true, "maxContains": true,
	}
	numberKeywords = map[string]bool{"multipleOf": true, "maximum": true, "minimum": true, "exclusiveMaximum": true, "exclusiveMinimum": true}
	// Other JSON Schema keywords kept as written (3.1).
	plainKeywords = map[string]bool{
		"format": true, "uniqueItems": true, "readOnly": true, "writeOnly": true,
		"$id": true, "$anchor": true, "$dynamicAnchor": true, "$dynamicRef": true, "$recursiveAnchor": true,
		"contentEncoding": true, "contentMediaType": true, "deprecated": true,
	}
	jsonTypes = map[string]bool{"null": true, "boolean": true, "integer": true, "number": true, "string": true, "array": true, "object": true}
)

// schema converts the schema written at n. inherited holds the names of
// properties that the direction leaves optional, from the allOf the schema
// is a member of.
func (cv *converter) schema(n *spec.Node, inherited map[string]bool) any {
	switch n.Kind {
	case spec.Bool:
		return n.Value == "true"
	case spec.Object:
	default:
		// Not a schema: nothing to check (the structural validation of the
		// document reports it).
		return true
	}
	if cv.s.register(n, cv.u, cv.cpath) {
		cv.registered = append(cv.registered, unitKey{n, cv.u.dir})
	}
	wrap := cv.wrapsNull(n)
	if wrap {
		cv.cpath = append(cv.cpath, kwNullable)
		defer func() { cv.cpath = cv.cpath[:len(cv.cpath)-1] }()
	}
	if ref := n.Get("$ref"); ref != nil && ref.Kind == spec.String {
		target, ok := cv.ref(n, ref)
		if !ok {
			return true
		}
		if cv.s.dialect != jsonSchema {
			// OpenAPI 3.0 and Swagger 2.0 ignore a $ref's siblings.
			return map[string]any{"$ref": target}
		}
		out := cv.object(n, inherited)
		out["$ref"] = target
		return cv.nullable(n, out, wrap)
	}
	return cv.nullable(n, cv.object(n, inherited), wrap)
}

// ref returns the URL of the unit a $ref leads to, as the loader resolved
// it. A reference the loader could not resolve is left to the validator
// (a 3.1 anchor or $id-relative reference) or fails the compilation.
func (cv *converter) ref(n, ref *spec.Node) (string, bool) {
	r := cv.s.doc.RefOf(n)
	if r != nil && r.Target != nil && r.Err == nil {
		return cv.s.unitFor(r.Target, r.TargetFile, r.TargetPtr, cv.u.dir).url, true
	}
	if cv.s.dialect == jsonSchema && !strings.HasPrefix(ref.Value, "#/") && strings.Contains(ref.Value, "#") {
		return ref.Value, true
	}
	msg := fmt.Sprintf("$ref %q does not resolve", ref.Value)
	if r != nil && r.Err != nil {
		msg = r.Err.Msg
	}
	cv.push("$ref")
	cv.fail(ref, "%s", msg)
	cv.pop(1)
	return "", false
}

// object converts the keywords of a schema object other than $ref.
func (cv *converter) object(n *spec.Node, inherited map[string]bool) map[string]any {
	out := make(map[string]any, len(n.Fields))
	d := cv.s.dialect
	optional := cv.optionalNames(n, inherited)
	discriminated := cv.discriminated(n)
	for i := range n.Fields {
		f := &n.Fields[i]
		k, v := f.Key, f.Value
		if d != jsonSchema && (!oas30Keywords[k] || d == swagger2 && swaggerSkips[k]) {
			continue
		}
		cv.push(k)
		switch {
		case k == "type":
			if t := cv.types(v); t != nil {
				out[k] = t
			}
		case k == "example":
			out["examples"] = append(toList(out["examples"]), JSONValue(v))
		case k == "examples":
			if v.Kind == spec.Array {
				out[k] = append(toList(JSONValue(v)), toList(out[k])...)
			}
		case dataKeywords[k]:
			if k != "enum" || v.Kind == spec.Array {
				out[k] = JSONValue(v)
			}
		case k == "required":
			if names := cv.required(v, optional); names != nil {
				out[k] = names
			}
		case k == "items" && v.Kind == spec.Array:
			if d != jsonSchema {
				out[k] = cv.list(v, inherited)
			} else {
				out[k] = cv.list(v, nil)
			}
		case singleSchemaKeywords[k]:
			if k == "additionalProperties" && v.Kind == spec.Bool {
				out[k] = v.Value == "true"
			} else {
				out[k] = cv.schema(v, nil)
			}
		case mapSchemaKeywords[k]:
			if v.Kind == spec.Object {
				m := make(map[string]any, len(v.Fields))
				for _, pf := range v.Fields {
					cv.push(pf.Key)
					m[pf.Key] = cv.schema(pf.Value, nil)
					cv.pop(1)
				}
				out[k] = m
			}
		case listSchemaKeywords[k]:
			if v.Kind == spec.Array && len(v.Items) > 0 {
				var inh map[string]bool
				if k == "allOf" {
					inh = optional
				}
				if k == discriminated {
					// The discriminator takes the list (see discriminator).
					cv.cpath = append(cv.cpath[:len(cv.cpath)-1], kwDiscriminator, k)
					out[k] = cv.list(v, inh)
					cv.cpath = append(cv.cpath[:len(cv.cpath)-2], k)
				} else {
					out[k] = cv.list(v, inh)
				}
			}
		case countKeywords[k]:
			if r := number(v); r != nil && r.IsInt() && r.Sign() >= 0 {
				out[k] = json.Number(v.Value)
			}
		case k == "exclusiveMaximum" || k == "exclusiveMinimum":
			if v.Kind == spec.Bool {
				// Draft 4's boolean form makes maximum/minimum exclusive.
				bound := n.Get(strings.Replace(k, "exclusiveM", "m", 1))
				if v.Value == "true" && number(bound) != nil {
					out[k] = json.Number(bound.Value)
				}
			} else if number(v) != nil {
				out[k] = json.Number(v.Value)
			}
		case numberKeywords[k]:
			if r := number(v); r != nil && (k != "multipleOf" || r.Sign() > 0) {
				out[k] = json.Number(v.Value)
			}
		case k == "pattern":
			if v.Kind == spec.String {
				if _, err := cv.s.patterns.compile(v.Value); err != nil {
					cv.fail(v, "%v", err)
				} else {
					out[k] = v.Value
				}
			}
		case k == "dependentRequired":
			if v.Kind == spec.Object {
				m := map[string]any{}
				for _, df := range v.Fields {
					if names := stringSet(df.Value); names != nil {
						m[df.Key] = names
					}
				}
				out[k] = m
			}
		case k == "dependencies":
			if v.Kind == spec.Object {
				m := map[string]any{}
				for _, df := range v.Fields {
					cv.push(df.Key)
					if df.Value.Kind == spec.Array {
						if names := stringSet(df.Value); names != nil {
							m[df.Key] = names
						}
					} else {
						m[df.Key] = cv.schema(df.Value, nil)
					}
					cv.pop(1)
				}
				out[k] = m
			}
		case k == "$recursiveRef":
			// "#" names the schema resource the keyword is in: in an
			// OpenAPI document, the component it is written in. A static
			// $ref to it keeps its meaning wherever the validator enters.
			if v.Kind == spec.String && v.Value == "#" {
				out["$ref"] = cv.s.resourceOf(cv.u).url
			} else {
				out[k] = JSONValue(v)
			}
		case k == "$schema":
			if v.Kind == spec.String && knownDraft(v.Value) {
				out[k] = v.Value
			}
		case plainKeywords[k]:
			if k == "format" && v.Kind == spec.String || k != "format" {
				out[k] = JSONValue(v)
			}
		}
		cv.pop(1)
	}
	cv.discriminator(n, out)
	return out
}

func toList(v any) []any {
	l, _ := v.([]any)
	return l
}

// list converts an array of schemas.
func (cv *converter) list(v *spec.Node, inherited map[string]bool) []any {
	out := make([]any, len(v.Items))
	for i, it := range v.Items {
		cv.push(fmt.Sprint(i))
		out[i] = cv.schema(it, inherited)
		cv.pop(1)
	}
	return out
}

// types reads a type keyword: a type name or a list of them. Names that
// are no JSON type (Swagger's file) constrain nothing.
func (cv *converter) types(v *spec.Node) any {
	switch v.Kind {
	case spec.String:
		if jsonTypes[v.Value] {
			return v.Value
		}
	case spec.Array:
		var out []any
		for _, it := range v.Items {
			if it.Kind == spec.String && jsonTypes[it.Value] && !slices.Contains(out, any(it.Value)) {
				out = append(out, it.Value)
			}
		}
		if len(out) > 0 && len(out) == len(v.Items) {
			return out
		}
	}
	return nil
}

// required converts a required list without the names the direction
// leaves optional. Swagger's parameter-level "required: true" is no list.
func (cv *converter) required(v *spec.Node, optional map[string]bool) []any {
	names := stringSet(v)
	if names == nil || len(optional) == 0 {
		return names
	}
	kept := names[:0]
	for _, name := range names {
		if !optional[name.(string)] {
			kept = append(kept, name)
		}
	}
	return kept
}

// stringSet reads an array of strings without repeats; nil when v is not
// an array of strings.
func stringSet(v *spec.Node) []any {
	if v == nil || v.Kind != spec.Array {
		return nil
	}
	out := make([]any, 0, len(v.Items))
	seen := make(map[string]bool, len(v.Items))
	for _, it := range v.Items {
		if it.Kind != spec.String {
			return nil
		}
		if !seen[it.Value] {
			seen[it.Value] = true
			out = append(out, it.Value)
		}
	}
	return out
}

// number reads a number node as an exact rational, or nil.
func number(n *spec.Node) *big.Rat {
	if n == nil || n.Kind != spec.Number {
		return nil
	}
	r, ok := new(big.Rat).SetString(n.Value)
	if !ok {
		return nil
	}
	return r
}

// optionalNames returns the properties of n (its own, its allOf members'
// and the inherited ones) that values travelling in the unit's direction
// need not carry: readOnly ones in requests, writeOnly ones in responses.
// It is nil when n requires nothing.
func (cv *converter) optionalNames(n *spec.Node, inherited map[string]bool) map[string]bool {
	dir := cv.u.dir
	if dir == 0 || (n.Get("required") == nil && n.Get("allOf") == nil) {
		return inherited
	}
	key := "readOnly"
	if dir == Response {
		key = "writeOnly"
	}
	out, copied := inherited, false
	var visit func(s *spec.Node, depth int)
	visit = func(s *spec.Node, depth int) {
		if s == nil || depth > 16 {
			return
		}
		s = cv.s.doc.Deref(s)
		if props := s.Get("properties"); props != nil && props.Kind == spec.Object {
			for _, p := range props.Fields {
				if p.Value.Get(key).IsTrue() || cv.s.doc.Deref(p.Value).Get(key).IsTrue() {
					if !copied {
						cp := make(map[string]bool, len(inherited)+1)
						for k := range inherited {
							cp[k] = true
						}
						out, copied = cp, true
					}
					out[p.Key] = true
				}
			}
		}
		if all := s.Get("allOf"); all != nil && all.Kind == spec.Array {
			for _, m := range all.Items {
				visit(m, depth+1)
			}
		}
	}
	visit(n, 0)
	return out
}

// isNullable reports whether a schema says null is valid the OpenAPI 3.0
// way (nullable; Swagger's x-nullable; also honoured in 3.1 documents that
// still write it).
func isNullable(n *spec.Node) bool {
	return n.Get("nullable").IsTrue() || n.Get("x-nullable").IsTrue()
}

// wrapsNull reports whether a nullable schema has keywords that would
// reject null however its type and enum read: it is then wrapped in
// kwNullable.
func (cv *converter) wrapsNull(n *spec.Node) bool {
	if !isNullable(n) {
		return false
	}
	d := cv.s.dialect
	if d == jsonSchema && (n.Get("$ref") != nil || n.Get("const") != nil) {
		return true
	}
	if d != jsonSchema && n.Get("$ref") != nil {
		return false
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not"} {
		if n.Get(k) != nil && !(d == swagger2 && swaggerSkips[k]) {
			return true
		}
	}
	return false
}

// nullable applies nullable: null is valid, also beside an enum that does
// not list it (leniently, as most tools read it). wrap is wrapsNull(n).
func (cv *converter) nullable(n *spec.Node, out map[string]any, wrap bool) any {
	if !isNullable(n) {
		return out
	}
	switch t := out["type"].(type) {
	case string:
		if t != "null" {
			out["type"] = []any{t, "null"}
		}
	case []any:
		if !slices.Contains(t, "null") {
			out["type"] = append(t, "null")
		}
	}
	if e, ok := out["enum"].([]any); ok && !slices.Contains(e, nil) {
		out["enum"] = append(e, nil)
	}
	if wrap {
		return map[string]any{kwNullable: out}
	}
	return out
}

// knownDraft reports whether a $schema names a dialect the validator
// knows; any other is ignored (never fetched).
func knownDraft(u string) bool {
	return draftOf(u) != nil
}
