package examples

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Match is a $match(param: operand, ...) matcher: an expectation that
// accepts more than one value. Every parameter written must hold.
//
// Integer parameters hold -1 when they are not written.
type Match struct {
	Exact    *Operand       // the value must equal the operand (deep equality)
	Pattern  *regexp.Regexp // a scalar's text must contain a match (search semantics)
	DataType DataType       // the value must be of the type ("" when not written)
	Contains *Operand       // an object: the operand is a subset template; an array: items must match

	AtLeast, AtMost, Count int // how many items of the searched range must match
	AtIndex                int // the item at this index of the searched range must match
	InFirst, InLast        int // search the first or last N items only
	MinLength, MaxLength   int // the array's total length
	Length                 int

	Contiguous bool  // array-valued operands: matching items are adjacent
	Order      Order // array-valued operands: matching items keep the operand's order

	Times    int  // transient examples: successful matches before the matcher is used up (0: no limit)
	PerValue bool // transient examples: value: each counts each distinct value apart; value: any shares one count

	Params []MatchParam // as written, in order
	Raw    string
	At     Loc
}

// Order is how the items of an array-valued contains operand must be
// ordered among the matching items.
type Order uint8

const (
	OrderAny   Order = iota // in any order
	OrderExact              // in the operand's order
)

// MatchParam is one parameter of a matcher as written.
type MatchParam struct {
	Key  string
	Text string // the operand's text
	At   Loc
	off  int // of the key in the matcher's string
}

// OperandKind tells what a matcher operand is.
type OperandKind uint8

const (
	OperandLiteral      OperandKind = iota // a JSON value written inline: Literal
	OperandRef                             // $(data.name) or another lookup: Ref
	OperandType                            // a type pattern such as (integer): Type
	OperandTemplate                        // an inline object of contains, with matchers inside: Template
	OperandAlternatives                    // [a, b, c] of contains: any one matches
)

// Operand is the value of exact or contains.
type Operand struct {
	Kind         OperandKind
	Literal      any
	Ref          *Lookup
	Type         DataType
	Template     Value
	Alternatives []*Operand
	Raw          string
	At           Loc
}

var matchKeys = []string{
	"exact", "pattern", "dataType", "contains", "atLeast", "atMost", "count", "atIndex",
	"inFirst", "inLast", "minLength", "maxLength", "length", "contiguous", "order", "times", "value",
}

func isMatchKey(k string) bool {
	for _, m := range matchKeys {
		if k == m {
			return true
		}
	}
	return false
}

// parseMatch parses a whole-string $match(...).
func parseMatch(s string, c strAt) (*Match, *spec.Error) {
	m := &Match{Raw: s, At: c.whole(), AtLeast: -1, AtMost: -1, Count: -1, AtIndex: -1,
		InFirst: -1, InLast: -1, MinLength: -1, MaxLength: -1, Length: -1}
	inner := s[len(matchPrefix) : len(s)-1]
	base := len(matchPrefix)
	seen := map[string]int{}
	for i := 0; ; {
		for i < len(inner) && isSpace(inner[i]) {
			i++
		}
		if i >= len(inner) {
			if len(m.Params) == 0 {
				return nil, c.errorf(0, "%s has no parameter: write $match(exact: value), $match(pattern: regex), $match(dataType: type) or $match(contains: ...)", s)
			}
			return nil, c.errorf(base+i, "a parameter is missing after the last \",\" of %s", s)
		}
		keyStart := i
		for i < len(inner) && isNameByte(inner[i], i == keyStart) {
			i++
		}
		key := inner[keyStart:i]
		for i < len(inner) && isSpace(inner[i]) {
			i++
		}
		if key == "" || i >= len(inner) || inner[i] != ':' {
			return nil, c.errorf(base+keyStart, "expected \"key: value\" in %s", s)
		}
		if !isMatchKey(key) {
			return nil, c.errorf(base+keyStart, "unknown matcher parameter %q%s", key, suggest.Hint(key, matchKeys))
		}
		if _, dup := seen[key]; dup {
			return nil, c.errorf(base+keyStart, "%s is written twice in %s", key, s)
		}
		i++
		for i < len(inner) && isSpace(inner[i]) {
			i++
		}
		end := operandEnd(inner, i, key == "pattern")
		text := strings.TrimRight(inner[i:end], " \t")
		if text == "" {
			return nil, c.errorf(base+i, "%s has no value in %s", key, s)
		}
		seen[key] = len(m.Params)
		p := MatchParam{Key: key, Text: text, At: c.loc(base+keyStart, base+i+len(text)), off: base + keyStart}
		m.Params = append(m.Params, p)
		if err := m.set(p, text, base+i, c); err != nil {
			return nil, err
		}
		if end >= len(inner) {
			break
		}
		i = end + 1 // past the comma
	}
	if err := m.checkParams(c); err != nil {
		return nil, err
	}
	return m, nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// operandEnd returns where the operand starting at i ends: at the next
// comma outside brackets and quotes that is followed by a parameter name
// and a colon, or at the end. A pattern's text is taken as it is (brackets
// and quotes of a regular expression need not balance), unless it is quoted.
func operandEnd(s string, i int, raw bool) int {
	depth, start := 0, i
	if raw && i < len(s) && s[i] == '"' { // a quoted pattern holds anything
		if end := closingQuote(s, i); end > 0 {
			start = end + 1
		}
	}
	for j := start; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\' && !raw:
			j++
		case c == '"' && !raw:
			if end := closingQuote(s, j); end > 0 {
				j = end
			}
		case (c == '[' || c == '{' || c == '(') && !raw:
			depth++
		case (c == ']' || c == '}' || c == ')') && !raw:
			depth--
		case c == ',' && depth <= 0 && startsParam(s[j+1:], raw):
			return j
		}
	}
	return len(s)
}

