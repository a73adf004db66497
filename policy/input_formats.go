package policy

import (
	"path/filepath"
	"strings"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/graphql"
	"github.com/specgate/specgate/spec/proto"
	"github.com/specgate/specgate/spec/wsdl"
)

// The input of Protocol Buffers, GraphQL and WSDL documents: input.proto,
// input.graphql and input.wsdl, flat lists of the model's elements, each
// with the path of its element in the entry file's tree (docs/input.md).
// A rule iterates these; the views of OpenAPI are empty for such
// documents.
func init() {
	RegisterFormatInput(FormatInput{Format: spec.Proto, Field: "proto", Build: func(doc *spec.Document) any {
		if s := proto.Of(doc); s != nil {
			return protoInput(s)
		}
		return nil
	}})
	RegisterFormatInput(FormatInput{Format: spec.GraphQL, Field: "graphql", Build: func(doc *spec.Document) any {
		if s := graphql.Of(doc); s != nil {
			return graphqlInput(s)
		}
		return nil
	}})
	RegisterFormatInput(FormatInput{Format: spec.WSDL, Field: "wsdl", Build: func(doc *spec.Document) any {
		if d := wsdl.Of(doc); d != nil {
			return wsdlInput(d, doc.Root.Name)
		}
		return nil
	}})
}

// srcPath is a source path as the input holds it.
func srcPath(p spec.Path) []any { return append([]any{}, p...) }

// protoInput lists the elements of the entry file (imported files are
// linted as entries of their own).
func protoInput(s *proto.Schema) map[string]any {
	f := s.Entry
	messages, fields, enums, values, services, rpcs := []any{}, []any{}, []any{}, []any{}, []any{}, []any{}
	for _, m := range f.AllMessages {
		messages = append(messages, map[string]any{"name": m.Name, "fullName": m.FullName, "comment": m.Comment, "source": srcPath(m.Source)})
		for _, fl := range m.Fields {
			fields = append(fields, map[string]any{"name": fl.Name, "message": m.FullName, "number": int(fl.Number),
				"type": fl.TypeString(), "label": fl.Label, "comment": fl.Comment, "source": srcPath(fl.Source)})
		}
	}
	for _, e := range f.AllEnums {
		enums = append(enums, map[string]any{"name": e.Name, "fullName": e.FullName, "comment": e.Comment, "source": srcPath(e.Source)})
		for i, v := range e.Values {
			values = append(values, map[string]any{"name": v.Name, "enum": e.Name, "enumFullName": e.FullName,
				"number": int(v.Number), "index": i, "source": srcPath(v.Source)})
		}
	}
	for _, sv := range f.Services {
		services = append(services, map[string]any{"name": sv.Name, "fullName": sv.FullName, "comment": sv.Comment, "source": srcPath(sv.Source)})
		for _, m := range sv.Methods {
			rpcs = append(rpcs, map[string]any{"name": m.Name, "service": sv.Name, "comment": m.Comment,
				"input": m.Input, "output": m.Output, "clientStreaming": m.ClientStreaming, "serverStreaming": m.ServerStreaming,
				"source": srcPath(m.Source)})
		}
	}
	return map[string]any{
		"file": filepath.Base(f.Name), "path": f.Path, "syntax": f.Syntax, "package": f.Package, "packageSource": srcPath(f.Source),
		"messages": messages, "fields": fields, "enums": enums, "enumValues": values, "services": services, "rpcs": rpcs,
	}
}

// graphqlInput lists the schema's types, fields (input fields too),
// arguments and enum values.
func graphqlInput(s *graphql.Schema) map[string]any {
	types, fields, args, values := []any{}, []any{}, []any{}, []any{}
	roots := map[string]bool{s.Query: true, s.Mutation: true, s.Subscription: true}
	delete(roots, "")
	for _, t := range s.Types {
		if t.BuiltIn {
			continue
		}
		types = append(types, map[string]any{"name": t.Name, "kind": t.Kind, "description": t.Description, "root": roots[t.Name], "source": srcPath(t.Source)})
		for _, f := range t.Fields {
			namedKind := graphql.Scalar
			if named := s.Type(f.Type.Named()); named != nil {
				namedKind = named.Kind
			}
			argNames := make([]any, len(f.Args))
			for i, a := range f.Args {
				argNames[i] = a.Name
				args = append(args, map[string]any{"name": a.Name, "field": f.Name, "type": t.Name, "typeRef": a.Type.String(),
					"description": a.Description, "deprecated": a.Deprecated, "deprecationReason": a.DeprecationReason, "source": srcPath(a.Source)})
			}
			fields = append(fields, map[string]any{"name": f.Name, "type": t.Name, "typeKind": t.Kind, "typeRef": f.Type.String(),
				"list": f.Type.IsList(), "named": f.Type.Named(), "namedKind": namedKind, "args": argNames, "description": f.Description,
				"deprecated": f.Deprecated, "deprecationReason": f.DeprecationReason, "source": srcPath(f.Source)})
		}
		for _, v := range t.Values {
			values = append(values, map[string]any{"name": v.Name, "type": t.Name, "description": v.Description,
				"deprecated": v.Deprecated, "deprecationReason": v.DeprecationReason, "source": srcPath(v.Source)})
		}
	}
	return map[string]any{
		"query": s.Query, "mutation": s.Mutation, "subscription": s.Subscription, "introspection": s.Introspection,
		"types": types, "fields": fields, "arguments": args, "enumValues": values,
	}
}

// wsdlInput lists operations, bindings and ports; each item names the
// file its source path starts in ("" for the entry file).
func wsdlInput(d *wsdl.Definitions, entry string) map[string]any {
	file := func(name string) string {
		if name == entry {
			return ""
		}
		return name
	}
	ops, bindings, ports := []any{}, []any{}, []any{}
	for _, pt := range d.PortTypes {
		for _, o := range pt.Operations {
			ops = append(ops, map[string]any{"name": o.Name, "portType": pt.Name.Local, "pattern": o.Pattern, "file": file(pt.File), "source": srcPath(o.Source)})
		}
	}
	for _, b := range d.Bindings {
		bindings = append(bindings, map[string]any{"name": b.Name.Local, "soapVersion": b.SOAPVersion, "contentType": b.ContentType(),
			"style": b.Style, "file": file(b.File), "source": srcPath(b.Source)})
	}
	for _, s := range d.Services {
		for _, p := range s.Ports {
			ports = append(ports, map[string]any{"name": p.Name, "service": s.Name.Local, "address": p.Address,
				"https": strings.HasPrefix(p.Address, "https://"), "file": file(s.File), "source": srcPath(p.Source)})
		}
	}
	return map[string]any{"version": d.Version, "targetNamespace": d.TargetNamespace, "operations": ops, "bindings": bindings, "ports": ports}
}
