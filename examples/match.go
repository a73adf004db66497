package examples

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/specgate/specgate/contract"
)

// Mode is how Check compares a received value with an expected one.
type Mode uint8

const (
	// Assertions checks only what asserts: matchers, type placeholders and
	// captures. Literal values are not compared; this is how a contract test
	// reads an example's response (the specification has judged the shape).
	Assertions Mode = iota
	// Subset compares literals too, but the received objects may have keys
	// that the expectation does not write: a subset template.
	Subset
	// Equal compares everything: literals, the exact set of keys, array
	// lengths. This is how a mock matches an incoming request with an
	// example's request.
	Equal
)

// Problem is one way a received value fails an expectation: where in the
// received value (a JSON path such as $.items[2].id), what is wrong, and
// where the failing expectation is written.
type Problem struct {
	Path    string
	Message string
	At      Loc
}

func (p Problem) String() string {
	return p.At.String() + ": " + p.Path + ": " + p.Message
}

// Result is what Check finds: the problems (none when the value matches)
// and the values that (NAME:type) captures took, by name.
type Result struct {
	Problems []Problem
	Captured map[string]any
}

// OK reports whether the value matched.
func (r Result) OK() bool { return len(r.Problems) == 0 }

// Check compares actual with the expectation, at the root ("$"). Matchers
// are evaluated on values that have already passed their schema (the
// caller validates first).
func (c *Context) Check(expected Value, actual any, mode Mode) Result {
	return c.CheckAt(expected, actual, "$", mode)
}

// CheckAt is Check with actual located at path.
func (c *Context) CheckAt(expected Value, actual any, path string, mode Mode) Result {
	var r Result
	c.check(expected, actual, true, path, mode, &r, 0)
	return r
}

func (r *Result) add(path string, at Loc, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{Path: path, Message: fmt.Sprintf(format, args...), At: at})
}

// asserts reports whether comparing v in mode can find a problem.
func asserts(v Value, mode Mode) bool {
	if mode != Assertions {
		return true
	}
	switch v := v.(type) {
	case *Object:
		for _, f := range v.Fields {
			if asserts(f.Value, mode) {
				return true
			}
		}
	case *Array:
		for _, it := range v.Items {
			if asserts(it, mode) {
				return true
			}
		}
	case *Match, *TypeOf, *Capture:
		return true
	}
	return false
}

// check compares one value; present is false when the received value has
// no value at this place (a missing key).
func (c *Context) check(exp Value, act any, present bool, path string, mode Mode, r *Result, depth int) {
	if exp == nil || !asserts(exp, mode) {
		return
	}
	if !present {
		r.add(path, exp.Where(), "missing; expected %s", describe(exp))
		return
	}
	switch e := exp.(type) {
	case *Literal:
		if !equal(e.Value, act) {
			r.add(path, e.At, "expected %s, found %s", show(e.Value), show(act))
		}
	case *Template:
		want, err := c.template(e, path, lastField(path), depth)
		if err != nil {
			r.add(path, e.At, "%s", errText(err))
		} else if !equal(want, act) {
			r.add(path, e.At, "expected %s (%s), found %s", show(want), e.Raw, show(act))
		}
	case *TypeOf:
		if !e.Type.Check(act) {
			r.add(path, e.At, "expected %s, found %s", e.Raw, show(act))
		}
	case *Capture:
		if !e.Type.Check(act) {
			r.add(path, e.At, "%s expects %s, found %s", e.Raw, article(string(e.Type)), show(act))
			return
		}
		if r.Captured == nil {
			r.Captured = map[string]any{}
		}
		r.Captured[e.Name] = act
	case *Match:
		c.match(e, act, path, r, depth)
	case *Object:
		m, ok := act.(map[string]any)
		if !ok {
			r.add(path, e.At, "expected an object, found %s", show(act))
			return
		}
		for _, f := range e.Fields {
			v, has := m[f.Key]
			c.check(f.Value, v, has, childPath(path, f.Key), mode, r, depth)
		}
		if mode == Equal {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if e.Get(k) == nil {
					r.add(childPath(path, k), e.At, "unexpected key %q", k)
				}
			}
		}
	case *Array:
		a, ok := act.([]any)
		if !ok {
			r.add(path, e.At, "expected an array, found %s", show(act))
			return
		}
		if mode != Assertions && len(a) != len(e.Items) {
			r.add(path, e.At, "expected %d items, found %d", len(e.Items), len(a))
		}
		for i, it := range e.Items {
			var v any
			if i < len(a) {
				v = a[i]
			}
			c.check(it, v, i < len(a), indexPath(path, i), mode, r, depth)
		}
	}
}

