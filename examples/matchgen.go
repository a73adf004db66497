package examples

import (
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/specgate/specgate/contract"
)

// matchValue is the value a matcher without exact stands for when a value
// must be made of it (a mock's response, a request): one that satisfies
// every parameter written, or an error when none is found. A contains matcher gives an object holding the
// template, or an array with as many matching items as the counts ask, at
// the indices and in the range they ask, padded to the lengths; a pattern
// gives the shortest text the expression matches; a dataType alone is left
// to the dictionary and the generator, as a placeholder is. The value is
// checked against the matcher before it is returned: a matcher no value
// satisfies (inFirst: 1 with atLeast: 2) is an error at its position.
func (c *Context) matchValue(m *Match, path, field string, depth int) (any, error) {
	u := Unresolved{Notation: m.Raw, Type: m.DataType, Path: path, Field: field, At: m.At}
	if c.Dictionary != nil {
		if v, ok := c.Dictionary.Lookup(path, field); ok && c.satisfies(m, v, path, depth) {
			return v, nil
		}
	}
	var v any
	var err error
	switch {
	case m.Contains != nil:
		v, err = c.containsValue(m, path, field, depth)
	case m.MinLength >= 0 || m.MaxLength >= 0 || m.Length >= 0:
		v, err = c.arrayOf(m, nil, path, field, depth)
	case m.Pattern != nil:
		v, err = c.patternValue(m, u)
	default:
		return c.fill(u, false)
	}
	if err != nil {
		return nil, err
	}
	var r Result
	c.match(m, v, path, &r, depth)
	if len(r.Problems) > 0 {
		return nil, &EvalError{At: m.At, Msg: fmt.Sprintf("cannot make a value that satisfies %s: the value tried, %s, fails: %s", m.Raw, show(v), r.Problems[0].Message)}
	}
	return v, nil
}

// satisfies reports whether v meets every parameter of m.
func (c *Context) satisfies(m *Match, v any, path string, depth int) bool {
	var r Result
	c.match(m, v, path, &r, depth)
	return len(r.Problems) == 0
}

// patternValue is the shortest text the pattern matches, as the type asks
// (a number for dataType: integer); a type with a format (date, email)
// keeps a generated value of its own when the pattern accepts it.
func (c *Context) patternValue(m *Match, u Unresolved) (any, error) {
	if m.DataType != "" {
		if typ, format := m.DataType.JSONType(); format != "" || typ == "" {
			if v, err := c.fill(u, false); err == nil && m.Pattern.MatchString(contract.InlineText(v)) {
				return v, nil
			}
		}
	}
	s, ok := shortestMatch(m.Pattern)
	if !ok {
		return nil, &EvalError{At: m.At, Msg: fmt.Sprintf("no text matches the pattern %s of %s", m.Pattern, m.Raw)}
	}
	switch typ, _ := m.DataType.JSONType(); typ {
	case "integer", "number", "boolean":
		return typedText(s), nil
	}
	return s, nil
}

// containsValue makes the value of a contains matcher: an object holding
// its template when the matcher reads as one about an object, else an
// array.
func (c *Context) containsValue(m *Match, path, field string, depth int) (any, error) {
	alts, err := c.resolveOperand(m.Contains, depth)
	if err != nil {
		return nil, err
	}
	if len(alts) == 1 && alts[0].tpl != nil && !arrayOnly(m) {
		if _, isObject := alts[0].tpl.(*Object); isObject {
			return c.eval(alts[0].tpl, path, field, depth+1)
		}
	}
	return c.arrayOf(m, alts, path, field, depth)
}

// arrayOnly reports whether a matcher writes a parameter that applies to
// arrays alone.
func arrayOnly(m *Match) bool {
	if m.DataType == TypeArray {
		return true
	}
	for _, k := range []string{"atLeast", "atMost", "count", "atIndex", "inFirst", "inLast", "minLength", "maxLength", "length", "contiguous", "order"} {
		if m.param(k) != nil {
			return true
		}
	}
	return false
}

