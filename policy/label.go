package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
)

// labeler names what the API receives for the messages of the rules about
// it (`property "id" in schema "Pet"`, `query parameter "limit"`,
// `array items in the request body of POST /pets`): the label of the
// items of input.received. The rules format thousands of them on a large
// API, and in Rego the name was a good part of each finding's cost.
//
// It is data.specgate.lib.security.schema_label(v) written in Go, branch
// for branch, and must stay so (TestLabelsSpellAsRego). Every item of
// input.received carries its label, which the rules read as it is
// (security.label). Where a branch meets a number where a key should be,
// which no view of a spec yields (the views walk objects' fields there),
// label writes the number's digits, as a key would be written; the Rego
// would quote it as a character, or skip the branch.
type labeler struct {
	swagger bool
	// params are the parameters by where their schema is written, and
	// Swagger 2.0 formData parameters by where they are (security's
	// _params_by_value).
	params map[string]*spec.Parameter
}

func newLabeler(doc *spec.Document, v *spec.Views) *labeler {
	l := &labeler{swagger: doc.Format == spec.Swagger, params: map[string]*spec.Parameter{}}
	for _, p := range v.Parameters {
		if p.SchemaSource != nil {
			l.params[pathKey(p.SchemaSource)] = p
		}
	}
	if l.swagger {
		for _, op := range v.Operations {
			if op.RequestBody != nil {
				for _, p := range op.RequestBody.FormData {
					l.params[pathKey(p.Source)] = p
				}
			}
		}
	}
	return l
}

// labelPath reads a path's segments by index; out of range is undefined.
type labelPath spec.Path

func (p labelPath) str(i int) (string, bool) {
	if i < 0 || i >= len(p) {
		return "", false
	}
	s, ok := p[i].(string)
	return s, ok
}

// text is segment i as a key is written: a number by its digits; ""
// out of range.
func (p labelPath) text(i int) string {
	if s, ok := p.str(i); ok || i < 0 || i >= len(p) {
		return s
	}
	return fmt.Sprint(p[i])
}

func (p labelPath) is(i int, want string) bool {
	s, ok := p.str(i)
	return ok && s == want
}

// label names the value with a component name (or "") at source.
func (l *labeler) label(name string, source spec.Path) string {
	if name != "" {
		return fmt.Sprintf("schema %q", name)
	}
	p, n := labelPath(source), len(source)
	root, hasRoot := l.root(p)
	if p.is(n-2, "properties") {
		last := p.text(n - 1)
		if hasRoot {
			return fmt.Sprintf("property %q in %s", last, root)
		}
		return fmt.Sprintf("property %q", last)
	}
	if param := l.param(source); param != nil {
		return paramLabel(param)
	}
	if p.is(n-1, "items") {
		if param := l.param(source[:n-1]); param != nil {
			return "items of " + paramLabel(param)
		}
	}
	if p.is(n-1, "schema") && hasRoot {
		return root
	}
	if hasRoot {
		return tailLabel(p) + " in " + root
	}
	return tailLabel(p)
}

func (l *labeler) param(source spec.Path) *spec.Parameter {
	// Every parameter is reached through a parameters list (the key of
	// l.params); most sources are not, and need no key.
	if source == nil || !slices.Contains(source, any("parameters")) {
		return nil
	}
	return l.params[pathKey(source)]
}

func paramLabel(p *spec.Parameter) string { return fmt.Sprintf("%s parameter %q", p.In, p.Name) }

// tailLabel names a schema by the keyword it is under.
func tailLabel(p labelPath) string {
	switch {
	case p.is(len(p)-1, "items"):
		return "array items"
	case p.is(len(p)-1, "additionalProperties"):
		return "additional properties"
	}
	return "a schema"
}

// root names the top-level object a schema is written in: a named schema,
// a request body, a response or a parameter; false for none.
func (l *labeler) root(p labelPath) (string, bool) {
	switch {
	case p.is(1, "schemas") && p.is(0, "components") && len(p) > 2:
		return fmt.Sprintf("schema %q", p.text(2)), true
	case p.is(0, "definitions") && len(p) > 1:
		return fmt.Sprintf("schema %q", p.text(1)), true
	case p.is(3, "requestBody") && p.is(0, "paths"),
		p.is(5, "schema") && p.is(3, "parameters") && p.is(0, "paths") && l.swagger:
		return fmt.Sprintf("the request body of %s %s", strings.ToUpper(p.text(2)), p.text(1)), true
	case p.is(3, "responses") && p.is(0, "paths") && len(p) > 4:
		return fmt.Sprintf("response %s of %s %s", p.text(4), strings.ToUpper(p.text(2)), p.text(1)), true
	}
	for _, c := range []struct{ at, upTo int }{{3, 6}, {2, 5}, {1, 4}} {
		if p.is(c.at, "parameters") {
			if param := l.param(spec.Path(p[:min(c.upTo, len(p))])); param != nil {
				return paramLabel(param), true
			}
		}
	}
	switch {
	case p.is(1, "requestBodies") && p.is(0, "components") && len(p) > 2:
		return fmt.Sprintf("the request body %q", p.text(2)), true
	case p.is(1, "responses") && p.is(0, "components") && len(p) > 2:
		return fmt.Sprintf("response %q", p.text(2)), true
	case p.is(0, "responses") && len(p) > 1:
		return fmt.Sprintf("response %q", p.text(1)), true
	}
	return "", false
}