// startsParam reports whether s starts with "name:", after spaces: the
// next parameter (a misspelt one too, to be reported). After a pattern only
// a parameter's own name counts, as a regular expression may hold ",x:".
func startsParam(s string, known bool) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	i := 0
	for i < len(s) && isNameByte(s[i], i == 0) {
		i++
	}
	if i == 0 || known && !isMatchKey(s[:i]) {
		return false
	}
	rest := strings.TrimLeft(s[i:], " \t")
	return strings.HasPrefix(rest, ":")
}

// set reads one parameter's operand; off is the operand's offset in the
// string, for positions.
func (m *Match) set(p MatchParam, text string, off int, c strAt) *spec.Error {
	switch p.Key {
	case "exact":
		op, err := parseOperand(text, off, c, false)
		if err != nil {
			return err
		}
		if op.Kind == OperandType {
			return c.errorf(off, "exact compares with a value; to accept any value of a type write dataType: %s", op.Type)
		}
		m.Exact = op
	case "contains":
		op, err := parseOperand(text, off, c, true)
		if err != nil {
			return err
		}
		m.Contains = op
	case "pattern":
		expr := text
		if len(expr) >= 2 && expr[0] == '"' && expr[len(expr)-1] == '"' {
			var s string
			if json.Unmarshal([]byte(expr), &s) == nil {
				expr = s
			}
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return c.errorf(off, "invalid pattern %q: %s", expr, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
		m.Pattern = re
	case "dataType":
		t, ok := ParseDataType(text)
		if !ok {
			return c.errorf(off, "unknown dataType %q (types: %s)%s", text, strings.Join(dataTypes, ", "), suggest.Hint(text, dataTypes))
		}
		m.DataType = t
	case "contiguous":
		switch text {
		case "true":
			m.Contiguous = true
		case "false":
		default:
			return c.errorf(off, "contiguous is true or false, found %q", text)
		}
	case "order":
		switch text {
		case "exact":
			m.Order = OrderExact
		case "any":
		default:
			return c.errorf(off, "order is exact or any, found %q%s", text, suggest.Hint(text, []string{"exact", "any"}))
		}
	case "value":
		switch text {
		case "each":
			m.PerValue = true
		case "any":
		default:
			return c.errorf(off, "value is each or any, found %q%s", text, suggest.Hint(text, []string{"each", "any"}))
		}
	default:
		n, err := strconv.Atoi(text)
		if err != nil || n < 0 {
			return c.errorf(off, "%s is a nonnegative integer, found %q", p.Key, text)
		}
		switch p.Key {
		case "atLeast":
			m.AtLeast = n
		case "atMost":
			m.AtMost = n
		case "count":
			m.Count = n
		case "atIndex":
			m.AtIndex = n
		case "inFirst":
			m.InFirst = n
		case "inLast":
			m.InLast = n
		case "minLength":
			m.MinLength = n
		case "maxLength":
			m.MaxLength = n
		case "length":
			m.Length = n
		case "times":
			if n == 0 {
				return c.errorf(off, "times is at least 1, found 0")
			}
			m.Times = n
		}
	}
	return nil
}

// param returns the parameter written under key, or nil.
func (m *Match) param(key string) *MatchParam {
	for i := range m.Params {
		if m.Params[i].Key == key {
			return &m.Params[i]
		}
	}
	return nil
}

// checkParams rejects combinations that cannot hold or mean nothing.
func (m *Match) checkParams(c strAt) *spec.Error {
	at := func(key string) int {
		if p := m.param(key); p != nil {
			return p.off
		}
		return 0
	}
	both := func(a, b string) bool { return m.param(a) != nil && m.param(b) != nil }
	switch {
	case both("count", "atLeast"), both("count", "atMost"):
		other := "atLeast"
		if m.param("atMost") != nil {
			other = "atMost"
		}
		return c.errorf(at("count"), "count cannot be combined with %s", other)
	case m.AtLeast >= 0 && m.AtMost >= 0 && m.AtLeast > m.AtMost:
		return c.errorf(at("atLeast"), "atLeast (%d) exceeds atMost (%d)", m.AtLeast, m.AtMost)
	case both("inFirst", "inLast"):
		return c.errorf(at("inLast"), "inFirst and inLast cannot be combined")
	case both("length", "minLength"), both("length", "maxLength"):
		return c.errorf(at("length"), "length cannot be combined with minLength or maxLength")
	case m.MinLength >= 0 && m.MaxLength >= 0 && m.MinLength > m.MaxLength:
		return c.errorf(at("minLength"), "minLength (%d) exceeds maxLength (%d)", m.MinLength, m.MaxLength)
	case m.param("value") != nil && m.param("times") == nil:
		return c.errorf(at("value"), "value counts the uses of a matcher and goes with times")
	}
	if m.Contains == nil {
		for _, k := range []string{"atLeast", "atMost", "count", "atIndex", "inFirst", "inLast", "contiguous", "order"} {
			if m.param(k) != nil {
				return c.errorf(at(k), "%s applies to contains, which is missing", k)
			}
		}
	} else if !m.Contains.mayBeArray() {
		for _, k := range []string{"contiguous", "order"} {
			if m.param(k) != nil {
				return c.errorf(at(k), "%s applies to a contains operand that is an array of matcher items, given as $(data.name)", k)
			}
		}
	}
	if m.Times > 0 && m.param("value") == nil {
		m.PerValue = true
	}
	if m.Exact == nil && m.Pattern == nil && m.DataType == "" && m.Contains == nil &&
		m.MinLength < 0 && m.MaxLength < 0 && m.Length < 0 {
		return c.errorf(0, "%s checks nothing: write exact, pattern, dataType, contains or a length", m.Raw)
	}
	return nil
}

// mayBeArray reports whether the operand may resolve to an array: only a
// reference can.
func (o *Operand) mayBeArray() bool {
	switch o.Kind {
	case OperandRef:
		return true
	case OperandAlternatives:
		for _, a := range o.Alternatives {
			if a.Kind == OperandRef {
				return true
			}
		}
	}
	return false
}

// parseOperand reads an operand: $(lookup), (type), a JSON value, a list of
// alternatives (contains only) or bare text, which is a string.
func parseOperand(text string, off int, c strAt, contains bool) (*Operand, *spec.Error) {
	op := &Operand{Raw: text, At: c.loc(off, off+len(text))}
	switch {
	case strings.HasPrefix(text, "$(") && closingParen(text, 1) == len(text)-1:
		l, err := parseLookup(text[2:len(text)-1], off+2, c)
		if err != nil {
			return nil, err
		}
		l.Raw, l.At = text, op.At
		op.Kind, op.Ref = OperandRef, l
	case typeOnlyRE().MatchString(text):
		name := text[1 : len(text)-1]
		t, ok := ParseDataType(name)
		if !ok {
			return nil, c.errorf(off+1, "unknown type %q in %s (types: %s)%s", name, text, strings.Join(dataTypes, ", "), suggest.Hint(name, dataTypes))
		}
		op.Kind, op.Type = OperandType, t
	case contains && text[0] == '[':
		if closingBracket(text, 0) != len(text)-1 {
			return nil, c.errorf(off, "unclosed [ in the alternatives %s", text)
		}
		inner := text[1 : len(text)-1]
		op.Kind = OperandAlternatives
		for start := 0; start <= len(inner); {
			end := listItemEnd(inner, start)
			item := strings.TrimSpace(inner[start:end])
			itemOff := off + 1 + start + strings.Index(inner[start:end], item)
			if item == "" {
				return nil, c.errorf(itemOff, "empty alternative in %s", text)
			}
			if item[0] == '[' {
				return nil, c.errorf(itemOff, "an alternative cannot be a literal array: put the array under data and write $(data.name)")
			}
			alt, err := parseOperand(item, itemOff, c, false)
			if err != nil {
				return nil, err
			}
			if obj, ok := alt.Literal.(map[string]any); ok && alt.Kind == OperandLiteral {
				tpl, err := templateOf(obj, alt.At)
				if err != nil {
					return nil, err
				}
				alt.Kind, alt.Template = OperandTemplate, tpl
			}
			op.Alternatives = append(op.Alternatives, alt)
			start = end + 1
		}
	default:
		v, isJSON, err := jsonOperand(text)
		if err != nil {
			return nil, c.errorf(off, "invalid JSON %s: %s", text, err)
		}
		if !isJSON {
			v = text
		}
		op.Kind, op.Literal = OperandLiteral, v
		if obj, ok := v.(map[string]any); ok && contains {
			tpl, err := templateOf(obj, op.At)
			if err != nil {
				return nil, err
			}
			op.Kind, op.Template = OperandTemplate, tpl
		}
		if _, ok := v.([]any); ok && contains {
			return nil, c.errorf(off, "contains takes one operand or a list of alternatives; to require several items, put them under data and write $(data.name)")
		}
	}
	return op, nil
}

// listItemEnd returns the end of the list item starting at i: the next
// comma outside brackets and quotes, or the end.
func listItemEnd(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '"', '\'':
			if end := closingQuote(s, j); end > 0 {
				j = end
			}
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return len(s)
}

// jsonOperand reads text as a JSON value when it looks like one: a quoted
// string, an object, an array, a number, true, false or null. Bare text is
// not JSON (and is a string operand).
func jsonOperand(text string) (any, bool, error) {
	c := text[0]
	looksJSON := c == '"' || c == '{' || c == '[' || c == '-' || c >= '0' && c <= '9' ||
		text == "true" || text == "false" || text == "null"
	if !looksJSON {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if c == '"' || c == '{' || c == '[' {
			return nil, false, err
		}
		return nil, false, nil // 12ab, -x: bare text
	}
	if dec.More() {
		if c == '"' || c == '{' || c == '[' {
			return nil, false, errTrailing
		}
		return nil, false, nil
	}
	return v, true, nil
}

type trailingError struct{}

func (trailingError) Error() string { return "text follows the value" }

var errTrailing = trailingError{}

// templateOf converts an inline JSON object of a contains operand into a
// template in which strings may be notations; all of them are located at
// the matcher.
func templateOf(v any, at Loc) (Value, *spec.Error) {
	c := strAt{file: at.File, start: at.Range.Start, end: at.Range.End}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := &Object{At: at}
		for _, k := range keys {
			fv, err := templateOf(v[k], at)
			if err != nil {
				return nil, err
			}
			o.Fields = append(o.Fields, Field{Key: k, KeyAt: at, Value: fv})
		}
		return o, nil
	case []any:
		a := &Array{At: at}
		for _, it := range v {
			iv, err := templateOf(it, at)
			if err != nil {
				return nil, err
			}
			a.Items = append(a.Items, iv)
		}
		return a, nil
	case string:
		return parseString(v, c)
	}
	return &Literal{Value: v, At: at}, nil
}
