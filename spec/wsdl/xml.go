package wsdl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sync"

	"golang.org/x/text/encoding/ianaindex"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/srctree"
)

// Guards against hostile XML. encoding/xml expands no entity it is not
// given (a DTD's declarations are read as an opaque directive), so an
// entity bomb cannot expand; a DOCTYPE is refused all the same, and depth
// and the number of elements are bounded.
const (
	maxDepth    = 256
	maxElements = 2_000_000
)

// element is one XML element with its place in the text.
type element struct {
	Name     xml.Name
	Attr     []xml.Attr
	Children []*element
	Text     string
	// ns maps the prefixes in scope to namespaces, for QName attributes.
	ns map[string]string
	// text gathers Text while the element is read: appending to the
	// string made a root of many children quadratic.
	text  []byte
	start int // offset of '<'
	end   int // offset just past the start tag's '>'
	close int // offset just past the element's end
	file  *xmlFile
}

// xmlFile is one parsed XML file.
type xmlFile struct {
	name  string
	key   string // the file's identity (spec.Source.Key or what ReadRelated returned)
	data  []byte
	lines *srctree.Lines
	root  *element
	// comments are the file's comments when one holds an ignore
	// directive, and elements its elements by the line they start on,
	// which the directives stand for.
	comments []srctree.Comment
	elements srctree.Elements
}

func (e *element) attr(local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

func (e *element) get(local string) string { v, _ := e.attr(local); return v }

// attrNS returns an attribute in a namespace.
func (e *element) attrNS(space, local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value, true
		}
	}
	return "", false
}

func (e *element) children(space, local string) []*element {
	var out []*element
	for _, c := range e.Children {
		if c.Name.Local == local && (space == "*" || c.Name.Space == space) {
			out = append(out, c)
		}
	}
	return out
}

func (e *element) child(space, local string) *element {
	for _, c := range e.Children {
		if c.Name.Local == local && (space == "*" || c.Name.Space == space) {
			return c
		}
	}
	return nil
}

// qname resolves a QName attribute value ("tns:Order") to its namespace
// and local name with the prefixes in scope.
func (e *element) qname(v string) xml.Name {
	if i := bytes.IndexByte([]byte(v), ':'); i >= 0 {
		return xml.Name{Space: e.ns[v[:i]], Local: v[i+1:]}
	}
	return xml.Name{Space: e.ns[""], Local: v}
}

// tagRange is the range of the start tag.
func (e *element) tagRange() spec.Range { return e.file.lines.Range(e.start, e.end) }

// nameRange is the range of the element's name in its start tag.
func (e *element) nameRange() spec.Range {
	n := len(e.Name.Local)
	tag := e.file.data[e.start:e.end]
	if i := bytes.IndexAny(tag, " \t\r\n/>"); i > 1 {
		n = i - 1
	}
	return e.file.lines.Range(e.start+1, e.start+1+n)
}

// attrRange is the range of an attribute's value, or of the tag's name
// when the attribute is not written.
func (e *element) attrRange(local string) spec.Range {
	re := attrPattern(local)
	tag := e.file.data[e.start:e.end]
	if m := re.FindSubmatchIndex(tag); m != nil {
		return e.file.lines.Range(e.start+m[2], e.start+m[3])
	}
	return e.nameRange()
}

// attrPatterns caches the pattern of each attribute name (documents are
// read on several goroutines at once).
var attrPatterns sync.Map // string → *regexp.Regexp

func attrPattern(local string) *regexp.Regexp {
	if re, ok := attrPatterns.Load(local); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(`[\s](?:[\w.-]+:)?` + regexp.QuoteMeta(local) + `\s*=\s*["']([^"']*)["']`)
	attrPatterns.Store(local, re)
	return re
}

