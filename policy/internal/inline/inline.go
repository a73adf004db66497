// Package inline is a compiler stage of specgate's rule programs: it puts
// the value of template functions and the body of small functions in place
// of their calls, which OPA would otherwise evaluate in frames of their
// own, once per finding or per item of a large document.
package inline

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Stage is the compiler stage that replaces calls of template
// functions by their value, then calls of small functions by their body
// (inline_bodies.go). It runs right after the compiler has resolved every
// reference to its full path, and never on a rule set read back from the
// cache (stored after it ran, and read back without that stage).
var Stage = ast.CompilerStageDefinition{
	Name:       "InlineFunctions",
	MetricName: "compile_stage_inline_functions",
	Stage: func(c *ast.Compiler) *ast.Error {
		// Inlining templates changes bodies, not which functions are
		// candidates: they are found once.
		candidates := inlineCandidates(c.Modules)
		if err := inlineTemplates(c, findTemplates(candidates)); err != nil {
			return err
		}
		return inlineBodies(c, findSmall(candidates))
	},
}

// inlineTemplates replaces each call of a template function by the
// function's value with the call's arguments in place of its parameters.
// A template function has one definition, no body and no else, and a value
// built of its parameters, each used once, and of constants and references
// that hold no variable, with no call:
//
//	violation(path, message) := {"path": path, "message": message}
//
// Every rule reports through util.violation once per finding, and OPA
// evaluates and caches each call in full. Inlining keeps every call's
// meaning (the same terms, each evaluated once; an undefined one makes the
// value undefined); a function that a `with` replaces anywhere is left
// alone, and so is a call with the wrong number of arguments, for the type
// checker to report.
func inlineTemplates(c *ast.Compiler, templates map[string]*template) *ast.Error {
	if len(templates) == 0 {
		return nil
	}
	in := &inliner{templates: templates}
	for _, m := range c.Modules {
		if _, err := ast.Transform(in, m); err != nil {
			return ast.NewError(ast.CompileErr, m.Package.Location, "inlining template functions: %v", err)
		}
	}
	return nil
}

// template is a template function: its path, parameters and value.
type template struct {
	path   ast.Ref
	params []ast.Var
	value  *ast.Term
}

// findTemplates finds the template functions among candidates, by path.
func findTemplates(candidates map[string]*ast.Rule) map[string]*template {
	return inlinable(candidates, asTemplate)
}

// inlinable is, by path, what as makes of each of the candidates that it
// does not reject (nil).
func inlinable[T any](candidates map[string]*ast.Rule, as func(*ast.Rule) *T) map[string]*T {
	out := map[string]*T{}
	for path, r := range candidates {
		if t := as(r); t != nil {
			out[path] = t
		}
	}
	return out
}

// inlineCandidates are the functions of modules, by path, whose calls
// may be inlined if their form allows: those of one definition that no
// `with` modifier replaces, by itself or with a package that holds it.
func inlineCandidates(modules map[string]*ast.Module) map[string]*ast.Rule {
	defs := map[string]int{}
	var mocked []ast.Ref
	candidates := map[string]*ast.Rule{}
	for _, m := range modules {
		for _, r := range m.Rules {
			path := r.Path().String()
			defs[path]++
			if len(r.Head.Args) > 0 {
				candidates[path] = r
			}
		}
		ast.WalkExprs(m, func(e *ast.Expr) bool {
			for _, w := range e.With {
				if ref, ok := w.Target.Value.(ast.Ref); ok {
					mocked = append(mocked, ref)
				}
			}
			return false
		})
	}
	for path, r := range candidates {
		if defs[path] != 1 || slices.ContainsFunc(mocked, r.Path().HasPrefix) {
			delete(candidates, path)
		}
	}
	return candidates
}

