// Package wsdl reads WSDL 1.1 and 2.0 descriptions, with the XSD types of
// their schemas and the files they import, into a spec.Document (every
// element at the position where it is written) and a typed model
// (Definitions) for validation, lint, the compatibility check and SOAP
// mocks and tests. Hostile XML is refused (parseXML); references that do
// not resolve are the document's Problems (check). Importing the package
// registers its reader with the spec loader.
package wsdl

import (
	"bytes"
	"encoding/xml"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// Namespaces of WSDL, its SOAP bindings and XML Schema.
const (
	NSWSDL11   = "http://schemas.xmlsoap.org/wsdl/"
	NSWSDL20   = "http://www.w3.org/ns/wsdl"
	NSSOAP11   = "http://schemas.xmlsoap.org/wsdl/soap/"
	NSSOAP12   = "http://schemas.xmlsoap.org/wsdl/soap12/"
	NSWSOAP    = "http://www.w3.org/ns/wsdl/soap"
	NSHTTP11   = "http://schemas.xmlsoap.org/wsdl/http/"
	NSXSD      = "http://www.w3.org/2001/XMLSchema"
	SOAPBind20 = "http://www.w3.org/ns/wsdl/soap"
)

func init() {
	spec.RegisterReader(&spec.Reader{
		Format:     spec.WSDL,
		Name:       "WSDL",
		Extensions: []string{".wsdl"},
		Sniff:      sniff,
		Tags: func(d *spec.Document) []string {
			if d.Version == "2.0" {
				return []string{"wsdl", "wsdl2"}
			}
			return []string{"wsdl", "wsdl1"}
		},
		Read: read,
	})
}

var wsdlRoot = lazyregexp.New(`<(?:[\w.-]+:)?(?:definitions|description)[\s>][^>]*(?:` +
	`"http://schemas\.xmlsoap\.org/wsdl/"|"http://www\.w3\.org/ns/wsdl")`)

// sniff recognizes WSDL read from standard input, a URL or an .xml file:
// XML whose first element is a WSDL definitions or description.
func sniff(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '<' && wsdlRoot().Match(t)
}

// Of returns the model of a WSDL document, or nil for a document of another
// format.
func Of(d *spec.Document) *Definitions {
	if d == nil {
		return nil
	}
	s, _ := d.Model.(*Definitions)
	return s
}

// Definitions is a WSDL description: the entry file's and those of the
// files it imports, merged by qualified name as WSDL merges them.
type Definitions struct {
	Version         string // "1.1" or "2.0"
	TargetNamespace string
	Name            string
	Messages        []*Message // WSDL 1.1
	PortTypes       []*PortType
	Bindings        []*Binding
	Services        []*Service
	// Types are the global elements, complex types and simple types of the
	// schemas, by qualified name.
	Types    []*XSDType
	Problems []Problem

	messages  map[xml.Name]*Message
	portTypes map[xml.Name]*PortType
	bindings  map[xml.Name]*Binding
	types     map[typeKey]*XSDType
}

// Problem is one semantic error of a document.
type Problem struct {
	File    string
	Range   spec.Range
	Message string
}

// Message is a WSDL 1.1 message.
type Message struct {
	Name  xml.Name
	Parts []*Part
	// Documentation is the text of its wsdl:documentation, "" for none
	// (so for each element below).
	Documentation string
	File          string
	Source        spec.Path
}

// Part is a part of a WSDL 1.1 message: an element or a type.
type Part struct {
	Name    string
	Element xml.Name // set for a document-style part
	Type    xml.Name // set for an rpc-style part
	Source  spec.Path
}

// PortType is a WSDL 1.1 port type or a WSDL 2.0 interface.
type PortType struct {
	Name          xml.Name
	Extends       []xml.Name // WSDL 2.0
	Faults        []*IO      // WSDL 2.0: the interface's faults, which operations name
	Operations    []*Operation
	Documentation string
	File          string
	Source        spec.Path
}

// Operation returns the operation of a name, or nil.
func (p *PortType) Operation(name string) *Operation {
	for _, o := range p.Operations {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Operation is an operation of a port type or interface.
type Operation struct {
	Name string
	// Pattern is the message exchange pattern: "in-out", "in-only",
	// "out-only", "out-in" (WSDL 1.1 notification and solicit-response)
	// or a WSDL 2.0 pattern URI's last segment.
	Pattern       string
	Input         *IO
	Output        *IO
	Faults        []*IO
	Documentation string
	Source        spec.Path
}

// IO is an operation's input, output or fault: a message (WSDL 1.1) or an
// element (WSDL 2.0).
type IO struct {
	Name    string
	Message xml.Name // WSDL 1.1
	Element xml.Name // WSDL 2.0; "#any" and "#none" are kept as Local
	// Ref names the interface fault a WSDL 2.0 infault or outfault is.
	Ref    xml.Name
	Source spec.Path
}

// Binding is a binding of a port type or interface to a protocol.
type Binding struct {
	Name xml.Name
	// Type is the port type (WSDL 1.1) or interface (WSDL 2.0) it binds.
	Type xml.Name
	// SOAPVersion is "1.1" or "1.2" for a SOAP binding, "" otherwise (an
	// HTTP binding).
	SOAPVersion string
	Style       string // "document" or "rpc" as written (WSDL 1.1); "" means document
	Transport   string
	Operations  []*BindingOperation
	// Documentation is the text of its wsdl:documentation.
	Documentation string
	File          string
	Source        spec.Path
}

// BindingOperation is an operation of a binding.
type BindingOperation struct {
	Name       string
	SOAPAction string
	Style      string
	Use        string // "literal" or "encoded" (the input's soap:body)
	// Bodies are the SOAP extension elements of its input, output and
	// faults (WSDL 1.1): soap:body, soap:header, soap:headerfault and
	// soap:fault, in order.
	Bodies []*SOAPBody
	// SOAPVersions are the SOAP versions of the SOAP extension elements
	// written in it (soap:operation and the Bodies), each once, in order.
	SOAPVersions []string
	Source       spec.Path
}

// SOAPBody is a soap:body, soap:header, soap:headerfault or soap:fault
// element of a WSDL 1.1 binding operation.
type SOAPBody struct {
	// In is "input", "output" or "fault": the message it binds.
	In string
	// Element is the extension element's local name: "body", "header",
	// "headerfault" or "fault".
	Element     string
	SOAPVersion string // "1.1" (soap:) or "1.2" (soap12:)
	Use         string // as written: "literal", "encoded" or ""
	// Parts lists the parts a soap:body names in its parts attribute;
	// PartsWritten says whether it has one (without one, the body carries
	// every part of the message).
	Parts        []string
	PartsWritten bool
}

// EffectiveStyle is the style of a binding operation: its soap:operation's,
// else its binding's, else "document" (WSDL 1.1 section 3.4).
func (b *Binding) EffectiveStyle(op *BindingOperation) string {
	switch {
	case op.Style != "":
		return op.Style
	case b.Style != "":
		return b.Style
	}
	return "document"
}

// Service is a service with its ports (WSDL 1.1) or endpoints (2.0).
type Service struct {
	Name          xml.Name
	Ports         []*Port
	Documentation string
	File          string
	Source        spec.Path
}

// Port is a port or endpoint: a binding at an address.
type Port struct {
	Name    string
	Binding xml.Name
	Address string
	// SOAPVersion is the version of its soap:address or soap12:address
	// (WSDL 1.1), "" for another address.
	SOAPVersion string
	Source      spec.Path
}

// Kinds of schema types.
const (
	KindElement     = "element"
	KindComplexType = "complexType"
	KindSimpleType  = "simpleType"
)

type typeKey struct {
	kind string
	name xml.Name
}

// XSDType is a global element, complex type or simple type of a schema.
type XSDType struct {
	Kind string
	Name xml.Name
	// Type is the type an element names (zero for an element with an
	// anonymous type, whose content is then in Fields).
	Type xml.Name
	// Base is the type a simple type restricts or a complex type extends.
	Base xml.Name
	// Fields are the elements and attributes of a complex type's content
	// (sequence, all, choice, attributes), in order.
	Fields []*XSDField
	// Enumeration lists a simple type's allowed values, when it has some.
	Enumeration []string
	File        string
	Source      spec.Path
}

// XSDField is an element or attribute of a complex type.
type XSDField struct {
	Name      string
	Attribute bool
	Type      xml.Name // zero for an anonymous type
	Ref       xml.Name // for <element ref="…">
	MinOccurs int      // 1 unless written
	MaxOccurs int      // -1 for unbounded
	Optional  bool     // an attribute without use="required"
	Nillable  bool
	Choice    bool // inside a choice
	Source    spec.Path
}

// Required reports whether a field must be sent.
func (f *XSDField) Required() bool {
	if f.Attribute {
		return !f.Optional
	}
	return f.MinOccurs > 0 && !f.Choice
}

// Message returns a WSDL 1.1 message by qualified name, or nil.
func (d *Definitions) Message(n xml.Name) *Message { return d.messages[n] }

// PortType returns a port type or interface by qualified name, or nil.
func (d *Definitions) PortType(n xml.Name) *PortType { return d.portTypes[n] }

// Binding returns a binding by qualified name, or nil.
func (d *Definitions) Binding(n xml.Name) *Binding { return d.bindings[n] }

// Type returns a schema type of a kind by qualified name, or nil.
func (d *Definitions) Type(kind string, n xml.Name) *XSDType { return d.types[typeKey{kind, n}] }