// parseXML reads a file into an element tree, refusing DTDs, depth beyond
// maxDepth and more than maxElements elements. Errors are *spec.Error at
// their position.
func parseXML(name string, data []byte) (*xmlFile, error) {
	f := &xmlFile{name: name, data: data, lines: srctree.NewLines(data), elements: srctree.Elements{}}
	var comments *srctree.Comments
	if bytes.Contains(data, []byte(srctree.IgnoreDirective)) {
		comments = srctree.NewComments(data)
	}
	code := func(off int) {
		if comments != nil {
			comments.Code(f.lines.Pos(off).Line)
		}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = charsetReader
	var stack []*element
	count := 0
	errAt := func(off int, format string, args ...any) error {
		return &spec.Error{File: name, Pos: f.lines.Pos(off), Msg: fmt.Sprintf(format, args...)}
	}
	for {
		before := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, &spec.Error{File: name, Pos: spec.Pos{Line: int32(se.Line), Col: 1}, Msg: "XML syntax error: " + se.Msg, Err: err}
			}
			return nil, errAt(int(d.InputOffset()), "XML syntax error: %v", err)
		}
		start := before
		for start < len(data) && data[start] != '<' && isSpace(data[start]) {
			start++
		}
		switch t := tok.(type) {
		case xml.Comment:
			if comments != nil {
				comments.Comment(start, int(d.InputOffset()), string(t))
			}
		case xml.ProcInst:
			code(start)
		case xml.Directive:
			if bytes.HasPrefix(bytes.TrimSpace(t), []byte("DOCTYPE")) {
				return nil, errAt(start, "a DOCTYPE is not allowed: DTDs and their entities are refused, so that an entity expansion (an XML bomb) cannot run")
			}
		case xml.StartElement:
			code(start)
			count++
			if count > maxElements {
				return nil, errAt(start, "more than %d elements", maxElements)
			}
			if len(stack) >= maxDepth {
				return nil, errAt(start, "elements nested deeper than %d levels", maxDepth)
			}
			e := &element{Name: t.Name, Attr: slices.Clone(t.Attr), start: start, end: int(d.InputOffset()), file: f, ns: map[string]string{}}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				for k, v := range parent.ns {
					e.ns[k] = v
				}
				parent.Children = append(parent.Children, e)
			} else if f.root != nil {
				return nil, errAt(start, "more than one root element")
			} else {
				f.root = e
			}
			for _, a := range t.Attr {
				switch {
				case a.Name.Space == "xmlns":
					e.ns[a.Name.Local] = a.Value
				case a.Name.Space == "" && a.Name.Local == "xmlns":
					e.ns[""] = a.Value
				}
			}
			stack = append(stack, e)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, errAt(start, "unexpected end element </%s>", t.Name.Local)
			}
			code(start)
			e := stack[len(stack)-1]
			if e.Name != t.Name {
				return nil, errAt(start, "XML syntax error: element <%s> closed by </%s>", rawName(e.Name), rawName(t.Name))
			}
			e.close = int(d.InputOffset())
			e.Text, e.text = string(e.text), nil
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.text = append(top.text, t...)
			}
			if i := bytes.IndexFunc(t, func(r rune) bool { return r > 0x7f || !isSpace(byte(r)) }); i >= 0 && comments != nil {
				code(before + i)
			}
		}
	}
	if len(stack) > 0 {
		return nil, errAt(len(data), "the document ends inside <%s>", stack[len(stack)-1].Name.Local)
	}
	if f.root == nil {
		return nil, &spec.Error{File: name, Msg: "no XML element in the file"}
	}
	if comments != nil {
		f.comments = comments.List()
	}
	// Names were read raw (prefix in Space): resolve them now that every
	// element knows its prefixes.
	var resolve func(e *element)
	resolve = func(e *element) {
		e.Name = e.resolveName(e.Name, true)
		for i, a := range e.Attr {
			if a.Name.Space != "" && a.Name.Space != "xmlns" {
				e.Attr[i].Name = e.resolveName(a.Name, false)
			}
		}
		for _, c := range e.Children {
			resolve(c)
		}
	}
	resolve(f.root)
	return f, nil
}

// resolveName turns a raw prefix into its namespace; an unprefixed element
// takes the default namespace, an unprefixed attribute none.
func (e *element) resolveName(n xml.Name, isElement bool) xml.Name {
	switch {
	case n.Space != "":
		if ns, ok := e.ns[n.Space]; ok {
			return xml.Name{Space: ns, Local: n.Local}
		}
		if n.Space == "xml" {
			return xml.Name{Space: "http://www.w3.org/XML/1998/namespace", Local: n.Local}
		}
		return n
	case isElement:
		return xml.Name{Space: e.ns[""], Local: n.Local}
	}
	return n
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func rawName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// charsetReader decodes the encodings an XML declaration may name
// (ISO-8859-1, windows-1252, …) into UTF-8. Positions are then counted in
// the decoded text, which differs from the file's only past a non-ASCII
// character.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	enc, err := ianaindex.IANA.Encoding(label)
	if err != nil || enc == nil {
		return nil, fmt.Errorf("unsupported encoding %q", label)
	}
	return enc.NewDecoder().Reader(input), nil
}
