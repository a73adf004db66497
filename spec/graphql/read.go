package graphql

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/srctree"
)

// maxTokens bounds what the SDL parser reads: GitHub's schema, among the
// largest public ones, is about 300,000 tokens.
const maxTokens = 5_000_000

func read(_ context.Context, src *spec.Source) (*spec.Document, error) {
	if t := bytes.TrimLeft(src.Data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return readIntrospection(src)
	}
	return readSDL(src)
}

// readSDL parses SDL; a syntax error fails the load at its position.
func readSDL(src *spec.Source) (doc *spec.Document, err error) {
	runes := srctree.NewRunes(src.Data)
	source := &ast.Source{Name: src.Name, Input: string(src.Data)}
	var sd *ast.SchemaDocument
	func() {
		// The parser is not trusted with hostile input: a panic is a load
		// error, never a crash.
		defer func() {
			if p := recover(); p != nil {
				err = &spec.Error{File: src.Name, Msg: fmt.Sprintf("the GraphQL parser failed: %v", p)}
			}
		}()
		sd, err = parser.ParseSchemaWithLimit(source, maxTokens)
	}()
	if err != nil {
		var se *spec.Error
		if errors.As(err, &se) {
			return nil, se
		}
		e := &spec.Error{File: src.Name, Msg: err.Error(), Err: err}
		var ge *gqlerror.Error
		if errors.As(err, &ge) {
			e.Msg = ge.Message
			if len(ge.Locations) > 0 {
				e.Pos = spec.Pos{Line: int32(ge.Locations[0].Line), Col: int32(ge.Locations[0].Column)}
			}
			if _, qerr := parser.ParseQuery(source); qerr == nil {
				e.Msg = "the file holds GraphQL operations (queries, mutations or fragments), not a schema: " + e.Msg
			}
		}
		return nil, e
	}
	b := &sdlBuilder{runes: runes, s: &Schema{byName: map[string]*Type{}, named: map[any]spec.Range{}},
		root: srctree.Object(runes.Range(0, len([]rune(source.Input)))), elements: srctree.Elements{}, groups: map[*spec.Node]map[string]*spec.Node{}}
	b.build(sd)
	if bytes.Contains(src.Data, []byte(srctree.IgnoreDirective)) {
		srctree.Ignore(b.elements, comments(src.Data))
	}
	b.s.check(b.root)
	if len(b.s.Problems) == 0 && b.s.widest() <= maxValidated {
		b.s.Problems = validateWithGQLParser(source)
	}
	return src.Document(spec.GraphQL, "SDL", b.root, nil, b.s), nil
}

type sdlBuilder struct {
	runes *srctree.Runes
	s     *Schema
	root  *spec.Node
	// elements are the types, fields, arguments, enum values and
	// directives by the line their name is on, for the ignore directives
	// of the comments.
	elements srctree.Elements
	// groups are the elements each group node holds by name, for set:
	// searching a node's fields for a name made reading quadratic in its
	// elements.
	groups map[*spec.Node]map[string]*spec.Node
}

func (b *sdlBuilder) rng(p *ast.Position) spec.Range {
	if p == nil {
		return spec.Range{}
	}
	return b.runes.Range(p.Start, p.End)
}

// set adds an element under group of parent, keyed by name at pos.
func (b *sdlBuilder) set(parent *spec.Node, group, name string, pos *ast.Position) *spec.Node {
	r := b.rng(pos)
	g := srctree.Child(parent, group, r)
	byName := b.groups[g]
	if byName == nil {
		byName = map[string]*spec.Node{}
		b.groups[g] = byName
	}
	if v := byName[name]; v != nil {
		return v // an extension adds to what is already there
	}
	v := srctree.Object(r)
	srctree.Set(g, name, r, v)
	byName[name] = v
	b.elements.Add(r.Start.Line, v)
	return v
}

