package schema

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// A pattern is a regular expression as OpenAPI and JSON Schema write them
// (ECMA-262), compiled with the engine that gives it its ECMAScript meaning:
// Go's RE2 when the expression, translated, means the same there, else
// regexp2 in its ECMAScript mode (look-arounds, back-references, …).
// Matching is a search; an unescaped "." matches no line terminator in
// either engine. It implements jsonschema.Regexp.
type pattern struct {
	src string
	re  *regexp.Regexp  // when RE2 means the same
	ecm *regexp2.Regexp // otherwise

	// gen is the expression in Go syntax that generation draws strings
	// from: the translation itself, or, for an expression only regexp2
	// reads, the translation without its look-arounds and with each
	// back-reference replaced by its group. Drawn strings are checked
	// with the matcher.
	gen     string
	genOnce sync.Once
	genRe   *syntax.Regexp // nil when gen does not parse
}

func (p *pattern) String() string { return p.src }

// MatchString reports whether s contains a match. A regexp2 match that
// runs out of time or backtracking stack counts as no match.
func (p *pattern) MatchString(s string) bool {
	if p.re != nil {
		return p.re.MatchString(s)
	}
	ok, err := p.ecm.MatchString(s)
	return ok && err == nil
}

// generator returns the parsed expression strings are drawn from, or nil.
func (p *pattern) generator() *syntax.Regexp {
	p.genOnce.Do(func() {
		if re, err := syntax.Parse(p.gen, syntax.Perl); err == nil {
			p.genRe = re
		}
	})
	return p.genRe
}

// regexTimeout bounds one regexp2 match: a backtracking engine can take
// exponential time on a hostile expression or value.
const regexTimeout = 250 * time.Millisecond

// maxCachedPatterns bounds a pattern cache: the expressions of a document
// are few, but "format: regex" compiles values of requests too.
const maxCachedPatterns = 4096

// patternCache compiles each expression once. It is safe for concurrent
// use.
type patternCache struct {
	mu sync.Mutex
	m  map[string]*pattern
}

func (c *patternCache) compile(src string) (*pattern, error) {
	c.mu.Lock()
	p, ok := c.m[src]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := compilePattern(src)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*pattern{}
	}
	if len(c.m) < maxCachedPatterns {
		c.m[src] = p
	}
	c.mu.Unlock()
	return p, nil
}

// compilePattern compiles an ECMA-262 expression.
func compilePattern(src string) (*pattern, error) {
	t := translate(src)
	p := &pattern{src: src, gen: t.gen}
	if !t.ecma {
		if re, err := regexp.Compile(t.goExpr); err == nil {
			p.re = re
			return p, nil
		}
	}
	re, err := regexp2.Compile(src, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		// Without the u flag ECMAScript reads more escapes (Annex B).
		var err2 error
		if re, err2 = regexp2.Compile(src, regexp2.ECMAScript); err2 != nil {
			msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
			if i := strings.LastIndex(msg, " in `"); i > 0 {
				msg = msg[:i]
			}
			return nil, fmt.Errorf("invalid regular expression %q: %s", src, msg)
		}
	}
	re.MatchTimeout = regexTimeout
	p.ecm = re
	return p, nil
}

// translation is an ECMA-262 expression rewritten in Go's syntax.
type translation struct {
	goExpr string // the expression for Go's regexp
	gen    string // the expression strings are generated from
	ecma   bool   // Go's regexp cannot mean the same: use regexp2
}

// ECMAScript's \s: white space and line terminators.
const (
	spaceRanges    = `\t\n\x0B\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`
	nonSpaceRanges = `\x00-\x08\x0E-\x1F!-\x{9F}\x{A1}-\x{167F}\x{1681}-\x{1FFF}\x{200B}-\x{2027}\x{202A}-\x{202E}\x{2030}-\x{205E}\x{2060}-\x{2FFF}\x{3001}-\x{FEFE}\x{FF00}-\x{10FFFF}`
	// An unescaped "." matches anything but a line terminator.
	dotClass = `[^\n\r\x{2028}\x{2029}]`
)

