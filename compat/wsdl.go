package compat

import (
	"encoding/xml"
	"fmt"
	"slices"

	"github.com/specgate/specgate/spec/wsdl"
)

// wsdlRules judge operations, their messages and parts, the schema types
// the parts reach, bindings and endpoints. An input is data consumers send
// (Request), an output or fault data they receive (Response).
var wsdlRules = []*Rule{
	{ID: "wsdl-operation-removed", Level: Breaking,
		Summary: "an operation of a port type or interface was removed",
		Why:     "consumers' calls of it fail"},
	{ID: "wsdl-port-type-removed", Level: Breaking,
		Summary: "a port type or interface was removed",
		Why:     "every operation of it is gone for consumers"},
	{ID: "wsdl-binding-removed", Level: Breaking,
		Summary: "a binding was removed",
		Why:     "consumers generated against it no longer find it"},
	{ID: "wsdl-port-removed", Level: Breaking,
		Summary: "a service, or a port or endpoint of one, was removed",
		Why:     "consumers that call that endpoint no longer reach the service"},
	{ID: "wsdl-operation-pattern-changed", Level: Breaking,
		Summary: "an operation changed its message exchange pattern (one-way, request-response, …)",
		Why:     "consumers wait for a response that no longer comes, or ignore one they must read"},
	{ID: "wsdl-part-removed", Level: Breaking,
		Summary: "a part of an operation's message was removed",
		Why:     "consumers send a part the service no longer reads, or read one it no longer sends"},
	{ID: "wsdl-part-added", Level: Breaking,
		Summary: "a part was added to the message consumers send",
		Why:     "consumers' requests lack it"},
	{ID: "wsdl-part-type-changed", Level: Breaking,
		Summary: "a part, input or output names another element or type",
		Why:     "the message's XML changes: its root element or content is not what the other side expects"},
	{ID: "wsdl-field-removed", Level: Breaking,
		Summary: "an element or attribute of a schema type in a message was removed",
		Why:     "consumers send XML the service rejects, or read a value it no longer sends"},
	{ID: "wsdl-field-added-required", Level: Breaking,
		Summary: "a required element or attribute was added to a type consumers send",
		Why:     "consumers' requests lack it"},
	{ID: "wsdl-field-type-changed", Level: Breaking,
		Summary: "an element or attribute of a type in a message changed type",
		Why:     "values no longer parse as the other side expects"},
	{ID: "wsdl-field-occurrence-changed", Level: Breaking,
		Summary: "an element became required in a request, optional in a response, or allows fewer repetitions",
		Why:     "messages valid before are now rejected, or lack what consumers read"},
	{ID: "wsdl-enumeration-changed", Level: Breaking,
		Summary: "a value was removed from an enumeration consumers send, or added to one they receive",
		Why:     "consumers send a value the service rejects, or receive one they do not know"},
	{ID: "wsdl-soap-version-changed", Level: Breaking,
		Summary: "a binding changed its SOAP version",
		Why:     "the envelope namespace and the content type (text/xml or application/soap+xml) change: consumers' messages are refused"},
	{ID: "wsdl-soap-action-changed", Level: Breaking,
		Summary: "an operation's SOAP action changed",
		Why:     "services dispatch on it: consumers' requests reach no operation"},
	{ID: "wsdl-address-changed", Level: Warning,
		Summary: "an endpoint's address changed",
		Why:     "consumers configured with the old address must follow"},
	{ID: "wsdl-element-added", Level: Info,
		Summary: "an operation, optional element or attribute, part of a response, binding or endpoint was added",
		Why:     "existing consumers are unaffected"},
}

type wsdlDiff struct {
	md     *modelDiff
	bd, rd *wsdl.Definitions
	// seen holds the pairs of types compared in one direction, so that
	// recursive types end.
	seen map[string]bool
}

