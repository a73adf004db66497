package inline

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A small function is one whose body the compiler may put in place of a
// call (is_ref(s) if is_string(s["$ref"])): one definition, no else, no
// default, no `with` that replaces it; distinct variables as parameters; a
// body of at most maxInlinedBody expressions without `some`, `every`,
// `with` or a relation builtin, in which every variable is a parameter or
// assigned before use, so that it has one solution at most. The rules
// call such helpers once per item of a large document, and OPA evaluates
// each call in a frame of its own. Arguments that are not variables or
// constants are assigned to fresh variables first (evaluated once; an
// undefined one fails the body as it failed the call), and the body's
// variables are renamed apart. Calls are inlined where the body can stand
// in their place: a whole or nested call in an expression that is not
// negated nor under `with`, in rule, comprehension and `every` bodies, not
// in a rule's head.
const maxInlinedBody = 4

// small is a function that may be inlined.
type small struct {
	path   ast.Ref
	params []ast.Var
	locals ast.VarSet // every other variable of the body and value
	body   ast.Body   // copies: the rule itself may be inlined into
	value  *ast.Term
}

// findSmall finds the small functions among candidates (see
// inlineCandidates), by path. Templates are small too, but inlined
// before.
func findSmall(candidates map[string]*ast.Rule) map[string]*small {
	return inlinable(candidates, asSmall)
}

// asSmall returns the small function a rule is, else nil.
func asSmall(r *ast.Rule) *small {
	h := r.Head
	if len(h.Args) == 0 || h.Value == nil || r.Default || r.Else != nil || len(r.Body) > maxInlinedBody {
		return nil
	}
	s := &small{path: r.Path(), body: r.Body.Copy(), value: h.Value.Copy()}
	roots := ast.NewVarSet(ast.DefaultRootDocument.Value.(ast.Var), ast.InputRootDocument.Value.(ast.Var))
	bound := roots.Copy()
	for _, a := range h.Args {
		v, ok := a.Value.(ast.Var)
		if !ok || v.IsWildcard() || bound.Contains(v) {
			return nil
		}
		bound.Add(v)
		s.params = append(s.params, v)
	}
	for _, e := range r.Body {
		if !boundExpr(e, bound) {
			return nil
		}
	}
	if !varsBound(h.Value, bound) || hasScopes(h.Value) {
		return nil
	}
	vis := ast.NewVarVisitor().WithParams(ast.VarVisitorParams{SkipRefCallHead: true})
	vis.Walk(s.body)
	vis.Walk(s.value)
	s.locals = vis.Vars().Diff(roots)
	for _, p := range s.params {
		delete(s.locals, p)
	}
	return s
}

// boundExpr tells whether e, an expression of a small function's body,
// has one solution at most given the variables bound before it, and adds
// the variable it assigns.
func boundExpr(e *ast.Expr, bound ast.VarSet) bool {
	if len(e.With) > 0 || e.IsEvery() || e.IsSome() || hasScopes(e) {
		return false
	}
	if e.IsAssignment() && !e.Negated {
		lhs, ok := e.Operand(0).Value.(ast.Var)
		if !ok || !varsBound(e.Operand(1), bound) {
			return false
		}
		if !lhs.IsWildcard() {
			if bound.Contains(lhs) {
				return false
			}
			bound.Add(lhs)
		}
		return true
	}
	if e.IsCall() {
		if b := ast.BuiltinMap[e.Operator().String()]; b != nil && b.Relation {
			return false
		}
	}
	return varsBound(e, bound)
}

// hasScopes tells whether e holds, below itself, an expression with
// `some`, `every` or `with`, a not/and/or expression, or a template
// string: renaming apart covers the variables of a comprehension, not the
// scopes such constructs declare, so they are left alone.
func hasScopes(e any) bool {
	found := false
	ast.WalkExprs(e, func(x *ast.Expr) bool {
		found = found || (x != e && (x.IsSome() || x.IsEvery() || len(x.With) > 0))
		return found
	})
	ast.WalkClosures(e, func(x any) bool {
		switch x.(type) {
		case *ast.Not, *ast.LogicalAnd, *ast.LogicalOr:
			found = true
		}
		return found
	})
	ast.WalkTerms(e, func(t *ast.Term) bool {
		if _, ok := t.Value.(*ast.TemplateString); ok {
			found = true
		}
		return found
	})
	return found
}

