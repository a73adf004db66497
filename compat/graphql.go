package compat

import (
	"slices"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/graphql"
)

// graphqlRules follow the criticality graphql-inspector gives each change:
// its breaking changes are breaking here, its dangerous ones warnings (a
// default that changes, an enum value or union member a client may not
// handle), the rest information. Types pair by name, fields, arguments and
// enum values by name within them.
var graphqlRules = []*Rule{
	{ID: "graphql-type-removed", Level: Breaking,
		Summary: "a type the base has is missing from the revision",
		Why:     "queries and variables that name it no longer validate"},
	{ID: "graphql-type-kind-changed", Level: Breaking,
		Summary: "a type changed kind (object, interface, union, enum, input, scalar)",
		Why:     "selections, fragments and variables written for the old kind no longer validate"},
	{ID: "graphql-root-type-changed", Level: Breaking,
		Summary: "the query, mutation or subscription root changed type or disappeared",
		Why:     "every operation of that kind is validated against another type, or fails"},
	{ID: "graphql-root-field-removed", Level: Breaking,
		Summary: "a field of the query, mutation or subscription root was removed",
		Why:     "operations that select it no longer validate: the API no longer offers them"},
	{ID: "graphql-field-removed", Level: Breaking,
		Summary: "a field of an object or interface was removed",
		Why:     "queries that select it no longer validate"},
	{ID: "graphql-field-type-changed", Level: Breaking,
		Summary: "a field's type changed in a way clients cannot read (another type, a list, or nullable where it was non-null)",
		Why:     "clients read values of the old type, or meet a null they were promised never to get"},
	{ID: "graphql-argument-removed", Level: Breaking,
		Summary: "an argument of a field was removed",
		Why:     "queries that pass it no longer validate"},
	{ID: "graphql-argument-added-required", Level: Breaking,
		Summary: "a non-null argument without a default was added to a field",
		Why:     "queries that do not pass it no longer validate"},
	{ID: "graphql-argument-type-changed", Level: Breaking,
		Summary: "an argument's type changed in a way clients cannot send (another type, or non-null where it was nullable)",
		Why:     "values and variables clients send no longer validate"},
	{ID: "graphql-argument-default-changed", Level: Warning,
		Summary: "an argument's default value changed",
		Why:     "queries that leave the argument out get another behaviour"},
	{ID: "graphql-input-field-removed", Level: Breaking,
		Summary: "a field of an input object was removed",
		Why:     "inputs that set it no longer validate"},
	{ID: "graphql-input-field-added-required", Level: Breaking,
		Summary: "a non-null input field without a default was added",
		Why:     "inputs clients send without it no longer validate"},
	{ID: "graphql-input-field-type-changed", Level: Breaking,
		Summary: "an input field's type changed in a way clients cannot send",
		Why:     "inputs clients send no longer validate"},
	{ID: "graphql-input-field-default-changed", Level: Warning,
		Summary: "an input field's default value changed, or one with a default was added",
		Why:     "inputs that leave the field out get another behaviour"},
	{ID: "graphql-enum-value-removed", Level: Breaking,
		Summary: "an enum value was removed",
		Why:     "queries and variables that use it no longer validate, and clients may still send it"},
	{ID: "graphql-enum-value-added", Level: Warning,
		Summary: "a value was added to an existing enum",
		Why:     "clients that handle every value they know may meet one they do not"},
	{ID: "graphql-union-member-removed", Level: Breaking,
		Summary: "a member type was removed from a union",
		Why:     "fragments on it no longer validate"},
	{ID: "graphql-union-member-added", Level: Warning,
		Summary: "a member type was added to an existing union",
		Why:     "clients that handle every member they know may meet one they do not"},
	{ID: "graphql-interface-removed", Level: Breaking,
		Summary: "an object or interface no longer implements an interface",
		Why:     "fragments on the interface no longer match it, and queries through the interface miss it"},
	{ID: "graphql-oneof-added", Level: Breaking,
		Summary: "@oneOf was added to an input object",
		Why:     "inputs that set several fields, or none, no longer validate"},
	{ID: "graphql-directive-removed", Level: Breaking,
		Summary: "a directive definition was removed",
		Why:     "documents that use it no longer validate"},
	{ID: "graphql-directive-location-removed", Level: Breaking,
		Summary: "a directive may no longer be used where it could",
		Why:     "documents that use it there no longer validate"},
	{ID: "graphql-directive-argument-removed", Level: Breaking,
		Summary: "an argument of a directive was removed",
		Why:     "documents that pass it no longer validate"},
	{ID: "graphql-directive-argument-added-required", Level: Breaking,
		Summary: "a non-null argument without a default was added to a directive",
		Why:     "documents that use the directive without it no longer validate"},
	{ID: "graphql-directive-argument-type-changed", Level: Breaking,
		Summary: "a directive argument's type changed in a way clients cannot send",
		Why:     "documents that pass it no longer validate"},
	{ID: "graphql-type-changed-safely", Level: Info,
		Summary: "a field's type became non-null, or an argument's or input field's type nullable",
		Why:     "clients still read and send what they did"},
	{ID: "graphql-element-added", Level: Info,
		Summary: "a type, field, optional argument, interface or directive was added, or an element deprecated",
		Why:     "existing clients are unaffected"},
}

