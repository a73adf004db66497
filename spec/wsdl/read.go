package wsdl

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/srctree"
)

// maxFiles bounds the files one description may read through imports.
const maxFiles = 500

// reader reads one description: the entry file and what it imports.
type reader struct {
	ctx   context.Context
	src   *spec.Source
	d     *Definitions
	seen  map[string]bool       // keys of the files read
	trees []*spec.File          // trees of the imported files
	roots map[string]*spec.Node // the tree of each file, by name
	// keys are the keys each group node holds, for group: searching a
	// node's fields for a name made reading quadratic in its elements.
	keys map[*spec.Node]map[string]bool
}

func read(ctx context.Context, src *spec.Source) (*spec.Document, error) {
	f, err := parseXML(src.Name, src.Data)
	if err != nil {
		return nil, err
	}
	f.key = src.Key()
	root := f.root
	d := &Definitions{messages: map[xml.Name]*Message{}, portTypes: map[xml.Name]*PortType{}, bindings: map[xml.Name]*Binding{}, types: map[typeKey]*XSDType{}}
	switch {
	case root.Name.Space == NSWSDL11 && root.Name.Local == "definitions":
		d.Version = "1.1"
	case root.Name.Space == NSWSDL20 && root.Name.Local == "description":
		d.Version = "2.0"
	default:
		return nil, &spec.Error{File: src.Name, Pos: root.tagRange().Start,
			Msg: fmt.Sprintf("not a WSDL description: the root element is {%s}%s, expected wsdl:definitions (WSDL 1.1, %s) or wsdl:description (WSDL 2.0, %s)", root.Name.Space, root.Name.Local, NSWSDL11, NSWSDL20)}
	}
	d.TargetNamespace, d.Name = root.get("targetNamespace"), root.get("name")
	r := &reader{ctx: ctx, src: src, d: d, seen: map[string]bool{src.Key(): true}, roots: map[string]*spec.Node{}, keys: map[*spec.Node]map[string]bool{}}
	tree := r.file(f)
	r.roots[src.Name] = tree
	r.check()
	return src.Document(spec.WSDL, d.Version, tree, r.trees, d), nil
}

// group adds an element under key of parent, keyed by its name (its
// qualified name when the local name is taken by another namespace).
func (r *reader) group(parent *spec.Node, key string, name xml.Name, e *element) *spec.Node {
	rng := e.file.lines.Range(e.start, max(e.close, e.end))
	g := srctree.Child(parent, key, rng)
	if len(g.Fields) == 0 {
		g.Range = rng
	} else if rng.End.Line > g.Range.End.Line || (rng.End.Line == g.Range.End.Line && rng.End.Col > g.Range.End.Col) {
		g.Range.End = rng.End
	}
	taken := r.keys[g]
	if taken == nil {
		taken = map[string]bool{}
		r.keys[g] = taken
	}
	k := name.Local
	if taken[k] {
		k = "{" + name.Space + "}" + name.Local
	}
	taken[k] = true
	v := srctree.Object(rng)
	srctree.Set(g, k, e.attrRange("name"), v)
	e.file.elements.Add(rng.Start.Line, v)
	return v
}

func extend(p spec.Path, segs ...any) spec.Path {
	out := make(spec.Path, 0, len(p)+len(segs))
	return append(append(out, p...), segs...)
}

// keyOf is the key group gave an element: the last field of the group.
func keyOf(parent *spec.Node, key string) string {
	g := parent.Get(key)
	return g.Fields[len(g.Fields)-1].Key
}

