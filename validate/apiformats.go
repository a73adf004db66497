package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/graphql"
	"github.com/specgate/specgate/spec/proto"
	"github.com/specgate/specgate/spec/wsdl"
)

// readerProblems are the problems of a Protocol Buffers, GraphQL or WSDL
// document: the semantic errors its reader found (syntax errors fail the
// load instead), each at its position. ok is false for other formats.
// Each is Unreadable: compilers and code generators refuse such a
// document (protoc, graphql-js, WSDL toolkits), so lint reports them
// whatever its ruleset, as it reports a broken $ref.
func readerProblems(doc *spec.Document) (out []Problem, ok bool) {
	add := func(file string, rng spec.Range, message string) *Problem {
		if file == "" {
			file = doc.Root.Name
		}
		out = append(out, Problem{File: file, Range: rng, Message: message, Unreadable: true})
		return &out[len(out)-1]
	}
	switch doc.Format {
	case spec.Proto:
		if s := proto.Of(doc); s != nil {
			for _, p := range s.Problems {
				add(p.File, p.Range, p.Message)
			}
		}
	case spec.GraphQL:
		if s := graphql.Of(doc); s != nil {
			for _, p := range s.Problems {
				if pr := add("", p.Range, p.Message); p.Source != nil {
					pr.Pointer = spec.Pointer(p.Source)
				}
			}
		}
	case spec.WSDL:
		if d := wsdl.Of(doc); d != nil {
			for _, p := range d.Problems {
				add(p.File, p.Range, p.Message)
			}
		}
	default:
		return nil, false
	}
	return out, true
}

// soapExamples holds the examples of SOAP media types in an OpenAPI
// document to the SOAP version their envelopes are in: SOAP 1.1 is sent as
// text/xml, SOAP 1.2 as application/soap+xml (the product specification's
// breaking change: the content type is determined by the SOAP version).
func soapExamples(doc *spec.Document) []Problem {
	if doc.Format != spec.OpenAPI {
		return nil
	}
	v := doc.Views()
	var out []Problem
	check := func(mt *spec.MediaType) {
		if mt == nil || mt.Node == nil || wsdl.VersionOfContentType(mt.Name) == "" && !strings.Contains(strings.ToLower(mt.Name), "soap") {
			return
		}
		try := func(n *spec.Node, path spec.Path) {
			if n == nil || n.Kind != spec.String {
				return
			}
			if err := wsdl.CheckExchange("", mt.Name, []byte(n.Value)); err != nil {
				loc := doc.Locate(path, nil)
				out = append(out, Problem{File: loc.File.Name, Range: loc.Range, Pointer: loc.Pointer,
					Message: fmt.Sprintf("the example of %s is a SOAP message: %v", mt.Name, err)})
			}
		}
		try(mt.Node.Get("example"), mt.Source.With("example"))
		if ex := mt.Node.Get("examples"); ex != nil && ex.Kind == spec.Object {
			for _, f := range ex.Fields {
				try(doc.Deref(f.Value).Get("value"), mt.Source.With("examples", f.Key, "value"))
			}
		}
	}
	for _, op := range slices.Concat(v.Operations, v.Webhooks, v.Callbacks) {
		if op.RequestBody != nil {
			for _, mt := range op.RequestBody.Content {
				check(mt)
			}
		}
		for _, r := range op.Responses {
			for _, mt := range r.Content {
				check(mt)
			}
		}
	}
	return out
}