// report adds a change written at own in the version of side and placed
// at other in the other version (see modelDiff.report).
func (d *graphqlDiff) report(id string, side Side, own, other spec.Path, ops []string, format string, args ...any) {
	d.md.report(id, side, site{"", own}, site{"", other}, ops, format, args...)
}

type graphqlDiff struct {
	md     *modelDiff
	bs, rs *graphql.Schema
	// users and revUsers map each type of the base and of the revision to
	// the operations that reach it.
	users, revUsers map[string][]string
}

// operationUsers maps each type of a schema to the operations whose
// selections or arguments reach it: the fields of the query, mutation and
// subscription roots, named "query product", through field types,
// arguments, input fields, union members and the implementations of
// interfaces (which fragments select). Each type holds a set of the root
// fields that reach it, which flows from a type to those it reaches until
// nothing changes: a walk from each root field would cost GitHub's schema
// (300 root fields, most reaching most of 1,700 types) a tenth of a second.
func operationUsers(s *graphql.Schema) map[string][]string {
	index := make(map[string]int, len(s.Types))
	for i, t := range s.Types {
		index[t.Name] = i
	}
	children := make([][]int, len(s.Types))
	link := func(from int, name string) {
		if to, ok := index[name]; ok {
			children[from] = append(children[from], to)
		}
	}
	for i, t := range s.Types {
		for _, f := range t.Fields {
			link(i, f.Type.Named())
			for _, a := range f.Args {
				link(i, a.Type.Named())
			}
		}
		for _, m := range t.Members {
			link(i, m)
		}
		for _, iface := range t.Interfaces {
			if at, ok := index[iface]; ok {
				children[at] = append(children[at], i)
			}
		}
	}
	var labels []string
	var starts [][]int // the types each root field names directly
	for _, root := range rootTypes(s) {
		if t := s.Type(root.name); t != nil {
			for _, f := range t.Fields {
				labels = append(labels, root.op+" "+f.Name)
				var direct []int
				for _, name := range append([]string{f.Type.Named()}, argTypes(f)...) {
					if i, ok := index[name]; ok {
						direct = append(direct, i)
					}
				}
				starts = append(starts, direct)
			}
		}
	}
	words := (len(labels) + 63) / 64
	reach := make([][]uint64, len(s.Types))
	for i := range reach {
		reach[i] = make([]uint64, words)
	}
	var queue []int
	queued := make([]bool, len(s.Types))
	for k, direct := range starts {
		for _, i := range direct {
			reach[i][k/64] |= 1 << (k % 64)
			if !queued[i] {
				queued[i] = true
				queue = append(queue, i)
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		queued[i] = false
		for _, c := range children[i] {
			grew := false
			for w, bits := range reach[i] {
				if reach[c][w]|bits != reach[c][w] {
					reach[c][w] |= bits
					grew = true
				}
			}
			if grew && !queued[c] {
				queued[c] = true
				queue = append(queue, c)
			}
		}
	}
	users := map[string][]string{}
	for i, t := range s.Types {
		for k := range labels {
			if reach[i][k/64]&(1<<(k%64)) != 0 {
				users[t.Name] = append(users[t.Name], labels[k])
			}
		}
	}
	return users
}

func argTypes(f *graphql.Field) []string {
	out := make([]string, len(f.Args))
	for i, a := range f.Args {
		out[i] = a.Type.Named()
	}
	return out
}

type rootType struct{ op, name string }

// rootTypes are the root operation types a schema has.
func rootTypes(s *graphql.Schema) []rootType {
	var out []rootType
	for _, r := range []rootType{{"query", s.Query}, {"mutation", s.Mutation}, {"subscription", s.Subscription}} {
		if r.name != "" {
			out = append(out, r)
		}
	}
	return out
}

// rootOp is the operation kind of a root type of the base ("query"), or
// "" for another type.
func (d *graphqlDiff) rootOp(typeName string) string {
	for _, r := range rootTypes(d.bs) {
		if r.name == typeName {
			return r.op
		}
	}
	return ""
}

// typeOps names what a change to a type, or to an element of it (an enum
// value, a union member, an interface it implements), affects: the
// operations that reach the type, else the type itself.
func (d *graphqlDiff) typeOps(name string, base bool) []string {
	users := d.revUsers
	if base {
		users = d.users
	}
	if u := users[name]; len(u) > 0 {
		return u
	}
	return []string{"type " + name}
}

// fieldOps names what a change to a field (its type, an argument)
// affects: the operation of a root field; for another field, the
// operations that reach its type, else the field itself.
func (d *graphqlDiff) fieldOps(typeName, field string, base bool) []string {
	if op := d.rootOp(typeName); op != "" {
		return []string{op + " " + field}
	}
	users := d.revUsers
	if base {
		users = d.users
	}
	if u := users[typeName]; len(u) > 0 {
		return u
	}
	return []string{"field " + typeName + "." + field}
}

func (md *modelDiff) graphql() {
	bs, rs := graphql.Of(md.base), graphql.Of(md.rev)
	if bs == nil || rs == nil {
		return
	}
	d := &graphqlDiff{md: md, bs: bs, rs: rs, users: operationUsers(bs), revUsers: operationUsers(rs)}
	d.roots()
	pairByKey(bs.Types, rs.Types, func(t *graphql.Type) string { return t.Name }, nil, func(b, r *graphql.Type, hasB, hasR bool) {
		switch {
		case !hasR:
			if !b.BuiltIn {
				d.report("graphql-type-removed", Base, b.Source, spec.Path{}, d.typeOps(b.Name, true), "type %s was removed", b.Name)
			}
		case !hasB:
			d.report("graphql-element-added", Revision, r.Source, spec.Path{}, d.typeOps(r.Name, false), "type %s was added", r.Name)
		case b.Kind != r.Kind:
			d.report("graphql-type-kind-changed", Revision, r.Source, b.Source, d.typeOps(r.Name, true), "type %s changed from %s to %s", r.Name, kindName(b.Kind), kindName(r.Kind))
		default:
			d.typ(b, r)
		}
	})
	pairByKey(bs.Directives, rs.Directives, func(x *graphql.Directive) string { return x.Name }, nil, func(b, r *graphql.Directive, hasB, hasR bool) {
		switch {
		case !hasR:
			d.report("graphql-directive-removed", Base, b.Source, spec.Path{}, []string{"directive @" + b.Name}, "directive @%s was removed", b.Name)
		case !hasB:
			d.report("graphql-element-added", Revision, r.Source, spec.Path{}, []string{"directive @" + r.Name}, "directive @%s was added", r.Name)
		default:
			d.directive(b, r)
		}
	})
}

func kindName(k string) string {
	switch k {
	case graphql.InputObject:
		return "input object"
	case graphql.Object:
		return "object"
	}
	return map[string]string{graphql.Interface: "interface", graphql.Union: "union", graphql.Enum: "enum", graphql.Scalar: "scalar"}[k]
}

func (d *graphqlDiff) roots() {
	for _, r := range []struct{ op, b, r string }{{"query", d.bs.Query, d.rs.Query}, {"mutation", d.bs.Mutation, d.rs.Mutation}, {"subscription", d.bs.Subscription, d.rs.Subscription}} {
		if r.b == "" || r.b == r.r {
			continue
		}
		ops := []string{r.op + " operations"}
		if t := d.bs.Type(r.b); t != nil && len(t.Fields) > 0 {
			ops = nil
			for _, f := range t.Fields {
				ops = append(ops, r.op+" "+f.Name)
			}
		}
		if r.r == "" {
			d.report("graphql-root-type-changed", Base, rootPath(d.bs, r.b), rootPath(d.rs, r.r), ops, "the schema no longer has a %s root (it was %s)", r.op, r.b)
		} else {
			d.report("graphql-root-type-changed", Revision, rootPath(d.rs, r.r), rootPath(d.bs, r.b), ops, "the %s root changed from %s to %s", r.op, r.b, r.r)
		}
	}
}

func rootPath(s *graphql.Schema, name string) spec.Path {
	if s.RootsSource != nil {
		return s.RootsSource
	}
	if t := s.Type(name); t != nil {
		return t.Source
	}
	return spec.Path{}
}

// isRoot reports whether a type is a root operation type on the base side.
func (d *graphqlDiff) isRoot(name string) bool {
	return name != "" && (name == d.bs.Query || name == d.bs.Mutation || name == d.bs.Subscription)
}

func (d *graphqlDiff) typ(b, r *graphql.Type) {
	switch b.Kind {
	case graphql.Object, graphql.Interface:
		pairByKey(b.Fields, r.Fields, func(f *graphql.Field) string { return f.Name }, nil, func(bf, rf *graphql.Field, hasB, hasR bool) {
			name := present(bf, rf, hasB).Name
			coord := b.Name + "." + name
			ops := d.fieldOps(b.Name, name, hasB)
			switch {
			case !hasR && d.isRoot(b.Name):
				d.report("graphql-root-field-removed", Base, bf.Source, r.Source, ops, "field %s was removed%s", coord, deprecatedNote(bf.Deprecated))
			case !hasR:
				d.report("graphql-field-removed", Base, bf.Source, r.Source, ops, "field %s was removed%s", coord, deprecatedNote(bf.Deprecated))
			case !hasB:
				d.report("graphql-element-added", Revision, rf.Source, b.Source, ops, "field %s was added", coord)
			default:
				if !safeOutput(bf.Type, rf.Type) {
					d.report("graphql-field-type-changed", Revision, rf.Source.With("type"), bf.Source.With("type"), ops, "field %s changed type from %s to %s", coord, bf.Type, rf.Type)
				} else if bf.Type.String() != rf.Type.String() {
					d.report("graphql-type-changed-safely", Revision, rf.Source.With("type"), bf.Source.With("type"), ops, "field %s changed type from %s to %s", coord, bf.Type, rf.Type)
				}
				d.args(ops, coord, bf.Source, rf.Source, bf.Args, rf.Args)
				if !bf.Deprecated && rf.Deprecated {
					d.report("graphql-element-added", Revision, rf.Source, bf.Source, ops, "field %s was deprecated", coord)
				}
			}
		})
		d.interfaces(b, r)
	case graphql.InputObject:
		pairByKey(b.Fields, r.Fields, func(f *graphql.Field) string { return f.Name }, nil, func(bf, rf *graphql.Field, hasB, hasR bool) {
			coord := b.Name + "." + present(bf, rf, hasB).Name
			ops := d.fieldOps(b.Name, present(bf, rf, hasB).Name, true)
			switch {
			case !hasR:
				d.report("graphql-input-field-removed", Base, bf.Source, r.Source, ops, "input field %s was removed", coord)
			case !hasB && rf.Type != nil && rf.Type.NonNull && !rf.HasDefault:
				d.report("graphql-input-field-added-required", Revision, rf.Source, b.Source, ops, "required input field %s: %s was added", coord, rf.Type)
			case !hasB && rf.HasDefault:
				d.report("graphql-input-field-default-changed", Revision, rf.Source, b.Source, ops, "input field %s was added with the default %s", coord, rf.Default)
			case !hasB:
				d.report("graphql-element-added", Revision, rf.Source, b.Source, ops, "input field %s was added", coord)
			default:
				d.inputChanged("input field "+coord, "graphql-input-field-type-changed", "graphql-input-field-default-changed", ops,
					inputValue{bf.Source, bf.Type, bf.HasDefault, bf.Default}, inputValue{rf.Source, rf.Type, rf.HasDefault, rf.Default})
			}
		})
		if !hasDirective(b.Directives, "oneOf") && hasDirective(r.Directives, "oneOf") {
			d.report("graphql-oneof-added", Revision, r.Source, b.Source, d.typeOps(r.Name, true), "input %s became @oneOf", r.Name)
		}
	case graphql.Enum:
		pairByKey(b.Values, r.Values, func(v *graphql.EnumValue) string { return v.Name }, nil, func(bv, rv *graphql.EnumValue, hasB, hasR bool) {
			switch {
			case !hasR:
				d.report("graphql-enum-value-removed", Base, bv.Source, r.Source, d.typeOps(b.Name, true), "enum value %s.%s was removed%s", b.Name, bv.Name, deprecatedNote(bv.Deprecated))
			case !hasB:
				d.report("graphql-enum-value-added", Revision, rv.Source, b.Source, d.typeOps(r.Name, false), "enum value %s.%s was added", r.Name, rv.Name)
			}
		})
	case graphql.Union:
		eachDifference(b.Members, r.Members, func(m string) {
			d.report("graphql-union-member-removed", Revision, r.Source, b.Source, d.typeOps(r.Name, true), "union %s no longer includes %s", r.Name, m)
		}, func(m string) {
			d.report("graphql-union-member-added", Revision, r.Source, b.Source, d.typeOps(r.Name, true), "union %s now includes %s", r.Name, m)
		})
	}
}

func (d *graphqlDiff) interfaces(b, r *graphql.Type) {
	eachDifference(b.Interfaces, r.Interfaces, func(i string) {
		d.report("graphql-interface-removed", Revision, r.Source, b.Source, d.typeOps(r.Name, true), "%s no longer implements %s", r.Name, i)
	}, func(i string) {
		d.report("graphql-element-added", Revision, r.Source, b.Source, d.typeOps(r.Name, false), "%s now implements %s", r.Name, i)
	})
}

// eachDifference calls removed with each name of base that rev lacks, then
// added with each name of rev that base lacks, each in its list's order.
func eachDifference(base, rev []string, removed, added func(string)) {
	for _, x := range base {
		if !slices.Contains(rev, x) {
			removed(x)
		}
	}
	for _, x := range rev {
		if !slices.Contains(base, x) {
			added(x)
		}
	}
}

// inputValue is what an input field and an argument have alike.
type inputValue struct {
	source     spec.Path
	typ        *graphql.TypeRef
	hasDefault bool
	def        string
}

// inputChanged reports how an input value, named what ("argument
// Query.pet(id:)"), changed its type and its default, under the rules
// typeRule (an unsafe type change) and defaultRule.
func (d *graphqlDiff) inputChanged(what, typeRule, defaultRule string, ops []string, b, r inputValue) {
	if !safeInput(b.typ, r.typ) {
		d.report(typeRule, Revision, r.source.With("type"), b.source.With("type"), ops, "%s changed type from %s to %s", what, b.typ, r.typ)
	} else if b.typ.String() != r.typ.String() {
		d.report("graphql-type-changed-safely", Revision, r.source.With("type"), b.source.With("type"), ops, "%s changed type from %s to %s", what, b.typ, r.typ)
	}
	if b.hasDefault != r.hasDefault || b.def != r.def {
		d.report(defaultRule, Revision, r.source, b.source, ops, "the default of %s changed from %s to %s", what, defaultOf(b.hasDefault, b.def), defaultOf(r.hasDefault, r.def))
	}
}

// args compares the arguments of field coord, whose changes affect ops;
// bAt and rAt are where each version writes the field.
func (d *graphqlDiff) args(ops []string, coord string, bAt, rAt spec.Path, base, rev []*graphql.Argument) {
	pairByKey(base, rev, func(a *graphql.Argument) string { return a.Name }, nil, func(ba, ra *graphql.Argument, hasB, hasR bool) {
		at := coord + "(" + present(ba, ra, hasB).Name + ":)"
		switch {
		case !hasR:
			d.report("graphql-argument-removed", Base, ba.Source, rAt, ops, "argument %s was removed", at)
		case !hasB && ra.Type != nil && ra.Type.NonNull && !ra.HasDefault:
			d.report("graphql-argument-added-required", Revision, ra.Source, bAt, ops, "required argument %s: %s was added", at, ra.Type)
		case !hasB:
			d.report("graphql-element-added", Revision, ra.Source, bAt, ops, "optional argument %s was added", at)
		default:
			d.inputChanged("argument "+at, "graphql-argument-type-changed", "graphql-argument-default-changed", ops,
				inputValue{ba.Source, ba.Type, ba.HasDefault, ba.Default}, inputValue{ra.Source, ra.Type, ra.HasDefault, ra.Default})
		}
	})
}

func (d *graphqlDiff) directive(b, r *graphql.Directive) {
	name := "@" + r.Name
	ops := []string{"directive " + name}
	for _, l := range b.Locations {
		if !slices.Contains(r.Locations, l) {
			d.report("graphql-directive-location-removed", Revision, r.Source, b.Source, ops, "directive %s may no longer be used on %s", name, l)
		}
	}
	pairByKey(b.Args, r.Args, func(a *graphql.Argument) string { return a.Name }, nil, func(ba, ra *graphql.Argument, hasB, hasR bool) {
		switch {
		case !hasR:
			d.report("graphql-directive-argument-removed", Base, ba.Source, r.Source, ops, "argument %s of directive %s was removed", ba.Name, name)
		case !hasB && ra.Type != nil && ra.Type.NonNull && !ra.HasDefault:
			d.report("graphql-directive-argument-added-required", Revision, ra.Source, b.Source, ops, "required argument %s: %s was added to directive %s", ra.Name, ra.Type, name)
		case hasB && hasR && !safeInput(ba.Type, ra.Type):
			d.report("graphql-directive-argument-type-changed", Revision, ra.Source, ba.Source, ops, "argument %s of directive %s changed type from %s to %s", ra.Name, name, ba.Type, ra.Type)
		}
	})
}

// safeOutput reports whether clients that read values of type base can
// read values of type rev: the same named type, at most more non-null
// (graphql-inspector's safeChangeForField).
func safeOutput(base, rev *graphql.TypeRef) bool {
	if base == nil || rev == nil {
		return base == rev
	}
	if base.Elem == nil && rev.Elem == nil && !base.NonNull && !rev.NonNull {
		return base.Name == rev.Name
	}
	if rev.NonNull {
		inner := *base
		inner.NonNull = false
		rin := *rev
		rin.NonNull = false
		return safeOutput(&inner, &rin)
	}
	if base.NonNull {
		return false
	}
	return base.Elem != nil && rev.Elem != nil && safeOutput(base.Elem, rev.Elem)
}

// safeInput reports whether values clients send as base still validate as
// rev: the same named type, at most less non-null
// (graphql-inspector's safeChangeForInputValue). Inputs change safely the
// opposite way outputs do, so it is safeOutput with the sides swapped.
func safeInput(base, rev *graphql.TypeRef) bool {
	return safeOutput(rev, base)
}

// present is b when the base has the element, else r.
func present[T any](b, r T, hasB bool) T {
	if hasB {
		return b
	}
	return r
}

func hasDirective(uses []*graphql.DirectiveUse, name string) bool {
	for _, u := range uses {
		if u.Name == name {
			return true
		}
	}
	return false
}

func deprecatedNote(deprecated bool) string {
	if deprecated {
		return " (it was deprecated)"
	}
	return ""
}

func defaultOf(has bool, v string) string {
	if !has {
		return "none"
	}
	return v
}