// file reads the definitions of one file into the model and its tree.
func (r *reader) file(f *xmlFile) *spec.Node {
	root := srctree.Object(f.lines.Range(0, len(f.data)))
	// A directive before the root element holds for the whole file.
	f.elements.Add(f.lines.Pos(f.root.start).Line, root)
	defer func() { srctree.Ignore(f.elements, f.comments) }()
	tns := f.root.get("targetNamespace")
	wsdlNS := NSWSDL11
	if r.d.Version == "2.0" {
		wsdlNS = NSWSDL20
	}
	qn := func(local string) xml.Name { return xml.Name{Space: tns, Local: local} }
	for _, imp := range append(f.root.children(wsdlNS, "import"), f.root.children(wsdlNS, "include")...) {
		r.importFile(imp, "location")
	}
	for _, types := range f.root.children(wsdlNS, "types") {
		for _, schema := range types.children(NSXSD, "schema") {
			r.schema(root, schema, nil)
		}
	}
	for _, m := range f.root.children(wsdlNS, "message") {
		msg := &Message{Name: qn(m.get("name")), File: f.name, Documentation: documentation(m, wsdlNS)}
		node := r.group(root, "messages", msg.Name, m)
		msg.Source = spec.Path{"messages", keyOf(root, "messages")}
		for _, p := range m.children(wsdlNS, "part") {
			part := &Part{Name: p.get("name"), Source: extend(msg.Source, "parts", p.get("name"))}
			if v, ok := p.attr("element"); ok {
				part.Element = p.qname(v)
			}
			if v, ok := p.attr("type"); ok {
				part.Type = p.qname(v)
			}
			r.group(node, "parts", xml.Name{Local: part.Name}, p)
			part.Source[len(part.Source)-1] = keyOf(node, "parts")
			msg.Parts = append(msg.Parts, part)
		}
		r.addMessage(msg, m)
	}
	ptKey, ptElem := "portTypes", "portType"
	if r.d.Version == "2.0" {
		ptKey, ptElem = "interfaces", "interface"
	}
	for _, p := range f.root.children(wsdlNS, ptElem) {
		pt := &PortType{Name: qn(p.get("name")), File: f.name, Documentation: documentation(p, wsdlNS)}
		node := r.group(root, ptKey, pt.Name, p)
		pt.Source = spec.Path{ptKey, keyOf(root, ptKey)}
		for _, ext := range strings.Fields(p.get("extends")) {
			pt.Extends = append(pt.Extends, p.qname(ext))
		}
		for _, fe := range p.children(wsdlNS, "fault") {
			fault := &IO{Name: fe.get("name"), Source: extend(pt.Source, "faults", fe.get("name"))}
			if v, ok := fe.attr("element"); ok && !strings.HasPrefix(v, "#") {
				fault.Element = fe.qname(v)
			}
			r.group(node, "faults", xml.Name{Local: fault.Name}, fe)
			pt.Faults = append(pt.Faults, fault)
		}
		for _, o := range p.children(wsdlNS, "operation") {
			pt.Operations = append(pt.Operations, r.operation(node, pt.Source, o, wsdlNS))
		}
		if r.d.portTypes[pt.Name] != nil {
			r.problem(p, p.attrRange("name"), "%s %s is defined more than once", ptElem, pt.Name.Local)
		} else {
			r.d.portTypes[pt.Name] = pt
			r.d.PortTypes = append(r.d.PortTypes, pt)
		}
	}
	for _, b := range f.root.children(wsdlNS, "binding") {
		r.binding(root, f, b, qn(b.get("name")), wsdlNS)
	}
	for _, s := range f.root.children(wsdlNS, "service") {
		svc := &Service{Name: qn(s.get("name")), File: f.name, Documentation: documentation(s, wsdlNS)}
		node := r.group(root, "services", svc.Name, s)
		svc.Source = spec.Path{"services", keyOf(root, "services")}
		portElem, portsKey := "port", "ports"
		if r.d.Version == "2.0" {
			portElem, portsKey = "endpoint", "endpoints"
		}
		for _, p := range s.children(wsdlNS, portElem) {
			port := &Port{Name: p.get("name"), Binding: p.qname(p.get("binding")), Address: p.get("address")}
			for _, a := range p.Children {
				if a.Name.Local == "address" {
					port.Address = a.get("location")
					port.SOAPVersion = soapVersionOf(a.Name.Space)
				}
			}
			r.group(node, portsKey, xml.Name{Local: port.Name}, p)
			port.Source = extend(svc.Source, portsKey, keyOf(node, portsKey))
			svc.Ports = append(svc.Ports, port)
		}
		r.d.Services = append(r.d.Services, svc)
	}
	return root
}

func (r *reader) addMessage(msg *Message, e *element) {
	if r.d.messages[msg.Name] != nil {
		r.problem(e, e.attrRange("name"), "message %s is defined more than once", msg.Name.Local)
		return
	}
	r.d.messages[msg.Name] = msg
	r.d.Messages = append(r.d.Messages, msg)
}

