package compat

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// This file holds what the rules of rules.go share: the algebra of
// security requirements. What the schema rules share is in
// schema_support.go.

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

// securityRule gives r both operation hooks, each calling judge with the
// security of an operation the base and the revision share, HTTP or
// AsyncAPI, and where the revision's requirement is written.
func securityRule(r *Rule, judge func(c *Check, base, rev *spec.Security, src spec.Path)) *Rule {
	r.Operation = func(c *Check, base, rev *spec.Operation) {
		if base != nil && rev != nil {
			judge(c, base.Security, rev.Security, securitySource(rev.Security, rev.Source))
		}
	}
	r.AsyncOperation = func(c *Check, base, rev *spec.AsyncOperation) {
		if base != nil && rev != nil {
			judge(c, base.Security, rev.Security, securitySource(rev.Security, rev.Source))
		}
	}
	return r
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
		if !slices.Contains(b, x) {
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
	for _, a := range unmet(base.Alternatives, rev.Alternatives) {
		c.Revision(src, "authenticating with %s is no longer enough; the revision requires %s", describeAlternative(a), describeSecurity(rev))
	}
}

// unmet returns the alternatives of have whose credentials satisfy none of
// need, in order.
func unmet(have, need []spec.SecurityAlternative) []spec.SecurityAlternative {
	var out []spec.SecurityAlternative
	for _, h := range have {
		if !slices.ContainsFunc(need, func(n spec.SecurityAlternative) bool { return satisfies(h, n) }) {
			out = append(out, h)
		}
	}
	return out
}

// securityWidened reports the alternatives of the revision that are new
// ways to authenticate: their credentials meet no alternative of the base.
// An alternative that asks for more than a base one (a scope added) is a
// change of that one, which securityNarrowed reports.
func securityWidened(c *Check, base, rev *spec.Security, src spec.Path) {
	if openAccess(base) || openAccess(rev) {
		return
	}
	for _, r := range unmet(rev.Alternatives, base.Alternatives) {
		c.Revision(src, "consumers may now also authenticate with %s", describeAlternative(r))
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
func schemeChanged(c *Check, base, rev *spec.Security, _ spec.Path) {
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

// asyncLabel names an AsyncAPI operation: "onSignup (receive user/signedup)".
func asyncLabel(op *spec.AsyncOperation) string {
	what := op.Action + " " + op.Channel
	if op.ID == "" {
		return what
	}
	return op.ID + " (" + what + ")"
}
