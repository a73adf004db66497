package arazzo

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/antchfx/xpath"
	"github.com/dlclark/regexp2/v2"
	"github.com/theory/jsonpath"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// A compiled criterion: the condition of its type, ready to test values.
type criterion struct {
	c      *Criterion
	simple *Condition
	regex  *regexp2.Regexp
	path   *jsonpath.Path
	// rootFilter: the query starts with a filter at the root ($[?…]),
	// which also tests the context itself (see eval).
	rootFilter bool
	xpath      *xpath.Expr
}

// compileCriterion parses a criterion's condition by its type: simple
// conditions by the specification's grammar, regex as ECMA-262, jsonpath as
// RFC 9535 (also for the older draft a version may name: the queries
// Arazzo documents write read alike), xpath as XPath 1.0.
func compileCriterion(c *Criterion) (*criterion, error) {
	cc := &criterion{c: c}
	var err error
	switch c.Type {
	case "", "simple":
		cc.simple, err = ParseCondition(c.Condition)
	case "regex":
		cc.regex, err = regexp2.Compile(c.Condition, regexp2.ECMAScript)
		if err != nil {
			err = fmt.Errorf("regular expression %q does not compile: %v", c.Condition, err)
		} else {
			cc.regex.MatchTimeout = time.Second
		}
	case "jsonpath":
		cc.path, err = jsonpath.Parse(c.Condition)
		if err != nil {
			err = fmt.Errorf("JSONPath %q does not parse: %v", c.Condition, err)
		}
		cc.rootFilter = strings.HasPrefix(strings.Join(strings.Fields(c.Condition), ""), "$[?")
	case "xpath":
		cc.xpath, err = xpath.Compile(c.Condition)
		if err != nil {
			err = fmt.Errorf("XPath %q does not compile (XPath 1.0 is supported): %v", c.Condition, err)
		}
	default:
		err = fmt.Errorf("criterion type %q is not one of simple, regex, jsonpath, xpath", c.Type)
	}
	if err == nil && c.Type != "" && c.Type != "simple" && c.Context == "" {
		err = fmt.Errorf("a %s criterion needs a context (the runtime expression it applies to, such as $response.body)", c.Type)
	}
	return cc, err
}

// eval tests the criterion. A regex matches the context's text (a number
// as written); a JSONPath or XPath criterion holds when its query selects
// something (the non-empty node list of the Arazzo specification's
// clarification).
//
// A JSONPath query that starts with a filter at the root ($[?…]) holds
// also when the filter selects the context itself. The specification's own
// example, $[?count(@.pets) > 0] over a response body {"pets": […]}, means
// "the body has pets"; RFC 9535 applies such a filter to the members of
// the context (here the list of pets, which has no member pets), and the
// example would never hold. Running the query over a one-element list
// holding the context binds @ to the context as the example means, and a
// query that already selects a member holds as RFC 9535 has it.
func (cc *criterion) eval(resolve Resolver) (bool, error) {
	held, _, err := cc.test(resolve)
	return held, err
}

// test is eval, with the context's value (nil when there is none).
func (cc *criterion) test(resolve Resolver) (bool, any, error) {
	if cc.simple != nil {
		held, err := cc.simple.Eval(resolve)
		return held, nil, err
	}
	e, err := ParseExpr(cc.c.Context)
	if err != nil {
		return false, nil, err
	}
	v, ok, err := resolve(e)
	if err != nil {
		return false, nil, err
	}
	if !ok {
		return false, nil, fmt.Errorf("context %s is not set", cc.c.Context)
	}
	switch {
	case cc.regex != nil:
		s := contract.InlineText(v)
		m, err := cc.regex.MatchString(s)
		if err != nil {
			return false, v, fmt.Errorf("regular expression %q: %v", cc.c.Condition, err)
		}
		return m, v, nil
	case cc.path != nil:
		if s, isText := v.(string); isText {
			var parsed any
			d := json.NewDecoder(strings.NewReader(s))
			d.UseNumber()
			if d.Decode(&parsed) == nil {
				v = parsed
			}
		}
		held := len(cc.path.Select(v)) > 0 || cc.rootFilter && len(cc.path.Select([]any{v})) > 0
		return held, v, nil
	case cc.xpath != nil:
		s, isText := v.(string)
		if !isText {
			return false, v, fmt.Errorf("an XPath criterion needs XML text as its context; %s is %s", cc.c.Context, describeValue(v))
		}
		root, err := parseXML(s)
		if err != nil {
			return false, v, fmt.Errorf("the context %s is not XML: %v", cc.c.Context, err)
		}
		switch r := cc.xpath.Evaluate(root.navigator()).(type) {
		case bool:
			return r, v, nil
		case float64:
			return r != 0, v, nil
		case string:
			return r != "", v, nil
		case *xpath.NodeIterator:
			return r.MoveNext(), v, nil
		}
		return false, v, nil
	}
	return false, v, errors.New("the criterion has no condition")
}

