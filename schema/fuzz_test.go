package schema

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FuzzPattern: no expression text panics the choice of engine, matching or
// generation, and a string generation returns is matched.
func FuzzPattern(f *testing.F) {
	for _, seed := range []string{
		`^[a-z]+$`, `^a.c$`, `(?=.*\d)[A-Z]{3,}`, `^(a|b)\1$`, `\u{1F600}|\uD83D\uDE00`, `[^]|[]`, `\s\S\w\W\d\D\b\B`,
		`(?<y>\d{4})-\k<y>`, `a{2,3}?b*?c+?`, `[\s-a]`, `\p{L}\P{Lu}\p{Letter}`, `x{1001}`, `(?i)abc`, `\cJ\0\x41`,
		`((a)|b)+\2`, `(?<!x)y`, `[a-\d]`, `\k<missing>`, `(`, `\`, `[`, `a{,3}`, `^$`, `a^b`, `\bfoo\b`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 200 || !utf8.ValidString(src) {
			return
		}
		p, err := compilePattern(src)
		if err != nil {
			return
		}
		for _, s := range []string{"", "a", "abc123", "A-Z\n", "😀 é"} {
			p.MatchString(s)
		}
		gn := &generation{g: &Generator{rng: rand.New(rand.NewPCG(1, 2)), opts: GeneratorOptions{MaxItems: 2, MaxValues: 100}}}
		for _, bounds := range [][2]int{{0, -1}, {5, 10}, {0, 2}} {
			s, ok := gn.fromPattern([]jsonschema.Regexp{p}, bounds[0], bounds[1])
			if !ok {
				continue
			}
			if !p.MatchString(s) {
				t.Errorf("%q generated %q, which it does not match", src, s)
			}
			if n := utf8.RuneCountInString(s); n < bounds[0] || bounds[1] >= 0 && n > bounds[1] {
				t.Errorf("%q generated %q, outside the lengths %v", src, s, bounds)
			}
		}
	})
}
