package graphql

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/specgate/specgate/spec"
)

// readIntrospection reads the JSON an introspection query answers
// ({"data": {"__schema": …}} or {"__schema": …}); the document's tree is
// the JSON itself, so positions are those of the file.
func readIntrospection(src *spec.Source) (*spec.Document, error) {
	root, err := spec.Parse(src.Name, src.Data, src.Limits())
	if err != nil {
		return nil, err
	}
	at := spec.Path{"__schema"}
	schema := root.Get("__schema")
	if schema == nil {
		schema, at = root.Get("data").Get("__schema"), spec.Path{"data", "__schema"}
	}
	if schema == nil || schema.Kind != spec.Object {
		return nil, &spec.Error{File: src.Name, Pos: root.Range.Start, Msg: `not a GraphQL introspection result: expected {"__schema": {…}} or {"data": {"__schema": {…}}}`}
	}
	s := &Schema{Introspection: true, byName: map[string]*Type{}}
	r := &introspection{s: s}
	s.Query = schema.Get("queryType").GetStr("name")
	s.Mutation = schema.Get("mutationType").GetStr("name")
	s.Subscription = schema.Get("subscriptionType").GetStr("name")
	if schema.Get("queryType") != nil {
		s.RootsSource = at
	}
	types := schema.Get("types")
	if types == nil || types.Kind != spec.Array {
		return nil, &spec.Error{File: src.Name, Pos: schema.Range.Start, Msg: "the introspection result has no types list"}
	}
	for i, tn := range types.Items {
		name := tn.GetStr("name")
		if name == "" {
			return nil, &spec.Error{File: src.Name, Pos: tn.Range.Start, Msg: fmt.Sprintf("type %d of the introspection result has no name", i)}
		}
		t := &Type{Name: name, Kind: tn.GetStr("kind"), Description: tn.GetStr("description"), BuiltIn: isBuiltIn(name),
			Source: extend(at, "types", i)}
		if s.byName[name] != nil {
			s.problem(tn.Range, t.Source, "type %s is listed more than once", name)
			continue
		}
		s.byName[name] = t
		s.Types = append(s.Types, t)
		for j, fn := range items(tn.Get("fields")) {
			t.Fields = append(t.Fields, r.field(fn, extend(t.Source, "fields", j)))
		}
		for j, fn := range items(tn.Get("inputFields")) {
			t.Fields = append(t.Fields, r.field(fn, extend(t.Source, "inputFields", j)))
		}
		for _, in := range items(tn.Get("interfaces")) {
			t.Interfaces = append(t.Interfaces, in.GetStr("name"))
		}
		if t.Kind == Union {
			for _, m := range items(tn.Get("possibleTypes")) {
				t.Members = append(t.Members, m.GetStr("name"))
			}
		}
		for j, vn := range items(tn.Get("enumValues")) {
			v := &EnumValue{Name: vn.GetStr("name"), Description: vn.GetStr("description"), Source: extend(t.Source, "enumValues", j)}
			v.Deprecated, v.DeprecationReason = deprecated(vn)
			t.Values = append(t.Values, v)
		}
	}
	for i, dn := range items(schema.Get("directives")) {
		d := &Directive{Name: dn.GetStr("name"), Description: dn.GetStr("description"), Repeatable: dn.Get("isRepeatable").IsTrue(),
			Source: extend(at, "directives", i)}
		for _, l := range items(dn.Get("locations")) {
			d.Locations = append(d.Locations, l.Value)
		}
		for j, an := range items(dn.Get("args")) {
			d.Args = append(d.Args, r.argument(an, extend(d.Source, "args", j)))
		}
		if _, builtIn := builtInDirectives[d.Name]; !builtIn {
			s.Directives = append(s.Directives, d)
		}
	}
	// Introspection lists the built-in types; the model keeps them out, as
	// for SDL, unless a check needs them (they resolve by name).
	kept := s.Types[:0]
	for _, t := range s.Types {
		if !t.BuiltIn {
			kept = append(kept, t)
		}
	}
	s.Types = kept
	s.check(root)
	return src.Document(spec.GraphQL, "introspection", root, nil, s), nil
}

type introspection struct{ s *Schema }

func (r *introspection) field(n *spec.Node, at spec.Path) *Field {
	f := &Field{Name: n.GetStr("name"), Description: n.GetStr("description"), Type: typeRefJSON(n.Get("type"), 0), Source: at}
	f.Deprecated, f.DeprecationReason = deprecated(n)
	if dv := n.Get("defaultValue"); dv != nil && dv.Kind == spec.String {
		f.Default, f.HasDefault = literal(dv.Value), true
	}
	for j, an := range items(n.Get("args")) {
		f.Args = append(f.Args, r.argument(an, extend(at, "args", j)))
	}
	return f
}

func (r *introspection) argument(n *spec.Node, at spec.Path) *Argument {
	a := &Argument{Name: n.GetStr("name"), Description: n.GetStr("description"), Type: typeRefJSON(n.Get("type"), 0), Source: at}
	a.Deprecated, a.DeprecationReason = deprecated(n)
	if dv := n.Get("defaultValue"); dv != nil && dv.Kind == spec.String {
		a.Default, a.HasDefault = literal(dv.Value), true
	}
	return a
}

// literal spells a default value of an introspection result as the SDL
// reader spells one (gqlparser's printing, without spaces after ':' and
// ','), so that a default read from SDL and from JSON compares equal:
// graphql-js prints `{field: NAME, direction: ASC}` where the SDL reader
// has `{field:NAME,direction:ASC}`. A value that does not parse is kept as
// written.
func literal(v string) string {
	doc, err := parser.ParseSchema(&ast.Source{Input: "input I { f: T = " + v + " }"})
	if err != nil || len(doc.Definitions) != 1 || len(doc.Definitions[0].Fields) != 1 || doc.Definitions[0].Fields[0].DefaultValue == nil {
		return v
	}
	return doc.Definitions[0].Fields[0].DefaultValue.String()
}

func deprecated(n *spec.Node) (bool, string) {
	if !n.Get("isDeprecated").IsTrue() {
		return false, ""
	}
	return true, n.GetStr("deprecationReason")
}

// typeRefJSON reads an introspection type reference ({kind, name,
// ofType}); depth bounds a hostile nesting.
func typeRefJSON(n *spec.Node, depth int) *TypeRef {
	if n == nil || n.Kind != spec.Object || depth > 32 {
		return &TypeRef{}
	}
	switch n.GetStr("kind") {
	case "NON_NULL":
		t := typeRefJSON(n.Get("ofType"), depth+1)
		t.NonNull = true
		return t
	case "LIST":
		return &TypeRef{Elem: typeRefJSON(n.Get("ofType"), depth+1)}
	}
	return &TypeRef{Name: n.GetStr("name")}
}

// items are the items of an array node; none for anything else (an
// absent or null list).
func items(n *spec.Node) []*spec.Node {
	if n == nil || n.Kind != spec.Array {
		return nil
	}
	return n.Items
}
