package builtins

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/specgate/specgate/spec"
)

// proseMatchingBuiltin is specgate.prose_matching(pattern): the titles,
// summaries and descriptions of every file of the document that match a
// regular expression (Go's syntax, as regex.match), in document order, as
// [path, text, file]: the path within its file (indices are numbers) and
// the file's name ("" for the entry file). Examples, defaults, enums and
// extensions hold data, not prose, and are not searched (an OpenAPI 3
// Example Object's own summary and description are). A pattern that does
// not compile is an error, which makes the call undefined, as it makes
// regex.match's.
//
// The texts are searched here rather than given to the rules as part of
// the input: a large API has tens of thousands of them, held through the
// whole evaluation for the one rule that looks for a pattern in them.
func proseMatchingBuiltin(bctx rego.BuiltinContext, pattern *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.prose_matching", &err)
	doc, err := documentOf(bctx, "specgate.prose_matching")
	if err != nil {
		return nil, err
	}
	p, ok := pattern.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.prose_matching: the pattern is %s, not a string", ast.ValueName(pattern.Value))
	}
	re, err := regexp.Compile(string(p))
	if err != nil {
		return nil, fmt.Errorf("specgate.prose_matching: %w", err)
	}
	var out []*ast.Term
	eachProse(doc, func(file string, at []*ast.Term, text string) {
		if re.MatchString(text) {
			out = append(out, ast.ArrayTerm(ast.ArrayTerm(slices.Clone(at)...), ast.StringTerm(text), ast.StringTerm(file)))
		}
	})
	return ast.ArrayTerm(out...), nil
}

// eachProse calls fn with every title, summary and description of every
// file of the document, in document order: the file's name ("" for the
// entry file), the text's path within it (its key last) and the text.
// Examples, defaults, enums and extensions are skipped, but for the
// summary and description of an OpenAPI 3 Example Object.
func eachProse(doc *spec.Document, fn func(file string, at []*ast.Term, text string)) {
	for _, f := range doc.Files() {
		name := ""
		if f != doc.Root {
			name = f.Name
		}
		var at []*ast.Term
		var walk func(n *spec.Node)
		walk = func(n *spec.Node) {
			switch n.Kind {
			case spec.Object:
				for _, fl := range n.Fields {
					if ProseKeys[fl.Key] && fl.Value.Kind == spec.String {
						fn(name, append(at, ast.StringTerm(fl.Key)), fl.Value.Value)
						continue
					}
					if strings.HasPrefix(fl.Key, "x-") || (literalKeys[fl.Key] && !exampleObjects(doc, fl)) {
						continue
					}
					at = append(at, ast.StringTerm(fl.Key))
					walk(fl.Value)
					at = at[:len(at)-1]
				}
			case spec.Array:
				for i, it := range n.Items {
					at = append(at, ast.IntNumberTerm(i))
					walk(it)
					at = at[:len(at)-1]
				}
			}
		}
		walk(f.Root)
	}
}

// ProseKeys are the fields whose string values are prose for readers.
var ProseKeys = map[string]bool{"description": true, "summary": true, "title": true}

// literalKeys hold data rather than description: examples, defaults,
// enums and extensions are not searched for prose.
var literalKeys = map[string]bool{"example": true, "examples": true, "default": true, "enum": true, "const": true,
	"value": true, "dataValue": true, "serializedValue": true}

// exampleObjects holds for an OpenAPI 3 `examples` map, whose entries are
// Example Objects with prose of their own (their values are skipped).
// Swagger 2.0 `examples` map media types to literal values, and JSON
// Schema `examples` are a list of values.
func exampleObjects(doc *spec.Document, fl spec.Field) bool {
	return fl.Key == "examples" && fl.Value.Kind == spec.Object && doc.Format != spec.Swagger
}