// arrayOf makes an array for a matcher: an array-valued alternative's
// items each once (each must match an item of its own); else as many
// copies of the first alternative's value as the counts ask, at the start
// of the array (the end for inLast), other items being values that match
// no alternative when a count bounds the matches; lengths pad it.
func (c *Context) arrayOf(m *Match, alts []item, path, field string, depth int) (any, error) {
	out := []any{}
	for _, alt := range alts {
		if alt.items == nil {
			continue
		}
		for i, it := range alt.items {
			v, err := c.eval(it, indexPath(path, i), field, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return pad(m, out, out[0], nil), nil
	}
	if len(alts) == 0 {
		for i := range lengthOf(m) {
			v, err := c.fill(Unresolved{Notation: m.Raw, Path: indexPath(path, i), Field: field, At: m.At}, false)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	v, err := c.itemValue(alts[0], indexPath(path, 0), field, depth)
	if err != nil {
		return nil, err
	}
	match, want := v, 1
	switch {
	case m.Count >= 0:
		want = m.Count
	case m.AtLeast >= 0:
		want = m.AtLeast
	case m.AtMost >= 0:
		want = min(1, m.AtMost)
	}
	if m.AtIndex >= 0 {
		want = max(want, m.AtIndex+1)
	}
	for range want {
		out = append(out, match)
	}
	var other any
	if m.Count >= 0 || m.AtMost >= 0 {
		other = c.nonMatching(alts, path, depth)
	}
	return pad(m, out, match, other), nil
}

// lengthOf is the length a matcher asks of an array without contains.
func lengthOf(m *Match) int {
	switch {
	case m.Length >= 0:
		return m.Length
	case m.MinLength >= 0:
		return m.MinLength
	}
	return 0
}

// pad lengthens items to the length the matcher asks for: with copies of
// fill, or with other when the matching items are counted (other is nil
// then only if nothing fails every alternative, and the check reports it).
// With inLast the padding goes first, so that the matching items stay at
// the end.
func pad(m *Match, items []any, fill, other any) []any {
	n := len(items)
	switch {
	case m.Length >= 0:
		n = m.Length
	case m.MinLength > n:
		n = m.MinLength
	}
	if n <= len(items) {
		return items[:max(n, 0)]
	}
	filler := fill
	if m.Count >= 0 || m.AtMost >= 0 {
		filler = other
	}
	extra := make([]any, n-len(items))
	for i := range extra {
		extra[i] = filler
	}
	if m.InLast >= 0 {
		return append(extra, items...)
	}
	return append(items, extra...)
}

// itemValue is the value of one alternative of contains: its template
// evaluated, or a generated value of its type.
func (c *Context) itemValue(it item, path, field string, depth int) (any, error) {
	if it.tpl != nil {
		return c.eval(it.tpl, path, field, depth+1)
	}
	return c.fill(Unresolved{Notation: it.raw, Type: it.typ, Path: path, Field: field}, false)
}

// nonMatching is a value that matches none of the alternatives, from a
// few of every kind; nil when each of them matches one.
func (c *Context) nonMatching(alts []item, path string, depth int) any {
	for _, cand := range []any{nil, false, json.Number("0"), "", map[string]any{}, []any{}} {
		ok := true
		for _, alt := range alts {
			if alt.items == nil && c.itemMatches(alt, cand, path, depth) {
				ok = false
				break
			}
		}
		if ok {
			return cand
		}
	}
	return nil
}

// shortestMatch returns the shortest text that re matches, preferring
// letters and digits where a class allows several characters; ok is false
// when the expression matches nothing. Anchors and word boundaries add no
// text: the result is checked with re.
func shortestMatch(re *regexp.Regexp) (string, bool) {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !writeShortest(&b, parsed.Simplify()) {
		return "", false
	}
	s := b.String()
	return s, re.MatchString(s)
}

func writeShortest(b *strings.Builder, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		r, ok := pickRune(re.Rune)
		if !ok {
			return false
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture, syntax.OpPlus:
		return writeShortest(b, re.Sub[0])
	case syntax.OpRepeat:
		for range re.Min {
			if !writeShortest(b, re.Sub[0]) {
				return false
			}
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !writeShortest(b, sub) {
				return false
			}
		}
	case syntax.OpAlternate:
		best, found := "", false
		for _, sub := range re.Sub {
			var alt strings.Builder
			if writeShortest(&alt, sub) && (!found || alt.Len() < len(best)) {
				best, found = alt.String(), true
			}
		}
		if !found {
			return false
		}
		b.WriteString(best)
	}
	// Empty matches, stars, quests, anchors and boundaries write nothing.
	return true
}

// pickRune picks a character of a class given as ranges (lo, hi pairs):
// a lower-case letter, an upper-case one or a digit when the class has
// one, else its first printable character, else its first.
func pickRune(ranges []rune) (rune, bool) {
	if len(ranges) < 2 {
		return 0, false
	}
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= r && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	for _, r := range "aA0" {
		if in(r) {
			return r, true
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := max(ranges[i], '!'); r <= ranges[i+1] && r < ranges[i]+256; r++ {
			if unicode.IsPrint(r) {
				return r, true
			}
		}
	}
	return ranges[0], true
}
