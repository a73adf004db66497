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
	"github.com/specgate/specgate/spec/internal/srctree"
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
	unique(c, s.Directives, func(d *Directive) string { return d.Name }, func(d *Directive) spec.Path { return d.Source },
		func(d *Directive) string { return "directive @" + d.Name })
	for _, d := range s.Directives {
		c.uniqueArgs(d.Args, "directive @"+d.Name)
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

// report reports a problem at what p names in the tree (srctree.At).
func (c *checker) report(p spec.Path, format string, args ...any) {
	c.s.problem(srctree.At(c.root, p), p, format, args...)
}

// place is where a problem about an element stands: where the SDL names
// it, else where its path leads (introspection JSON gives each element an
// index of its own).
func (c *checker) place(elem any, p spec.Path) spec.Range {
	if r, ok := c.s.named[elem]; ok {
		return r
	}
	return srctree.At(c.root, p)
}

// reportOn reports a problem about an element at its place.
func (c *checker) reportOn(elem any, p spec.Path, format string, args ...any) {
	c.s.problem(c.place(elem, p), p, format, args...)
}

// unique reports each element of a list whose name an earlier element
// has, where the later one stands, naming where the first does: the
// duplicate is the definition to remove or rename, as graphql-js's
// Unique…Names rules see it.
func unique[E comparable](c *checker, list []E, name func(E) string, source func(E) spec.Path, what func(E) string) {
	first := map[string]spec.Range{}
	for _, e := range list {
		r := c.place(e, source(e))
		if at, dup := first[name(e)]; dup {
			c.s.problem(r, source(e), "%s is defined more than once (first defined at %d:%d)", what(e), at.Start.Line, at.Start.Col)
			continue
		}
		first[name(e)] = r
	}
}

// uniqueArgs reports arguments of a field or directive defined twice.
func (c *checker) uniqueArgs(args []*Argument, of string) {
	unique(c, args, func(a *Argument) string { return a.Name }, func(a *Argument) spec.Path { return a.Source },
		func(a *Argument) string { return "argument " + a.Name + " of " + of })
}

// uniqueNames reports names a list holds twice (the members of a union,
// the interfaces a type implements), at the second.
func (c *checker) uniqueNames(names []string, at spec.Path, key string, format string, args ...any) {
	seen := map[string]bool{}
	for i, name := range names {
		if seen[name] {
			c.report(extend(at, key, i), format, append(args, name)...)
		}
		seen[name] = true
	}
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
		c.fieldNames(t, "field")
		for _, f := range t.Fields {
			c.outputRef(f.Type, extend(f.Source, "type"), fmt.Sprintf("field %s.%s", t.Name, f.Name))
			c.directives(f.Directives, "FIELD_DEFINITION", f.Source)
			c.uniqueArgs(f.Args, t.Name+"."+f.Name)
			for _, a := range f.Args {
				c.inputRef(a.Type, a.Source, fmt.Sprintf("argument %s of %s.%s", a.Name, t.Name, f.Name))
				c.directives(a.Directives, "ARGUMENT_DEFINITION", a.Source)
				if a.Deprecated && a.Type != nil && a.Type.NonNull && !a.HasDefault {
					c.reportOn(a, a.Source, "required argument %s of %s.%s cannot be deprecated: give it a default or make it nullable", a.Name, t.Name, f.Name)
				}
			}
		}
		c.uniqueNames(t.Interfaces, t.Source, "interfaces", "%s %s implements %s more than once", kindWord(t.Kind), t.Name)
		for _, name := range t.Interfaces {
			c.implements(t, name)
		}
	case Union:
		if len(t.Members) == 0 {
			c.report(t.Source, "union %s must have one or more member types", t.Name)
		}
		c.uniqueNames(t.Members, t.Source, "members", "union %s includes %s more than once", t.Name)
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
		unique(c, t.Values, func(v *EnumValue) string { return v.Name }, func(v *EnumValue) spec.Path { return v.Source },
			func(v *EnumValue) string { return "enum value " + t.Name + "." + v.Name })
		for _, v := range t.Values {
			if v.Name == "true" || v.Name == "false" || v.Name == "null" {
				c.reportOn(v, v.Source, "enum %s cannot have a value named %s", t.Name, v.Name)
			}
			c.directives(v.Directives, "ENUM_VALUE", v.Source)
		}
	case InputObject:
		if len(t.Fields) == 0 {
			c.report(t.Source, "input %s must define one or more fields", t.Name)
		}
		c.fieldNames(t, "input field")
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

// fieldNames reports fields defined twice and fields named as
// introspection's own.
func (c *checker) fieldNames(t *Type, what string) {
	unique(c, t.Fields, func(f *Field) string { return f.Name }, func(f *Field) spec.Path { return f.Source },
		func(f *Field) string { return what + " " + t.Name + "." + f.Name })
	for _, f := range t.Fields {
		if strings.HasPrefix(f.Name, "__") {
			c.reportOn(f, f.Source, "%s %s.%s: names starting with __ are reserved for introspection", what, t.Name, f.Name)
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
			c.reportOn(f, f.Source, "field %s.%s has type %s, which does not fit %s.%s of type %s", t.Name, f.Name, f.Type, name, want.Name, want.Type)
		}
		for _, wa := range want.Args {
			if f.Arg(wa.Name) == nil {
				c.reportOn(f, f.Source, "field %s.%s lacks the argument %s that %s.%s declares", t.Name, f.Name, wa.Name, name, want.Name)
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

// maxValidated bounds the fields, enum values or arguments of one element
// for gqlparser's validator, which compares every two of them to find
// duplicates, in quadratic time. The checks above find
// duplicates in one pass; a schema with a wider element skips the
// validator's further checks.
const maxValidated = 5000

// widest is the length of the longest list of fields, enum values or
// arguments in the schema.
func (s *Schema) widest() int {
	n := 0
	for _, t := range s.Types {
		n = max(n, len(t.Fields), len(t.Values))
		for _, f := range t.Fields {
			n = max(n, len(f.Args))
		}
	}
	for _, d := range s.Directives {
		n = max(n, len(d.Args))
	}
	return n
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