// varsBound tells whether every variable of x, outside comprehensions and
// call operators, is bound.
func varsBound(x any, bound ast.VarSet) bool {
	vis := ast.NewVarVisitor().WithParams(ast.VarVisitorParams{SkipClosures: true, SkipRefCallHead: true})
	vis.Walk(x)
	for v := range vis.Vars() {
		if !bound.Contains(v) {
			return false
		}
	}
	return true
}

// bodyInliner puts small functions' bodies in place of their calls.
type bodyInliner struct {
	funcs map[string]*small
	n     int // inlined calls so far, for fresh names
}

// inlineBodies inlines the calls of the small functions funcs in every
// rule body of the modules (comprehension and `every` bodies included).
func inlineBodies(c *ast.Compiler, funcs map[string]*small) *ast.Error {
	if len(funcs) == 0 {
		return nil
	}
	in := &bodyInliner{funcs: funcs}
	for _, m := range c.Modules {
		for _, r := range m.Rules {
			for rule := r; rule != nil; rule = rule.Else {
				in.nested(rule.Head)
				rule.Body = in.body(rule.Body)
			}
		}
	}
	return nil
}

// body returns b with the calls of small functions inlined, nested bodies
// first.
func (in *bodyInliner) body(b ast.Body) ast.Body {
	var out ast.Body
	changed := false
	for _, e := range b {
		in.nested(e)
		pre, inlined := in.expr(e)
		if pre == nil && inlined == e {
			out = append(out, e)
			continue
		}
		changed = true
		out = append(out, pre...)
		if inlined != nil {
			out = append(out, inlined)
		}
	}
	if !changed {
		return b
	}
	for i, e := range out {
		e.Index = i
	}
	return out
}

// nested inlines the bodies of the comprehensions and `every` of x, an
// expression or a rule's head.
func (in *bodyInliner) nested(x any) {
	ast.WalkClosures(x, func(x any) bool {
		switch x := x.(type) {
		case *ast.ArrayComprehension:
			x.Body = in.body(x.Body)
		case *ast.SetComprehension:
			x.Body = in.body(x.Body)
		case *ast.ObjectComprehension:
			x.Body = in.body(x.Body)
		case *ast.Every:
			x.Body = in.body(x.Body)
		}
		// Each closure's own closures are done by its body; those of
		// not, and, or expressions are left alone.
		return true
	})
}

// expr returns what replaces e: the expressions to put before it, and e
// with its calls of small functions replaced by their values (nil when e
// was a call statement, replaced whole).
func (in *bodyInliner) expr(e *ast.Expr) (ast.Body, *ast.Expr) {
	if e.Negated || len(e.With) > 0 || e.IsEvery() || e.IsSome() {
		return nil, e
	}
	if e.IsCall() {
		if f := in.callee(e.Operator(), e.Operands()); f != nil {
			pre, value := in.inline(f, e.Operands())
			if ast.Boolean(true).Equal(value.Value) && len(pre) > 0 {
				return pre, nil
			}
			last := ast.NewExpr(value)
			last.Location = e.Location
			return pre, last
		}
	}
	if !in.callsSmall(e) {
		return nil, e
	}
	var pre ast.Body
	out := e.Copy()
	if !in.replaceCalls(out, &pre) {
		return nil, e
	}
	return pre, out
}

// callsSmall tells whether e calls a small function outside closures.
func (in *bodyInliner) callsSmall(e *ast.Expr) bool {
	found := false
	ast.WalkTerms(e, func(t *ast.Term) bool {
		switch v := t.Value.(type) {
		case ast.Call:
			op, _ := v[0].Value.(ast.Ref)
			found = found || in.callee(op, v[1:]) != nil
		case *ast.ArrayComprehension, *ast.SetComprehension, *ast.ObjectComprehension:
			return true
		}
		return found
	})
	return found
}

