package graphql

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/specgate/specgate/spec"
)

// checker finds the semantic errors of a schema, all of them (a schema
// validator that stops at the first error makes a user fix one at a time).
type checker struct {
	s    *Schema
	root *spec.Node
}

// check records the schema's semantic problems, ordered by position.
func (s *Schema) check(root *spec.Node) {
	c := &checker{s: s, root: root}
	c.roots()
	for _, t := range s.Types {
		c.typ(t)
	}
	c.interfaceCycles()
	for _, d := range s.Directives {
		for _, a := range d.Args {
			c.inputRef(a.Type, a.Source, fmt.Sprintf("argument %s of directive @%s", a.Name, d.Name))
		}
	}
	sort.SliceStable(s.Problems, func(i, j int) bool {
		a, b := s.Problems[i].Range.Start, s.Problems[j].Range.Start
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// at is the range of the element a path names in the tree: its key.
func (c *checker) at(p spec.Path) spec.Range {
	n := c.root
	r := spec.Range{Start: n.Range.Start, End: n.Range.Start}
	for _, seg := range p {
		switch s := seg.(type) {
		case string:
			f := n.Field(s)
			if f == nil {
				return r
			}
			r, n = f.KeyRange, f.Value
		case int:
			if s < 0 || s >= len(n.Items) {
				return r
			}
			n = n.Items[s]
			r = n.Range
		}
	}
	return r
}

func (c *checker) report(p spec.Path, format string, args ...any) {
	c.s.problem(c.at(p), p, format, args...)
}

func (c *checker) roots() {
	s := c.s
	where := s.RootsSource
	if s.Query == "" {
		if where == nil {
			where = spec.Path{}
		}
		c.report(where, "the schema has no query root type: define an object type Query, or name one in schema { query: … }")
	}
	for _, r := range []struct{ op, name string }{{"query", s.Query}, {"mutation", s.Mutation}, {"subscription", s.Subscription}} {
		if r.name == "" {
			continue
		}
		at := extend(where, r.op)
		if where == nil {
			at = spec.Path{"types", r.name}
		}
		t := s.Type(r.name)
		switch {
		case t == nil:
			c.report(at, "the %s root type %s is not defined", r.op, r.name)
		case t.Kind != Object:
			c.report(at, "the %s root type %s must be an object type, not %s", r.op, r.name, article(t.Kind))
		case r.op == "query" && len(t.Fields) == 0:
			c.report(t.Source, "the query root type %s has no fields: a schema must offer at least one query", r.name)
		}
	}
}

func (c *checker) typ(t *Type) {
	c.directives(t.Directives, t.Kind, t.Source)
	switch t.Kind {
	case Object, Interface:
		if len(t.Fields) == 0 && t.Name != c.s.Query {
			c.report(t.Source, "%s %s must define one or more fields", kindWord(t.Kind), t.Name)
		}
		c.fieldNames(t)
		for _, f := range t.Fields {
			c.outputRef(f.Type, extend(f.Source, "type"), fmt.Sprintf("field %s.%s", t.Name, f.Name))
			c.directives(f.Directives, "FIELD_DEFINITION", f.Source)
			for _, a := range f.Args {
				c.inputRef(a.Type, a.Source, fmt.Sprintf("argument %s of %s.%s", a.Name, t.Name, f.Name))
				c.directives(a.Directives, "ARGUMENT_DEFINITION", a.Source)
				if a.Deprecated && a.Type != nil && a.Type.NonNull && !a.HasDefault {
					c.report(a.Source, "required argument %s of %s.%s cannot be deprecated: give it a default or make it nullable", a.Name, t.Name, f.Name)
				}
			}
		}
		for _, name := range t.Interfaces {
			c.implements(t, name)
		}
	case Union:
		if len(t.Members) == 0 {
			c.report(t.Source, "union %s must have one or more member types", t.Name)
		}
		for i, name := range t.Members {
			m := c.s.Type(name)
			switch {
			case m == nil:
				c.report(extend(t.Source, "members", i), "union %s has an unknown member type %s", t.Name, name)
			case m.Kind != Object:
				c.report(extend(t.Source, "members", i), "union %s can only hold object types; %s is %s", t.Name, name, article(m.Kind))
			}
		}
	case Enum:
		if len(t.Values) == 0 {
			c.report(t.Source, "enum %s must have one or more values", t.Name)
		}
		for _, v := range t.Values {
			if v.Name == "true" || v.Name == "false" || v.Name == "null" {
				c.report(v.Source, "enum %s cannot have a value named %s", t.Name, v.Name)
			}
			c.directives(v.Directives, "ENUM_VALUE", v.Source)
		}
	case InputObject:
		if len(t.Fields) == 0 {
			c.report(t.Source, "input %s must define one or more fields", t.Name)
		}
		c.fieldNames(t)
		for _, f := range t.Fields {
			c.inputRef(f.Type, extend(f.Source, "type"), fmt.Sprintf("input field %s.%s", t.Name, f.Name))
			c.directives(f.Directives, "INPUT_FIELD_DEFINITION", f.Source)
		}
	}
}

func kindWord(kind string) string {
	if kind == Interface {
		return "interface"
	}
	return "type"
}

func (c *checker) fieldNames(t *Type) {
	seen := map[string]bool{}
	for _, f := range t.Fields {
		if seen[f.Name] {
			c.report(f.Source, "field %s.%s is defined more than once", t.Name, f.Name)
		}
		seen[f.Name] = true
		if strings.HasPrefix(f.Name, "__") {
			c.report(f.Source, "field %s.%s: names starting with __ are reserved for introspection", t.Name, f.Name)
		}
	}
}

// named returns the type a reference names, reporting an unknown one.
func (c *checker) named(ref *TypeRef, at spec.Path, what string) *Type {
	name := ref.Named()
	if name == "" {
		return nil
	}
	if t := c.s.Type(name); t != nil {
		return t
	}
	if builtInScalars[name] {
		return &Type{Name: name, Kind: Scalar, BuiltIn: true}
	}
	c.report(at, "%s has an unknown type %s", what, name)
	return nil
}

func (c *checker) outputRef(ref *TypeRef, at spec.Path, what string) {
	if t := c.named(ref, at, what); t != nil && t.Kind == InputObject {
		c.report(at, "%s must have an output type; %s is an input object", what, t.Name)
	}
}

func (c *checker) inputRef(ref *TypeRef, at spec.Path, what string) {
	if t := c.named(ref, at, what); t != nil && t.Kind != Scalar && t.Kind != Enum && t.Kind != InputObject {
		c.report(at, "%s must have an input type (a scalar, an enum or an input object); %s is %s", what, t.Name, article(t.Kind))
	}
}

// implements checks that t implements interface name: it exists, is an
// interface, and t has each of its fields with each of their arguments.
func (c *checker) implements(t *Type, name string) {
	i := c.s.Type(name)
	at := t.Source
	switch {
	case i == nil:
		c.report(at, "%s %s implements an unknown interface %s", kindWord(t.Kind), t.Name, name)
		return
	case i.Kind != Interface:
		c.report(at, "%s %s implements %s, which is %s, not an interface", kindWord(t.Kind), t.Name, name, article(i.Kind))
		return
	case i == t:
		c.report(at, "interface %s cannot implement itself", t.Name)
		return
	}
	for _, want := range i.Fields {
		f := t.Field(want.Name)
		if f == nil {
			c.report(at, "%s %s implements %s but lacks its field %s", kindWord(t.Kind), t.Name, name, want.Name)
			continue
		}
		if !c.covariant(want.Type, f.Type) {
			c.report(f.Source, "field %s.%s has type %s, which does not fit %s.%s of type %s", t.Name, f.Name, f.Type, name, want.Name, want.Type)
		}
		for _, wa := range want.Args {
			if f.Arg(wa.Name) == nil {
				c.report(f.Source, "field %s.%s lacks the argument %s that %s.%s declares", t.Name, f.Name, wa.Name, name, want.Name)
			}
		}
	}
}

// covariant reports whether a field of type got satisfies an interface
// field of type want: the same shape, possibly more non-null, and a named
// type that is the same or a member or implementation of it.
func (c *checker) covariant(want, got *TypeRef) bool {
	if want == nil || got == nil {
		return true
	}
	if want.NonNull && !got.NonNull {
		return false
	}
	if (want.Elem != nil) != (got.Elem != nil) {
		return false
	}
	if want.Elem != nil {
		return c.covariant(want.Elem, got.Elem)
	}
	if want.Name == got.Name {
		return true
	}
	g, w := c.s.Type(got.Name), c.s.Type(want.Name)
	if g == nil || w == nil {
		return true // unknown types are reported on their own
	}
	return (w.Kind == Union && slices.Contains(w.Members, g.Name)) || (w.Kind == Interface && slices.Contains(g.Interfaces, w.Name))
}

// interfaceCycles reports each cycle of interfaces implementing each
// other once, at the first interface of the cycle in source order.
func (c *checker) interfaceCycles() {
	state := map[string]int{} // 0 new, 1 on the stack, 2 done
	var stack []string
	reported := map[string]bool{}
	var visit func(t *Type)
	visit = func(t *Type) {
		state[t.Name] = 1
		stack = append(stack, t.Name)
		for _, name := range t.Interfaces {
			i := c.s.Type(name)
			if i == nil || i.Kind != Interface || i == t {
				continue
			}
			switch state[name] {
			case 0:
				visit(i)
			case 1:
				k := slices.Index(stack, name)
				cycle := append(slices.Clone(stack[k:]), name)
				key := strings.Join(slices.Sorted(slices.Values(cycle[:len(cycle)-1])), ",")
				if !reported[key] {
					reported[key] = true
					first := c.s.Type(cycle[0])
					c.report(first.Source, "interfaces implement each other in a cycle: %s", strings.Join(cycle, " → "))
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[t.Name] = 2
	}
	for _, t := range c.s.Types {
		if t.Kind == Interface && state[t.Name] == 0 {
			visit(t)
		}
	}
}

// directives checks directives applied at a location: each is defined,
// allowed there, given known arguments, and not repeated unless it may be.
func (c *checker) directives(uses []*DirectiveUse, location string, at spec.Path) {
	seen := map[string]bool{}
	for _, u := range uses {
		var locations []string
		var args []string
		repeatable := false
		if d := c.directive(u.Name); d != nil {
			locations, repeatable = d.Locations, d.Repeatable
			for _, a := range d.Args {
				args = append(args, a.Name)
			}
		} else if l, ok := builtInDirectives[u.Name]; ok {
			locations = l
			args = map[string][]string{"skip": {"if"}, "include": {"if"}, "deprecated": {"reason"}, "specifiedBy": {"url"}}[u.Name]
		} else {
			c.s.problem(u.Range, at, "unknown directive @%s", u.Name)
			continue
		}
		if !slices.Contains(locations, location) {
			c.s.problem(u.Range, at, "directive @%s may not be used on %s (it is allowed on %s)", u.Name, locationWord(location), strings.Join(locations, ", "))
		}
		for _, a := range slices.Sorted(mapsKeys(u.Args)) {
			if !slices.Contains(args, a) {
				c.s.problem(u.Range, at, "directive @%s has no argument %s", u.Name, a)
			}
		}
		if seen[u.Name] && !repeatable {
			c.s.problem(u.Range, at, "directive @%s is not repeatable but is used more than once here", u.Name)
		}
		seen[u.Name] = true
	}
}

func (c *checker) directive(name string) *Directive {
	for _, d := range c.s.Directives {
		if d.Name == name {
			return d
		}
	}
	return nil
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func locationWord(l string) string {
	return strings.ToLower(strings.ReplaceAll(l, "_", " ")) + "s"
}

// validateWithGQLParser runs gqlparser's schema validation over a schema
// the checks above found sound, for what they do not look at (default
// values against their types, names, …). It stops at its first error.
func validateWithGQLParser(src *ast.Source) (out []Problem) {
	defer func() {
		if p := recover(); p != nil {
			out = []Problem{{Message: fmt.Sprintf("the GraphQL validator failed: %v", p)}}
		}
	}()
	_, err := gqlparser.LoadSchema(src)
	if err == nil {
		return nil
	}
	p := Problem{Message: err.Error()}
	if ge, ok := err.(*gqlerror.Error); ok {
		p.Message = ge.Message
		if len(ge.Locations) > 0 {
			at := spec.Pos{Line: int32(ge.Locations[0].Line), Col: int32(ge.Locations[0].Column)}
			p.Range = spec.Range{Start: at, End: at}
		}
	}
	return []Problem{p}
}