// asTemplate returns the template of a rule that is one, else nil.
func asTemplate(r *ast.Rule) *template {
	h := r.Head
	if len(h.Args) == 0 || h.Value == nil || r.Default || r.Else != nil || !trueBody(r.Body) {
		return nil
	}
	t := &template{path: r.Path(), value: h.Value}
	uses := map[ast.Var]int{}
	for _, a := range h.Args {
		v, ok := a.Value.(ast.Var)
		if !ok || v.IsWildcard() {
			return nil
		}
		if _, dup := uses[v]; dup {
			return nil
		}
		uses[v] = 0
		t.params = append(t.params, v)
	}
	if !templateTerm(h.Value, uses) {
		return nil
	}
	for _, n := range uses {
		if n != 1 {
			return nil
		}
	}
	return t
}

// trueBody tells whether a rule's body is the `true` a rule without one
// is given.
func trueBody(b ast.Body) bool {
	if len(b) != 1 || b[0].Negated || len(b[0].With) > 0 {
		return false
	}
	t, ok := b[0].Terms.(*ast.Term)
	return ok && ast.Boolean(true).Equal(t.Value)
}

// templateTerm tells whether t may be a template's value, counting the
// uses of each parameter: variables must be parameters and stand alone
// (not as the head or part of a reference), references are to data or
// input and hold no variable, and neither calls nor comprehensions (whose
// variables are their own) are allowed.
func templateTerm(t *ast.Term, uses map[ast.Var]int) bool {
	switch v := t.Value.(type) {
	case ast.Null, ast.Boolean, ast.Number, ast.String:
		return true
	case ast.Var:
		if _, ok := uses[v]; !ok {
			return false
		}
		uses[v]++
		return true
	case ast.Ref:
		if !v[0].Equal(ast.DefaultRootDocument) && !v[0].Equal(ast.InputRootDocument) {
			return false
		}
		for _, e := range v[1:] {
			if !e.IsGround() {
				return false
			}
		}
		return true
	case *ast.Array:
		ok := true
		v.Foreach(func(e *ast.Term) { ok = ok && templateTerm(e, uses) })
		return ok
	case ast.Object:
		ok := true
		v.Foreach(func(k, e *ast.Term) { ok = ok && templateTerm(k, uses) && templateTerm(e, uses) })
		return ok
	case ast.Set:
		ok := true
		v.Foreach(func(e *ast.Term) { ok = ok && templateTerm(e, uses) })
		return ok
	}
	return false
}

// inliner is the transformer that replaces calls of templates.
type inliner struct {
	templates map[string]*template
}

func (in *inliner) Transform(x any) (any, error) {
	call, ok := x.(ast.Call)
	if !ok {
		return x, nil
	}
	t := in.templates[call[0].String()]
	if t == nil || len(call)-1 != len(t.params) {
		return x, nil
	}
	args := make(map[ast.Var]*ast.Term, len(t.params))
	for i, p := range t.params {
		args[p] = call[i+1]
	}
	return substitute(t.value, args).Value, nil
}

// substitute copies a template's value with args in place of its
// parameters. It does not look inside an argument once placed, which
// ast.TransformVars would: an argument holding a variable named as another
// parameter would then be rewritten too.
func substitute(t *ast.Term, args map[ast.Var]*ast.Term) *ast.Term {
	switch v := t.Value.(type) {
	case ast.Var:
		return args[v]
	case *ast.Array:
		elems := make([]*ast.Term, 0, v.Len())
		v.Foreach(func(e *ast.Term) { elems = append(elems, substitute(e, args)) })
		return &ast.Term{Value: ast.NewArray(elems...), Location: t.Location}
	case ast.Object:
		pairs := make([][2]*ast.Term, 0, v.Len())
		v.Foreach(func(k, e *ast.Term) { pairs = append(pairs, [2]*ast.Term{substitute(k, args), substitute(e, args)}) })
		return &ast.Term{Value: ast.NewObject(pairs...), Location: t.Location}
	case ast.Set:
		elems := make([]*ast.Term, 0, v.Len())
		v.Foreach(func(e *ast.Term) { elems = append(elems, substitute(e, args)) })
		return &ast.Term{Value: ast.NewSet(elems...), Location: t.Location}
	}
	return t.Copy()
}
