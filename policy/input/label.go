package input

import (
	"fmt"
	"slices"

	"github.com/specgate/specgate/policy/builtins"
	"github.com/specgate/specgate/spec"
)

// labeler names the items of input.received for messages
// (builtins.SchemaLabel, which specgate.schema_label calls for any other
// schema): the rules format thousands of them on a large API, and in Rego
// the name was a good part of each finding's cost.
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

// label names the value with a component name (or "") at source.
func (l *labeler) label(name string, source spec.Path) string {
	return builtins.SchemaLabel(name, viewPlace{source, l}, l.swagger)
}

// viewPlace is a builtins.Place of a view's source path.
type viewPlace struct {
	path spec.Path
	l    *labeler
}

func (p viewPlace) Len() int { return len(p.path) }

func (p viewPlace) Str(i int) (string, bool) {
	if i < 0 || i >= len(p.path) {
		return "", false
	}
	s, ok := p.path[i].(string)
	return s, ok
}

func (p viewPlace) Text(i int) string {
	if s, ok := p.Str(i); ok || i < 0 || i >= len(p.path) {
		return s
	}
	return fmt.Sprint(p.path[i])
}

func (p viewPlace) Param(upTo int) (string, bool) {
	if upTo < 0 || upTo > len(p.path) {
		return "", false
	}
	source := p.path[:upTo]
	// Every parameter is reached through a parameters list (the key of
	// l.params); most sources are not, and need no key.
	if !slices.Contains(source, any("parameters")) {
		return "", false
	}
	if param := p.l.params[pathKey(source)]; param != nil {
		return builtins.ParamLabel(param.In, param.Name), true
	}
	return "", false
}
