package wsdl

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/srctree"
)

// check reports the references that do not resolve: messages of
// operations, port types or interfaces of bindings, bindings of ports,
// schema types of parts, elements and fields, and binding operations that
// their port type lacks.
func (r *reader) check() {
	d := r.d
	for _, m := range d.Messages {
		for _, p := range m.Parts {
			switch {
			case p.Element.Local == "" && p.Type.Local == "":
				r.at(m.File, p.Source, "part %s of message %s has neither an element nor a type", p.Name, m.Name.Local)
			case p.Element.Local != "":
				r.schemaRef(m.File, p.Source, KindElement, p.Element, fmt.Sprintf("part %s of message %s", p.Name, m.Name.Local))
			default:
				r.schemaRef(m.File, p.Source, "type", p.Type, fmt.Sprintf("part %s of message %s", p.Name, m.Name.Local))
			}
		}
	}
	for _, pt := range d.PortTypes {
		for _, ext := range pt.Extends {
			if d.PortType(ext) == nil {
				r.at(pt.File, pt.Source, "interface %s extends %s, which is not defined", pt.Name.Local, ext.Local)
			}
		}
		for _, f := range pt.Faults {
			if f.Element.Local != "" {
				r.schemaRef(pt.File, f.Source, KindElement, f.Element, fmt.Sprintf("fault %s of %s", f.Name, pt.Name.Local))
			}
		}
		for _, op := range pt.Operations {
			for _, io := range append([]*IO{op.Input, op.Output}, op.Faults...) {
				if io == nil {
					continue
				}
				what := fmt.Sprintf("operation %s of %s", op.Name, pt.Name.Local)
				if d.Version == "1.1" {
					if io.Message.Local == "" {
						r.at(pt.File, io.Source, "an input, output or fault of %s names no message", what)
					} else if d.Message(io.Message) == nil {
						r.at(pt.File, io.Source, "%s uses message %s, which is not defined", what, io.Message.Local)
					}
				} else if io.Ref.Local != "" {
					if r.interfaceFault(pt, io.Ref.Local, 0) == nil {
						r.at(pt.File, io.Source, "%s names fault %s, which interface %s does not declare", what, io.Ref.Local, pt.Name.Local)
					}
				} else if io.Element.Local != "" && !strings.HasPrefix(io.Element.Local, "#") {
					r.schemaRef(pt.File, io.Source, KindElement, io.Element, what)
				}
			}
		}
	}
	kindWord := "port type"
	if d.Version == "2.0" {
		kindWord = "interface"
	}
	for _, b := range d.Bindings {
		pt := d.PortType(b.Type)
		if pt == nil {
			r.at(b.File, b.Source, "binding %s binds %s %s, which is not defined", b.Name.Local, kindWord, b.Type.Local)
			continue
		}
		for _, op := range b.Operations {
			if pt.Operation(op.Name) == nil {
				r.at(b.File, op.Source, "binding %s has operation %s, which %s %s does not declare", b.Name.Local, op.Name, kindWord, pt.Name.Local)
			}
		}
	}
	for _, s := range d.Services {
		for _, p := range s.Ports {
			if d.Binding(p.Binding) == nil {
				r.at(s.File, p.Source, "port %s of service %s uses binding %s, which is not defined", p.Name, s.Name.Local, p.Binding.Local)
			} else if d.Binding(p.Binding).SOAPVersion != "" && p.Address == "" {
				r.at(s.File, p.Source, "port %s of service %s has no address", p.Name, s.Name.Local)
			}
		}
	}
	for _, t := range d.Types {
		if t.Type.Local != "" {
			r.schemaRef(t.File, t.Source, "type", t.Type, fmt.Sprintf("element %s", t.Name.Local))
		}
		if t.Base.Local != "" {
			r.schemaRef(t.File, t.Source, "type", t.Base, fmt.Sprintf("%s %s", t.Kind, t.Name.Local))
		}
		for _, f := range t.Fields {
			what := fmt.Sprintf("field %s of %s %s", f.Name, t.Kind, t.Name.Local)
			if f.Ref.Local != "" {
				kind := KindElement
				if f.Attribute {
					kind = "attribute"
				}
				r.schemaRef(t.File, f.Source, kind, f.Ref, what)
			} else if f.Type.Local != "" {
				r.schemaRef(t.File, f.Source, "type", f.Type, what)
			}
		}
	}
	slices.SortStableFunc(d.Problems, func(a, b Problem) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		if a.Range.Start.Line != b.Range.Start.Line {
			return int(a.Range.Start.Line - b.Range.Start.Line)
		}
		return int(a.Range.Start.Col - b.Range.Start.Col)
	})
}

// schemaRef reports a reference to a schema type that is not defined. XML
// Schema's own types and attributes of other vocabularies resolve.
func (r *reader) schemaRef(file string, at spec.Path, kind string, n xml.Name, what string) {
	if n.Space == NSXSD || n.Space == "http://www.w3.org/XML/1998/namespace" || n.Space == "http://schemas.xmlsoap.org/soap/encoding/" {
		return
	}
	d := r.d
	switch kind {
	case KindElement:
		if d.Type(KindElement, n) != nil {
			return
		}
	case "attribute":
		return // global attributes are not modelled
	default:
		if d.Type(KindComplexType, n) != nil || d.Type(KindSimpleType, n) != nil {
			return
		}
	}
	word := "type"
	if kind == KindElement {
		word = "element"
	}
	ns := ""
	if n.Space != "" {
		ns = " in namespace " + n.Space
	}
	r.at(file, at, "%s refers to schema %s %s%s, which is not defined", what, word, n.Local, ns)
}

func (r *reader) at(file string, path spec.Path, format string, args ...any) {
	var rng spec.Range
	if root := r.roots[file]; root != nil {
		rng = srctree.At(root, path)
	}
	r.d.Problems = append(r.d.Problems, Problem{File: file, Range: rng, Message: fmt.Sprintf(format, args...)})
}

// interfaceFault finds a fault of a WSDL 2.0 interface or of those it
// extends (depth bounds a cycle of extensions).
func (r *reader) interfaceFault(pt *PortType, name string, depth int) *IO {
	if pt == nil || depth > 32 {
		return nil
	}
	for _, f := range pt.Faults {
		if f.Name == name {
			return f
		}
	}
	for _, ext := range pt.Extends {
		if f := r.interfaceFault(r.d.PortType(ext), name, depth+1); f != nil {
			return f
		}
	}
	return nil
}