func (r *reader) operation(parent *spec.Node, at spec.Path, o *element, wsdlNS string) *Operation {
	op := &Operation{Name: o.get("name"), Documentation: documentation(o, wsdlNS)}
	node := r.group(parent, "operations", xml.Name{Local: op.Name}, o)
	op.Source = extend(at, "operations", keyOf(parent, "operations"))
	io := func(e *element, key string) *IO {
		x := &IO{Name: e.get("name"), Source: extend(op.Source, key)}
		if v, ok := e.attr("message"); ok {
			x.Message = e.qname(v)
		}
		if v, ok := e.attr("element"); ok {
			if strings.HasPrefix(v, "#") {
				x.Element = xml.Name{Local: v}
			} else {
				x.Element = e.qname(v)
			}
		}
		if v, ok := e.attr("ref"); ok { // WSDL 2.0 infault/outfault
			x.Ref = e.qname(v)
		}
		rng := e.file.lines.Range(e.start, max(e.close, e.end))
		if key == "faults" {
			g := srctree.Child(node, "faults", rng)
			name := x.Name
			if name == "" {
				name = e.get("ref")
			}
			srctree.Set(g, name, e.nameRange(), srctree.Object(rng))
			x.Source = extend(op.Source, "faults", name)
		} else {
			srctree.Set(node, key, e.nameRange(), srctree.Object(rng))
		}
		return x
	}
	var order []string
	for _, c := range o.Children {
		if c.Name.Space != wsdlNS {
			continue
		}
		switch c.Name.Local {
		case "input":
			op.Input = io(c, "input")
			order = append(order, "in")
		case "output":
			op.Output = io(c, "output")
			order = append(order, "out")
		case "fault", "infault", "outfault":
			op.Faults = append(op.Faults, io(c, "faults"))
		}
	}
	op.Pattern = strings.Join(order, "-")
	if p := o.get("pattern"); p != "" {
		op.Pattern = p[strings.LastIndexByte(p, '/')+1:]
	}
	return op
}

func (r *reader) binding(root *spec.Node, f *xmlFile, b *element, name xml.Name, wsdlNS string) {
	bd := &Binding{Name: name, File: f.name, Documentation: documentation(b, wsdlNS)}
	node := r.group(root, "bindings", name, b)
	bd.Source = spec.Path{"bindings", keyOf(root, "bindings")}
	typeAttr := "type"
	if r.d.Version == "2.0" {
		typeAttr = "interface"
	}
	bd.Type = b.qname(b.get(typeAttr))
	// Where the SOAP version is said: the soap:binding element (1.1), the
	// wsoap:version attribute or the binding's type (2.0).
	var soapKey, soapValue spec.Range
	if r.d.Version == "2.0" {
		if b.get("type") == SOAPBind20 {
			bd.SOAPVersion = "1.2"
			soapKey, soapValue = b.attrRange("type"), b.attrRange("type")
			if v, ok := b.attrNS(NSWSOAP, "version"); ok {
				bd.SOAPVersion = v
				soapKey, soapValue = b.attrRange("version"), b.attrRange("version")
			}
			bd.Transport, _ = b.attrNS(NSWSOAP, "protocol")
		}
	} else {
		for _, c := range b.Children {
			if c.Name.Local != "binding" {
				continue
			}
			switch c.Name.Space {
			case NSSOAP11:
				bd.SOAPVersion = "1.1"
			case NSSOAP12:
				bd.SOAPVersion = "1.2"
			default:
				continue
			}
			bd.Style, bd.Transport = c.get("style"), c.get("transport")
			soapKey, soapValue = c.nameRange(), c.tagRange()
		}
	}
	if bd.SOAPVersion != "" {
		srctree.Set(node, "soapVersion", soapKey, srctree.String(bd.SOAPVersion, soapValue))
	}
	for _, o := range b.children(wsdlNS, "operation") {
		op := &BindingOperation{Name: o.get("name")}
		if r.d.Version == "2.0" {
			op.Name = o.qname(o.get("ref")).Local
		}
		for _, c := range o.Children {
			switch {
			case c.Name.Local == "operation" && soapVersionOf(c.Name.Space) != "":
				op.SOAPAction, op.Style = c.get("soapAction"), c.get("style")
				op.addVersion(soapVersionOf(c.Name.Space))
			case c.Name.Space == wsdlNS && (c.Name.Local == "input" || c.Name.Local == "output" || c.Name.Local == "fault"):
				op.bodies(c)
			}
		}
		if v, ok := o.attrNS(NSWSOAP, "action"); ok {
			op.SOAPAction = v
		}
		r.group(node, "operations", xml.Name{Local: op.Name}, o)
		op.Source = extend(bd.Source, "operations", keyOf(node, "operations"))
		bd.Operations = append(bd.Operations, op)
	}
	if r.d.bindings[name] != nil {
		r.problem(b, b.attrRange("name"), "binding %s is defined more than once", name.Local)
		return
	}
	r.d.bindings[name] = bd
	r.d.Bindings = append(r.d.Bindings, bd)
}