// goCategories are the Unicode general categories \p{…} names alike in
// ECMAScript and Go.
var goCategories = map[string]bool{
	"L": true, "Lu": true, "Ll": true, "Lt": true, "Lm": true, "Lo": true,
	"M": true, "Mn": true, "Mc": true, "Me": true, "N": true, "Nd": true, "Nl": true, "No": true,
	"P": true, "Pc": true, "Pd": true, "Ps": true, "Pe": true, "Pi": true, "Pf": true, "Po": true,
	"S": true, "Sm": true, "Sc": true, "Sk": true, "So": true, "Z": true, "Zs": true, "Zl": true, "Zp": true,
	"C": true, "Cc": true, "Cf": true, "Co": true, "Cs": true,
}

// translator rewrites an ECMA-262 expression into Go's syntax, noting
// whatever Go cannot mean the same way.
type translator struct {
	src  []rune
	i    int
	out  strings.Builder // Go expression
	gen  strings.Builder // generation expression
	ecma bool

	// quiet > 0 inside a look-around: its text is left out of gen.
	quiet  int
	groups []group        // open groups
	texts  map[int]string // gen text of each closed capturing group
	names  map[string]int // capturing group numbers by name
	nCap   int            // capturing groups opened so far
}

type group struct {
	capture    int // group number, 0 when not capturing
	lookaround bool
	genStart   int
}

func translate(src string) translation {
	t := &translator{src: []rune(src), texts: map[int]string{}, names: map[string]int{}}
	t.run()
	if len(t.groups) != 0 {
		t.ecma = true // unbalanced: let the engines say
	}
	return translation{goExpr: t.out.String(), gen: t.gen.String(), ecma: t.ecma}
}

// emit writes s to both outputs (to gen only outside look-arounds).
func (t *translator) emit(s string) {
	t.out.WriteString(s)
	if t.quiet == 0 {
		t.gen.WriteString(s)
	}
}

func (t *translator) peek(k int) rune {
	if t.i+k < len(t.src) {
		return t.src[t.i+k]
	}
	return -1
}

