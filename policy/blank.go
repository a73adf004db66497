package policy

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.blank_members(obj, field) -> [key]
//
// the keys of obj, sorted, whose value is an object in which field is
// missing, not a string, or blank (whitespace only): the properties of a
// schema without a description, say. Rules about missing texts test every
// member of large objects (stripe.yaml's schemas have 10,000 properties),
// and in Rego each member costs an iteration and a call (is it an object,
// is the text blank); in Go the whole object is one call. Members that
// are not objects are left out, and so are references (a member with a
// $ref that is not false, as `not member["$ref"]` would leave it out):
// their text is where they point.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.blank_members",
		Decl: types.NewFunction(types.Args(types.NewObject(nil, types.NewDynamicProperty(types.A, types.A)), types.S),
			types.NewArray(nil, types.A)),
	}, blankMembersBuiltin)
}

func blankMembersBuiltin(_ rego.BuiltinContext, obj, field *ast.Term) (*ast.Term, error) {
	o, ok := obj.Value.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("specgate.blank_members: operand 1 must be an object, got %s", ast.ValueName(obj.Value))
	}
	if _, ok := field.Value.(ast.String); !ok {
		return nil, fmt.Errorf("specgate.blank_members: operand 2 must be a string, got %s", ast.ValueName(field.Value))
	}
	var out []*ast.Term
	for _, k := range o.Keys() { // sorted
		member, ok := o.Get(k).Value.(ast.Object)
		if !ok {
			continue
		}
		if ref := valueOf(member, refKey); ref != nil && !ast.Boolean(false).Equal(ref) {
			continue
		}
		if text, ok := valueOf(member, field).(ast.String); ok && strings.TrimSpace(string(text)) != "" {
			continue
		}
		out = append(out, k)
	}
	return ast.ArrayTerm(out...), nil
}

var refKey = ast.InternedTerm("$ref")

// valueOf is obj[key], or nil.
func valueOf(obj ast.Object, key *ast.Term) ast.Value {
	if t := obj.Get(key); t != nil {
		return t.Value
	}
	return nil
}
