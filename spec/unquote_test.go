package spec

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// FuzzUnquoteJSON: on a JSON string that is UTF-8, UnquoteJSON agrees
// with encoding/json; bytes that are not UTF-8 come out as they went in.
func FuzzUnquoteJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "tab\there\nline", `quote " backslash \ slash /`, "\u00e9\u4e16\U0001F600", "<&>\u2028", "\x00\x1f\x7f", "\xe9t\xe9", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.Marshal(s) // U+FFFD for the bytes that are not UTF-8
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if got := UnquoteJSON(raw); got != want {
			t.Fatalf("unquote(%s) = %q, want %q", raw, got, want)
		}
		// The same text with its bytes as they are, escaping only what JSON
		// requires.
		var b strings.Builder
		b.WriteByte('"')
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"' || c == '\\':
				b.WriteString(`\` + string(c))
			case c < 0x20:
				fmt.Fprintf(&b, `\u%04x`, c)
			default:
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
		if got := UnquoteJSON([]byte(b.String())); got != s {
			t.Fatalf("unquote(%s) = %q, want the bytes %q", b.String(), got, s)
		}
	})
}
