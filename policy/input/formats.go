package input

import (
	"path/filepath"
	"slices"
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
	RegisterField(Field{Format: spec.Proto, Key: "proto", Build: func(doc *spec.Document) any {
		if s := proto.Of(doc); s != nil {
			return protoInput(s)
		}
		return nil
	}})
	RegisterField(Field{Format: spec.GraphQL, Key: "graphql", Build: func(doc *spec.Document) any {
		if s := graphql.Of(doc); s != nil {
			return graphqlInput(s)
		}
		return nil
	}})
	RegisterField(Field{Format: spec.WSDL, Key: "wsdl", Build: func(doc *spec.Document) any {
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

// wsdlInput lists the description's messages, port types (interfaces),
// operations, bindings with their operations, services and ports; each
// item names the file its source path starts in ("" for the entry file).
func wsdlInput(d *wsdl.Definitions, entry string) map[string]any {
	file := func(name string) string {
		if name == entry {
			return ""
		}
		return name
	}
	part := func(m *wsdl.Message, p *wsdl.Part) map[string]any {
		return map[string]any{"name": p.Name, "message": m.Name.Local, "element": p.Element.Local, "elementNamespace": p.Element.Space,
			"type": p.Type.Local, "file": file(m.File), "source": srcPath(p.Source)}
	}
	messages, portTypes, ops := []any{}, []any{}, []any{}
	for _, m := range d.Messages {
		parts := make([]any, len(m.Parts))
		for i, p := range m.Parts {
			parts[i] = part(m, p)
		}
		messages = append(messages, map[string]any{"name": m.Name.Local, "documentation": m.Documentation, "parts": parts,
			"file": file(m.File), "source": srcPath(m.Source)})
	}
	for _, pt := range d.PortTypes {
		names := make([]any, len(pt.Operations))
		for i, o := range pt.Operations {
			names[i] = o.Name
			ops = append(ops, map[string]any{"name": o.Name, "portType": pt.Name.Local, "pattern": o.Pattern,
				"documentation": o.Documentation, "file": file(pt.File), "source": srcPath(o.Source)})
		}
		portTypes = append(portTypes, map[string]any{"name": pt.Name.Local, "documentation": pt.Documentation, "operations": names,
			"file": file(pt.File), "source": srcPath(pt.Source)})
	}
	bindings, bindingOps := []any{}, []any{}
	for _, b := range d.Bindings {
		bindings = append(bindings, map[string]any{"name": b.Name.Local, "portType": b.Type.Local, "soapVersion": b.SOAPVersion,
			"contentType": b.ContentType(), "style": b.Style, "documentation": b.Documentation, "file": file(b.File), "source": srcPath(b.Source)})
		pt := d.PortType(b.Type)
		for _, bo := range b.Operations {
			var op *wsdl.Operation
			if pt != nil {
				op = pt.Operation(bo.Name)
			}
			style := ""
			if d.Version == "1.1" && b.SOAPVersion != "" {
				style = b.EffectiveStyle(bo)
			}
			uses, versions := []any{}, []any{}
			for _, body := range bo.Bodies {
				uses = append(uses, map[string]any{"in": body.In, "element": body.Element, "use": body.Use, "soapVersion": body.SOAPVersion})
			}
			for _, v := range bo.SOAPVersions {
				versions = append(versions, v)
			}
			item := map[string]any{"name": bo.Name, "binding": b.Name.Local, "portType": b.Type.Local, "soapVersion": b.SOAPVersion,
				"soapVersions": versions, "style": style, "soapAction": bo.SOAPAction, "bodies": uses,
				"file": file(b.File), "source": srcPath(bo.Source)}
			// The parts each soap:body carries: those its parts attribute
			// names, else every part of the operation's message.
			for _, dir := range []string{"input", "output"} {
				var io *wsdl.IO
				if op != nil {
					io = map[string]*wsdl.IO{"input": op.Input, "output": op.Output}[dir]
				}
				body := soapBody(bo, dir)
				if io == nil || body == nil {
					continue
				}
				m := d.Message(io.Message)
				if m == nil {
					continue
				}
				parts := []any{}
				for _, p := range m.Parts {
					if !body.PartsWritten || slices.Contains(body.Parts, p.Name) {
						parts = append(parts, part(m, p))
					}
				}
				item[dir] = map[string]any{"message": m.Name.Local, "partsWritten": body.PartsWritten, "parts": parts}
			}
			bindingOps = append(bindingOps, item)
		}
	}
	services, ports := []any{}, []any{}
	for _, s := range d.Services {
		services = append(services, map[string]any{"name": s.Name.Local, "documentation": s.Documentation, "file": file(s.File), "source": srcPath(s.Source)})
		for _, p := range s.Ports {
			bindingVersion := ""
			if b := d.Binding(p.Binding); b != nil {
				bindingVersion = b.SOAPVersion
			}
			ports = append(ports, map[string]any{"name": p.Name, "service": s.Name.Local, "binding": p.Binding.Local, "address": p.Address,
				"https": strings.HasPrefix(p.Address, "https://"), "soapVersion": p.SOAPVersion, "bindingSoapVersion": bindingVersion,
				"file": file(s.File), "source": srcPath(p.Source)})
		}
	}
	return map[string]any{"version": d.Version, "targetNamespace": d.TargetNamespace,
		"messages": messages, "portTypes": portTypes, "operations": ops, "bindings": bindings, "bindingOperations": bindingOps,
		"services": services, "ports": ports}
}

// soapBody is the soap:body of a binding operation's input or output, or
// nil.
func soapBody(op *wsdl.BindingOperation, in string) *wsdl.SOAPBody {
	for _, b := range op.Bodies {
		if b.In == in && b.Element == "body" {
			return b
		}
	}
	return nil
}
