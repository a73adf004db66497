package mock

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"mime"
	"net/url"
	"strings"

	"github.com/specgate/specgate/spec"
)

// Shim: response bodies are encoded here by media type because the
// contract package keeps its codecs' encoders to itself (it encodes
// request bodies only, through BuildRequest). Once it exports an encoder
// for a response's media type (say, Contract.EncodeResponse(resp
// *spec.Response, mediaType string, v any) ([]byte, string, error)), this
// file gives way to it, so that the mock and the tester write XML and
// forms by the same rules in both directions. Until then XML follows the
// rules the contract reads it by (xml.name, attribute, wrapped; the root
// named by xml.name, else by the component the schema refers to).

// encodeBody writes a value as a body of media (declared by mt, nil when
// the response declares nothing that applies) and returns it with the
// Content-Type to send.
func (s *Server) encodeBody(x *Exchange, mt *spec.MediaType, media string, v any) ([]byte, string, error) {
	essence, _, err := mime.ParseMediaType(media)
	if err != nil {
		essence = strings.ToLower(strings.TrimSpace(strings.SplitN(media, ";", 2)[0]))
	}
	if strings.ContainsAny(essence, "*") {
		media, essence = "application/json", "application/json"
	}
	switch b := v.(type) {
	case []byte:
		return b, media, nil
	case string:
		if !isJSON(essence) {
			return []byte(b), media, nil
		}
	}
	switch {
	case isJSON(essence):
		return marshalJSON(v, media)
	case essence == "application/xml" || essence == "text/xml" || strings.HasSuffix(essence, "+xml"):
		var doc *spec.Document
		var sch *spec.Node
		root := "root"
		if mt != nil && x != nil && x.op != nil {
			doc, sch = x.op.api.doc, mt.Schema
			if ref := mt.Node.Get("schema").Ref(); ref != "" {
				root = ref[strings.LastIndexByte(ref, '/')+1:]
			}
		}
		w := xmlWriter{doc: doc}
		if name := w.info(sch).name; name != "" {
			root = name
		}
		var buf bytes.Buffer
		buf.WriteString(xml.Header)
		enc := xml.NewEncoder(&buf)
		if err := w.write(enc, root, v, sch, 0); err != nil {
			return nil, "", err
		}
		if err := enc.Flush(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), media, nil
	case essence == "application/x-www-form-urlencoded":
		m, ok := v.(map[string]any)
		if !ok && v != nil {
			return nil, "", errors.New("a form body is an object of fields")
		}
		q := url.Values{}
		for _, k := range sortedKeys(m) {
			switch f := m[k].(type) {
			case nil:
			case []any:
				for _, it := range f {
					q.Add(k, scalarText(it))
				}
			default:
				q.Add(k, scalarText(f))
			}
		}
		return []byte(q.Encode()), media, nil
	}
	// Any other structured type: its JSON text.
	b, _, err := marshalJSON(v, media)
	return b, media, err
}

func marshalJSON(v any, media string) ([]byte, string, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, media, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, "", err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), media, nil
}

// xmlWriter writes a JSON value as XML by its schema's xml objects.
type xmlWriter struct{ doc *spec.Document }

type xmlInfo struct {
	name              string
	attribute, text   bool
	wrapped           bool
	prefix, namespace string
}

func (w xmlWriter) deref(n *spec.Node) *spec.Node {
	if w.doc == nil {
		return nil
	}
	return w.doc.Deref(n)
}

func (w xmlWriter) info(s *spec.Node) xmlInfo {
	s = w.deref(s)
	if s == nil {
		return xmlInfo{}
	}
	x := w.deref(s.Get("xml"))
	if x == nil {
		return xmlInfo{}
	}
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

func (w xmlWriter) typer() typer { return typer{w.doc} }

func (w xmlWriter) property(s *spec.Node, name string) *spec.Node {
	if w.doc == nil {
		return nil
	}
	return w.typer().property(s, name, 0)
}

func (w xmlWriter) items(s *spec.Node) *spec.Node {
	if w.doc == nil {
		return nil
	}
	return w.typer().items(s)
}

func (w xmlWriter) write(enc *xml.Encoder, name string, v any, s *spec.Node, depth int) error {
	if depth > 64 {
		return errors.New("value nested too deep for XML")
	}
	info := w.info(s)
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
		var text string
		for _, key := range sortedKeys(x) {
			ps := w.property(s, key)
			pi := w.info(ps)
			elem := key
			if pi.name != "" {
				elem = pi.name
			}
			val := x[key]
			switch {
			case pi.attribute:
				start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: elem}, Value: scalarText(val)})
			case pi.text:
				text = scalarText(val)
			default:
				children = append(children, func() error { return w.property1(enc, key, elem, val, ps, pi, depth) })
			}
		}
		if err := enc.EncodeToken(start); err != nil {
			return err
		}
		if text != "" {
			if err := enc.EncodeToken(xml.CharData(text)); err != nil {
				return err
			}
		}
		for _, ch := range children {
			if err := ch(); err != nil {
				return err
			}
		}
	case []any:
		items := w.items(s)
		itemName := w.info(items).name
		if itemName == "" {
			itemName = "item"
		}
		if err := enc.EncodeToken(start); err != nil {
			return err
		}
		for _, it := range x {
			if err := w.write(enc, itemName, it, items, depth+1); err != nil {
				return err
			}
		}
	default:
		if err := enc.EncodeToken(start); err != nil {
			return err
		}
		if v != nil {
			if err := enc.EncodeToken(xml.CharData(scalarText(v))); err != nil {
				return err
			}
		}
	}
	return enc.EncodeToken(start.End())
}

// property1 writes a property's element, or an array property's item
// elements (inside a wrapper when xml.wrapped).
func (w xmlWriter) property1(enc *xml.Encoder, key, elem string, v any, ps *spec.Node, pi xmlInfo, depth int) error {
	list, isList := v.([]any)
	if !isList {
		return w.write(enc, elem, v, ps, depth+1)
	}
	items := w.items(ps)
	itemName := w.info(items).name
	if itemName == "" {
		itemName = key
	}
	if pi.wrapped {
		wrapper := xml.StartElement{Name: xml.Name{Local: elem}}
		if err := enc.EncodeToken(wrapper); err != nil {
			return err
		}
		for _, it := range list {
			if err := w.write(enc, itemName, it, items, depth+1); err != nil {
				return err
			}
		}
		return enc.EncodeToken(wrapper.End())
	}
	for _, it := range list {
		if err := w.write(enc, itemName, it, items, depth+1); err != nil {
			return err
		}
	}
	return nil
}
