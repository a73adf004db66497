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
	params placeTable[*spec.Parameter]
	// requestPlaces are, for the received schemas written where no request
	// is (in a response, a callback, a webhook), the place of their first
	// request use: where a message about what the API receives names them.
	requestPlaces map[*spec.Node]spec.Path
}

func newLabeler(doc *spec.Document, v *spec.Views) *labeler {
	l := &labeler{swagger: doc.Format == spec.Swagger, params: placeTable[*spec.Parameter]{}}
	for _, p := range v.Parameters {
		if p.SchemaSource != nil {
			l.params.put(p.SchemaSource, p)
		}
	}
	if l.swagger {
		for _, op := range v.Operations {
			if op.RequestBody != nil {
				for _, p := range op.RequestBody.FormData {
					l.params.put(p.Source, p)
				}
			}
		}
	}
	l.requestPlaces = requestPlaces(doc, v)
	return l
}

// label names the value with a component name (or "") at source.
func (l *labeler) label(name string, source spec.Path) string {
	return builtins.SchemaLabel(name, viewPlace{source, l}, l.swagger)
}

// labelSchema names a received schema by where a request uses it: where
// it is written, unless that is where no request is (a response that
// another operation's request body $refs into, say), and then the first
// place in the operations' order through which a request reaches it.
func (l *labeler) labelSchema(s *spec.Schema) string {
	if at, ok := l.requestPlaces[s.Node]; ok {
		return l.label(s.Name, at)
	}
	return l.label(s.Name, s.Source)
}

// requestPlaces finds, for each unnamed received schema written where no
// request is (see writtenElsewhere), the first place an operation's
// parameters or request body reach it, walking as spec's Schema.Request
// is set: operations in order, each one's parameters and then its request
// body, depth first through subschemas and $refs.
func requestPlaces(doc *spec.Document, v *spec.Views) map[*spec.Node]spec.Path {
	want := map[*spec.Node]bool{}
	for _, s := range v.Schemas {
		if s.Name == "" && isReceived(s) && writtenElsewhere(s.Source) {
			want[s.Node] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	found := make(map[*spec.Node]spec.Path, len(want))
	seen := map[*spec.Node]bool{}
	var walk func(n *spec.Node, at spec.Path)
	walk = func(n *spec.Node, at spec.Path) {
		n = doc.Deref(n)
		if n == nil || n.Kind != spec.Object || seen[n] || len(found) == len(want) {
			return
		}
		seen[n] = true
		if want[n] {
			found[n] = slices.Clone(at)
		}
		// at grows as a stack: each child's path is at with its keys,
		// overwritten by the next child's once the walk below returns.
		spec.EachDescribingSubschema(n, func(c *spec.Node, keys ...any) { walk(c, append(at, keys...)) })
	}
	for _, op := range v.Operations {
		for _, p := range op.Parameters {
			walk(p.Schema, slices.Clip(p.SchemaSource))
		}
		if rb := op.RequestBody; rb != nil {
			for _, m := range rb.Content {
				walk(m.Schema, slices.Clip(m.SchemaSource))
			}
			for _, p := range rb.FormData {
				walk(p.Schema, slices.Clip(p.SchemaSource))
			}
		}
	}
	return found
}

// writtenElsewhere tells whether a schema's source is a place no request
// of the API uses: a response or a response header (of an operation under
// paths, or reusable), or a callback or a webhook, whose requests the API
// sends.
func writtenElsewhere(source spec.Path) bool {
	at := func(i int, want ...string) bool {
		if i >= len(source) {
			return false
		}
		s, ok := source[i].(string)
		return ok && slices.Contains(want, s)
	}
	return at(0, "paths") && at(3, "responses", "callbacks") ||
		at(0, "components") && at(1, "responses", "headers", "callbacks") ||
		at(0, "webhooks", "responses")
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
	if param := p.l.params.get(source); param != nil {
		return builtins.ParamLabel(param.In, param.Name), true
	}
	return "", false
}