func (md *modelDiff) wsdl() {
	bd, rd := wsdl.Of(md.base), wsdl.Of(md.rev)
	if bd == nil || rd == nil {
		return
	}
	d := &wsdlDiff{md: md, bd: bd, rd: rd, seen: map[string]bool{}}
	local := func(n xml.Name) string { return n.Local }
	pairByKey(bd.PortTypes, rd.PortTypes, func(p *wsdl.PortType) string { return local(p.Name) }, nil, func(b, r *wsdl.PortType, hasB, hasR bool) {
		switch {
		case !hasR:
			var ops []string
			for _, o := range b.Operations {
				ops = append(ops, b.Name.Local+"."+o.Name)
			}
			md.report("wsdl-port-type-removed", Base, site{b.File, b.Source}, site{}, ops, "%s was removed", b.Name.Local)
		case !hasB:
			md.report("wsdl-element-added", Revision, site{r.File, r.Source}, site{}, []string{r.Name.Local}, "%s was added", r.Name.Local)
		default:
			d.portType(b, r)
		}
	})
	pairByKey(bd.Bindings, rd.Bindings, func(b *wsdl.Binding) string { return local(b.Name) }, nil, func(b, r *wsdl.Binding, hasB, hasR bool) {
		switch {
		case !hasR:
			md.report("wsdl-binding-removed", Base, site{b.File, b.Source}, site{}, []string{"binding " + b.Name.Local}, "binding %s was removed", b.Name.Local)
		case !hasB:
			md.report("wsdl-element-added", Revision, site{r.File, r.Source}, site{}, []string{"binding " + r.Name.Local}, "binding %s was added", r.Name.Local)
		default:
			d.binding(b, r)
		}
	})
	pairByKey(bd.Services, rd.Services, func(s *wsdl.Service) string { return local(s.Name) }, nil, func(b, r *wsdl.Service, hasB, hasR bool) {
		switch {
		case !hasR:
			md.report("wsdl-port-removed", Base, site{b.File, b.Source}, site{}, []string{"service " + b.Name.Local}, "service %s was removed", b.Name.Local)
		case !hasB:
			md.report("wsdl-element-added", Revision, site{r.File, r.Source}, site{}, []string{"service " + r.Name.Local}, "service %s was added", r.Name.Local)
		default:
			pairByKey(b.Ports, r.Ports, func(p *wsdl.Port) string { return p.Name }, nil, func(bp, rp *wsdl.Port, hasB, hasR bool) {
				switch {
				case !hasR:
					md.report("wsdl-port-removed", Base, site{b.File, bp.Source}, site{r.File, r.Source}, []string{"service " + b.Name.Local}, "port %s of service %s was removed", bp.Name, b.Name.Local)
				case !hasB:
					md.report("wsdl-element-added", Revision, site{r.File, rp.Source}, site{b.File, b.Source}, []string{"service " + r.Name.Local}, "port %s was added to service %s", rp.Name, r.Name.Local)
				case bp.Address != rp.Address:
					md.report("wsdl-address-changed", Revision, site{r.File, rp.Source}, site{b.File, bp.Source}, []string{"service " + r.Name.Local}, "the address of port %s changed from %s to %s", rp.Name, bp.Address, rp.Address)
				}
			})
		}
	})
}

func (d *wsdlDiff) portType(b, r *wsdl.PortType) {
	md := d.md
	pairByKey(b.Operations, r.Operations, func(o *wsdl.Operation) string { return o.Name }, nil, func(bo, ro *wsdl.Operation, hasB, hasR bool) {
		switch {
		case !hasR:
			md.report("wsdl-operation-removed", Base, site{b.File, bo.Source}, site{r.File, r.Source}, []string{b.Name.Local + "." + bo.Name}, "operation %s of %s was removed", bo.Name, b.Name.Local)
			return
		case !hasB:
			md.report("wsdl-element-added", Revision, site{r.File, ro.Source}, site{b.File, b.Source}, []string{r.Name.Local + "." + ro.Name}, "operation %s was added to %s", ro.Name, r.Name.Local)
			return
		}
		op := r.Name.Local + "." + ro.Name
		if bo.Pattern != ro.Pattern {
			md.report("wsdl-operation-pattern-changed", Revision, site{r.File, ro.Source}, site{b.File, bo.Source}, []string{op}, "operation %s changed its pattern from %s to %s", op, bo.Pattern, ro.Pattern)
			return
		}
		d.io(op, b.File, r.File, bo.Input, ro.Input, Request)
		d.io(op, b.File, r.File, bo.Output, ro.Output, Response)
	})
}

