package apitest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// simpleSchema is what a negative test needs to know of a schema to
// break it for sure: one type, its bounds and enum, nothing that could
// make another value valid (composition, conditionals, several types).
type simpleSchema struct {
	node     *spec.Node
	typ      string // integer, number, boolean, string, array, object
	readOnly bool
	required []string
	enum     []*spec.Node
	max, min *spec.Node // maximum and minimum
	exclMax  *spec.Node // OpenAPI 3.1's numeric exclusiveMaximum
	exclMin  *spec.Node
	maxLen   int // -1 when unbounded
	minLen   int
}

// simple reads a schema as a simpleSchema; nil when it is not one.
func (p *Plan) simple(sp *specPlan, n *spec.Node) *simpleSchema {
	n = sp.doc.Deref(n)
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not", "if", "discriminator", "$ref", "$dynamicRef", "x-specgate-nullable"} {
		if n.Get(k) != nil {
			return nil
		}
	}
	s := &simpleSchema{node: n, readOnly: n.Get("readOnly").IsTrue(), maxLen: -1}
	switch t := n.Get("type"); {
	case t == nil:
		return nil
	case t.Kind == spec.String:
		s.typ = t.Value
	case t.Kind == spec.Array:
		for _, it := range t.Items {
			if it.Value == "null" {
				continue
			}
			if s.typ != "" {
				return nil
			}
			s.typ = it.Value
		}
	}
	switch s.typ {
	case "integer", "number", "boolean", "string", "array", "object":
	default:
		return nil
	}
	if req := n.Get("required"); req != nil && req.Kind == spec.Array {
		for _, r := range req.Items {
			if r.Kind == spec.String {
				s.required = append(s.required, r.Value)
			}
		}
	}
	if e := n.Get("enum"); e != nil && e.Kind == spec.Array {
		s.enum = e.Items
	}
	s.max, s.min = n.Get("maximum"), n.Get("minimum")
	if x := n.Get("exclusiveMaximum"); x != nil && x.Kind == spec.Number {
		s.exclMax = x
	}
	if x := n.Get("exclusiveMinimum"); x != nil && x.Kind == spec.Number {
		s.exclMin = x
	}
	if x := n.Get("maxLength"); x != nil && x.Kind == spec.Number {
		if v, err := strconv.Atoi(x.Value); err == nil {
			s.maxLen = v
		}
	}
	if x := n.Get("minLength"); x != nil && x.Kind == spec.Number {
		if v, err := strconv.Atoi(x.Value); err == nil {
			s.minLen = v
		}
	}
	return s
}

func (p *Plan) simpleProp(sp *specPlan, obj *simpleSchema, name string) *simpleSchema {
	return p.simple(sp, obj.node.Get("properties").Get(name))
}

// badValue is a value that breaks one constraint of a schema.
type badValue struct {
	desc  string
	value any
}

// maxLongValue bounds the strings made to break a maxLength.
const maxLongValue = 4096

// invalidValues are values that break the schema for certain, one
// constraint each. typed says whether the value travels as JSON (a body
// property: a string is not a number) or as text (a parameter: only text
// that does not parse as the type breaks it).
func (s *simpleSchema) invalidValues(typed bool) []badValue {
	var out []badValue
	switch s.typ {
	case "integer", "number":
		out = append(out, badValue{"is not a number", "specgate"})
	case "boolean":
		out = append(out, badValue{"is not a boolean", "specgate"})
	case "string":
		if typed {
			out = append(out, badValue{"is not a string", json.Number("12345")})
		}
	case "array", "object":
		if typed {
			out = append(out, badValue{"is not " + article(s.typ), "specgate"})
		}
	}
	if s.typ == "integer" || s.typ == "number" {
		if v, ok := beyond(s.max, 1); ok {
			out = append(out, badValue{"above its maximum " + s.max.Value, v})
		} else if v, ok := beyond(s.exclMax, 0); ok {
			out = append(out, badValue{"at its exclusive maximum " + s.exclMax.Value, v})
		}
		if v, ok := beyond(s.min, -1); ok {
			out = append(out, badValue{"below its minimum " + s.min.Value, v})
		} else if v, ok := beyond(s.exclMin, 0); ok {
			out = append(out, badValue{"at its exclusive minimum " + s.exclMin.Value, v})
		}
	}
	if s.typ == "string" {
		if s.maxLen >= 0 && s.maxLen < maxLongValue {
			out = append(out, badValue{fmt.Sprintf("longer than its maxLength %d", s.maxLen), strings.Repeat("x", s.maxLen+1)})
		}
		if s.minLen > 1 {
			out = append(out, badValue{fmt.Sprintf("shorter than its minLength %d", s.minLen), strings.Repeat("x", s.minLen-1)})
		}
		if len(s.enum) > 0 {
			allStrings := true
			taken := map[string]bool{}
			for _, e := range s.enum {
				allStrings = allStrings && e.Kind == spec.String
				taken[e.Value] = true
			}
			if allStrings {
				v := "specgate-not-in-enum"
				for taken[v] {
					v += "-"
				}
				out = append(out, badValue{"not one of its enum values", v})
			}
		}
	}
	return out
}

func article(typ string) string {
	if typ == "array" || typ == "object" || typ == "integer" {
		return "an " + typ
	}
	return "a " + typ
}

// beyond returns the number bound+delta (delta 1 above a maximum, -1
// below a minimum, 0 at an exclusive bound) as a JSON number.
func beyond(bound *spec.Node, delta int64) (json.Number, bool) {
	if bound == nil || bound.Kind != spec.Number {
		return "", false
	}
	r, ok := parseRat(bound.Value)
	if !ok {
		return "", false
	}
	r.Add(r, ratInt(delta))
	return json.Number(formatRat(r)), true
}

func parseRat(s string) (*big.Rat, bool) { return new(big.Rat).SetString(s) }

func ratInt(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

// formatRat writes a rational as a JSON number: an integer when it is
// one, else a decimal.
func formatRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := strings.TrimRight(r.FloatString(12), "0")
	return strings.TrimSuffix(s, ".")
}
