package contract

import "testing"

// isNumber follows the grammar of a JSON number (RFC 8259, section 6):
// no leading zeros, no bare dot, an exponent with digits.
func TestIsNumber(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"0", true}, {"-0", true}, {"12", true}, {"-12.50", true}, {"1e9", true}, {"1E+9", true}, {"2.5e-3", true}, {"0.1", true},
		{"", false}, {"-", false}, {"01", false}, {"1.", false}, {".5", false}, {"1e", false}, {"1e+", false}, {"+1", false},
		{"1x", false}, {"NaN", false}, {"0x10", false}, {" 1", false},
	} {
		if got := isNumber(tc.s); got != tc.want {
			t.Errorf("isNumber(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
