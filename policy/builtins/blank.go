package builtins

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// The blank builtins test every member or item of large collections for
// a missing text or keyword in one call: in Rego, each member costs an
// iteration and a call.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.blank_members",
		Decl: types.NewFunction(types.Args(types.NewObject(nil, types.NewDynamicProperty(types.A, types.A)), types.S),
			types.NewArray(nil, types.A)),
	}, blankMembersBuiltin)
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.lacking",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.S)), types.NewArray(nil, types.A)),
	}, lackingBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.blank_members_in",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.S, types.S),
			types.NewArray(nil, types.NewArray([]types.Type{types.A, types.NewArray(nil, types.A)}, nil))),
	}, blankMembersInBuiltin)
}

// blankMembersBuiltin is specgate.blank_members(obj, field) -> [key]:
// the keys of obj, sorted, whose value is an object in which field is
// missing, not a string, or blank (whitespace only): the properties of a
// schema without a description, say. Members that are not objects are left out, and so are references (a member with a
// $ref that is not false, as `not member["$ref"]` would leave it out):
// their text is where they point; so are members whose allOf, anyOf or
// oneOf holds the text or a reference.
func blankMembersBuiltin(_ rego.BuiltinContext, obj, field *ast.Term) (*ast.Term, error) {
	o, ok := obj.Value.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("specgate.blank_members: operand 1 must be an object, got %s", ast.ValueName(obj.Value))
	}
	if _, ok := field.Value.(ast.String); !ok {
		return nil, fmt.Errorf("specgate.blank_members: operand 2 must be a string, got %s", ast.ValueName(field.Value))
	}
	return ast.ArrayTerm(blankMembers(o, field)...), nil
}

// lackingBuiltin is specgate.lacking(items, keys) -> [item]:
// the items of a list (objects with a node, as those of input.schemas)
// whose node has none of the keys, with whatever value (a node that is not
// an object has none), in order: specgate.lacking(security.received_of.array, ["maxItems",
// "enum", "const"]) are the arrays the API receives without a bound.
func lackingBuiltin(_ rego.BuiltinContext, items, keys *ast.Term) (*ast.Term, error) {
	list, ks, err := arrays("specgate.lacking", items, keys)
	if err != nil {
		return nil, err
	}
	var out []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		if o, ok := node.(ast.Object); !ok || !ks.Until(func(k *ast.Term) bool { return o.Get(k) != nil }) {
			out = append(out, item)
		}
	})
	return ast.ArrayTerm(out...), nil
}

// blankMembersInBuiltin is specgate.blank_members_in(items, key, field)
// -> [[item, [key]]]:
// blank_members of item.node[key] for each item of a list (the schemas of
// input.schemasWith.properties, say) whose node holds an object at key,
// paired with the item, where there is at least one; in the items' order.
func blankMembersInBuiltin(_ rego.BuiltinContext, items, key, field *ast.Term) (*ast.Term, error) {
	list, err := listAndKey("specgate.blank_members_in", items, key)
	if err != nil {
		return nil, err
	}
	if _, ok := field.Value.(ast.String); !ok {
		return nil, fmt.Errorf("specgate.blank_members_in: operand 3 must be a string, got %s", ast.ValueName(field.Value))
	}
	var out []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		if o, ok := node.(ast.Object); ok {
			if members, ok := valueOf(o, key).(ast.Object); ok {
				if blank := blankMembers(members, field); len(blank) > 0 {
					out = append(out, ast.ArrayTerm(item, ast.ArrayTerm(blank...)))
				}
			}
		}
	})
	return ast.ArrayTerm(out...), nil
}

// eachNode calls fn with each item of a list that is an object with a
// node (an item of input.schemas, say), and the node.
func eachNode(list *ast.Array, fn func(item *ast.Term, node ast.Value)) {
	for i := range list.Len() {
		item := list.Elem(i)
		if obj, ok := item.Value.(ast.Object); ok {
			if node := valueOf(obj, nodeKey); node != nil {
				fn(item, node)
			}
		}
	}
}

// blankMembers are the keys of o, sorted, that blank_members returns.
func blankMembers(o ast.Object, field *ast.Term) []*ast.Term {
	var out []*ast.Term
	for _, k := range o.Keys() { // sorted
		if member, ok := o.Get(k).Value.(ast.Object); ok && !described(member, field, 0) {
			out = append(out, k)
		}
	}
	return out
}

// compositions are the keywords whose members a schema's text may sit in.
var compositions = []*ast.Term{ast.InternedTerm("allOf"), ast.InternedTerm("anyOf"), ast.InternedTerm("oneOf")}

// described tells whether a member carries its text: in field, through a
// $ref (its text is where it points), or in a member of its allOf, anyOf
// or oneOf, as in `allOf: [{$ref: …}, {description: …}]`, the way OpenAPI
// 3.0 puts a text beside a reference.
func described(member ast.Object, field *ast.Term, depth int) bool {
	if ref := valueOf(member, refKey); ref != nil && !ast.Boolean(false).Equal(ref) {
		return true
	}
	if text, ok := valueOf(member, field).(ast.String); ok && strings.TrimSpace(string(text)) != "" {
		return true
	}
	if depth == 4 {
		return false
	}
	for _, c := range compositions {
		list, ok := valueOf(member, c).(*ast.Array)
		if !ok {
			continue
		}
		for i := range list.Len() {
			if sub, ok := list.Elem(i).Value.(ast.Object); ok && described(sub, field, depth+1) {
				return true
			}
		}
	}
	return false
}

var refKey = ast.InternedTerm("$ref")

// nodeKey is the key of an item's node (input.schemas and the like).
var nodeKey = ast.StringTerm("node")

// valueOf is obj[key], or nil.
func valueOf(obj ast.Object, key *ast.Term) ast.Value {
	if t := obj.Get(key); t != nil {
		return t.Value
	}
	return nil
}

// specgate.blank_at finds the items of a large list that lack a text (a
// description, a summary) in one call: in Rego, each item costs an
// iteration and a call of trim_space, which is all a rule costs that finds
// no undescribed parameter among tens of thousands.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.blank_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A)),
			types.NewArray(nil, types.A)),
	}, blankAtBuiltin)
}

// blankAtBuiltin is specgate.blank_at(items, path) -> [item]: the items of
// a list whose value at the path is missing, not a string, or blank
// (trim_space of it is ""), in order: those for which
// `not trim_space(item.node.description) != ""` holds when the path is
// ["node", "description"]. The path starts at the item itself and lists
// object keys and array indices, as a Rego reference reads them; a step
// that does not apply (a key of an array, an index out of range) leads to
// nothing, which is missing.
func blankAtBuiltin(_ rego.BuiltinContext, items, path *ast.Term) (*ast.Term, error) {
	const name = "specgate.blank_at"
	list, p, err := arrays(name, items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath(name, p, false) // one value per item
	if err != nil {
		return nil, err
	}
	var out, at []*ast.Term
	for i := range list.Len() {
		at = collectValues(at[:0], list.Elem(i), steps)
		if len(at) == 0 {
			out = append(out, list.Elem(i))
		} else if s, ok := at[0].Value.(ast.String); !ok || strings.TrimSpace(string(s)) == "" {
			out = append(out, list.Elem(i))
		}
	}
	return ast.ArrayTerm(out...), nil
}