func errText(err error) string {
	if e, ok := err.(*EvalError); ok {
		return e.Msg
	}
	return err.Error()
}

// describe names an expectation in a message.
func describe(v Value) string {
	switch v := v.(type) {
	case *Literal:
		return show(v.Value)
	case *Object:
		return "an object"
	case *Array:
		return "an array"
	case notation:
		return v.raw()
	}
	return "a value"
}

func article(t string) string {
	if strings.ContainsAny(t[:1], "aeiou") {
		return "an " + t
	}
	return "a " + t
}

// show writes a received value in a message, shortened when long.
func show(v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = strconv.Quote(v)
	default:
		s = contract.InlineText(v)
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// equal is deep equality of JSON values; numbers compare by value (1 and
// 1.0 are equal).
func equal(a, b any) bool {
	switch av := a.(type) {
	case nil:
		return b == nil
	case bool:
		bv, ok := b.(bool)
		return ok && av == bv
	case string:
		bv, ok := b.(string)
		return ok && av == bv
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, v := range av {
			w, ok := bv[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equal(av[i], bv[i]) {
				return false
			}
		}
		return true
	}
	x, ok1 := number(a)
	y, ok2 := number(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}

// match evaluates a matcher on a received value.
func (c *Context) match(m *Match, v any, path string, r *Result, depth int) {
	if m.Exact != nil {
		want, err := c.operandValue(m.Exact, path, lastField(path), depth)
		switch {
		case err != nil:
			r.add(path, m.At, "%s", errText(err))
		case !equal(want, v):
			r.add(path, m.At, "expected exactly %s, found %s", show(want), show(v))
		}
	}
	if m.Pattern != nil {
		switch v.(type) {
		case map[string]any, []any, nil:
			r.add(path, m.At, "pattern %s applies to a string, a number or a boolean, found %s", m.Pattern, show(v))
		default:
			if !m.Pattern.MatchString(contract.InlineText(v)) {
				r.add(path, m.At, "%s does not match the pattern %s", show(v), m.Pattern)
			}
		}
	}
	if m.DataType != "" && !m.DataType.Check(v) {
		r.add(path, m.At, "expected %s, found %s", article(string(m.DataType)), show(v))
	}
	if m.MinLength >= 0 || m.MaxLength >= 0 || m.Length >= 0 {
		a, ok := v.([]any)
		switch {
		case !ok:
			r.add(path, m.At, "a length applies to an array, found %s", show(v))
		case m.Length >= 0 && len(a) != m.Length:
			r.add(path, m.At, "expected %d items, found %d", m.Length, len(a))
		case m.MinLength >= 0 && len(a) < m.MinLength:
			r.add(path, m.At, "expected at least %d items, found %d", m.MinLength, len(a))
		case m.MaxLength >= 0 && len(a) > m.MaxLength:
			r.add(path, m.At, "expected at most %d items, found %d", m.MaxLength, len(a))
		}
	}
	if m.Contains != nil {
		c.contains(m, v, path, r, depth)
	}
}

// item is one resolved operand of contains: a value tree compared as a
// subset template, a type, or an array of matcher items.
type item struct {
	tpl   Value
	typ   DataType
	items []Value // an array-valued reference: each must match its own item
	raw   string
}

// resolveOperand resolves contains' operand into its alternatives (one
// unless a list is written).
func (c *Context) resolveOperand(op *Operand, depth int) ([]item, error) {
	switch op.Kind {
	case OperandAlternatives:
		var out []item
		for _, alt := range op.Alternatives {
			its, err := c.resolveOperand(alt, depth)
			if err != nil {
				return nil, err
			}
			out = append(out, its...)
		}
		return out, nil
	case OperandType:
		return []item{{typ: op.Type, raw: op.Raw}}, nil
	case OperandTemplate:
		return []item{{tpl: op.Template, raw: op.Raw}}, nil
	case OperandRef:
		v, ok, err := c.refValue(op.Ref, depth)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &EvalError{At: op.At, Msg: fmt.Sprintf("%s finds nothing to compare with", op.Raw)}
		}
		if a, isArray := v.(*Array); isArray {
			return []item{{items: a.Items, raw: op.Raw}}, nil
		}
		return []item{{tpl: v, raw: op.Raw}}, nil
	}
	return []item{{tpl: &Literal{Value: op.Literal, At: op.At}, raw: op.Raw}}, nil
}

// matches reports whether one received item satisfies one expectation.
func (c *Context) matches(exp Value, v any, path string, depth int) bool {
	var r Result
	c.check(exp, v, true, path, Subset, &r, depth+1)
	return len(r.Problems) == 0
}

func (c *Context) itemMatches(it item, v any, path string, depth int) bool {
	if it.tpl == nil {
		return it.typ.Check(v)
	}
	return c.matches(it.tpl, v, path, depth)
}

func (c *Context) contains(m *Match, v any, path string, r *Result, depth int) {
	alts, err := c.resolveOperand(m.Contains, depth)
	if err != nil {
		r.add(path, m.At, "%s", errText(err))
		return
	}
	switch actual := v.(type) {
	case map[string]any:
		if len(alts) != 1 || alts[0].tpl == nil {
			r.add(path, m.At, "contains on an object takes one object template, found %s", m.Contains.Raw)
			return
		}
		if _, isObject := alts[0].tpl.(*Object); !isObject {
			r.add(path, m.At, "contains on an object takes an object template; %s is not one", m.Contains.Raw)
			return
		}
		for _, k := range []string{"atLeast", "atMost", "count", "atIndex", "inFirst", "inLast", "contiguous", "order"} {
			if m.param(k) != nil {
				r.add(path, m.At, "%s applies to arrays, and the value is an object", k)
				return
			}
		}
		var sub Result
		c.check(alts[0].tpl, actual, true, path, Subset, &sub, depth+1)
		r.Problems = append(r.Problems, sub.Problems...)
	case []any:
		c.containsItems(m, alts, actual, path, r, depth)
	default:
		r.add(path, m.At, "contains applies to an array or an object, found %s", show(v))
	}
}

func (c *Context) containsItems(m *Match, alts []item, a []any, path string, r *Result, depth int) {
	lo, hi := 0, len(a)
	if m.InFirst >= 0 {
		hi = min(m.InFirst, len(a))
	}
	if m.InLast >= 0 {
		lo = max(len(a)-m.InLast, 0)
	}
	for _, alt := range alts {
		if alt.items != nil {
			if m.AtLeast >= 0 || m.AtMost >= 0 || m.Count >= 0 || m.AtIndex >= 0 {
				r.add(path, m.At, "atLeast, atMost, count and atIndex do not apply to %s, an array of matcher items", alt.raw)
				return
			}
			if len(alt.items) == 0 {
				r.add(path, m.At, "%s is an empty array of matcher items, which matches nothing; write $match(length: 0) for an empty array", alt.raw)
				return
			}
		}
	}
	one := func(i int) bool { // item i matches one of the non-array alternatives
		for _, alt := range alts {
			if alt.items == nil && c.itemMatches(alt, a[i], indexPath(path, i), depth) {
				return true
			}
		}
		return false
	}
	// An array-valued alternative holds on its own; the others by the
	// count of matching items.
	for _, alt := range alts {
		if alt.items != nil && c.itemsMatch(m, alt.items, a[lo:hi], indexPath(path, lo), depth) {
			return
		}
	}
	hasSingle := false
	for _, alt := range alts {
		hasSingle = hasSingle || alt.items == nil
	}
	what := m.Contains.Raw
	if !hasSingle {
		order := "in any order"
		if m.Order == OrderExact {
			order = "in order"
		}
		if m.Contiguous {
			order += ", next to each other"
		}
		r.add(path, m.At, "the items of %s do not each match a different item (%s) among %s", what, order, searched(m, lo, hi, len(a)))
		return
	}
	if m.AtIndex >= 0 {
		i := lo + m.AtIndex
		if i >= hi {
			r.add(path, m.At, "no item at index %d of %s", m.AtIndex, searched(m, lo, hi, len(a)))
		} else if !one(i) {
			r.add(indexPath(path, i), m.At, "%s does not match %s", show(a[i]), what)
		}
		return
	}
	n := 0
	for i := lo; i < hi; i++ {
		if one(i) {
			n++
		}
	}
	least := m.AtLeast
	if m.AtLeast < 0 && m.AtMost < 0 && m.Count < 0 {
		least = 1
	}
	switch {
	case m.Count >= 0 && n != m.Count:
		r.add(path, m.At, "%s %s among %s, expected %d", matching(n), what, searched(m, lo, hi, len(a)), m.Count)
	case least >= 0 && n < least:
		r.add(path, m.At, "%s %s among %s, expected at least %d", matching(n), what, searched(m, lo, hi, len(a)), least)
	case m.AtMost >= 0 && n > m.AtMost:
		r.add(path, m.At, "%s %s among %s, expected at most %d", matching(n), what, searched(m, lo, hi, len(a)), m.AtMost)
	}
}

// matching says how many items match: "no item matches", "1 item
// matches", "3 items match".
func matching(n int) string {
	switch n {
	case 0:
		return "no item matches"
	case 1:
		return "1 item matches"
	}
	return strconv.Itoa(n) + " items match"
}

// searched names the items a contains searched.
func searched(m *Match, lo, hi, n int) string {
	switch {
	case m.InFirst >= 0:
		return fmt.Sprintf("the first %d of %d items", hi-lo, n)
	case m.InLast >= 0:
		return fmt.Sprintf("the last %d of %d items", hi-lo, n)
	}
	return fmt.Sprintf("%d items", n)
}

// itemsMatch reports whether each matcher item matches a different
// received item, with the matcher's contiguous and order rules.
func (c *Context) itemsMatch(m *Match, want []Value, got []any, base string, depth int) bool {
	k := len(want)
	if k > len(got) {
		return false
	}
	// ok[i][j]: matcher item i matches received item j.
	ok := make([][]bool, k)
	for i, w := range want {
		ok[i] = make([]bool, len(got))
		for j, g := range got {
			ok[i][j] = c.matches(w, g, base, depth)
		}
	}
	switch {
	case m.Order == OrderExact && m.Contiguous:
		for s := 0; s+k <= len(got); s++ {
			all := true
			for i := 0; i < k && all; i++ {
				all = ok[i][s+i]
			}
			if all {
				return true
			}
		}
		return false
	case m.Order == OrderExact:
		i := 0
		for j := 0; j < len(got) && i < k; j++ {
			if ok[i][j] {
				i++
			}
		}
		return i == k
	case m.Contiguous:
		for s := 0; s+k <= len(got); s++ {
			if perfectMatching(ok, s, s+k) {
				return true
			}
		}
		return false
	}
	return perfectMatching(ok, 0, len(got))
}

// perfectMatching reports whether every row of ok can be assigned a
// different column in [lo, hi) where it is true (Kuhn's augmenting paths).
func perfectMatching(ok [][]bool, lo, hi int) bool {
	owner := make([]int, hi-lo)
	for j := range owner {
		owner[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j := lo; j < hi; j++ {
			if ok[i][j] && !seen[j-lo] {
				seen[j-lo] = true
				if owner[j-lo] < 0 || try(owner[j-lo], seen) {
					owner[j-lo] = i
					return true
				}
			}
		}
		return false
	}
	for i := range ok {
		if !try(i, make([]bool, hi-lo)) {
			return false
		}
	}
	return true
}

// Uses counts how often the matchers of transient examples have matched,
// for times and value: each / any. It is safe for concurrent use.
type Uses struct {
	mu     sync.Mutex
	counts map[*Match]map[string]int
}

// Available reports whether m may match v once more.
func (u *Uses) Available(m *Match, v any) bool {
	if m.Times == 0 {
		return true
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.counts[m][useKey(m, v)] < m.Times
}

// Record counts one successful match of m on v.
func (u *Uses) Record(m *Match, v any) {
	if m.Times == 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.counts == nil {
		u.counts = map[*Match]map[string]int{}
	}
	if u.counts[m] == nil {
		u.counts[m] = map[string]int{}
	}
	u.counts[m][useKey(m, v)]++
}

func useKey(m *Match, v any) string {
	if m.PerValue {
		return contract.InlineText(v)
	}
	return ""
}
