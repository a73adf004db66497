package compat

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/spec"
)

// This file holds the conservative judgements of not, if/then/else and
// dependencies that the schema rules (rules_schema.go) share.

// finding is one judgement of a not, if/then/else or dependency change:
// where it is (relative to the revision's schema), what it is, and
// whether it breaks consumers in the pair's direction.
type finding struct {
	path   spec.Path
	msg    string
	breaks bool
}

// findings computes (once per pair and kind) the judgements one of the
// functions below makes: the breaking rule reports those that break, and
// schema-condition-changed the others.
func (s *SchemaCheck) findings(kind string, judge func(*SchemaCheck) []finding) []finding {
	if s.judged == nil {
		s.judged = map[string][]finding{}
	}
	f, ok := s.judged[kind]
	if !ok {
		f = judge(s)
		s.judged[kind] = f
	}
	return f
}

// breakingFindings is the Schema hook of a rule that reports the breaking
// findings of kind, judged by judge, in schemas read in direction dir.
func breakingFindings(dir Direction, kind string, judge func(*SchemaCheck) []finding) func(*SchemaCheck) {
	return func(s *SchemaCheck) {
		if s.Dir == dir {
			s.reportFindings(s.findings(kind, judge), true)
		}
	}
}

func (s *SchemaCheck) reportFindings(fs []finding, breaking bool) {
	for _, f := range fs {
		if f.breaks == breaking {
			s.InRevision(f.path, "%s", f.msg)
		}
	}
}

// dependencyFindings judges dependentRequired and dependentSchemas (and
// the older dependencies). In a request, a property that must now come
// with another narrows what consumers may send; in a response, one that
// no longer comes with it withdraws a guarantee. A dependentSchemas entry
// only one side has is judged against the whole other schema: it narrows
// when a value the other accepts fails it (entries both sides have are
// compared as subschemas). A schema not an object on both sides has none.
func dependencyFindings(s *SchemaCheck) []finding {
	if !s.both("object") {
		return nil
	}
	var out []finding
	bKeys, bNames, _ := dependentRequired(s.Base)
	rKeys, rNames, rPaths := dependentRequired(s.Rev)
	for _, k := range append(append([]string(nil), bKeys...), missing(rKeys, bKeys)...) {
		var added, gone []string
		for _, name := range rNames[k] {
			if _, always := s.Base.Required[name]; !always && !slices.Contains(bNames[k], name) {
				added = append(added, strconv.Quote(name))
			}
		}
		for _, name := range bNames[k] {
			if _, always := s.Rev.Required[name]; !always && !slices.Contains(rNames[k], name) {
				gone = append(gone, strconv.Quote(name))
			}
		}
		path := rPaths[k]
		if path == nil {
			path = s.Rev.At("dependentRequired", "dependencies")
		}
		if len(added) > 0 {
			out = append(out, finding{path, fmt.Sprintf("when %q is present, %s must now be too (dependentRequired)", k, strings.Join(added, ", ")), s.Dir == Request})
		}
		if len(gone) > 0 {
			out = append(out, finding{path, fmt.Sprintf("when %q is present, %s no longer %s with it (dependentRequired)", k, strings.Join(gone, ", "), english.Noun(len(gone), "comes", "come")), s.Dir == Response})
		}
	}
	bds, rds := dependentSchemas(s.Base), dependentSchemas(s.Rev)
	for _, k := range rds.keys {
		if _, ok := bds.get(k); ok {
			continue
		}
		o, _ := rds.get(k)
		f := finding{path: o.Path, msg: fmt.Sprintf("objects with %q must now meet a dependent schema (dependentSchemas)", k)}
		if s.Dir == Request {
			if msg := firstBreaking(s.sd.probe(s.Base, s.vs().view(s.Rev.doc, o.Value), Request, s.Text)); msg != "" {
				f.msg, f.breaks = fmt.Sprintf("objects with %q must now meet a dependent schema that rejects values the base accepted: %s (judged conservatively, against the whole base schema)", k, msg), true
			} else {
				f.msg += "; it rejects no value the base declares"
			}
		}
		out = append(out, f)
	}
	for _, k := range bds.keys {
		if _, ok := rds.get(k); ok {
			continue
		}
		o, _ := bds.get(k)
		f := finding{path: s.Rev.At("dependentSchemas", "dependencies"), msg: fmt.Sprintf("the dependent schema for objects with %q was removed (dependentSchemas)", k)}
		if s.Dir == Response {
			if msg := firstBreaking(s.sd.probe(s.vs().view(s.Base.doc, o.Value), s.Rev, Response, s.Text)); msg != "" {
				f.msg, f.breaks = fmt.Sprintf("the dependent schema for objects with %q was removed, and the revision may send what it ruled out: %s (judged conservatively, against the whole schema)", k, msg), true
			} else {
				f.msg += "; the rest of the schema still guarantees what it did"
			}
		}
		out = append(out, f)
	}
	return out
}

