package policy

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
)

// InputMembers names the members of the input that the rules applying to
// an input of these formats may read, for input.BuildMembers: nil when
// they may read any. What each rule reads is found in the compiled
// program (see inputReaders), once per program; with a cache, the answer
// is kept there too, so that a run does not read the program for it.
func (e *Engine) InputMembers(formats []string) (input.Members, error) {
	todo := e.applicable(formats)
	var key string
	if e.cache != nil {
		key = e.cache.key(membersKind, e.sources(e.subset(todo)))
		e.mu.Lock()
		m, ok := e.memberSets[key]
		e.mu.Unlock()
		if ok {
			return m, nil
		}
		if m, ok := e.cache.loadMembers(key); ok {
			e.keepMembers(key, m)
			return m, nil
		}
	}
	compiler, err := e.program(todo)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	reads, ok := e.members[compiler]
	if !ok {
		reads = make([]input.Members, len(e.rules))
		reach := inputReaders(compiler)
		for i, r := range e.rules {
			m := input.Members{}
			for _, rule := range compiler.GetRulesDynamicWithOpts(violationsRef(r.ID), ast.RulesOptions{}) {
				m = m.Add(reach(rule))
			}
			reads[i] = m
		}
		if e.members == nil {
			e.members = map[*ast.Compiler][]input.Members{}
		}
		e.members[compiler] = reads
	}
	e.mu.Unlock()
	out := input.Members{}
	for _, i := range todo {
		out = out.Add(reads[i])
	}
	if key != "" {
		e.cache.storeMembers(key, out)
		e.keepMembers(key, out)
	}
	return out, nil
}

// keepMembers keeps the input members of a rule set's cache entry for the
// engine's later runs.
func (e *Engine) keepMembers(key string, m input.Members) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.memberSets == nil {
		e.memberSets = map[string]input.Members{}
	}
	e.memberSets[key] = m
}

// inputReaders tells, of a rule of the compiled program, which input
// members its evaluation may read: those its own refs name (input.x, or
// input.index.x) or its object.get calls on the input name by a constant
// key or path, and those of the rules and functions it refers to. A ref
// that names no member (input alone, input[x], as walk(input) takes it),
// and a `with` that replaces any of the input, may read every member
// (nil).
func inputReaders(compiler *ast.Compiler) func(*ast.Rule) input.Members {
	memo := map[*ast.Rule]input.Members{}
	var reads func(r *ast.Rule) input.Members
	reads = func(r *ast.Rule) input.Members {
		if m, ok := memo[r]; ok {
			return m
		}
		memo[r] = input.Members{} // Rego has no recursion; this ends a cycle all the same
		// The object.get calls on the input are looked for only in a rule
		// that reads the bare input: few do.
		m, gets := input.Members{}, map[*ast.Expr]inputGet(nil)
		if bareInput(r) {
			gets = inputGets(r)
		}
		var visit func(x any) bool
		visit = func(x any) bool {
			if m == nil {
				return true
			}
			switch x := x.(type) {
			case *ast.With:
				if ref, ok := x.Target.Value.(ast.Ref); ok && ref.HasPrefix(ast.InputRootRef) {
					m = nil
				}
			case *ast.Expr:
				if g, ok := gets[x]; ok {
					// Only the operands that hold no input of their own.
					m = m.Add(g.members)
					for _, o := range g.rest {
						ast.NewGenericVisitor(visit).Walk(o)
					}
					return true
				}
			case ast.Ref:
				switch {
				case x.HasPrefix(ast.InputRootRef):
					m = m.Add(inputMember(x))
				case x[0].Equal(ast.DefaultRootDocument):
					for _, dep := range compiler.GetRulesDynamicWithOpts(x, ast.RulesOptions{}) {
						if dep != r {
							m = m.Add(reads(dep))
						}
					}
				}
			}
			return m == nil
		}
		ast.NewGenericVisitor(visit).Walk(r)
		memo[r] = m
		return m
	}
	return reads
}

