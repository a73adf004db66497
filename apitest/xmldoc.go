package apitest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"slices"
	"strconv"
	"strings"
)

// XML examples written as whole documents. A spec may write an XML
// answer's example as the document itself, in a string (Azure's OData
// $metadata: a schema of type string, and an example that is the whole
// Edmx document). The contract reads such an answer as its root
// element's text, which the document never equals; the example is a
// document, and the answer is compared with it as one: the same
// elements in the same order, by namespace and local name, the same
// attributes whatever their order, and the same text once trimmed. The
// XML declaration, comments, processing instructions, namespace
// prefixes and the spacing between elements do not count.

// xmlNode is an element of a document as it is compared.
type xmlNode struct {
	name     xml.Name
	attrs    []xml.Attr // sorted, namespace declarations left out
	text     string     // the element's own text, trimmed and joined
	children []*xmlNode
}

// isXMLDocumentExample reports whether an example's body is an XML
// document written as a string, for an answer of an XML media type.
func isXMLDocumentExample(body any, contentType string) (string, bool) {
	s, ok := body.(string)
	if !ok || !strings.HasPrefix(strings.TrimSpace(s), "<") {
		return "", false
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return "", false
	}
	if mt != "application/xml" && mt != "text/xml" && !strings.HasSuffix(mt, "+xml") {
		return "", false
	}
	return s, true
}

// parseXMLDocument reads a document into its root element.
func parseXMLDocument(data []byte) (*xmlNode, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var root *xmlNode
	var stack []*xmlNode
	var text []strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: t.Name}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				n.attrs = append(n.attrs, a)
			}
			slices.SortFunc(n.attrs, func(a, b xml.Attr) int {
				if c := strings.Compare(a.Name.Space, b.Name.Space); c != 0 {
					return c
				}
				return strings.Compare(a.Name.Local, b.Name.Local)
			})
			switch {
			case len(stack) > 0:
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			case root != nil:
				return nil, fmt.Errorf("a second root element, %s", t.Name.Local)
			default:
				root = n
			}
			stack = append(stack, n)
			text = append(text, strings.Builder{})
		case xml.CharData:
			if len(stack) > 0 {
				if s := strings.TrimSpace(string(t)); s != "" {
					b := &text[len(text)-1]
					if b.Len() > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(s)
				}
			}
		case xml.EndElement:
			stack[len(stack)-1].text = text[len(text)-1].String()
			stack, text = stack[:len(stack)-1], text[:len(text)-1]
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// diffXML says where the document got first differs from want, and how;
// "" when they are the same. at is the path of both elements, whose names
// are the same: /Edmx/DataServices/Schema[2].
func diffXML(want, got *xmlNode, at string) string {
	for i, j := 0, 0; i < len(want.attrs) || j < len(got.attrs); {
		switch {
		case j == len(got.attrs) || i < len(want.attrs) && lessName(want.attrs[i].Name, got.attrs[j].Name):
			return fmt.Sprintf("%s: attribute %s: expected %q, found none", at, want.attrs[i].Name.Local, want.attrs[i].Value)
		case i == len(want.attrs) || lessName(got.attrs[j].Name, want.attrs[i].Name):
			return fmt.Sprintf("%s: unexpected attribute %s=%q", at, got.attrs[j].Name.Local, got.attrs[j].Value)
		case want.attrs[i].Value != got.attrs[j].Value:
			return fmt.Sprintf("%s: attribute %s: expected %q, found %q", at, want.attrs[i].Name.Local, want.attrs[i].Value, got.attrs[j].Value)
		}
		i++
		j++
	}
	if want.text != got.text {
		return fmt.Sprintf("%s: text: expected %q, found %q", at, want.text, got.text)
	}
	seen := map[xml.Name]int{}
	for i, w := range want.children {
		if i == len(got.children) {
			return fmt.Sprintf("%s: expected element %s, found the end of %s", at, w.name.Local, want.name.Local)
		}
		g := got.children[i]
		if w.name != g.name {
			return fmt.Sprintf("%s: expected element %s, found element %s", at, nameOf(w.name, g.name), nameOf(g.name, w.name))
		}
		seen[w.name]++
		step := at + "/" + w.name.Local
		if countNamed(want.children, w.name) > 1 {
			step += "[" + strconv.Itoa(seen[w.name]) + "]"
		}
		if d := diffXML(w, g, step); d != "" {
			return d
		}
	}
	if len(got.children) > len(want.children) {
		return fmt.Sprintf("%s: expected the end of %s, found element %s", at, want.name.Local, got.children[len(want.children)].name.Local)
	}
	return ""
}

// compareXMLDocuments compares an answer's body with an example written
// as a document: "" when they are the same document, else where and how
// they first differ.
func compareXMLDocuments(want *xmlNode, body []byte) string {
	got, err := parseXMLDocument(body)
	if err != nil {
		return fmt.Sprintf("the body is not an XML document: %v", err)
	}
	if want.name != got.name {
		return fmt.Sprintf("/: expected element %s, found element %s", nameOf(want.name, got.name), nameOf(got.name, want.name))
	}
	return diffXML(want, got, "/"+want.name.Local)
}

func countNamed(nodes []*xmlNode, name xml.Name) int {
	n := 0
	for _, x := range nodes {
		if x.name == name {
			n++
		}
	}
	return n
}

func lessName(a, b xml.Name) bool {
	if a.Space != b.Space {
		return a.Space < b.Space
	}
	return a.Local < b.Local
}

// nameOf names an element in a message: its local name, with its
// namespace when that is all that tells it from other.
func nameOf(n, other xml.Name) string {
	if n.Local == other.Local {
		if n.Space == "" {
			return n.Local + " (no namespace)"
		}
		return n.Local + " (" + n.Space + ")"
	}
	return n.Local
}
