package schema

import (
	"encoding/base64"
	"fmt"
	"regexp/syntax"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// words make generated text read like text.
var words = []string{
	"alpha", "bravo", "delta", "echo", "lorem", "ipsum", "dolor", "amet", "nova", "terra",
	"river", "stone", "cloud", "maple", "cedar", "amber", "coral", "ember", "lumen", "orbit",
}

// stringFormats are the formats that describe strings (int32 and the like
// describe numbers).
var stringFormats = map[string]bool{
	"date": true, "date-time": true, "time": true, "duration": true, "email": true, "idn-email": true,
	"hostname": true, "idn-hostname": true, "ipv4": true, "ipv6": true, "uri": true, "uri-reference": true,
	"iri": true, "iri-reference": true, "uri-template": true, "uuid": true, "json-pointer": true,
	"relative-json-pointer": true, "regex": true, "byte": true, "binary": true, "password": true, "semver": true,
}

// string generates a string: from the view's format, else from its
// pattern, else what the property's name suggests, else words; each
// candidate is checked against the view.
func (gn *generation) string(v *view, name string) (any, bool) {
	lo, hi := v.minLen, v.maxLen
	if hi >= 0 && lo > hi {
		return nil, false
	}
	for _, f := range v.formats {
		for attempt := 0; attempt < 4; attempt++ {
			if s, ok := gn.formatted(f, lo, hi); ok && v.fits(s) {
				return s, true
			}
		}
	}
	if len(v.patterns) > 0 {
		if s, ok := gn.fromPattern(v.patterns, lo, hi); ok && v.fits(s) {
			return s, true
		}
		return nil, false
	}
	if f := nameFormat(name); f != "" {
		if s, ok := gn.formatted(f, lo, hi); ok && v.fits(s) {
			return s, true
		}
	}
	for attempt := 0; attempt < 4; attempt++ {
		if s := gn.text(lo, hi); v.fits(s) {
			return s, true
		}
	}
	return nil, false
}

// nameFormat is the format a property's name suggests for a string
// without one ("email", "created_at", "homepage_url", …), or "".
func nameFormat(name string) string {
	n := strings.ToLower(name)
	switch {
	case n == "":
		return ""
	case strings.Contains(n, "email"):
		return "email"
	case strings.HasSuffix(n, "url") || strings.HasSuffix(n, "uri") || strings.HasSuffix(n, "href") || n == "link" || n == "website":
		return "uri"
	case strings.HasSuffix(n, "_at") || strings.HasSuffix(name, "At") || strings.HasSuffix(n, "timestamp") || strings.HasSuffix(n, "datetime"):
		return "date-time"
	case strings.HasSuffix(n, "date") || strings.HasSuffix(n, "_on"):
		return "date"
	case strings.HasSuffix(n, "uuid") || strings.HasSuffix(n, "guid"):
		return "uuid"
	case strings.HasSuffix(n, "hostname") || n == "host" || n == "domain":
		return "hostname"
	case n == "ip" || strings.HasSuffix(n, "ip_address") || strings.HasSuffix(n, "ipaddress"):
		return "ipv4"
	}
	return ""
}

// text is words of a length within [lo, hi] (hi < 0: unbounded).
func (gn *generation) text(lo, hi int) string {
	rng := gn.g.rng
	target := lo + rng.IntN(12)
	if lo == 0 {
		target = 4 + rng.IntN(12)
	}
	if hi >= 0 {
		target = min(target, hi)
	}
	target = max(target, lo)
	var b strings.Builder
	for b.Len() < target {
		w := words[rng.IntN(len(words))]
		if b.Len() > 0 {
			if b.Len()+1+len(w) > target && b.Len() >= lo {
				break
			}
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	s := b.String()
	if len(s) > target {
		s = strings.TrimRight(s[:target], " ")
	}
	for len(s) < lo {
		s += "a"
	}
	return s
}

// formatted draws a realistic string of a format; ok is false for a
// format that is not generated.
func (gn *generation) formatted(format string, lo, hi int) (string, bool) {
	rng := gn.g.rng
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(2000*24*3600)) * time.Second)
	word := words[rng.IntN(len(words))]
	n := 1 + rng.IntN(999)
	switch format {
	case "date":
		return day.Format("2006-01-02"), true
	case "date-time":
		return day.Format("2006-01-02T15:04:05Z"), true
	case "time":
		return day.Format("15:04:05Z"), true
	case "duration":
		return fmt.Sprintf("P%dDT%dH%dM", rng.IntN(30), rng.IntN(24), rng.IntN(60)), true
	case "email", "idn-email":
		return fmt.Sprintf("%s%d@example.com", word, n), true
	case "hostname", "idn-hostname":
		return fmt.Sprintf("%s%d.example.com", word, n), true
	case "ipv4":
		return fmt.Sprintf("192.0.2.%d", 1+rng.IntN(254)), true
	case "ipv6":
		return fmt.Sprintf("2001:db8::%x", 1+rng.IntN(0xfffe)), true
	case "uri", "iri":
		return fmt.Sprintf("https://example.com/%s/%d", word, n), true
	case "uri-reference", "iri-reference":
		return fmt.Sprintf("/%s/%d", word, n), true
	case "uri-template":
		return fmt.Sprintf("https://example.com/%s/{id}", word), true
	case "uuid":
		var b [16]byte
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), true
	case "json-pointer":
		return fmt.Sprintf("/%s/%d", word, n), true
	case "relative-json-pointer":
		return fmt.Sprintf("%d/%s", rng.IntN(3), word), true
	case "regex":
		return "^[a-z]+$", true
	case "byte":
		size := 3 * (1 + rng.IntN(8))
		if lo > 0 || hi >= 0 {
			size = max(lo*3/4+3, 3)
			if hi >= 0 {
				size = min(size, hi*3/4)
			}
		}
		raw := make([]byte, size)
		for i := range raw {
			raw[i] = byte(rng.IntN(256))
		}
		return base64.StdEncoding.EncodeToString(raw), true
	case "binary", "password":
		return gn.text(lo, hi), true
	case "semver":
		return fmt.Sprintf("%d.%d.%d", rng.IntN(5), rng.IntN(20), rng.IntN(50)), true
	}
	return "", false
}