// io compares an operation's input or output: the parts of its message
// (WSDL 1.1) or its element (WSDL 2.0).
func (d *wsdlDiff) io(op, bFile, file string, b, r *wsdl.IO, dir Direction) {
	if b == nil || r == nil {
		return
	}
	md := d.md
	if b.Element.Local != "" || r.Element.Local != "" {
		if b.Element.Local != r.Element.Local {
			md.report("wsdl-part-type-changed", Revision, site{file, r.Source}, site{bFile, b.Source}, []string{op}, "the %s of %s changed from element %s to %s", ioWord(dir), op, b.Element.Local, r.Element.Local)
			return
		}
		d.element(op, dir, b.Element, r.Element)
		return
	}
	bm, rm := d.bd.Message(b.Message), d.rd.Message(r.Message)
	if bm == nil || rm == nil {
		return // reported by validation
	}
	pairByKey(bm.Parts, rm.Parts, func(p *wsdl.Part) string { return p.Name }, nil, func(bp, rp *wsdl.Part, hasB, hasR bool) {
		switch {
		case !hasR:
			md.report("wsdl-part-removed", Base, site{bm.File, bp.Source}, site{rm.File, rm.Source}, []string{op}, "part %s of the %s of %s was removed", bp.Name, ioWord(dir), op)
		case !hasB && dir == Request:
			md.report("wsdl-part-added", Revision, site{rm.File, rp.Source}, site{bm.File, bm.Source}, []string{op}, "part %s was added to the %s of %s", rp.Name, ioWord(dir), op)
		case !hasB:
			md.report("wsdl-element-added", Revision, site{rm.File, rp.Source}, site{bm.File, bm.Source}, []string{op}, "part %s was added to the %s of %s", rp.Name, ioWord(dir), op)
		case bp.Element.Local != rp.Element.Local || bp.Type.Local != rp.Type.Local:
			md.report("wsdl-part-type-changed", Revision, site{rm.File, rp.Source}, site{bm.File, bp.Source}, []string{op}, "part %s of the %s of %s changed from %s to %s", rp.Name, ioWord(dir), op, partType(bp), partType(rp))
		case bp.Element.Local != "":
			d.element(op, dir, bp.Element, rp.Element)
		default:
			d.typeByName(op, dir, bp.Type, rp.Type)
		}
	})
}

func ioWord(dir Direction) string {
	if dir == Request {
		return "input"
	}
	return "output"
}

func partType(p *wsdl.Part) string {
	if p.Element.Local != "" {
		return "element " + p.Element.Local
	}
	return "type " + p.Type.Local
}

// element compares two global elements: their named or anonymous types.
func (d *wsdlDiff) element(op string, dir Direction, bn, rn xml.Name) {
	be, re := d.bd.Type(wsdl.KindElement, bn), d.rd.Type(wsdl.KindElement, rn)
	if be == nil || re == nil {
		return
	}
	if be.Type.Local != "" || re.Type.Local != "" {
		if be.Type.Local != re.Type.Local {
			d.md.report("wsdl-field-type-changed", Revision, site{re.File, re.Source}, site{be.File, be.Source}, []string{op}, "element %s changed type from %s to %s", re.Name.Local, typeText(be.Type), typeText(re.Type))
			return
		}
		d.typeByName(op, dir, be.Type, re.Type)
		return
	}
	d.content(op, dir, be, re)
}

// typeByName compares two named types of the schemas (XML Schema's own
// types compare by name only).
func (d *wsdlDiff) typeByName(op string, dir Direction, bn, rn xml.Name) {
	key := fmt.Sprintf("%d %s %s", dir, bn.Local, rn.Local)
	if d.seen[key] || bn.Space == wsdl.NSXSD {
		return
	}
	d.seen[key] = true
	bt := d.bd.Type(wsdl.KindComplexType, bn)
	rt := d.rd.Type(wsdl.KindComplexType, rn)
	if bt == nil || rt == nil {
		bt, rt = d.bd.Type(wsdl.KindSimpleType, bn), d.rd.Type(wsdl.KindSimpleType, rn)
	}
	if bt == nil || rt == nil {
		return
	}
	d.content(op, dir, bt, rt)
}

// content compares the fields, base and enumeration of two types.
func (d *wsdlDiff) content(op string, dir Direction, b, r *wsdl.XSDType) {
	md := d.md
	if b.Base.Local != r.Base.Local {
		md.report("wsdl-field-type-changed", Revision, site{r.File, r.Source}, site{b.File, b.Source}, []string{op}, "%s %s changed its base from %s to %s", r.Kind, r.Name.Local, typeText(b.Base), typeText(r.Base))
	} else if b.Base.Local != "" {
		d.typeByName(op, dir, b.Base, r.Base)
	}
	for _, v := range b.Enumeration {
		if !slices.Contains(r.Enumeration, v) && dir == Request {
			md.report("wsdl-enumeration-changed", Revision, site{r.File, r.Source}, site{b.File, b.Source}, []string{op}, "%s no longer allows the value %q", r.Name.Local, v)
		}
	}
	if len(b.Enumeration) > 0 && dir == Response {
		for _, v := range r.Enumeration {
			if !slices.Contains(b.Enumeration, v) {
				md.report("wsdl-enumeration-changed", Revision, site{r.File, r.Source}, site{b.File, b.Source}, []string{op}, "%s may now hold the value %q", r.Name.Local, v)
			}
		}
	}
	pairByKey(b.Fields, r.Fields, func(f *wsdl.XSDField) string { return fieldKey(f) }, nil, func(bf, rf *wsdl.XSDField, hasB, hasR bool) {
		switch {
		case !hasR:
			md.report("wsdl-field-removed", Base, site{b.File, bf.Source}, site{r.File, r.Source}, []string{op}, "%s %s of %s was removed", fieldWord(bf), bf.Name, b.Name.Local)
		case !hasB && dir == Request && rf.Required():
			md.report("wsdl-field-added-required", Revision, site{r.File, rf.Source}, site{b.File, b.Source}, []string{op}, "required %s %s was added to %s", fieldWord(rf), rf.Name, r.Name.Local)
		case !hasB:
			md.report("wsdl-element-added", Revision, site{r.File, rf.Source}, site{b.File, b.Source}, []string{op}, "%s %s was added to %s", fieldWord(rf), rf.Name, r.Name.Local)
		default:
			d.field(op, dir, b, r, bf, rf)
		}
	})
}