func (b *sdlBuilder) build(sd *ast.SchemaDocument) {
	for _, sc := range append(append(ast.SchemaDefinitionList{}, sd.Schema...), sd.SchemaExtension...) {
		node := srctree.Child(b.root, "schema", b.rng(sc.Position))
		if b.s.RootsSource == nil {
			b.s.RootsSource = spec.Path{"schema"}
		}
		for _, op := range sc.OperationTypes {
			srctree.Set(node, string(op.Operation), b.rng(op.Position), srctree.String(op.Type, b.rng(op.Position)))
			switch op.Operation {
			case ast.Query:
				b.s.Query = op.Type
			case ast.Mutation:
				b.s.Mutation = op.Type
			case ast.Subscription:
				b.s.Subscription = op.Type
			}
		}
	}
	for _, d := range sd.Definitions {
		b.definition(d, false)
	}
	for _, d := range sd.Extensions {
		b.definition(d, true)
	}
	for _, d := range append(append(ast.DirectiveDefinitionList{}, sd.Directives...), sd.DirectiveExtensions...) {
		node := b.set(b.root, "directives", d.Name, d.Position)
		dir := &Directive{Name: d.Name, Description: d.Description, Repeatable: d.IsRepeatable, Source: spec.Path{"directives", d.Name}}
		b.s.named[dir] = b.rng(d.Position)
		for _, l := range d.Locations {
			dir.Locations = append(dir.Locations, string(l))
		}
		for _, a := range d.Arguments {
			dir.Args = append(dir.Args, b.argument(node, dir.Source, a))
		}
		b.s.Directives = append(b.s.Directives, dir)
	}
	if b.s.RootsSource == nil {
		// Without a schema definition the roots are the types of the
		// default names (the specification's default root operation types).
		for name, root := range map[string]*string{"Query": &b.s.Query, "Mutation": &b.s.Mutation, "Subscription": &b.s.Subscription} {
			if t := b.s.byName[name]; t != nil && t.Kind == Object {
				*root = name
			}
		}
	}
}

var kinds = map[ast.DefinitionKind]string{
	ast.Scalar: Scalar, ast.Object: Object, ast.Interface: Interface,
	ast.Union: Union, ast.Enum: Enum, ast.InputObject: InputObject,
}

func (b *sdlBuilder) definition(d *ast.Definition, extension bool) {
	node := b.set(b.root, "types", d.Name, d.Position)
	t := b.s.byName[d.Name]
	if t == nil {
		t = &Type{Name: d.Name, Kind: kinds[d.Kind], Description: d.Description, Source: spec.Path{"types", d.Name}}
		b.s.byName[d.Name] = t
		b.s.Types = append(b.s.Types, t)
		srctree.Set(node, "kind", b.rng(d.Position), srctree.String(t.Kind, b.rng(d.Position)))
		if extension {
			b.s.problem(b.rng(d.Position), t.Source, "extend %s %s extends a type that is not defined", strings.ToLower(string(d.Kind)), d.Name)
		}
	} else if !extension {
		first := srctree.At(b.root, t.Source).Start
		b.s.problem(b.rng(d.Position), t.Source, "type %s is defined more than once (first defined at %d:%d)", d.Name, first.Line, first.Col)
		return
	}
	if extension && t.Kind != kinds[d.Kind] && t.Kind != "" {
		b.s.problem(b.rng(d.Position), t.Source, "extend %s %s extends a type that is %s", strings.ToLower(string(d.Kind)), d.Name, article(t.Kind))
		return
	}
	t.Directives = append(t.Directives, b.uses(d.Directives)...)
	for _, name := range d.Interfaces {
		t.Interfaces = append(t.Interfaces, name)
		srctree.Append(srctree.Child(node, "interfaces", b.rng(d.Position)), srctree.String(name, b.rng(d.Position)))
	}
	if len(d.Interfaces) > 0 {
		node.Get("interfaces").Kind = spec.Array
	}
	for i, name := range d.Types {
		pos := d.Position
		if i < len(d.TypePositions) {
			pos = d.TypePositions[i]
		}
		t.Members = append(t.Members, name)
		members := srctree.Child(node, "members", b.rng(pos))
		members.Kind = spec.Array
		srctree.Append(members, srctree.String(name, b.rng(pos)))
	}
	group := "fields"
	if t.Kind == InputObject {
		group = "inputFields"
	}
	for _, f := range d.Fields {
		fnode := b.set(node, group, f.Name, f.Position)
		field := &Field{Name: f.Name, Description: f.Description, Type: typeRef(f.Type), Directives: b.uses(f.Directives),
			Source: spec.Path{"types", d.Name, group, f.Name}}
		b.s.named[field] = b.rng(f.Position)
		field.Deprecated, field.DeprecationReason = deprecation(f.Directives)
		if f.DefaultValue != nil {
			field.Default, field.HasDefault = f.DefaultValue.String(), true
		}
		srctree.Set(fnode, "type", b.rng(f.Type.Position), srctree.String(field.Type.String(), b.rng(f.Type.Position)))
		for _, a := range f.Arguments {
			field.Args = append(field.Args, b.argument(fnode, field.Source, a))
		}
		t.Fields = append(t.Fields, field)
	}
	for _, v := range d.EnumValues {
		b.set(node, "values", v.Name, v.Position)
		ev := &EnumValue{Name: v.Name, Description: v.Description, Source: spec.Path{"types", d.Name, "values", v.Name}}
		b.s.named[ev] = b.rng(v.Position)
		ev.Deprecated, ev.DeprecationReason = deprecation(v.Directives)
		ev.Directives = b.uses(v.Directives)
		t.Values = append(t.Values, ev)
	}
}