// compileSelector checks a 1.1 Selector Object's selector.
func compileSelector(v *spec.Node) (any, error) {
	sel := v.GetStr("selector")
	typ := v.GetStr("type")
	if t := v.Get("type"); t != nil && t.Kind == spec.Object {
		typ = t.GetStr("type")
	}
	switch typ {
	case "jsonpath":
		p, err := jsonpath.Parse(sel)
		if err != nil {
			return nil, fmt.Errorf("JSONPath %q does not parse: %v", sel, err)
		}
		return p, nil
	case "xpath":
		x, err := xpath.Compile(sel)
		if err != nil {
			return nil, fmt.Errorf("XPath %q does not compile: %v", sel, err)
		}
		return x, nil
	case "jsonpointer":
		if sel != "" && !strings.HasPrefix(sel, "/") {
			return nil, fmt.Errorf("JSON pointer %q must start with /", sel)
		}
		return sel, nil
	}
	return nil, fmt.Errorf("selector type %q is not one of jsonpath, xpath, jsonpointer", typ)
}

// selectValue applies a selector to a value: the first node a JSONPath or
// XPath selects (its text for XPath), or the value a JSON pointer names.
func selectValue(v *spec.Node, ctx any) (any, bool, error) {
	compiled, err := compileSelector(v)
	if err != nil {
		return nil, false, err
	}
	switch c := compiled.(type) {
	case *jsonpath.Path:
		if s, isText := ctx.(string); isText {
			var parsed any
			d := json.NewDecoder(strings.NewReader(s))
			d.UseNumber()
			if d.Decode(&parsed) == nil {
				ctx = parsed
			}
		}
		nodes := c.Select(ctx)
		if len(nodes) == 0 {
			return nil, false, nil
		}
		return nodes[0], true, nil
	case *xpath.Expr:
		s, isText := ctx.(string)
		if !isText {
			return nil, false, fmt.Errorf("an XPath selector needs XML text, found %s", describeValue(ctx))
		}
		root, err := parseXML(s)
		if err != nil {
			return nil, false, err
		}
		switch r := c.Evaluate(root.navigator()).(type) {
		case *xpath.NodeIterator:
			if !r.MoveNext() {
				return nil, false, nil
			}
			return r.Current().Value(), true, nil
		case float64:
			return json.Number(strconv.FormatFloat(r, 'f', -1, 64)), true, nil
		default:
			return r, true, nil
		}
	case string:
		return pointerGet(ctx, c)
	}
	return nil, false, nil
}

// An XML document as XPath 1.0 navigates it, read with encoding/xml.
type xnode struct {
	kind     xpath.NodeType
	local    string
	prefix   string
	data     string // text, comment, attribute value
	parent   *xnode
	children []*xnode
	attrs    []*xnode
}

// Names keep the prefixes the document writes: XPath 1.0 binds a query's
// prefixes through its evaluation context, which an Arazzo criterion does
// not give, so //soap:Body selects the elements the document itself
// prefixes soap (whatever namespace soap names there), and
// //*[local-name()='Body'] those of any namespace.
func parseXML(s string) (*xnode, error) {
	root := &xnode{kind: xpath.RootNode}
	cur := root
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	depth := 0
	// scopes holds, per open element, the prefixes it declares by
	// namespace: encoding/xml gives an element's namespace, not its prefix.
	var scopes []map[string]string
	prefixOf := func(space string) string {
		for i := len(scopes) - 1; i >= 0; i-- {
			if p, ok := scopes[i][space]; ok {
				return p
			}
		}
		if space == "http://www.w3.org/XML/1998/namespace" {
			return "xml"
		}
		return ""
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > 1000 {
				return nil, errors.New("XML nested deeper than 1,000 elements")
			}
			scope := map[string]string{}
			for _, a := range t.Attr {
				switch {
				case a.Name.Space == "xmlns":
					scope[a.Value] = a.Name.Local
				case a.Name.Space == "" && a.Name.Local == "xmlns":
					scope[a.Value] = ""
				}
			}
			scopes = append(scopes, scope)
			el := &xnode{kind: xpath.ElementNode, local: t.Name.Local, prefix: prefixOf(t.Name.Space), parent: cur}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				el.attrs = append(el.attrs, &xnode{kind: xpath.AttributeNode, local: a.Name.Local, prefix: prefixOf(a.Name.Space), data: a.Value, parent: el})
			}
			cur.children = append(cur.children, el)
			cur = el
		case xml.EndElement:
			depth--
			scopes = scopes[:len(scopes)-1]
			cur = cur.parent
		case xml.CharData:
			if strings.TrimSpace(string(t)) == "" && cur.kind == xpath.RootNode {
				continue
			}
			cur.children = append(cur.children, &xnode{kind: xpath.TextNode, data: string(t), parent: cur})
		case xml.Comment:
			cur.children = append(cur.children, &xnode{kind: xpath.CommentNode, data: string(t), parent: cur})
		}
	}
	return root, nil
}