func fieldKey(f *wsdl.XSDField) string {
	if f.Attribute {
		return "@" + f.Name
	}
	return f.Name
}

func fieldWord(f *wsdl.XSDField) string {
	if f.Attribute {
		return "attribute"
	}
	return "element"
}

func (d *wsdlDiff) field(op string, dir Direction, bt, rt *wsdl.XSDType, b, r *wsdl.XSDField) {
	md := d.md
	if b.Type.Local != r.Type.Local || b.Ref.Local != r.Ref.Local {
		md.report("wsdl-field-type-changed", Revision, site{rt.File, r.Source}, site{bt.File, b.Source}, []string{op}, "%s %s of %s changed type from %s to %s", fieldWord(r), r.Name, rt.Name.Local, typeText(b.Type), typeText(r.Type))
		return
	}
	switch {
	case dir == Request && !b.Required() && r.Required():
		md.report("wsdl-field-occurrence-changed", Revision, site{rt.File, r.Source}, site{bt.File, b.Source}, []string{op}, "%s %s of %s is now required", fieldWord(r), r.Name, rt.Name.Local)
	case dir == Response && b.Required() && !r.Required():
		md.report("wsdl-field-occurrence-changed", Revision, site{rt.File, r.Source}, site{bt.File, b.Source}, []string{op}, "%s %s of %s may now be absent", fieldWord(r), r.Name, rt.Name.Local)
	}
	if dir == Request && b.MaxOccurs != r.MaxOccurs && (b.MaxOccurs == -1 || (r.MaxOccurs != -1 && r.MaxOccurs < b.MaxOccurs)) {
		md.report("wsdl-field-occurrence-changed", Revision, site{rt.File, r.Source}, site{bt.File, b.Source}, []string{op}, "element %s of %s allows at most %s, where it allowed %s", r.Name, rt.Name.Local, occurs(r.MaxOccurs), occurs(b.MaxOccurs))
	}
	if dir == Response && b.MaxOccurs != r.MaxOccurs && (r.MaxOccurs == -1 || (b.MaxOccurs != -1 && r.MaxOccurs > b.MaxOccurs)) {
		md.report("wsdl-field-occurrence-changed", Revision, site{rt.File, r.Source}, site{bt.File, b.Source}, []string{op}, "element %s of %s may now occur %s, where it occurred at most %s", r.Name, rt.Name.Local, occurs(r.MaxOccurs), occurs(b.MaxOccurs))
	}
	if r.Type.Local != "" {
		d.typeByName(op, dir, b.Type, r.Type)
	}
}

func occurs(n int) string {
	if n == -1 {
		return "unbounded times"
	}
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

func typeText(n xml.Name) string {
	if n.Local == "" {
		return "an anonymous type"
	}
	return n.Local
}

func (d *wsdlDiff) binding(b, r *wsdl.Binding) {
	md := d.md
	ops := []string{"binding " + r.Name.Local}
	if b.SOAPVersion != r.SOAPVersion {
		md.report("wsdl-soap-version-changed", Revision, site{r.File, r.Source.With("soapVersion")}, site{b.File, b.Source.With("soapVersion")}, ops, "binding %s changed from %s to %s (%s)", r.Name.Local, soapText(b.SOAPVersion), soapText(r.SOAPVersion), contentTypeText(r.SOAPVersion))
	}
	pairByKey(b.Operations, r.Operations, func(o *wsdl.BindingOperation) string { return o.Name }, nil, func(bo, ro *wsdl.BindingOperation, hasB, hasR bool) {
		if hasB && hasR && bo.SOAPAction != ro.SOAPAction {
			md.report("wsdl-soap-action-changed", Revision, site{r.File, ro.Source}, site{b.File, bo.Source}, ops, "the SOAP action of %s in %s changed from %q to %q", ro.Name, r.Name.Local, bo.SOAPAction, ro.SOAPAction)
		}
	})
}

func soapText(v string) string {
	if v == "" {
		return "no SOAP binding"
	}
	return "SOAP " + v
}

func contentTypeText(v string) string {
	if ct := wsdl.ContentType(v); ct != "" {
		return "its messages are now " + ct
	}
	return "its messages are no longer SOAP"
}
