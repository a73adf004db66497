package contract

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// xmlCodec reads XML into a JSON value its schema can validate, and
// writes one back, by the schema's xml object: xml.name names a
// property's element or attribute (else its own name); xml.attribute (3.2:
// nodeType attribute) reads it from an attribute, nodeType text from the
// element's text; an array's items repeat, inside one element with
// xml.wrapped. Names match by local name (prefixes, namespaces and the
// root's name are not checked); text is typed by the schema; an element
// the schema does not describe is kept, as a string or an object, so that
// additionalProperties: false sees it. The root written is named by
// xml.name, else the component the media type refers to, else "root".
type xmlCodec struct{}

// maxDepth bounds the nesting of the values a body or a parameter is read
// into (XML elements, deepObject keys), as encoding/json bounds JSON's.
const maxDepth = 1000

// xnode is an element read from an XML body.
type xnode struct {
	name     string // local name
	attrs    []xml.Attr
	children []*xnode
	text     strings.Builder
}

func (xmlCodec) Decode(body []byte, t *BodyType) (any, error) {
	root, err := parseXML(body)
	if err != nil {
		return nil, err
	}
	var s sref
	if t.m != nil {
		s = t.m.sch
	}
	return t.c.xmlValue(root, s, 0), nil
}

// parseXML checks that a body is one well-formed XML element (with
// optional prolog, comments and processing instructions) and returns it.
func parseXML(body []byte) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	var root *xnode
	var stack []*xnode
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				line, _ := d.InputPos()
				return nil, fmt.Errorf("line %d: elements nested deeper than %d", line, maxDepth)
			}
			n := &xnode{name: tk.Name.Local, attrs: tk.Attr}
			switch {
			case len(stack) > 0:
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			case root != nil:
				line, _ := d.InputPos()
				return nil, fmt.Errorf("line %d: a second root element <%s>", line, tk.Name.Local)
			default:
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(tk)
			} else if len(bytes.TrimSpace(tk)) > 0 {
				line, _ := d.InputPos()
				return nil, fmt.Errorf("line %d: text outside the root element", line)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// xmlInfo is a schema's xml object.
type xmlInfo struct {
	name      string
	attribute bool
	text      bool
	wrapped   bool
	prefix    string
	namespace string
}

func (c *Contract) xmlOf(s sref) xmlInfo {
	x := c.deref(s.n.Get("xml"))
	info := xmlInfo{name: x.GetStr("name"), attribute: x.Get("attribute").IsTrue(), wrapped: x.Get("wrapped").IsTrue(),
		prefix: x.GetStr("prefix"), namespace: x.GetStr("namespace")}
	switch x.GetStr("nodeType") {
	case "attribute":
		info.attribute = true
	case "text":
		info.text = true
	}
	return info
}

func (n *xnode) child(name string) *xnode {
	for _, ch := range n.children {
		if ch.name == name {
			return ch
		}
	}
	return nil
}

func (n *xnode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == name && a.Name.Space != "xmlns" && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
			return a.Value, true
		}
	}
	return "", false
}

// xmlValue reads an element as a value of schema s.
func (c *Contract) xmlValue(n *xnode, s sref, depth int) any {
	if depth > maxDepth {
		return nil
	}
	t := c.typesOf(s)
	switch {
	case s.n != nil && (t&TypeObject != 0 || t == 0 && s.n.Get("properties") != nil):
		return c.xmlObject(n, s, depth)
	case s.n != nil && t&TypeArray != 0:
		items := c.itemsOf(s)
		out := []any{}
		for _, ch := range n.children {
			out = append(out, c.xmlValue(ch, items, depth+1))
		}
		return out
	case s.n != nil:
		v, ok := CoerceText(strings.TrimSpace(n.text.String()), t)
		if !ok || t&TypeString != 0 {
			return n.text.String()
		}
		return v
	}
	return xmlAny(n)
}

func (c *Contract) xmlObject(n *xnode, s sref, depth int) map[string]any {
	out := map[string]any{}
	taken := map[*xnode]bool{}
	for _, name := range c.propertyNames(s) {
		ps, _ := c.propertyOf(s, name)
		info := c.xmlOf(ps)
		elem := name
		if info.name != "" {
			elem = info.name
		}
		switch {
		case info.attribute:
			if v, ok := n.attr(elem); ok {
				out[name] = c.xmlText(v, ps)
			}
		case info.text:
			out[name] = c.xmlText(n.text.String(), ps)
		case c.shapeOf(ps) == array:
			items := c.itemsOf(ps)
			itemName := c.xmlOf(items).name
			if itemName == "" {
				itemName = name
			}
			holder := n
			if info.wrapped {
				holder = n.child(elem)
				if holder == nil {
					continue
				}
				taken[holder] = true
			}
			var list []any
			for _, ch := range holder.children {
				if ch.name == itemName {
					taken[ch] = true
					list = append(list, c.xmlValue(ch, items, depth+1))
				}
			}
			if list != nil || info.wrapped {
				if list == nil {
					list = []any{}
				}
				out[name] = list
			}
		default:
			if ch := n.child(elem); ch != nil {
				taken[ch] = true
				out[name] = c.xmlValue(ch, ps, depth+1)
			}
		}
	}
	for _, ch := range n.children {
		if !taken[ch] {
			if _, dup := out[ch.name]; !dup {
				out[ch.name] = xmlAny(ch)
			}
		}
	}
	return out
}

