package compat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// The formats read by the readers beside package spec (Protocol Buffers,
// GraphQL, WSDL) are compared on their own models (proto.go, graphql.go,
// wsdl.go), with rules of their own (FormatRules), into the same Changes,
// verdicts and reports as OpenAPI and AsyncAPI.

// FormatRules are the breaking-change rules of Protocol Buffers, GraphQL
// and WSDL documents, in the order they are documented (docs/formats.md).
var FormatRules = slices.Concat(protoRules, graphqlRules, wsdlRules)

// modelFormat reports whether f is compared on its reader's model.
func modelFormat(f spec.Format) bool {
	return f == spec.Proto || f == spec.GraphQL || f == spec.WSDL
}

// compareModels diffs two documents of a reader's format.
func compareModels(base, rev *spec.Document) []Change {
	md := &modelDiff{base: base, rev: rev}
	switch base.Format {
	case spec.Proto:
		md.proto()
	case spec.GraphQL:
		md.graphql()
	case spec.WSDL:
		md.wsdl()
	}
	return md.sorted()
}

// modelDiff collects the changes between two documents of a reader's
// format.
type modelDiff struct {
	base, rev *spec.Document
	out       []Change
	seen      map[string]bool
}

// rule returns the rule of an id; an unknown id is a bug caught by the
// tests of every rule.
func rule(id string) *Rule {
	for _, r := range FormatRules {
		if r.ID == id {
			return r
		}
	}
	panic("compat: no format rule " + id)
}

// site is where a change stands in one version: a file of the document
// ("" for the entry file) and a path in its tree.
type site struct {
	file string
	path spec.Path
}

// report adds a change written at own in the version of side, and placed
// at other in the other version (Change.Base and Change.Revision): where
// that version writes what changed (the field before its type changed,
// the base's reserved statement), or for what it lacks, the nearest
// element of other's path it writes (the message a field was removed
// from, the port type an operation was added to).
func (md *modelDiff) report(id string, side Side, own, other site, ops []string, format string, args ...any) {
	r := rule(id)
	loc := md.locate(side, own, false)
	msg := fmt.Sprintf(format, args...)
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%s", id, msg, side, loc.Pointer)
	if md.seen == nil {
		md.seen = map[string]bool{}
	}
	if md.seen[key] {
		return
	}
	md.seen[key] = true
	ch := Change{RuleID: r.ID, Level: r.Level, Message: msg, Why: r.Why, Operations: appendNew(nil, ops...)}
	ch.place(loc, md.locate(1-side, other, true), true)
	md.out = append(md.out, ch)
}

// locate places a path of one version. With nearest, a path that version
// does not write is cut back to the nearest element it writes: element
// paths alternate a group and a name (messages, Book, fields, title), so
// the path loses a name and its group at a time.
func (md *modelDiff) locate(side Side, at site, nearest bool) Location {
	doc := md.rev
	if side == Base {
		doc = md.base
	}
	start := doc.Root
	if at.file != "" {
		if f := doc.FileNamed(at.file); f != nil {
			start = f
		}
	}
	path := at.path
	l := doc.LocateIn(start, path, nil)
	for nearest && !l.Exact && len(path) > 0 {
		n := len(path) - 1
		path = path[:n-n%2]
		l = doc.LocateIn(start, path, nil)
	}
	return Location{Side: side, File: l.File.Name, Line: int(l.Range.Start.Line), Column: int(l.Range.Start.Col),
		EndLine: int(l.Range.End.Line), EndColumn: int(l.Range.End.Col), Pointer: l.Pointer}
}

func (md *modelDiff) sorted() []Change { return sortChanges(md.out) }

// pairByKey calls fn for each key of base and rev, in base order then the
// revision's additions, with hasB or hasR false for the side that lacks
// it. keyR is keyB when nil.
func pairByKey[T any](base, rev []T, keyB, keyR func(T) string, fn func(b, r T, hasB, hasR bool)) {
	if keyR == nil {
		keyR = keyB
	}
	rm := make(map[string]T, len(rev))
	for _, r := range rev {
		if _, dup := rm[keyR(r)]; !dup {
			rm[keyR(r)] = r
		}
	}
	bm := make(map[string]bool, len(base))
	for _, b := range base {
		k := keyB(b)
		if bm[k] {
			continue
		}
		bm[k] = true
		r, ok := rm[k]
		fn(b, r, true, ok)
	}
	done := map[string]bool{}
	for _, r := range rev {
		k := keyR(r)
		if bm[k] || done[k] {
			continue
		}
		done[k] = true
		var zero T
		fn(zero, r, false, true)
	}
}

// affected names what the failing changes of a comparison affect, for its
// verdict: "2 operations (GET /pets, POST /pets)". The changes of Protocol
// Buffers, GraphQL and WSDL documents name the operations that reach what
// changed (RPCs, root fields such as "query product", the operations of
// port types), or what changed where no operation reaches it ("directive
// @key", "message acme.v1.Orphan", "binding OrdersSoap"): each kind is
// counted apart, "1 operation and 2 directives (…)".
func affected(f spec.Format, names []string) string {
	if !modelFormat(f) {
		return fmt.Sprintf("%s (%s)", english.Count(len(names), "operation", "operations"), reports.ShortList(names, 3))
	}
	var kinds []string
	counts := map[string]int{}
	for _, n := range names {
		k := affectedKind(n)
		if counts[k] == 0 {
			kinds = append(kinds, k)
		}
		counts[k]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = english.Count(counts[k], k, k+"s")
	}
	return fmt.Sprintf("%s (%s)", english.List(parts, "and"), reports.ShortList(names, 3))
}

// affectedKind is the kind of what a format change names: its first word
// ("message acme.v1.Book", "directive @key"); RPCs, root fields and the
// operations of WSDL port types ("Orders.Submit") are operations.
func affectedKind(name string) string {
	word, _, spaced := strings.Cut(name, " ")
	switch {
	case !spaced, word == "rpc", word == "query", word == "mutation", word == "subscription":
		return "operation"
	}
	return word
}