func (t *translator) run() {
	for t.i < len(t.src) {
		c := t.src[t.i]
		switch c {
		case '\\':
			t.escape(false)
		case '.':
			t.i++
			t.emit(dotClass)
		case '[':
			t.class()
		case '(':
			t.open()
		case ')':
			t.i++
			t.close()
		case '{':
			if n := t.quantifier(); n > 0 {
				t.emit(string(t.src[t.i : t.i+n]))
				t.i += n
			} else {
				t.i++
				t.emit(`\{`)
			}
		case '}', ']':
			t.i++
			t.emit(`\` + string(c))
		default:
			t.i++
			t.emit(string(c))
		}
	}
}

// quantifier returns the length of a {n}, {n,} or {n,m} at t.i, or 0.
func (t *translator) quantifier() int {
	j := t.i + 1
	digits := func() int {
		k := j
		for j < len(t.src) && t.src[j] >= '0' && t.src[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		return 0
	}
	if j < len(t.src) && t.src[j] == ',' {
		j++
		digits()
	}
	if j < len(t.src) && t.src[j] == '}' {
		return j + 1 - t.i
	}
	return 0
}

func (t *translator) open() {
	t.i++
	g := group{genStart: t.gen.Len()}
	if t.peek(0) != '?' {
		t.nCap++
		g.capture = t.nCap
		t.groups = append(t.groups, g)
		t.emit("(")
		return
	}
	rest := string(t.src[t.i:min(t.i+4, len(t.src))])
	switch {
	case strings.HasPrefix(rest, "?:"):
		t.i += 2
		t.groups = append(t.groups, g)
		t.emit("(?:")
	case strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"), strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
		t.ecma = true
		n := 2
		if rest[1] == '<' {
			n = 3
		}
		t.out.WriteString("(" + rest[:n])
		t.i += n
		g.lookaround = true
		t.quiet++
		t.groups = append(t.groups, g)
	case strings.HasPrefix(rest, "?<"), strings.HasPrefix(rest, "?P<"):
		start := t.i + 2
		if rest[1] == 'P' {
			start++
		}
		end := start
		for end < len(t.src) && t.src[end] != '>' {
			end++
		}
		name := string(t.src[start:min(end, len(t.src))])
		t.i = min(end+1, len(t.src))
		t.nCap++
		g.capture = t.nCap
		t.names[name] = t.nCap
		t.groups = append(t.groups, g)
		if !validGroupName(name) {
			t.ecma = true
		}
		t.emit("(?P<" + name + ">")
	case rest == "?i)" || strings.HasPrefix(rest, "?i:") || strings.HasPrefix(rest, "?i)"):
		// Not ECMAScript, but common in specifications written for other
		// engines; both engines read it alike.
		if t.peek(2) == ')' {
			t.i += 3
			t.emit("(?i)")
			return
		}
		t.i += 3
		t.groups = append(t.groups, g)
		t.emit("(?i:")
	default:
		t.ecma = true
		t.i++
		t.groups = append(t.groups, g)
		t.emit("(?")
	}
}

func validGroupName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func (t *translator) close() {
	if len(t.groups) == 0 {
		t.ecma = true
		t.emit(`\)`)
		return
	}
	g := t.groups[len(t.groups)-1]
	t.groups = t.groups[:len(t.groups)-1]
	if g.lookaround {
		t.out.WriteString(")")
		t.quiet--
		return
	}
	t.emit(")")
	if g.capture > 0 && t.quiet == 0 {
		t.texts[g.capture] = t.gen.String()[g.genStart:]
	}
}

// backref writes a back-reference to group n: regexp2 matches it; gen
// repeats the group's expression.
func (t *translator) backref(n int) {
	t.ecma = true
	t.out.WriteString(`\` + strconv.Itoa(n))
	if t.quiet == 0 {
		if text, ok := t.texts[n]; ok {
			t.gen.WriteString("(?:" + text + ")")
		}
	}
}

// escape translates the escape at t.i, inside a class or not.
func (t *translator) escape(inClass bool) {
	t.i++ // the backslash
	c := t.peek(0)
	if c < 0 {
		t.ecma = true
		return
	}
	t.i++
	switch c {
	case 'd', 'D', 'w', 'W':
		t.emit(`\` + string(c))
	case 'b':
		if inClass {
			t.emit(`\x08`)
		} else {
			t.emit(`\b`)
		}
	case 'B':
		if inClass {
			t.ecma = true
		}
		t.emit(`\B`)
	case 's':
		if inClass {
			t.emit(spaceRanges)
		} else {
			t.emit("[" + spaceRanges + "]")
		}
	case 'S':
		if inClass {
			t.emit(nonSpaceRanges)
		} else {
			t.emit("[" + nonSpaceRanges + "]")
		}
	case 't', 'n', 'r', 'v', 'f':
		t.emit(`\` + string(c))
	case '0':
		if d := t.peek(0); d >= '0' && d <= '9' {
			t.ecma = true // an octal escape (Annex B)
		}
		t.emit(`\x00`)
	case 'x':
		if isHex(t.peek(0)) && isHex(t.peek(1)) {
			t.emit(`\x{` + string(t.src[t.i:t.i+2]) + `}`)
			t.i += 2
		} else {
			t.emit("x") // an identity escape (Annex B)
		}
	case 'u':
		t.unicodeEscape()
	case 'c':
		if l := t.peek(0); l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' {
			t.i++
			t.emit(fmt.Sprintf(`\x{%X}`, l%32))
		} else {
			t.ecma = true
			t.emit(`\\c`)
		}
	case 'p', 'P':
		if t.peek(0) == '{' {
			end := t.i + 1
			for end < len(t.src) && t.src[end] != '}' {
				end++
			}
			name := string(t.src[t.i+1 : min(end, len(t.src))])
			t.i = min(end+1, len(t.src))
			if !goCategories[name] {
				t.ecma = true
			}
			t.emit(`\` + string(c) + "{" + name + "}")
		} else {
			t.ecma = true
			t.emit(string(c))
		}
	case 'k':
		if t.peek(0) == '<' {
			end := t.i + 1
			for end < len(t.src) && t.src[end] != '>' {
				end++
			}
			name := string(t.src[t.i+1 : min(end, len(t.src))])
			t.i = min(end+1, len(t.src))
			if n, ok := t.names[name]; ok {
				t.backref(n)
				return
			}
		}
		t.ecma = true
		t.emit("k")
	default:
		switch {
		case c >= '1' && c <= '9':
			j := t.i
			for j < len(t.src) && t.src[j] >= '0' && t.src[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(string(t.src[t.i-1 : j]))
			t.i = j
			if inClass {
				t.ecma = true
				return
			}
			t.backref(n)
		case c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			// An identity escape of a letter: its meaning differs
			// between ECMAScript's modes and from Go's.
			t.ecma = true
			t.emit(string(c))
		case c < utf8.RuneSelf:
			t.emit(`\` + string(c))
		default:
			t.emit(string(c))
		}
	}
}

// unicodeEscape translates \uXXXX (a surrogate pair of them makes one code
// point) and \u{X…}; t.i is just past the "u".
func (t *translator) unicodeEscape() {
	if t.peek(0) == '{' {
		end := t.i + 1
		for end < len(t.src) && isHex(t.src[end]) {
			end++
		}
		if end < len(t.src) && t.src[end] == '}' && end > t.i+1 {
			hex := string(t.src[t.i+1 : end])
			t.i = end + 1
			if v, err := strconv.ParseUint(hex, 16, 32); err == nil && v <= utf8.MaxRune {
				t.emit(`\x{` + hex + `}`)
				return
			}
		}
		t.ecma = true
		return
	}
	hex4 := func(at int) (rune, bool) {
		if at+4 > len(t.src) {
			return 0, false
		}
		v, err := strconv.ParseUint(string(t.src[at:at+4]), 16, 32)
		return rune(v), err == nil
	}
	hi, ok := hex4(t.i)
	if !ok {
		t.emit("u") // an identity escape (Annex B)
		return
	}
	t.i += 4
	if hi >= 0xD800 && hi <= 0xDBFF && t.peek(0) == '\\' && t.peek(1) == 'u' {
		if lo, ok := hex4(t.i + 2); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			t.i += 6
			t.emit(fmt.Sprintf(`\x{%X}`, (hi-0xD800)<<10+(lo-0xDC00)+0x10000))
			return
		}
	}
	if hi >= 0xD800 && hi <= 0xDFFF {
		t.ecma = true // a lone surrogate: Go strings hold none
		return
	}
	t.emit(fmt.Sprintf(`\x{%X}`, hi))
}

func isHex(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

// class translates a character class starting at t.i.
func (t *translator) class() {
	t.i++
	negated := false
	if t.peek(0) == '^' {
		negated = true
		t.i++
	}
	if t.peek(0) == ']' { // [] matches nothing, [^] anything
		t.i++
		if negated {
			t.emit(`[\x00-\x{10FFFF}]`)
		} else {
			t.emit(`[^\x00-\x{10FFFF}]`)
		}
		return
	}
	if negated {
		t.emit("[^")
	} else {
		t.emit("[")
	}
	for t.i < len(t.src) {
		c := t.src[t.i]
		switch c {
		case ']':
			t.i++
			t.emit("]")
			return
		case '\\':
			e := t.peek(1)
			t.escape(true)
			// A class escape cannot start or end a range: a "-" after one
			// is literal (Annex B).
			if strings.ContainsRune("dDwWsS", e) && t.peek(0) == '-' && t.peek(1) != ']' {
				t.i++
				t.emit(`\-`)
			}
		case '[':
			t.i++
			t.emit(`\[`)
		default:
			t.i++
			t.emit(string(c))
		}
	}
	t.ecma = true // unterminated
}
