// Package compat checks whether a revision of an API specification is
// backward compatible with a base version: it diffs the normalized views of
// the two documents (operations, parameters, request bodies, responses,
// schemas, security; AsyncAPI channels, operations and messages), classifies
// every difference with the breaking-change rules of rules.go, and turns the
// result into a verdict. Git mode (git.go) reads the base from a branch with
// git plumbing, never touching the working tree; OpenBase (base.go) gives
// other callers, such as the studio, the same base.
package compat

import (
	"fmt"
	"slices"
	"sort"

	"github.com/specgate/specgate/spec"
)

// Level is how much a change matters to existing consumers.
type Level int8

const (
	// Info is a change consumers do not notice or only gain from.
	Info Level = iota
	// Warning is a change that breaks some consumers, depending on how they
	// use the API; it fails the check only in strict mode.
	Warning
	// Breaking is a change that breaks existing consumers.
	Breaking
)

var levelNames = [...]string{"info", "warning", "breaking"}

func (l Level) String() string { return levelNames[l] }

// Direction says who writes a value: consumers (requests they send,
// messages they publish) or the API (responses, messages it sends).
// Narrowing what the API reads breaks consumers; widening what it writes
// does too.
type Direction int8

const (
	// Request is data consumers write and the API reads.
	Request Direction = iota
	// Response is data the API writes and consumers read.
	Response
)

func (d Direction) flip() Direction { return 1 - d }

// Side is the version of the specification a location is in.
type Side int8

const (
	Revision Side = iota // the new version
	Base                 // the old version: where removed things were
)

func (s Side) String() string {
	if s == Base {
		return "base"
	}
	return "revision"
}

// Location is where a change is written: in the revision, or in the base
// for things the revision no longer has. Lines and columns are 1-based.
type Location struct {
	Side      Side
	File      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
	Pointer   string // JSON pointer within File
}

// String renders the location as file:line:col.
func (l Location) String() string {
	if l.Line == 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
}

// Change is one classified difference between base and revision.
type Change struct {
	RuleID  string
	Level   Level
	Message string // what changed, specifically
	Why     string // why the rule's level: what it does to consumers
	// Operations are the operations the change affects, e.g. "GET /pets",
	// in the order first met. A change in a shared schema affects each
	// operation that reaches it.
	Operations []string
	// Location is where the change is written: in the revision, or in the
	// base for what the revision no longer has (Location.Side says which).
	Location Location
	// Base and Revision place the change in each version. One of them is
	// Location; the other is where that version writes what changed (the
	// old maxLength, the operation a removed parameter belonged to), or
	// the nearest part of it that is written (the object a property was
	// added to, the path a removed operation was under). File is "" when
	// the check knows no place on that side: changes of Protocol Buffers,
	// GraphQL and WSDL documents are placed on their own side only.
	Base, Revision Location
}

// place sets the location of the change's own side, and that of the
// other side when known.
func (c *Change) place(own, other Location, hasOther bool) {
	c.Location = own
	if own.Side == Base {
		c.Base = own
		if hasOther {
			c.Revision = other
		}
	} else {
		c.Revision = own
		if hasOther {
			c.Base = other
		}
	}
}

// Compare diffs base and revision and returns every change at every
// level, sorted by side, file, line, column and rule. Both documents must
// be OpenAPI (2.0 or 3.x, in any mix), both AsyncAPI, or both of one of
// Protocol Buffers, GraphQL (SDL and introspection mix) and WSDL;
// Comparable says whether they are.
func Compare(base, rev *spec.Document) []Change {
	if modelFormat(base.Format) {
		out := compareModels(base, rev)
		for i := range out {
			out[i].place(out[i].Location, Location{}, false)
		}
		return out
	}
	d := newDiffer(base, rev)
	if base.Format == spec.AsyncAPI {
		d.asyncapi()
	} else {
		d.openapi()
	}
	return d.changes()
}

// Comparable reports why two documents cannot be compared, or "" when they
// can. OpenAPI 2.0 and 3.x compare with each other through the normalized
// views; AsyncAPI 2 and 3 likewise.
func Comparable(base, rev *spec.Document) string {
	for _, d := range []*spec.Document{base, rev} {
		if !Supported(d.Format) {
			return fmt.Sprintf("%s is not supported by the backward-compatibility check (it reads OpenAPI 2.0 and 3.x, AsyncAPI 2.x and 3.x, Protocol Buffers, GraphQL and WSDL)", d)
		}
	}
	if family(base.Format) != family(rev.Format) {
		return fmt.Sprintf("the base is %s and the revision %s: documents of different formats cannot be compared", base, rev)
	}
	return ""
}

// Supported reports whether the check reads documents of format f.
func Supported(f spec.Format) bool {
	return f == spec.Swagger || f == spec.OpenAPI || f == spec.AsyncAPI || modelFormat(f)
}

func family(f spec.Format) string {
	if f == spec.AsyncAPI || modelFormat(f) {
		return string(f)
	}
	return "openapi"
}

// rawChange is a change found by a rule, before its path is located.
type rawChange struct {
	rule    *Rule
	side    Side
	path    spec.Path
	message string
	context string // see relChange
	ops     []string
	// other is the place of the change in the other version, when
	// hasOther: see Change.Base and Change.Revision.
	other    spec.Path
	hasOther bool
}

// changes locates the raw changes and merges those that land on the same
// place with the same rule and message (a shared schema reached by several
// operations) into one change listing every operation.
func (d *differ) changes() []Change {
	type key struct {
		rule, msg, file, ptr string
		side                 Side
	}
	index := map[key]int{}
	var out []Change
	for _, rc := range d.raw {
		loc := d.locate(rc.side, rc.path)
		k := key{rc.rule.ID, rc.message, loc.File, loc.Pointer, rc.side}
		if i, ok := index[k]; ok {
			out[i].Operations = appendNew(out[i].Operations, rc.ops...)
			continue
		}
		index[k] = len(out)
		msg := rc.message
		if rc.context != "" {
			msg = rc.context + ": " + msg
		}
		ch := Change{RuleID: rc.rule.ID, Level: rc.rule.Level, Message: msg, Why: rc.rule.Why, Operations: appendNew(nil, rc.ops...)}
		var other Location
		if rc.hasOther {
			other = d.locate(1-rc.side, rc.other)
		}
		ch.place(loc, other, rc.hasOther)
		out = append(out, ch)
	}
	return sortChanges(out)
}

// sortChanges orders changes by where they are (side, file, line, column),
// then by rule, keeping the order of changes at the same place and rule.
func sortChanges(out []Change) []Change {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Location, out[j].Location
		if a.Side != b.Side {
			return a.Side < b.Side
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return out[i].RuleID < out[j].RuleID
	})
	return out
}

func (d *differ) locate(side Side, path spec.Path) Location {
	l := d.doc(side).Locate(path, nil)
	return Location{Side: side, File: l.File.Name, Line: int(l.Range.Start.Line), Column: int(l.Range.Start.Col),
		EndLine: int(l.Range.End.Line), EndColumn: int(l.Range.End.Col), Pointer: l.Pointer}
}

// doc is the document of a side.
func (d *differ) doc(side Side) *spec.Document {
	if side == Base {
		return d.base
	}
	return d.rev
}

// appendNew appends the items of add that list does not hold yet.
func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}
