package main

import (
	"strings"
	"testing"

	"github.com/specgate/specgate/policy"
)

func TestDiffer(t *testing.T) {
	a := []policy.Violation{
		{Rule: "r1", Path: []any{"paths", "/a"}, Message: "m"},
		{Rule: "r2", Path: []any{"info"}, Message: "gone"},
		{Rule: "r3", Path: []any{"x"}, Message: "twice"},
		{Rule: "r3", Path: []any{"x"}, Message: "twice"},
	}
	b := []policy.Violation{
		{Rule: "r1", Path: []any{"paths", "/a"}, Message: "m"},
		{Rule: "r3", Path: []any{"x"}, Message: "twice"},
		{Rule: "r4", Path: []any{"tags", 0}, Message: "new"},
	}
	if got := differ(a, a); got != "" {
		t.Errorf("differ of a list with itself = %q, want none", got)
	}
	got := differ(a, b)
	want := "- r2  [info]: gone\n- r3  [x]: twice\n+ r4  [tags 0]: new\n"
	if got != want {
		t.Errorf("differ =\n%s\nwant\n%s", got, want)
	}
	var many []policy.Violation
	for i := range 12 {
		many = append(many, policy.Violation{Rule: "r", Path: []any{i}, Message: "m"})
	}
	if got := differ(many, nil); !strings.HasSuffix(got, "- … and 2 more\n") || strings.Count(got, "\n") != 11 {
		t.Errorf("differ of 12 removed findings =\n%s\nwant ten and a count of the rest", got)
	}
}
