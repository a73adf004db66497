package suggest

import "testing"

func TestHint(t *testing.T) {
	for _, tc := range []struct {
		got        string
		candidates []string
		want       string
	}{
		{"health-endpoit", []string{"health-endpoint", "operation-tags"}, `; did you mean "health-endpoint"?`},
		{"Strictt", []string{"lenient", "strict"}, `; did you mean "strict"?`},
		{"ser", []string{"settings", "services"}, `; did you mean "services"?`}, // a start of the name
		{"se", []string{"services"}, ""},                                        // too short to be a start
		{"lint", []string{"lint", "list"}, `; did you mean "list"?`},            // the same name is no hint
		{"frobnicate", []string{"lint", "validate"}, ""},
		{"", nil, ""},
	} {
		if got := Hint(tc.got, tc.candidates); got != tc.want {
			t.Errorf("Hint(%q, %q) = %q, want %q", tc.got, tc.candidates, got, tc.want)
		}
	}
}