// schema reads the global declarations of an XSD schema element.
func (r *reader) schema(root *spec.Node, s *element, _ []string) {
	tns := s.get("targetNamespace")
	for _, imp := range append(s.children(NSXSD, "import"), s.children(NSXSD, "include")...) {
		r.importFile(imp, "schemaLocation")
	}
	for _, c := range s.Children {
		if c.Name.Space != NSXSD {
			continue
		}
		var kind, key string
		switch c.Name.Local {
		case "element":
			kind, key = KindElement, "elements"
		case "complexType":
			kind, key = KindComplexType, "complexTypes"
		case "simpleType":
			kind, key = KindSimpleType, "simpleTypes"
		default:
			continue
		}
		t := &XSDType{Kind: kind, Name: xml.Name{Space: tns, Local: c.get("name")}, File: c.file.name}
		node := r.group(root, key, t.Name, c)
		t.Source = spec.Path{key, keyOf(root, key)}
		if v, ok := c.attr("type"); ok {
			t.Type = c.qname(v)
		}
		content := c
		if kind == KindElement {
			if ct := c.child(NSXSD, "complexType"); ct != nil {
				content = ct
			}
			if st := c.child(NSXSD, "simpleType"); st != nil {
				content = st
			}
		}
		r.content(node, t, content, false)
		k := typeKey{kind, t.Name}
		if r.d.types[k] != nil {
			r.problem(c, c.attrRange("name"), "schema %s %s is defined more than once", kind, t.Name.Local)
			continue
		}
		r.d.types[k] = t
		r.d.Types = append(r.d.Types, t)
	}
}

// content reads the fields, base and enumeration of a type's content,
// descending through sequences, choices, groups of them and extensions.
func (r *reader) content(node *spec.Node, t *XSDType, e *element, inChoice bool) {
	for _, c := range e.Children {
		if c.Name.Space != NSXSD {
			continue
		}
		switch c.Name.Local {
		case "sequence", "all", "complexContent", "simpleContent":
			r.content(node, t, c, inChoice)
		case "choice":
			r.content(node, t, c, true)
		case "extension", "restriction":
			if v, ok := c.attr("base"); ok {
				t.Base = c.qname(v)
			}
			r.content(node, t, c, inChoice)
		case "enumeration":
			t.Enumeration = append(t.Enumeration, c.get("value"))
		case "element", "attribute":
			f := &XSDField{Name: c.get("name"), Attribute: c.Name.Local == "attribute", MinOccurs: 1, MaxOccurs: 1, Choice: inChoice}
			if v, ok := c.attr("ref"); ok {
				f.Ref = c.qname(v)
				if f.Name == "" {
					f.Name = f.Ref.Local
				}
			}
			if v, ok := c.attr("type"); ok {
				f.Type = c.qname(v)
			}
			if v, ok := c.attr("minOccurs"); ok {
				f.MinOccurs, _ = strconv.Atoi(v)
			}
			if v, ok := c.attr("maxOccurs"); ok {
				if v == "unbounded" {
					f.MaxOccurs = -1
				} else {
					f.MaxOccurs, _ = strconv.Atoi(v)
				}
			}
			f.Optional = c.get("use") != "required"
			f.Nillable = c.get("nillable") == "true"
			r.group(node, "fields", xml.Name{Local: f.Name}, c)
			f.Source = extend(t.Source, "fields", keyOf(node, "fields"))
			t.Fields = append(t.Fields, f)
		}
	}
}

