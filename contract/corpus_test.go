package contract_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/spec"
)

// pathFor fills a template's variables with plain literals ("p1", "p2", …)
// and returns the path and the values by name.
func pathFor(template string) (string, map[string]string) {
	vals := map[string]string{}
	var b strings.Builder
	n := 0
	for {
		open := strings.IndexByte(template, '{')
		end := strings.IndexByte(template[max(open, 0):], '}')
		if open < 0 || end < 0 {
			b.WriteString(template)
			break
		}
		name := template[open+1 : open+end]
		n++
		v := fmt.Sprintf("p%d", n)
		vals[name] = v
		b.WriteString(template[:open])
		b.WriteString(v)
		template = template[open+end+1:]
	}
	return b.String(), vals
}

// TestCorpusRoutesEveryOperation routes a request to every operation of
// every corpus document, from a path built from its template under its
// server prefix, and requires that it reaches that operation with the
// template's variables bound.
func TestCorpusRoutesEveryOperation(t *testing.T) {
	for _, name := range corpustest.OpenAPI {
		t.Run(name, func(t *testing.T) {
			doc := corpustest.Load(t, name)
			c := newContract(t, doc, contract.Options{})
			ops := c.Operations()
			if len(ops) != len(doc.Views().Operations) {
				t.Fatalf("%d operations routed, document has %d", len(ops), len(doc.Views().Operations))
			}
			for _, op := range ops {
				path, vals := pathFor(op.Path)
				full := c.Prefix(op) + path
				r, err := c.Route(op.Method, full)
				if err != nil {
					t.Errorf("%s %s (%s): %v", op.Method, full, op.Path, err)
					continue
				}
				if r.Op != op {
					t.Errorf("%s %s routed to %s %s, want %s", op.Method, full, r.Op.Method, r.Op.Path, op.Path)
					continue
				}
				for name, v := range vals {
					if got, _ := r.Param(name); got != v {
						t.Errorf("%s %s: %s = %q, want %q", op.Method, op.Path, name, got, v)
					}
				}
			}
		})
	}
}

// valueFor makes a plain value that fits a parameter's schema: the first
// enum value, else a literal of its type (arrays of two items, objects of
// their declared properties).
func valueFor(doc *spec.Document, n *spec.Node, depth int) any {
	n = doc.Deref(n)
	if e := n.Get("enum"); e != nil && e.Kind == spec.Array && len(e.Items) > 0 && e.Items[0].Kind != spec.Null {
		return jsonValue(e.Items[0])
	}
	ty := n.GetStr("type")
	if t := n.Get("type"); t != nil && t.Kind == spec.Array {
		for _, it := range t.Items {
			if it.Value != "null" {
				ty = it.Value
				break
			}
		}
	}
	if ty == "" {
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if l := n.Get(k); l != nil && l.Kind == spec.Array && len(l.Items) > 0 {
				return valueFor(doc, l.Items[0], depth+1)
			}
		}
	}
	switch ty {
	case "integer":
		return json.Number("7")
	case "number":
		return json.Number("2.5")
	case "boolean":
		return true
	case "array":
		if depth > 2 {
			return []any{}
		}
		return []any{valueFor(doc, n.Get("items"), depth+1), valueFor(doc, n.Get("items"), depth+1)}
	case "object":
		obj := map[string]any{}
		if p := n.Get("properties"); p != nil && depth < 2 {
			for _, f := range p.Fields {
				if len(obj) == 2 {
					break
				}
				if t := doc.Deref(f.Value).GetStr("type"); t == "string" || t == "integer" || t == "boolean" {
					obj[f.Key] = valueFor(doc, f.Value, depth+1)
				}
			}
		}
		return obj
	}
	return "v1"
}

func jsonValue(n *spec.Node) any {
	switch n.Kind {
	case spec.Number:
		return json.Number(n.Value)
	case spec.Bool:
		return n.IsTrue()
	case spec.String:
		return n.Value
	}
	return n.Value
}

// TestCorpusBuildsRequestsThatRouteBack builds a request for every
// operation of every corpus document, with plain values for its path
// parameters and required query, header and cookie parameters, checks it
// as a server would, and requires that it reaches the operation with the
// values it was built from: reading a parameter undoes writing it.
func TestCorpusBuildsRequestsThatRouteBack(t *testing.T) {
	for _, name := range corpustest.OpenAPI {
		t.Run(name, func(t *testing.T) {
			doc := corpustest.Load(t, name)
			c := newContract(t, doc, contract.Options{})
			for _, op := range c.Operations() {
				v := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Header: map[string]any{}, Cookie: map[string]any{}}
				want := map[string]map[string]any{"path": v.Path, "query": v.Query, "header": v.Header, "cookie": v.Cookie}
				for _, p := range op.Parameters {
					if (p.Required || p.In == "path") && want[p.In] != nil && p.Schema != nil {
						if p.In == "header" && (strings.EqualFold(p.Name, "accept") || strings.EqualFold(p.Name, "content-type") || strings.EqualFold(p.Name, "authorization")) {
							continue
						}
						want[p.In][p.Name] = valueFor(doc, p.Schema, 0)
					}
				}
				built, err := c.BuildRequest(op, v)
				if err != nil {
					t.Errorf("%s %s: %v", op.Method, op.Path, err)
					continue
				}
				res := c.CheckRequest(built.Request(c.Prefix(op)))
				if res.Route == nil || res.Route.Op != op {
					t.Errorf("%s %s: built %s %s?%s, which does not route back: %v", op.Method, op.Path, built.Method, built.Path, built.RawQuery, res.Problems)
					continue
				}
				for _, pr := range res.Problems {
					switch pr.Keyword {
					case "type", "style", "syntax", "required":
						if pr.In != contract.InBody && pr.In != contract.InSecurity {
							t.Errorf("%s %s: %s", op.Method, op.Path, pr)
						}
					}
				}
				got := map[string]map[string]any{"path": res.Params.Path, "query": res.Params.Query, "header": res.Params.Header, "cookie": res.Params.Cookie}
				for in, vals := range want {
					for k, wv := range vals {
						gv := got[in][k]
						if in == "header" {
							gv = lookupFold(got[in], k)
						}
						if !reflect.DeepEqual(gv, wv) {
							t.Errorf("%s %s: %s parameter %s read back as %#v, built from %#v (%s %s?%s)", op.Method, op.Path, in, k, gv, wv, built.Method, built.Path, built.RawQuery)
						}
					}
				}
			}
		})
	}
}

func lookupFold(m map[string]any, k string) any {
	for mk, v := range m {
		if strings.EqualFold(mk, k) {
			return v
		}
	}
	return nil
}