// bareInput tells whether a rule reads the input as a whole somewhere.
func bareInput(r *ast.Rule) bool {
	found := false
	ast.WalkRefs(r, func(ref ast.Ref) bool {
		found = found || len(ref) == 1 && ref.HasPrefix(ast.InputRootRef)
		return found
	})
	return found
}

// inputGet is an expression of a rule that reads the input by object.get
// with a constant key (or path whose first key is constant): members is
// what it reads, rest its operands that may read more.
type inputGet struct {
	members input.Members
	rest    []*ast.Term
}

// inputGets finds a rule's object.get(input, key, default) calls with a
// constant key or path start. The compiler binds the input to a local
// first (__local0__ = input): such a binding is counted as the calls that
// take the local, when every other use of the local is such a call; else
// it is left out, and the bare input it reads means every member.
func inputGets(r *ast.Rule) map[*ast.Expr]inputGet {
	defs := map[ast.Var][]*ast.Expr{} // the locals bound to the input
	ast.WalkExprs(r, func(e *ast.Expr) bool {
		if e.IsEquality() || e.IsAssignment() {
			a, b := e.Operand(0), e.Operand(1)
			if v, ok := a.Value.(ast.Var); ok && ast.InputRootRef.Equal(b.Value) {
				defs[v] = append(defs[v], e)
			} else if v, ok := b.Value.(ast.Var); ok && ast.InputRootRef.Equal(a.Value) {
				defs[v] = append(defs[v], e)
			}
		}
		return false
	})
	out := map[*ast.Expr]inputGet{}
	calls := map[ast.Var][]*ast.Expr{}
	ast.WalkExprs(r, func(e *ast.Expr) bool {
		if !e.IsCall() || !ast.ObjectGet.Ref().Equal(e.Operator()) || len(e.Operands()) < 3 {
			return false
		}
		ops := e.Operands()
		m := constantMember(ops[1])
		if m == nil {
			return false
		}
		if ast.InputRootRef.Equal(ops[0].Value) {
			out[e] = inputGet{m, ops[1:]}
		} else if v, ok := ops[0].Value.(ast.Var); ok && defs[v] != nil {
			calls[v] = append(calls[v], e)
		}
		return false
	})
	uses := map[ast.Var]int{}
	ast.WalkVars(r, func(v ast.Var) bool {
		if defs[v] != nil {
			uses[v]++
		}
		return false
	})
	for v, es := range defs {
		if uses[v] != len(es)+len(calls[v]) {
			continue // the local is read otherwise too
		}
		for _, e := range es {
			out[e] = inputGet{members: input.Members{}}
		}
		for _, e := range calls[v] {
			ops := e.Operands()
			out[e] = inputGet{constantMember(ops[1]), ops[1:]}
		}
	}
	return out
}

// constantMember is the member that object.get's key or path names when
// its first key is a constant, else nil.
func constantMember(key *ast.Term) input.Members {
	path := ast.Ref{ast.InputRootDocument}
	switch k := key.Value.(type) {
	case ast.String:
		path = append(path, key)
	case *ast.Array:
		for i := range k.Len() {
			path = append(path, k.Elem(i))
		}
	}
	if len(path) < 2 {
		return nil
	}
	return inputMember(path)
}

// inputMember is the member of the input that a ref into it reads: its
// first key, or input.index's key under it; nil (any) when the key is
// chosen at evaluation.
func inputMember(ref ast.Ref) input.Members {
	if len(ref) < 2 {
		return nil
	}
	k, ok := ref[1].Value.(ast.String)
	if !ok {
		return nil
	}
	if k == "index" && len(ref) > 2 {
		if sub, ok := ref[2].Value.(ast.String); ok {
			return input.Members{"index." + string(sub): true}
		}
	}
	return input.Members{string(k): true}
}