func (c *Contract) xmlText(s string, ps sref) any {
	t := c.typesOf(ps)
	if v, ok := CoerceText(strings.TrimSpace(s), t); ok && t&TypeString == 0 {
		return v
	}
	return s
}

// xmlAny reads an element no schema describes: its text, or an object of
// its attributes and children (repeated children as a list).
func xmlAny(n *xnode) any {
	var attrs []xml.Attr
	for _, a := range n.attrs {
		if a.Name.Space != "xmlns" && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
			attrs = append(attrs, a)
		}
	}
	if len(n.children) == 0 && len(attrs) == 0 {
		return n.text.String()
	}
	out := map[string]any{}
	for _, a := range attrs {
		out[a.Name.Local] = a.Value
	}
	for _, ch := range n.children {
		v := xmlAny(ch)
		switch prev := out[ch.name].(type) {
		case nil:
			out[ch.name] = v
		case []any:
			out[ch.name] = append(prev, v)
		default:
			out[ch.name] = []any{prev, v}
		}
	}
	return out
}

// Encode writes a value as XML by the same rules; the root element is
// named by the schema's xml.name, else by the name of the component the
// media type's schema refers to, else "root".
func (xmlCodec) Encode(v any, t *BodyType) ([]byte, string, error) {
	var s sref
	root := "root"
	if t.m != nil {
		s = t.m.sch
		if t.m.mt != nil {
			if ref := t.m.mt.Node.Get("schema").Ref(); ref != "" {
				root = ref[strings.LastIndexByte(ref, '/')+1:]
			}
		}
	}
	if info := t.c.xmlOf(s); info.name != "" {
		root = info.name
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	if err := t.c.writeXML(enc, root, v, s, 0); err != nil {
		return nil, "", err
	}
	if err := enc.Flush(); err != nil {
		return nil, "", err
	}
	return b.Bytes(), t.ContentType, nil
}

func (c *Contract) writeXML(enc *xml.Encoder, name string, v any, s sref, depth int) error {
	if depth > maxDepth {
		return errors.New("value nested too deep for XML")
	}
	info := c.xmlOf(s)
	start := xml.StartElement{Name: xml.Name{Local: name}}
	if info.prefix != "" {
		start.Name.Local = info.prefix + ":" + name
	}
	if info.namespace != "" {
		attr := "xmlns"
		if info.prefix != "" {
			attr += ":" + info.prefix
		}
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: attr}, Value: info.namespace})
	}
	switch x := v.(type) {
	case map[string]any:
		var children []func() error
		var body string
		for _, kv := range c.pairsOfValue(s, x) {
			key := kv[0].(string)
			ps, _ := c.propertyOf(s, key)
			pi := c.xmlOf(ps)
			elem := key
			if pi.name != "" {
				elem = pi.name
			}
			val := kv[1]
			switch {
			case pi.attribute:
				start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: elem}, Value: text(val)})
			case pi.text:
				body = text(val)
			default:
				children = append(children, func() error { return c.writeXMLProperty(enc, key, elem, val, ps, pi, depth) })
			}
		}
		if err := enc.EncodeToken(start); err != nil {
			return err
		}
		if body != "" {
			if err := enc.EncodeToken(xml.CharData(body)); err != nil {
				return err
			}
		}
		for _, ch := range children {
			if err := ch(); err != nil {
				return err
			}
		}
	case []any:
		items := c.itemsOf(s)
		itemName := c.xmlOf(items).name
		if itemName == "" {
			itemName = "item"
		}
		if err := enc.EncodeToken(start); err != nil {
			return err
		}
		for _, it := range x {
			if err := c.writeXML(enc, itemName, it, items, depth+1); err != nil {
				return err
			}
		}
	default:
		if err := enc.EncodeToken(start); err != nil {
			return err
		}
		if err := enc.EncodeToken(xml.CharData(text(v))); err != nil {
			return err
		}
	}
	return enc.EncodeToken(start.End())
}

// writeXMLProperty writes a property's element, or an array property's
// item elements (inside a wrapper when xml.wrapped).
func (c *Contract) writeXMLProperty(enc *xml.Encoder, key, elem string, v any, ps sref, pi xmlInfo, depth int) error {
	list, isList := v.([]any)
	if !isList || c.shapeOf(ps) != array && ps.n != nil {
		return c.writeXML(enc, elem, v, ps, depth+1)
	}
	items := c.itemsOf(ps)
	itemName := c.xmlOf(items).name
	if itemName == "" {
		itemName = key
	}
	if pi.wrapped {
		wrapper := xml.StartElement{Name: xml.Name{Local: elem}}
		if err := enc.EncodeToken(wrapper); err != nil {
			return err
		}
		for _, it := range list {
			if err := c.writeXML(enc, itemName, it, items, depth+1); err != nil {
				return err
			}
		}
		return enc.EncodeToken(wrapper.End())
	}
	for _, it := range list {
		if err := c.writeXML(enc, itemName, it, items, depth+1); err != nil {
			return err
		}
	}
	return nil
}
