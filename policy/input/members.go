package input

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Members names the members of an input that a run's rules may read, for
// BuildMembers: top-level keys such as "operations", and "index.<key>" for
// those of input.index ("index" alone is all of them). A nil Members is
// every member.
type Members map[string]bool

// Has tells whether m holds the member name.
func (m Members) Has(name string) bool {
	if m == nil || m[name] {
		return true
	}
	return strings.HasPrefix(name, "index.") && m["index"]
}

// any tells whether m holds one of names.
func (m Members) any(names ...string) bool {
	for _, n := range names {
		if m.Has(n) {
			return true
		}
	}
	return false
}

// Add adds the members of o to m; a nil o or m is every member, and so is
// the result.
func (m Members) Add(o Members) Members {
	if m == nil || o == nil {
		return nil
	}
	for k := range o {
		m[k] = true
	}
	return m
}

// The members built from the views of package spec, by the converter of
// the operations (viewMembers) or of the schemas (schemaMembers).
var (
	viewMembers = []string{"pathItems", "pathSegments", "operations", "webhooks", "callbacks", "parameters",
		"queryParameters", "responseUses", "index.requestBodyUses", "securitySchemes", "security", "servers", "tags",
		"channels", "asyncOperations", "messages"}
	schemaMembers = []string{"schemas", "requestSchemas", "responseSchemas", "schemasWith", "schemasOfType",
		"index.propertySchemas", "received", "receivedWith", "receivedOfType", "swaggerValues", "swaggerValuesWith",
		"swaggerValuesOfType"}
)

// memberTerm is a member's name and what makes its value.
type memberTerm struct {
	name string
	term func() *ast.Term
}

// is is the memberTerm of a value already made.
func is(name string, t *ast.Term) memberTerm {
	return memberTerm{name, func() *ast.Term { return t }}
}
