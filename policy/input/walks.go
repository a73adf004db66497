package input

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/builtins"
	"github.com/specgate/specgate/spec"
)

// extensionRefs lists the "$ref" strings written inside `x-` extensions of
// the entry file, with their paths. The loader treats extensions as
// opaque and does not resolve these, but tools do follow some of them
// (GitHub's x-webhooks), so a rule deciding whether a component is used
// must count them.
func (c *converter) extensionRefs(root *spec.Node) *ast.Term {
	var out []*ast.Term
	var at segments
	var walk func(n *spec.Node, inExt bool)
	walk = func(n *spec.Node, inExt bool) {
		switch n.Kind {
		case spec.Object:
			for _, f := range n.Fields {
				if inExt && f.Key == "$ref" && f.Value.Kind == spec.String {
					out = append(out, c.obj(c.kv("ref", c.str(f.Value.Value)), c.kv("path", c.path(at.path()))))
				}
				at.pushKey(f.Key)
				walk(f.Value, inExt || strings.HasPrefix(f.Key, "x-"))
				at.pop()
			}
		case spec.Array:
			for i, it := range n.Items {
				at.pushIndex(i)
				walk(it, inExt)
				at.pop()
			}
		}
	}
	walk(root, false)
	return ast.ArrayTerm(out...)
}

// segments is the path of a walk, kept without boxing each key into an
// interface: walks over a whole document visit every node, and build a
// path or a pointer only for the few nodes they report.
type segments []segment

type segment struct {
	key   string
	index int // -1 for an object key
}

func (s *segments) pushKey(k string) { *s = append(*s, segment{key: k, index: -1}) }
func (s *segments) pushIndex(i int)  { *s = append(*s, segment{index: i}) }
func (s *segments) pop()             { *s = (*s)[:len(*s)-1] }

func (s segments) path() spec.Path {
	p := make(spec.Path, len(s))
	for i, seg := range s {
		if seg.index >= 0 {
			p[i] = seg.index
		} else {
			p[i] = seg.key
		}
	}
	return p
}

// scanFiles walks every file of the document once for what rules ask of
// the whole of it. markup is the set of title, summary and description
// strings, anywhere (examples and extensions included), that contain "<"
// or "javascript:" in any case: the only texts that can hold HTML or a
// script link. A rule about those tests a few texts' membership instead of
// searching every text of a large API. examples tells whether any object
// has an `example` or `examples` key: a rule that checks examples passes
// over the media types, parameters and headers of an API that has none
// without reading each.
func scanFiles(doc *spec.Document) (markup *ast.Term, examples bool) {
	set := ast.NewSet()
	var walk func(n *spec.Node)
	walk = func(n *spec.Node) {
		switch n.Kind {
		case spec.Object:
			for _, f := range n.Fields {
				if builtins.ProseKeys[f.Key] && f.Value.Kind == spec.String && hasMarkup(f.Value.Value) {
					set.Add(ast.StringTerm(f.Value.Value))
				}
				if f.Key == "example" || f.Key == "examples" {
					examples = true
				}
				walk(f.Value)
			}
		case spec.Array:
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	for _, f := range doc.Files() {
		walk(f.Root)
	}
	return ast.NewTerm(set), examples
}

// hasMarkup tells whether s contains "<" or, in any case, "javascript:".
func hasMarkup(s string) bool {
	if strings.Contains(s, "<") {
		return true
	}
	for i := strings.IndexAny(s, "jJ"); i >= 0; {
		if len(s)-i >= len("javascript:") && strings.EqualFold(s[i:i+len("javascript:")], "javascript:") {
			return true
		}
		next := strings.IndexAny(s[i+1:], "jJ")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}
