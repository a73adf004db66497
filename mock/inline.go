package mock

import (
	"fmt"

	"github.com/specgate/specgate/spec"
)

// inlineExamples are the examples written in the spec for an operation:
// each named example of a response (OpenAPI 3 examples, Swagger 2
// examples by media type, a media type's single example), paired by name
// with the request body and parameter examples of the same name, which
// then form the request it answers. A response example without a pair
// answers any request.
func inlineExamples(a *api, op *operation) []*example {
	var out []*example
	reqBodies := map[string]any{}
	if rb := op.op.RequestBody; rb != nil {
		for _, mt := range rb.Content {
			for name, v := range namedExamples(a.doc, mt.Node) {
				if _, dup := reqBodies[name]; !dup {
					reqBodies[name] = v
				}
			}
		}
	}
	params := map[string][]paramMatch{}
	for _, p := range op.op.Parameters {
		for name, v := range namedExamples(a.doc, p.Node) {
			params[name] = append(params[name], paramMatch{in: p.In, name: p.Name, value: v})
		}
	}
	for _, r := range op.op.Responses {
		status := statusOf(r.Status)
		for _, mt := range r.Content {
			names, values, nodes := orderedExamples(a.doc, mt.Node, a.doc.Format == spec.Swagger, mt.Name)
			for i, name := range names {
				loc := a.doc.Locate(mt.Source, nil)
				if nodes[i] != nil {
					loc.Range = nodes[i].Range
				}
				ex := &example{name: name, origin: fromSpec, status: status, response: r, media: mt.Name,
					body: values[i], hasBody: true, source: fmt.Sprintf("%s:%d:%d", loc.File.Name, loc.Range.Start.Line, loc.Range.Start.Col)}
				body, hasBody := reqBodies[name]
				if ps := params[name]; hasBody || len(ps) > 0 {
					ex.request = &requestMatch{params: ps, body: body, hasBody: hasBody}
				}
				if raw, ok := values[i].(string); ok && !isJSON(mt.Name) {
					ex.raw = []byte(raw)
				}
				out = append(out, ex)
			}
		}
	}
	return out
}

// namedExamples reads the examples map of a media type or parameter
// object: name → value (externalValue is not fetched).
func namedExamples(doc *spec.Document, holder *spec.Node) map[string]any {
	out := map[string]any{}
	exs := doc.Deref(holder.Get("examples"))
	if exs == nil || exs.Kind != spec.Object {
		return out
	}
	for _, f := range exs.Fields {
		e := doc.Deref(f.Value)
		if v := e.Field("value"); v != nil {
			out[f.Key] = nodeValue(v.Value)
		}
	}
	return out
}

// orderedExamples lists a response media type's examples in source order:
// OpenAPI 3's examples map (or its single example, named "<status>
// <media type>"); Swagger 2's examples by media type.
func orderedExamples(doc *spec.Document, mt *spec.Node, swagger bool, media string) ([]string, []any, []*spec.Node) {
	var names []string
	var values []any
	var nodes []*spec.Node
	if swagger {
		if exs := mt.Get("examples"); exs != nil {
			if v := exs.Get(media); v != nil {
				names, values, nodes = append(names, "example"), append(values, nodeValue(v)), append(nodes, v)
			}
		}
		return names, values, nodes
	}
	if exs := doc.Deref(mt.Get("examples")); exs != nil && exs.Kind == spec.Object {
		for _, f := range exs.Fields {
			e := doc.Deref(f.Value)
			if v := e.Field("value"); v != nil {
				names, values, nodes = append(names, f.Key), append(values, nodeValue(v.Value)), append(nodes, v.Value)
			}
		}
	}
	if v := mt.Get("example"); v != nil && len(names) == 0 {
		names, values, nodes = append(names, "example"), append(values, nodeValue(v)), append(nodes, v)
	}
	return names, values, nodes
}