// replaceCalls replaces, in the terms of e outside closures, the calls of
// small functions by their values, appending their bodies to pre (a
// function that is only a value, such as `label(v) := v.label`, appends
// none), and tells whether it replaced any. Calls inside arguments come
// first.
func (in *bodyInliner) replaceCalls(e *ast.Expr, pre *ast.Body) bool {
	replaced := false
	var walk func(t *ast.Term) *ast.Term
	walk = func(t *ast.Term) *ast.Term {
		switch v := t.Value.(type) {
		case ast.Call:
			for i := 1; i < len(v); i++ {
				v[i] = walk(v[i])
			}
			op, _ := v[0].Value.(ast.Ref)
			if f := in.callee(op, v[1:]); f != nil {
				body, value := in.inline(f, v[1:])
				*pre = append(*pre, body...)
				replaced = true
				return value
			}
		case *ast.Array:
			for i := range v.Len() {
				v.Set(i, walk(v.Elem(i)))
			}
		case ast.Ref:
			for i := 1; i < len(v); i++ {
				v[i] = walk(v[i])
			}
		case ast.Object:
			// Keys and values are left alone: replacing a key would
			// change the object's hash.
		}
		return t
	}
	switch ts := e.Terms.(type) {
	case *ast.Term:
		e.Terms = walk(ts)
	case []*ast.Term:
		for i := 1; i < len(ts); i++ {
			ts[i] = walk(ts[i])
		}
	}
	return replaced
}

// callee is the small function a call of op with args may be replaced
// by, else nil: not with the wrong number of arguments (for the type
// checker to report), nor with a wildcard for an argument.
func (in *bodyInliner) callee(op ast.Ref, args []*ast.Term) *small {
	f := in.funcs[op.String()]
	if f == nil || len(args) != len(f.params) {
		return nil
	}
	for _, a := range args {
		if v, ok := a.Value.(ast.Var); ok && v.IsWildcard() {
			return nil
		}
	}
	return f
}

// inline returns the body of f, renamed apart and with args bound to its
// parameters, and its value.
func (in *bodyInliner) inline(f *small, args []*ast.Term) (ast.Body, *ast.Term) {
	in.n++
	prefix := fmt.Sprintf("__sg%d_", in.n)
	names := map[ast.Var]ast.Var{}
	rename := func(v ast.Var) ast.Var {
		if v.Equal(ast.DefaultRootDocument.Value) || v.Equal(ast.InputRootDocument.Value) {
			return v
		}
		if n, ok := names[v]; ok {
			return n
		}
		n := ast.Var(prefix + string(v))
		if v.IsWildcard() {
			n = ast.Var(ast.WildcardPrefix + prefix + string(v[1:]))
		}
		names[v] = n
		return n
	}
	var pre ast.Body
	subst := map[ast.Var]*ast.Term{}
	for i, p := range f.params {
		switch args[i].Value.(type) {
		case ast.Var, ast.String, ast.Number, ast.Boolean, ast.Null:
			subst[p] = args[i]
		default:
			fresh := ast.NewTerm(rename(p))
			a := ast.Assign.Expr(fresh, args[i])
			a.Location = args[i].Location
			pre = append(pre, a)
			subst[p] = fresh
		}
	}
	swap := func(v ast.Var) (ast.Value, error) {
		if t, ok := subst[v]; ok {
			return t.Value, nil
		}
		if f.locals.Contains(v) {
			return rename(v), nil
		}
		return v, nil // a builtin's name, say
	}
	body, _ := ast.TransformVars(f.body.Copy(), swap)
	value, _ := ast.TransformVars(f.value.Copy(), swap)
	for _, e := range body.(ast.Body) {
		if !trueExpr(e) {
			pre = append(pre, e)
		}
	}
	switch v := value.(type) {
	case *ast.Term:
		return pre, v
	case ast.Value:
		return pre, &ast.Term{Value: v, Location: f.value.Location}
	}
	panic(fmt.Sprintf("inlining %s: unexpected value %T", f.path, value))
}

// trueExpr tells whether e is the `true` a function without a body has.
func trueExpr(e *ast.Expr) bool {
	return trueBody(ast.Body{e})
}
