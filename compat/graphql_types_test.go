package compat

import (
	"testing"

	"github.com/specgate/specgate/spec/graphql"
)

// A type change is safe for what the API returns when it only adds
// non-null, and for what clients send when it only drops non-null; any
// other change of name or list depth is unsafe both ways.
func TestGraphQLTypeChangeSafety(t *testing.T) {
	named := func(name string, nonNull bool) *graphql.TypeRef {
		return &graphql.TypeRef{Name: name, NonNull: nonNull}
	}
	list := func(elem *graphql.TypeRef, nonNull bool) *graphql.TypeRef {
		return &graphql.TypeRef{Elem: elem, NonNull: nonNull}
	}
	for _, tc := range []struct {
		base, rev     *graphql.TypeRef
		output, input bool
	}{
		{named("String", false), named("String", false), true, true},
		{named("String", false), named("String", true), true, false},
		{named("String", true), named("String", false), false, true},
		{list(named("String", false), false), list(named("String", true), false), true, false},
		{list(named("String", true), true), list(named("String", true), false), false, true},
		{list(named("String", true), true), list(named("String", false), true), false, true},
		{named("String", false), named("Int", false), false, false},
		{list(named("String", false), false), named("String", false), false, false},
		{nil, named("String", false), false, false},
	} {
		if got := safeOutput(tc.base, tc.rev); got != tc.output {
			t.Errorf("%s → %s: safe for output %v, want %v", tc.base, tc.rev, got, tc.output)
		}
		if got := safeInput(tc.base, tc.rev); got != tc.input {
			t.Errorf("%s → %s: safe for input %v, want %v", tc.base, tc.rev, got, tc.input)
		}
	}
}