func (n *xnode) text() string {
	switch n.kind {
	case xpath.TextNode, xpath.CommentNode, xpath.AttributeNode:
		return n.data
	}
	var b strings.Builder
	for _, c := range n.children {
		if c.kind != xpath.CommentNode {
			b.WriteString(c.text())
		}
	}
	return b.String()
}

// xnav is an xpath.NodeNavigator over xnodes.
type xnav struct {
	root, cur *xnode
	attr      int // index into cur.attrs when on an attribute, else -1
}

func (root *xnode) navigator() *xnav { return &xnav{root: root, cur: root, attr: -1} }

func (x *xnav) node() *xnode {
	if x.attr >= 0 {
		return x.cur.attrs[x.attr]
	}
	return x.cur
}
func (x *xnav) NodeType() xpath.NodeType { return x.node().kind }
func (x *xnav) LocalName() string        { return x.node().local }
func (x *xnav) Prefix() string           { return x.node().prefix }
func (x *xnav) Value() string            { return x.node().text() }
func (x *xnav) Copy() xpath.NodeNavigator {
	c := *x
	return &c
}
func (x *xnav) MoveToRoot() { x.cur, x.attr = x.root, -1 }
func (x *xnav) MoveToParent() bool {
	if x.attr >= 0 {
		x.attr = -1
		return true
	}
	if x.cur.parent == nil {
		return false
	}
	x.cur = x.cur.parent
	return true
}
func (x *xnav) MoveToNextAttribute() bool {
	if x.attr+1 >= len(x.cur.attrs) {
		return false
	}
	x.attr++
	return true
}
func (x *xnav) MoveToChild() bool {
	if x.attr >= 0 || len(x.cur.children) == 0 {
		return false
	}
	x.cur = x.cur.children[0]
	return true
}
func (x *xnav) siblings() ([]*xnode, int) {
	if x.cur.parent == nil {
		return nil, -1
	}
	sib := x.cur.parent.children
	for i, s := range sib {
		if s == x.cur {
			return sib, i
		}
	}
	return nil, -1
}
func (x *xnav) MoveToFirst() bool {
	if x.attr >= 0 {
		return false
	}
	sib, i := x.siblings()
	if i <= 0 {
		return false
	}
	x.cur = sib[0]
	return true
}
func (x *xnav) MoveToNext() bool {
	if x.attr >= 0 {
		return false
	}
	sib, i := x.siblings()
	if i < 0 || i+1 >= len(sib) {
		return false
	}
	x.cur = sib[i+1]
	return true
}
func (x *xnav) MoveToPrevious() bool {
	if x.attr >= 0 {
		return false
	}
	sib, i := x.siblings()
	if i <= 0 {
		return false
	}
	x.cur = sib[i-1]
	return true
}
func (x *xnav) MoveTo(other xpath.NodeNavigator) bool {
	o, ok := other.(*xnav)
	if !ok || o.root != x.root {
		return false
	}
	x.cur, x.attr = o.cur, o.attr
	return true
}

// pointerGet reads the value a JSON pointer names; ok false when it names
// nothing.
func pointerGet(v any, ptr string) (any, bool, error) {
	if ptr == "" {
		return v, true, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false, fmt.Errorf("JSON pointer %q must start with /", ptr)
	}
	for _, raw := range strings.Split(ptr[1:], "/") {
		seg := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[seg]
			if !ok {
				return nil, false, nil
			}
			v = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) || (len(seg) > 1 && seg[0] == '0') {
				return nil, false, nil
			}
			v = c[i]
		default:
			return nil, false, nil
		}
	}
	return v, true, nil
}