// importFile reads a file an import or include names (wsdl:import
// location, xsd:import schemaLocation), under the loader's rules; a file
// that cannot be read is a problem at the import.
func (r *reader) importFile(imp *element, attr string) {
	loc := imp.get(attr)
	if loc == "" {
		return
	}
	if len(r.seen) >= maxFiles {
		r.problem(imp, imp.attrRange(attr), "more than %d imported files; %s is not read", maxFiles, loc)
		return
	}
	// A location is relative to the file that names it.
	target := loc
	if from := imp.file.key; !strings.Contains(loc, "://") && !filepath.IsAbs(loc) && from != "" && from != "-" && !strings.Contains(from, "://") {
		target = filepath.Join(filepath.Dir(from), filepath.FromSlash(loc))
	}
	key, name, data, err := r.src.ReadRelated(r.ctx, target)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	if err != nil {
		msg := err.Error()
		if se, ok := err.(*spec.Error); ok {
			msg = se.Msg
		}
		r.problem(imp, imp.attrRange(attr), "cannot read %s: %s", loc, msg)
		return
	}
	f, err := parseXML(name, data)
	if err != nil {
		r.problem(imp, imp.attrRange(attr), "cannot read %s: %v", loc, err)
		return
	}
	f.key = key
	var tree *spec.Node
	switch {
	case f.root.Name.Space == NSXSD && f.root.Name.Local == "schema":
		tree = srctree.Object(f.lines.Range(0, len(f.data)))
		r.schema(tree, f.root, nil)
	case (f.root.Name.Space == NSWSDL11 && f.root.Name.Local == "definitions") || (f.root.Name.Space == NSWSDL20 && f.root.Name.Local == "description"):
		tree = r.file(f)
	default:
		r.problem(imp, imp.attrRange(attr), "%s is neither a WSDL description nor an XML schema (its root is %s)", loc, f.root.Name.Local)
		return
	}
	r.roots[name] = tree
	r.trees = append(r.trees, r.src.File(name, key, tree, len(data)))
}

func (r *reader) problem(e *element, rng spec.Range, format string, args ...any) {
	r.d.Problems = append(r.d.Problems, Problem{File: e.file.name, Range: rng, Message: fmt.Sprintf(format, args...)})
}

// documentation is the text of an element's wsdl:documentation, its
// markup's text included, trimmed; "" for none.
func documentation(e *element, wsdlNS string) string {
	d := e.child(wsdlNS, "documentation")
	if d == nil {
		return ""
	}
	// The text in document order: the element's own Text is its character
	// data without the markup between.
	var sb strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(d.file.data[d.end:max(d.end, d.close)]))
	dec.Strict = false
	for {
		tok, err := dec.RawToken()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok {
			sb.Write(cd)
		}
	}
	if text := strings.TrimSpace(sb.String()); text != "" {
		return text
	}
	return strings.TrimSpace(d.Text) // offsets of a file decoded from another encoding may be off
}

// soapVersionOf is the SOAP version of a WSDL 1.1 SOAP binding namespace,
// "" for another namespace.
func soapVersionOf(space string) string {
	switch space {
	case NSSOAP11:
		return "1.1"
	case NSSOAP12:
		return "1.2"
	}
	return ""
}

func (op *BindingOperation) addVersion(v string) {
	if !slices.Contains(op.SOAPVersions, v) {
		op.SOAPVersions = append(op.SOAPVersions, v)
	}
}

// bodies reads the SOAP extension elements of a binding operation's input,
// output or fault (io), headerfaults inside headers included.
func (op *BindingOperation) bodies(io *element) {
	var walk func(e *element)
	walk = func(e *element) {
		for _, c := range e.Children {
			v := soapVersionOf(c.Name.Space)
			if v == "" {
				continue
			}
			switch c.Name.Local {
			case "body", "header", "headerfault", "fault":
			default:
				continue
			}
			b := &SOAPBody{In: io.Name.Local, Element: c.Name.Local, SOAPVersion: v, Use: c.get("use")}
			if parts, ok := c.attr("parts"); ok && c.Name.Local == "body" {
				b.Parts, b.PartsWritten = strings.Fields(parts), true
			}
			if io.Name.Local == "input" && c.Name.Local == "body" {
				op.Use = b.Use
			}
			op.Bodies = append(op.Bodies, b)
			op.addVersion(v)
			walk(c)
		}
	}
	walk(io)
}