func (b *sdlBuilder) argument(parent *spec.Node, at spec.Path, a *ast.ArgumentDefinition) *Argument {
	node := b.set(parent, "args", a.Name, a.Position)
	arg := &Argument{Name: a.Name, Description: a.Description, Type: typeRef(a.Type), Source: extend(at, "args", a.Name)}
	b.s.named[arg] = b.rng(a.Position)
	arg.Deprecated, arg.DeprecationReason = deprecation(a.Directives)
	arg.Directives = b.uses(a.Directives)
	if a.DefaultValue != nil {
		arg.Default, arg.HasDefault = a.DefaultValue.String(), true
	}
	if a.Type != nil {
		srctree.Set(node, "type", b.rng(a.Type.Position), srctree.String(arg.Type.String(), b.rng(a.Type.Position)))
	}
	return arg
}

func (b *sdlBuilder) uses(list ast.DirectiveList) []*DirectiveUse {
	var out []*DirectiveUse
	for _, d := range list {
		u := &DirectiveUse{Name: d.Name, Args: map[string]string{}, Range: b.rng(d.Position)}
		for _, a := range d.Arguments {
			if a.Value != nil {
				u.Args[a.Name] = a.Value.String()
			}
		}
		out = append(out, u)
	}
	return out
}

// deprecation reads @deprecated: whether it is there and its reason as
// written ("" for none).
func deprecation(list ast.DirectiveList) (bool, string) {
	d := list.ForName("deprecated")
	if d == nil {
		return false, ""
	}
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil && a.Value.Kind == ast.StringValue {
		return true, a.Value.Raw
	}
	return true, ""
}

func typeRef(t *ast.Type) *TypeRef {
	if t == nil {
		return nil
	}
	return &TypeRef{Name: t.NamedType, Elem: typeRef(t.Elem), NonNull: t.NonNull}
}

func extend(p spec.Path, segs ...any) spec.Path {
	out := make(spec.Path, 0, len(p)+len(segs))
	return append(append(out, p...), segs...)
}

func article(kind string) string {
	switch kind {
	case Object:
		return "an object"
	case Interface:
		return "an interface"
	case Union:
		return "a union"
	case Enum:
		return "an enum"
	case InputObject:
		return "an input object"
	case Scalar:
		return "a scalar"
	}
	return strings.ToLower(kind)
}

func (s *Schema) problem(r spec.Range, at spec.Path, format string, args ...any) {
	s.Problems = append(s.Problems, Problem{Range: r, Source: at, Message: fmt.Sprintf(format, args...)})
}