// conditionalFindings judges an if/then/else whose if is new, gone or
// changed (an unchanged if has its then and else compared as subschemas;
// then and else without if do nothing). The condition cannot reject a
// value the base accepted when the revision's then and else each accept
// every value of the base: short of that proof it is breaking. For a
// response the base's then and else must each accept every value of the
// revision.
func conditionalFindings(s *SchemaCheck) []finding {
	bi, _ := s.Base.Keyword("if")
	ri, _ := s.Rev.Keyword("if")
	if (bi == nil && ri == nil) || (bi != nil && ri != nil && s.vs().equal(s.vs().view(s.Base.doc, bi), s.vs().view(s.Rev.doc, ri))) {
		return nil
	}
	what := "if/then/else was added"
	switch {
	case bi != nil && ri != nil:
		what = "the if schema changed"
	case ri == nil:
		what = "if/then/else was removed"
	}
	at := s.Rev.At("if")
	for _, kw := range []string{"then", "else"} {
		switch {
		case s.Dir == Request && ri != nil:
			if n, p := s.Rev.Keyword(kw); n != nil {
				if msg := firstBreaking(s.sd.probe(s.Base, s.vs().view(s.Rev.doc, n), Request, s.Text)); msg != "" {
					return []finding{{p, fmt.Sprintf("%s; values the base accepted may fail %s: %s (judged conservatively, as if every value met the condition that leads there)", what, kw, msg), true}}
				}
			}
		case s.Dir == Response && bi != nil:
			if n, _ := s.Base.Keyword(kw); n != nil {
				if msg := firstBreaking(s.sd.probe(s.vs().view(s.Base.doc, n), s.Rev, Response, s.Text)); msg != "" {
					return []finding{{at, fmt.Sprintf("%s; the revision may send values the base's %s ruled out: %s (judged conservatively, as if every value met the condition that leads there)", what, kw, msg), true}}
				}
			}
		}
	}
	switch {
	case s.Dir == Request && ri == nil:
		return []finding{{s.Rev.At("then", "else"), what + ": values it rejected are now accepted", false}}
	case s.Dir == Request:
		return []finding{{at, what + "; its then and else accept every value the base accepted", false}}
	case bi == nil:
		return []finding{{at, what + ": the revision sends only values that meet it", false}}
	}
	return []finding{{at, what + "; the revision sends nothing the base's then and else ruled out", false}}
}

// notFindings judges a not keyword. In a request, what the revision's not
// excludes must lie outside what the base accepted: the two are disjoint
// (as far as types, enums and discriminating properties show), or the
// base's own not already excluded it all. In a response, what the base's
// not excluded must stay out of what the revision sends. Short of that
// proof, a change breaks.
func notFindings(s *SchemaCheck) []finding {
	bn, _ := s.Base.Keyword("not")
	rn, rp := s.Rev.Keyword("not")
	var bv, rv *SchemaView
	if bn != nil {
		bv = s.vs().view(s.Base.doc, bn)
	}
	if rn != nil {
		rv = s.vs().view(s.Rev.doc, rn)
	}
	if (bv == nil && rv == nil) || (bv != nil && rv != nil && s.vs().equal(bv, rv)) {
		return nil
	}
	what := "not changed"
	switch {
	case bv == nil:
		what = "not was added"
	case rv == nil:
		what = "not was removed"
	}
	// from's values must avoid what to's not excludes.
	from, fromNot, toNot, dir := s.Base, bv, rv, Response
	if s.Dir == Response {
		from, fromNot, toNot, dir = s.Rev, rv, bv, Request
	}
	safe := toNot == nil || toNot.False || disjoint(from, toNot)
	if !safe && fromNot != nil {
		b, r := fromNot, toNot
		if dir == Request {
			b, r = toNot, fromNot
		}
		br, wa := severity(s.sd.probe(b, r, dir, s.Text))
		safe = br+wa == 0
	}
	switch {
	case safe && s.Dir == Request && rv == nil:
		return []finding{{rp, what + ": values it excluded are now accepted", false}}
	case safe && s.Dir == Request:
		return []finding{{rp, what + "; it excludes no value the base accepted", false}}
	case safe && bv == nil:
		return []finding{{rp, what + ": the revision sends only values outside it", false}}
	case safe:
		return []finding{{rp, what + "; the revision sends nothing the base's not excluded", false}}
	case s.Dir == Request:
		return []finding{{rp, what + ": it may now exclude values the base accepted (judged conservatively: specgate proves only that values are of another type, enum or discriminator than the excluded ones)", true}}
	}
	return []finding{{rp, what + ": the revision may send values the base's not excluded (judged conservatively: specgate proves only that values are of another type, enum or discriminator than the excluded ones)", true}}
}
