package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.reaching and specgate.members_with find the few items of a
// large list that a rule must read (those with a $ref where the
// specification allows none; the allOf lists whose members can disagree)
// in one call: in Rego, each item, place and member costs a lookup.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.reaching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.NewArray(nil, types.A))),
			types.NewArray(nil, types.A)),
	}, reachingBuiltin)
	rego.RegisterBuiltin4(&rego.Function{
		Name: "specgate.members_with",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.S, types.NewArray(nil, types.S), types.N),
			types.NewArray(nil, types.A)),
	}, membersWithBuiltin)
}

// membersWithBuiltin is specgate.members_with(items, key, keys, least) ->
// [item]: the items of a list (objects with a node, as those of
// input.schemasWith.allOf) whose node holds at key an array or object
// with at least least members that are objects with one of the keys,
// whatever their values, in order: specgate.members_with(schemas,
// "allOf", ["$ref", "type"], 2) are the schemas with two allOf members
// that may give a type, where most allOf lists pair one $ref with a
// member that only describes it.
func membersWithBuiltin(_ rego.BuiltinContext, items, key, keys, least *ast.Term) (*ast.Term, error) {
	list, err := listAndKey("specgate.members_with", items, key)
	if err != nil {
		return nil, err
	}
	ks, ok := keys.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("specgate.members_with: operand 3 must be an array, got %s", ast.ValueName(keys.Value))
	}
	n, ok := least.Value.(ast.Number)
	if !ok {
		return nil, fmt.Errorf("specgate.members_with: operand 4 must be a number, got %s", ast.ValueName(least.Value))
	}
	want, ok := n.Int()
	if !ok {
		return nil, fmt.Errorf("specgate.members_with: operand 4 must be an integer, got %s", n)
	}
	has := func(member *ast.Term) bool {
		o, ok := member.Value.(ast.Object)
		return ok && ks.Until(func(k *ast.Term) bool { return o.Get(k) != nil })
	}
	var out []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		o, ok := node.(ast.Object)
		if !ok {
			return
		}
		found := 0
		enough := func(member *ast.Term) bool {
			if has(member) {
				found++
			}
			return found >= want
		}
		switch members := valueOf(o, key).(type) {
		case *ast.Array:
			members.Until(enough)
		case ast.Object:
			members.Until(func(_, member *ast.Term) bool { return enough(member) })
		default:
			return
		}
		if found >= want {
			out = append(out, item)
		}
	})
	return ast.ArrayTerm(out...), nil
}

// reachingBuiltin is specgate.reaching(items, paths) -> [item]:
// the items of a list (objects with a node, as those of input.pathItems)
// whose node has a value, whatever it is, at one of the paths, in order.
// A path is a list of object keys (strings) and array indices (numbers),
// as a Rego reference reads them (`item.node.get["$ref"]` is ["get",
// "$ref"]); null stands for any member of an object or element of an
// array (`some media; item.node.content[media]["$ref"]` is ["content",
// null, "$ref"]). The rule then reads the few items returned as it
// would have read them all.
func reachingBuiltin(_ rego.BuiltinContext, items, paths *ast.Term) (*ast.Term, error) {
	list, ps, err := arrays("specgate.reaching", items, paths)
	if err != nil {
		return nil, err
	}
	root := &place{}
	for i := range ps.Len() {
		p, ok := ps.Elem(i).Value.(*ast.Array)
		if !ok {
			return nil, fmt.Errorf("specgate.reaching: path %d must be an array, got %s", i, ast.ValueName(ps.Elem(i).Value))
		}
		at := root
		for j := range p.Len() {
			switch k := p.Elem(j).Value.(type) {
			case ast.String:
				if at.keys == nil {
					at.keys = map[string]*place{}
				}
				if at.keys[string(k)] == nil {
					at.keys[string(k)] = &place{key: p.Elem(j)}
				}
				at = at.keys[string(k)]
			case ast.Number:
				n, ok := k.Int()
				if !ok {
					return nil, fmt.Errorf("specgate.reaching: element %d of path %d must be an integer, got %s", j, i, k)
				}
				if at.indices == nil {
					at.indices = map[int]*place{}
				}
				if at.indices[n] == nil {
					at.indices[n] = &place{}
				}
				at = at.indices[n]
			case ast.Null:
				if at.any == nil {
					at.any = &place{}
				}
				at = at.any
			default:
				return nil, fmt.Errorf("specgate.reaching: element %d of path %d must be a string, a number or null, got %s", j, i, ast.ValueName(k))
			}
		}
		at.end = true
	}
	var out []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		if root.reached(node) {
			out = append(out, item)
		}
	})
	return ast.ArrayTerm(out...), nil
}

// place is a tree of the paths given to specgate.reaching, merged where
// they share a start: the keys, indices and wildcard that lead on from a
// place, and whether a path ends there.
type place struct {
	key     *ast.Term // the key that leads here from an object, if one does
	keys    map[string]*place
	indices map[int]*place
	any     *place
	end     bool
}

// reached tells whether v has a value at one of the paths from p. An
// object's members are read by going through its keys when it has fewer
// than the keys sought (a path item's few methods against nine), else by
// looking each key up.
func (p *place) reached(v ast.Value) bool {
	if p.end {
		return true
	}
	switch c := v.(type) {
	case ast.Object:
		if p.any != nil && c.Until(func(_, member *ast.Term) bool { return p.any.reached(member.Value) }) {
			return true
		}
		if len(p.keys) == 0 {
			return false
		}
		if c.Len() < len(p.keys) {
			return c.Until(func(k, member *ast.Term) bool {
				s, ok := k.Value.(ast.String)
				next := p.keys[string(s)]
				return ok && next != nil && next.reached(member.Value)
			})
		}
		for _, next := range p.keys {
			if member := c.Get(next.key); member != nil && next.reached(member.Value) {
				return true
			}
		}
	case *ast.Array:
		if p.any != nil && c.Until(func(elem *ast.Term) bool { return p.any.reached(elem.Value) }) {
			return true
		}
		for i, next := range p.indices {
			if i >= 0 && i < c.Len() && next.reached(c.Elem(i).Value) {
				return true
			}
		}
	}
	return false
}
