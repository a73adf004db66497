package compat

import (
	"fmt"

	"github.com/specgate/specgate/spec"
)

// Rule is one breaking-change rule: what it detects, how much it matters,
// and a check on one kind of pair. A rule fills exactly one hook; the
// differ calls it on every pair of that kind, with nil for the side that
// lacks the item (an added or removed parameter, a removed response, …).
// A hook reports what it finds through its Check.
type Rule struct {
	ID      string
	Level   Level
	Summary string // what the rule detects, one line
	Why     string // what the change does to existing consumers

	Path      func(c *Check, base, rev *spec.PathItem)
	Operation func(c *Check, base, rev *spec.Operation)
	Parameter func(c *Check, base, rev *spec.Parameter)
	Body      func(c *Check, base, rev *spec.RequestBody)
	MediaType func(c *Check, base, rev *spec.MediaType)
	Response  func(c *Check, base, rev *spec.Response)
	Header    func(c *Check, base, rev *spec.Header)
	// Schema sees each pair of schemas that are neither false nor made of
	// alternatives.
	Schema func(s *SchemaCheck)
	// False sees each pair of schemas where one side is false (accepts no
	// value) and the other is not.
	False func(s *SchemaCheck)
	// Alternatives sees each pair of schemas where a side has oneOf or
	// anyOf alternatives, with the alternatives paired (SchemaCheck.Pairs).
	Alternatives   func(s *SchemaCheck)
	Channel        func(c *Check, base, rev *spec.Channel)
	AsyncOperation func(c *Check, base, rev *spec.AsyncOperation)
	Message        func(c *Check, base, rev *spec.Message)
}

// Check is what a rule's hook reports to.
type Check struct {
	d    *differ
	rule *Rule
	ops  []string
	// Dir is who writes the data of the pair: Request for what consumers
	// send (HTTP requests; messages the API receives), Response for what
	// they receive. Webhook and callback requests are Response: the API
	// sends them.
	Dir Direction
	// PathRemoved is set on the Operation hook for the operations of a
	// path the revision no longer has.
	PathRemoved bool
	// Where names the part of the operation a media type or header
	// belongs to: "request body", "response 200".
	Where string
	// inBasePath holds the names of the base operation's path template.
	inBasePath map[string]bool
	// at is where the pair is written on each side (indexed by Side): the
	// items themselves, or for a side that lacks its item, the place of
	// its parent. A change on one side is placed on the other from it.
	at [2]spec.Path
}

// InBasePath reports whether a path parameter was already part of the
// base operation's URL, declared or not.
func (c *Check) InBasePath(p *spec.Parameter) bool { return p.In == "path" && c.inBasePath[p.Name] }

// Base reports a change located at path in the base document (for things
// the revision no longer has).
func (c *Check) Base(path spec.Path, format string, args ...any) {
	c.report(Base, path, fmt.Sprintf(format, args...))
}

// Revision reports a change located at path in the revision.
func (c *Check) Revision(path spec.Path, format string, args ...any) {
	c.report(Revision, path, fmt.Sprintf(format, args...))
}

func (c *Check) report(side Side, path spec.Path, msg string) {
	c.d.raw = append(c.d.raw, rawChange{rule: c.rule, side: side, path: path, message: msg, ops: c.ops,
		other: c.counterpart(side, path), hasOther: true})
}

// counterpart is the place in the other version of what path names on
// side: the same place under the other side's item (which Locate takes to
// its nearest written part), or for things written apart from the pair (a
// document-wide security requirement, a security scheme) the same path,
// when the other version writes it.
func (c *Check) counterpart(side Side, path spec.Path) spec.Path {
	from, to := c.at[side], c.at[1-side]
	if hasPrefix(path, from) {
		return join(to, path[len(from):])
	}
	if c.d.doc(1-side).Locate(path, nil).Exact {
		return path
	}
	return to
}

func hasPrefix(path, prefix spec.Path) bool {
	if len(prefix) > len(path) {
		return false
	}
	for i, seg := range prefix {
		if path[i] != seg {
			return false
		}
	}
	return true
}

// WithOperations returns a Check that reports for the given operations.
func (c *Check) WithOperations(ops []string) *Check {
	cc := *c
	cc.ops = ops
	return &cc
}

// SchemaCheck is what a schema rule sees: one pair of schemas (both
// present; added and removed properties are reported by the rules of their
// parent) as views (schemaview.go), and who writes the data they describe.
// Paths it reports are relative to the pair; the differ prefixes them.
type SchemaCheck struct {
	Base, Rev *SchemaView
	Dir       Direction
	// Text is set for parameters and headers, whose values are text on the
	// wire.
	Text bool
	// Pairs are the paired alternatives, for the Alternatives hook.
	Pairs []AlternativePair
	subs  []SubPair
	// judged caches the conservative judgements of not, if/then/else and
	// dependencies, which a breaking rule and an info rule both read.
	judged map[string][]finding
	sd     *schemaDiffer
	rule   *Rule
	out    *[]relChange
}

// Subschemas lists the pairs of subschemas the comparison goes on with
// (properties, items, …), for the Schema hook.
func (s *SchemaCheck) Subschemas() []SubPair { return s.subs }

func (s *SchemaCheck) vs() *viewSet { return s.sd.vs }

// InBase reports a change at rel, relative to the base schema.
func (s *SchemaCheck) InBase(rel spec.Path, format string, args ...any) {
	s.report(Base, s.Base.Node, rel, fmt.Sprintf(format, args...))
}

// InRevision reports a change at rel, relative to the revision schema.
func (s *SchemaCheck) InRevision(rel spec.Path, format string, args ...any) {
	s.report(Revision, s.Rev.Node, rel, fmt.Sprintf(format, args...))
}

// inRevisionWas reports a change at rel, relative to the revision schema,
// of what the base writes at baseRel (the old limit); nil places it by
// rel.
func (s *SchemaCheck) inRevisionWas(rel, baseRel spec.Path, format string, args ...any) {
	s.report(Revision, s.Rev.Node, rel, fmt.Sprintf(format, args...))
	if baseRel != nil {
		(*s.out)[len(*s.out)-1].otherRel = baseRel
	}
}

func (s *SchemaCheck) report(side Side, origin *spec.Node, rel spec.Path, msg string) {
	other := s.Base
	if side == Base {
		other = s.Rev
	}
	*s.out = append(*s.out, relChange{rule: s.rule, side: side, origin: origin, rel: rel, message: msg,
		otherOrigin: other.Node, otherRel: counterpartIn(other, rel)})
}

// counterpartIn is the place in view v of what rel names in the other
// view of the pair: the same property, or the same keyword (the old
// maxLength); v itself when it has neither.
func counterpartIn(v *SchemaView, rel spec.Path) spec.Path {
	n := len(rel)
	if n == 0 {
		return nil
	}
	key, isKey := rel[n-1].(string)
	if !isKey && n >= 2 {
		// An item of a list keyword (required, oneOf, prefixItems): the
		// other side's list.
		key, isKey = rel[n-2].(string)
	} else if isKey && n >= 2 && rel[n-2] == "properties" {
		if p := v.Property(key); p != nil {
			return p.Path
		}
		key = "properties"
	}
	if isKey {
		if _, p := v.Keyword(key); p != nil {
			return p
		}
	}
	return nil
}

// RuleByID returns the rule with the given id, or nil.
func RuleByID(id string) *Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}
