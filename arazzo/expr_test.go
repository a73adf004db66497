package arazzo

import "testing"

// TestIsExpression checks which strings are read as runtime expressions:
// those that start with an expression's name, and those whose name
// misspells one; other strings that start with $ are literals.
func TestIsExpression(t *testing.T) {
	for _, tc := range []struct {
		s     string
		want  bool
		meant string // the name a misspelling is taken for
	}{
		{"$inputs.email", true, ""},
		{"$statusCode", true, ""},
		{"$input.email", true, "$inputs"},
		{"$Inputs.email", true, "$inputs"},
		{"$step.a.outputs.b", true, "$steps"},
		{"$reponse.body#/id", true, "$response"},
		{"$req.header.X", true, "$request"},
		{"$statuscode", true, "$statusCode"},
		{"$methd", true, "$method"},
		{"$USD", false, ""},       // a word two edits from $url
		{"$5", false, ""},         // a price
		{"$.items[0]", false, ""}, // a JSONPath
		{"$foo.bar", false, ""},   // close to no name
		{"$ 5", false, ""},
		{"costs $5", false, ""},
		{"$", false, ""},
	} {
		if got := IsExpression(tc.s); got != tc.want {
			t.Errorf("IsExpression(%q) = %v, want %v", tc.s, got, tc.want)
		}
		if got := misspeltRoot(tc.s); got != tc.meant {
			t.Errorf("misspeltRoot(%q) = %q, want %q", tc.s, got, tc.meant)
		}
	}
}
