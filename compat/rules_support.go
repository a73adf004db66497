package compat

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// This file holds what the rules of rules.go share: security requirement
// algebra, type sets, enums and numeric limits.

// openAccess reports whether a requirement lets a consumer in without
// credentials: none declared, an empty list, or an empty alternative ({}).
func openAccess(s *spec.Security) bool {
	if s == nil || len(s.Alternatives) == 0 {
		return true
	}
	for _, a := range s.Alternatives {
		if len(a.Schemes) == 0 {
			return true
		}
	}
	return false
}

// securitySource is where an effective requirement is written: the
// operation's own or the document's; the operation when there is none.
func securitySource(s *spec.Security, op spec.Path) spec.Path {
	if s != nil {
		return s.Source
	}
	return op
}

func securityAdded(c *Check, base, rev *spec.Security, src spec.Path) {
	if openAccess(base) && !openAccess(rev) {
		c.Revision(src, "authentication is now required: %s", describeSecurity(rev))
	}
}

// satisfies reports whether credentials for alternative have cover every
// scheme and scope that need asks for.
func satisfies(have, need spec.SecurityAlternative) bool {
	for _, n := range need.Schemes {
		found := false
		for _, h := range have.Schemes {
			if h.Name == n.Name && subset(n.Scopes, h.Scopes) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func subset(a, b []string) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// securityNarrowed reports each alternative of the base whose credentials
// satisfy no alternative of the revision.
func securityNarrowed(c *Check, base, rev *spec.Security, src spec.Path) {
	if openAccess(base) || openAccess(rev) {
		return
	}
	for _, a := range base.Alternatives {
		ok := false
		for _, r := range rev.Alternatives {
			if satisfies(a, r) {
				ok = true
				break
			}
		}
		if !ok {
			c.Revision(src, "authenticating with %s is no longer enough; the revision requires %s", describeAlternative(a), describeSecurity(rev))
		}
	}
}

// securityWidened reports the alternatives of the revision that are new
// ways to authenticate: their credentials meet no alternative of the base.
// An alternative that asks for more than a base one (a scope added) is a
// change of that one, which securityNarrowed reports.
func securityWidened(c *Check, base, rev *spec.Security, src spec.Path) {
	if openAccess(base) || openAccess(rev) {
		return
	}
	for _, r := range rev.Alternatives {
		known := false
		for _, a := range base.Alternatives {
			if satisfies(r, a) {
				known = true
				break
			}
		}
		if !known {
			c.Revision(src, "consumers may now also authenticate with %s", describeAlternative(r))
		}
	}
}

func describeAlternative(a spec.SecurityAlternative) string {
	parts := make([]string, len(a.Schemes))
	for i, s := range a.Schemes {
		parts[i] = s.Name
		if len(s.Scopes) > 0 {
			parts[i] += " [" + strings.Join(s.Scopes, ", ") + "]"
		}
	}
	if len(parts) == 0 {
		return "no credentials"
	}
	return strings.Join(parts, " + ")
}

func describeSecurity(s *spec.Security) string {
	if openAccess(s) {
		return "none"
	}
	parts := make([]string, len(s.Alternatives))
	for i, a := range s.Alternatives {
		parts[i] = describeAlternative(a)
	}
	return strings.Join(parts, " or ")
}

func schemeNames(s *spec.Security) map[string]bool {
	names := map[string]bool{}
	if s != nil {
		for _, a := range s.Alternatives {
			for _, sc := range a.Schemes {
				names[sc.Name] = true
			}
		}
	}
	return names
}

// schemeChanged compares the definitions of the schemes both requirements
// use.
func schemeChanged(c *Check, base, rev *spec.Security) {
	inBase := schemeNames(base)
	var names []string
	for n := range schemeNames(rev) {
		if inBase[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		b, r := c.d.baseSchemes[n], c.d.revSchemes[n]
		if b == nil || r == nil {
			continue
		}
		var diffs []string
		for _, f := range []struct{ what, b, r string }{
			{"type", b.Type, r.Type}, {"HTTP scheme", b.Scheme, r.Scheme}, {"location", b.In, r.In}, {"parameter name", b.ParamName, r.ParamName},
		} {
			if f.b != f.r {
				diffs = append(diffs, f.what+" "+strconv.Quote(f.b)+" → "+strconv.Quote(f.r))
			}
		}
		if len(diffs) > 0 {
			c.Revision(r.Source, "security scheme %q changed: %s", n, strings.Join(diffs, ", "))
		}
	}
}

// typesNotAccepted lists the types of from that by does not accept; no
// types means any type. A number accepts integers.
func typesNotAccepted(from, by []string) []string {
	if len(by) == 0 {
		return nil
	}
	if len(from) == 0 {
		return []string{"any"}
	}
	var out []string
	for _, t := range from {
		ok := false
		for _, b := range by {
			if t == b || (t == "integer" && b == "number") {
				ok = true
				break
			}
		}
		if !ok {
			out = append(out, t)
		}
	}
	return out
}

func describeTypes(ts []string) string {
	if len(ts) == 0 {
		return "any"
	}
	return strings.Join(ts, "|")
}

// enumOf returns the canonical values of enum (or const).
func enumOf(n *spec.Node) ([]string, bool) {
	if e := n.Get("enum"); e != nil && e.Kind == spec.Array {
		out := make([]string, len(e.Items))
		for i, it := range e.Items {
			out[i] = canonical(it)
		}
		return out, true
	}
	if c := n.Get("const"); c != nil {
		return []string{canonical(c)}, true
	}
	return nil, false
}

// missing lists the values of a that b lacks.
func missing(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, v := range b {
		in[v] = true
	}
	var out []string
	for _, v := range a {
		if !in[v] {
			out = append(out, v)
		}
	}
	return out
}

func listValues(vs []string) string {
	const shown = 5
	if len(vs) <= shown {
		return strings.Join(vs, ", ")
	}
	return strings.Join(vs[:shown], ", ") + " and " + strconv.Itoa(len(vs)-shown) + " more"
}

// limit is one end of a range: a minimum or maximum, maybe exclusive.
type limit struct {
	set  bool
	v    float64
	excl bool
	text string // as written
}

func numberAt(n *spec.Node, key string) (float64, string, bool) {
	v := n.Get(key)
	if v == nil || v.Kind != spec.Number {
		return 0, "", false
	}
	f, err := strconv.ParseFloat(v.Value, 64)
	return f, v.Value, err == nil
}

// bounds reads a schema's lower and upper limits for numbers: minimum and
// maximum with OpenAPI 3.0's boolean exclusive flags, or JSON Schema's
// numeric exclusiveMinimum and exclusiveMaximum.
func bounds(n *spec.Node) (lower, upper limit) {
	read := func(key, exclKey string, tighter func(a, b limit) bool) limit {
		var l limit
		if v, text, ok := numberAt(n, key); ok {
			l = limit{set: true, v: v, excl: n.Get(exclKey).IsTrue(), text: text}
		}
		if v, text, ok := numberAt(n, exclKey); ok {
			if e := (limit{set: true, v: v, excl: true, text: text}); tighter(l, e) {
				l = e
			}
		}
		return l
	}
	return read("minimum", "exclusiveMinimum", tighterMin), read("maximum", "exclusiveMaximum", tighterMax)
}

// tighterMin reports whether minimum b admits fewer values than a.
func tighterMin(a, b limit) bool {
	if !b.set {
		return false
	}
	return !a.set || b.v > a.v || (b.v == a.v && b.excl && !a.excl)
}

// tighterMax reports whether maximum b admits fewer values than a.
func tighterMax(a, b limit) bool {
	if !b.set {
		return false
	}
	return !a.set || b.v < a.v || (b.v == a.v && b.excl && !a.excl)
}

func (l limit) describe(op, strict string) string {
	if !l.set {
		return "none"
	}
	if l.excl {
		return strict + " " + l.text
	}
	return op + " " + l.text
}

// rangeChanges reports the numeric limits the revision tightened, or with
// widened, loosened.
func rangeChanges(s *SchemaCheck, widened bool) {
	bl, bu := bounds(s.Base.Node)
	rl, ru := bounds(s.Rev.Node)
	looseL, tightL, looseU, tightU := bl, rl, bu, ru
	if widened {
		looseL, tightL, looseU, tightU = rl, bl, ru, bu
	}
	if tighterMin(looseL, tightL) {
		s.InRevision(at(nil, s.Rev.Node, "exclusiveMinimum", "minimum"), "minimum is now %s (was %s)", rl.describe(">=", ">"), bl.describe(">=", ">"))
	}
	if tighterMax(looseU, tightU) {
		s.InRevision(at(nil, s.Rev.Node, "exclusiveMaximum", "maximum"), "maximum is now %s (was %s)", ru.describe("<=", "<"), bu.describe("<=", "<"))
	}
}

// lengthKeywords are the size limits of strings, arrays and objects.
var lengthKeywords = [][2]string{{"minLength", "maxLength"}, {"minItems", "maxItems"}, {"minProperties", "maxProperties"}}

// lengthChanges reports the size limits the revision tightened, or with
// widened, loosened. An absent minimum is 0, an absent maximum unbounded.
func lengthChanges(s *SchemaCheck, widened bool) {
	b, r := s.Base.Node, s.Rev.Node
	if widened {
		b, r = r, b
	}
	for _, kw := range lengthKeywords {
		bmin, _, _ := numberAt(b, kw[0])
		rmin, _, _ := numberAt(r, kw[0])
		if rmin > bmin {
			s.InRevision(at(nil, s.Rev.Node, kw[0]), "%s is now %s (was %s)", kw[0], sizeText(s.Rev.Node, kw[0]), sizeText(s.Base.Node, kw[0]))
		}
		bmax, _, bok := numberAt(b, kw[1])
		rmax, _, rok := numberAt(r, kw[1])
		if !bok {
			bmax = math.Inf(1)
		}
		if !rok {
			rmax = math.Inf(1)
		}
		if rmax < bmax {
			s.InRevision(at(nil, s.Rev.Node, kw[1]), "%s is now %s (was %s)", kw[1], sizeText(s.Rev.Node, kw[1]), sizeText(s.Base.Node, kw[1]))
		}
	}
}

func sizeText(n *spec.Node, key string) string {
	if _, text, ok := numberAt(n, key); ok {
		return text
	}
	return "none"
}

// widerFormat maps a format to the one that accepts all its values and
// more.
var widerFormat = map[string]string{"int32": "int64", "float": "double"}

func describeFormat(f string) string {
	if f == "" {
		return "none"
	}
	return strconv.Quote(f)
}

// asyncLabel names an AsyncAPI operation: "onSignup (receive user/signedup)".
func asyncLabel(op *spec.AsyncOperation) string {
	what := op.Action + " " + op.Channel
	if op.ID == "" {
		return what
	}
	return op.ID + " (" + what + ")"
}