// fromPattern draws a string that every pattern matches, from the first:
// its generation expression gives candidates, each checked with the
// matchers (an expression only regexp2 reads is generated without its
// look-arounds and back-references, so its candidates may miss). A
// candidate shorter than lo is padded where its expression is not
// anchored.
func (gn *generation) fromPattern(patterns []jsonschema.Regexp, lo, hi int) (string, bool) {
	p, ok := patterns[0].(*pattern)
	if !ok {
		return "", false
	}
	re := p.generator()
	if re == nil {
		return "", false
	}
	anchoredEnd := endsAnchored(re)
	for attempt := 0; attempt < 24; attempt++ {
		d := &drawer{rng: gn.g.rng, want: lo, limit: hi, extra: 2 + attempt/3}
		if !d.draw(re) {
			continue
		}
		s := d.out.String()
		n := utf8.RuneCountInString(s)
		if n < lo && !anchoredEnd {
			s += strings.Repeat("x", lo-n)
			n = lo
		}
		if n < lo || hi >= 0 && n > hi {
			continue
		}
		all := true
		for _, q := range patterns {
			if !q.MatchString(s) {
				all = false
				break
			}
		}
		if all {
			return s, true
		}
	}
	return "", false
}

// endsAnchored reports whether an expression ends with $ (or \z).
func endsAnchored(re *syntax.Regexp) bool {
	for {
		switch re.Op {
		case syntax.OpEndText, syntax.OpEndLine:
			return true
		case syntax.OpConcat:
			if len(re.Sub) == 0 {
				return false
			}
			re = re.Sub[len(re.Sub)-1]
		case syntax.OpCapture:
			re = re.Sub[0]
		default:
			return false
		}
	}
}

// maxRunes bounds a string drawn from an expression.
const maxRunes = 4096

// drawer draws a string from a parsed expression.
type drawer struct {
	rng interface {
		IntN(int) int
	}
	out   strings.Builder
	runes int
	want  int // the length to reach, when repeats allow
	limit int // the length not to pass (< 0: none)
	extra int // repeats beyond the minimum an open repeat may add
}

func (d *drawer) write(r rune) {
	d.out.WriteRune(r)
	d.runes++
}

func (d *drawer) draw(re *syntax.Regexp) bool {
	if d.runes > maxRunes {
		return false
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && d.rng.IntN(2) == 1 {
				r = unicode.SimpleFold(r)
			}
			d.write(r)
		}
		return true
	case syntax.OpCharClass:
		r, ok := d.pick(re.Rune)
		if ok {
			d.write(r)
		}
		return ok
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		d.write(rune('a' + d.rng.IntN(26)))
		return true
	case syntax.OpCapture:
		return d.draw(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !d.draw(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		return d.draw(re.Sub[d.rng.IntN(len(re.Sub))])
	case syntax.OpStar:
		return d.repeat(re.Sub[0], 0, -1)
	case syntax.OpPlus:
		return d.repeat(re.Sub[0], 1, -1)
	case syntax.OpQuest:
		return d.repeat(re.Sub[0], 0, 1)
	case syntax.OpRepeat:
		return d.repeat(re.Sub[0], re.Min, re.Max)
	}
	return false
}

// repeat draws sub between lo and hi times (hi < 0: unbounded): a few
// more than lo, more while the string is shorter than wanted, no more once
// it reaches the limit.
func (d *drawer) repeat(sub *syntax.Regexp, lo, hi int) bool {
	n := lo + d.rng.IntN(d.extra+1)
	if hi >= 0 {
		n = min(n, hi)
	}
	for i := 0; ; i++ {
		if i >= lo {
			short := d.runes < d.want && (hi < 0 || i < hi)
			if i >= n && !short || d.limit >= 0 && d.runes >= d.limit || i >= lo+maxRunes {
				return true
			}
		}
		if !d.draw(sub) {
			return false
		}
	}
}

// pick draws a rune of a class (pairs of inclusive ranges), printable
// ASCII where the class has some, never a line terminator.
func (d *drawer) pick(ranges []rune) (rune, bool) {
	var ascii, other [][2]rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if alo, ahi := max(lo, 0x20), min(hi, 0x7e); alo <= ahi {
			ascii = append(ascii, [2]rune{alo, ahi})
		}
		other = append(other, [2]rune{lo, hi})
	}
	pool := ascii
	if len(pool) == 0 {
		pool = other
	}
	for try := 0; try < 16 && len(pool) > 0; try++ {
		total := 0
		for _, r := range pool {
			total += int(r[1]-r[0]) + 1
		}
		k := d.rng.IntN(total)
		for _, r := range pool {
			size := int(r[1]-r[0]) + 1
			if k < size {
				c := r[0] + rune(k)
				if c != '\n' && c != '\r' && c != 0x2028 && c != 0x2029 && utf8.ValidRune(c) && (c >= 0x20 || len(ascii) == 0) {
					return c, true
				}
				break
			}
			k -= size
		}
	}
	if len(pool) > 0 && utf8.ValidRune(pool[0][0]) {
		return pool[0][0], true
	}
	return 0, false
}
