package schema

import (
	"strings"
	"testing"
)

// TestPatterns checks the ECMA-262 meaning of expressions and which engine
// gives it: Go's RE2 where it means the same, else regexp2.
func TestPatterns(t *testing.T) {
	cases := []struct {
		pattern  string
		ecma     bool // compiled by regexp2
		match    []string
		mismatch []string
	}{
		{pattern: `^[a-z]+$`, match: []string{"abc"}, mismatch: []string{"ab1", "abc\n", ""}},
		{pattern: `[0-9]{3}`, match: []string{"x123y", "123"}, mismatch: []string{"12"}},
		{pattern: `^a.c$`, match: []string{"abc", "a\tc", "a😀c"}, mismatch: []string{"a\nc", "a\rc", "a\u2028c", "a\u2029c"}},
		{pattern: `^\s$`, match: []string{" ", "\u00a0", "\v", "\ufeff", "\u3000"}, mismatch: []string{"x", "\u200b"}},
		{pattern: `^\S+$`, match: []string{"ab", "é"}, mismatch: []string{"a b", "a\u00a0b"}},
		{pattern: `^[\s\d]+$`, match: []string{"1 2\u00a03"}, mismatch: []string{"1a"}},
		{pattern: `^[^\S]$`, match: []string{" "}, mismatch: []string{"a"}},
		{pattern: `^[\w-]+$`, match: []string{"a-b_c"}, mismatch: []string{"a b"}},
		{pattern: `^\u00e9\x41$`, match: []string{"éA"}},
		{pattern: `^\uD83D\uDE00$`, match: []string{"😀"}},
		{pattern: `^\u{1F600}$`, match: []string{"😀"}},
		{pattern: `^\cJ$`, match: []string{"\n"}},
		{pattern: `^[]$`, mismatch: []string{"", "a"}},
		{pattern: `^[^]$`, match: []string{"\n", "a"}},
		{pattern: `^\/api\/v1$`, match: []string{"/api/v1"}},
		{pattern: `^a{2}\{b}$`, match: []string{"aa{b}"}},
		{pattern: `^[[]$`, match: []string{"["}},
		{pattern: `^[[:alpha:]]$`, match: []string{"a]", ":]", "[]"}, mismatch: []string{"a", "b]"}},
		{pattern: `^\p{Lu}\p{Ll}+$`, match: []string{"Éte"}, mismatch: []string{"éte"}},
		{pattern: `^(?<year>\d{4})-(?<month>\d{2})$`, match: []string{"2024-05"}},
		{pattern: `(?i)^abc$`, match: []string{"ABC"}},
		{pattern: `^\p{Letter}+$`, ecma: true, match: []string{"abc"}, mismatch: []string{"a1"}},
		{pattern: `^(?=.*\d)(?=.*[A-Z])[A-Za-z\d]{8,}$`, ecma: true, match: []string{"abcdefG1"}, mismatch: []string{"abcdefgh", "ABCDEFGH1\n"}},
		{pattern: `^(?!admin$)[a-z]+$`, ecma: true, match: []string{"root"}, mismatch: []string{"admin"}},
		{pattern: `(?<=\$)\d+`, ecma: true, match: []string{"$12"}, mismatch: []string{"12"}},
		{pattern: `^(a|b)\1$`, ecma: true, match: []string{"aa", "bb"}, mismatch: []string{"ab"}},
		{pattern: `^(?<q>['"]).*\k<q>$`, ecma: true, match: []string{`"x"`, `'y'`}, mismatch: []string{`"x'`}},
		{pattern: `^a.c(?=$)`, ecma: true, match: []string{"abc"}, mismatch: []string{"a\nc", "a\rc", "a\u2028c", "a\u2029c", "abc\n"}},
		{pattern: `^a{1,2000}$`, ecma: true, match: []string{"aaa"}},
	}
	for _, c := range cases {
		p, err := compilePattern(c.pattern)
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		if got := p.ecm != nil; got != c.ecma {
			t.Errorf("%s: compiled by regexp2 = %v, want %v", c.pattern, got, c.ecma)
		}
		for _, s := range c.match {
			if !p.MatchString(s) {
				t.Errorf("%s does not match %q", c.pattern, s)
			}
		}
		for _, s := range c.mismatch {
			if p.MatchString(s) {
				t.Errorf("%s matches %q", c.pattern, s)
			}
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for pattern, want := range map[string]string{
		`([a-z]+`: `invalid regular expression "([a-z]+": missing closing )`,
		`a**`:     `invalid regular expression "a**": `,
		`[z-a]`:   `invalid regular expression "[z-a]": `,
	} {
		_, err := compilePattern(pattern)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %s…", pattern, err, want)
		}
	}
}
