package compat

import (
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// schemaRules judge pairs of schemas. A request schema breaks consumers
// when it rejects a value the base accepted; a response schema when it
// allows a value the base never sent. Each rule reads views (schemaview.go),
// so a keyword counts wherever the schema is made of it (allOf members, a
// $ref's target, a single non-null alternative) and keywords that apply to
// a type neither side allows (maxLength of an object) say nothing.
var schemaRules = []*Rule{
	// Types and null.
	{
		ID: "request-type-changed", Level: Breaking,
		Summary: "a request value no longer accepts a type the base accepts (integer to number widens, and is fine; in a parameter or header, a string accepts the text of any scalar)",
		Why:     "consumers send values of the old type, which the API now rejects",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request && len(typesNotAccepted(s.Base.Types, s.Rev.Types, s.Text)) > 0 {
				s.InRevision(s.Rev.At("type"), "type changed from %s to %s", describeTypes(s.Base.Types), describeTypes(s.Rev.Types))
			}
		},
	},
	{
		ID: "response-type-changed", Level: Breaking,
		Summary: "a response value may have a type the base does not declare",
		Why:     "consumers parse values as the old type and fail on the new one",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response && len(typesNotAccepted(s.Rev.Types, s.Base.Types, s.Text)) > 0 {
				s.InRevision(s.Rev.At("type"), "type changed from %s to %s", describeTypes(s.Base.Types), describeTypes(s.Rev.Types))
			}
		},
	},
	{
		ID: "type-changed-compatibly", Level: Info,
		Summary: "a value's type changed, but a request still accepts every type the base accepted (integer to number; in a parameter or header, a scalar that became a string, which takes its text) and a response sends no type the base did not declare (number to integer; a header that became an integer)",
		Why:     "consumers keep working; the change is listed so that it is seen (code generated from the revision types the value anew)",
		Schema: func(s *SchemaCheck) {
			from, to := s.Base, s.Rev
			if s.Dir == Response {
				from, to = s.Rev, s.Base
			}
			if len(typesNotAccepted(from.Types, to.Types, s.Text)) == 0 && len(typesNotAccepted(wireTypes(to.Types, s.Text), wireTypes(from.Types, s.Text), false)) > 0 {
				note := ""
				if s.Text && to.May("string") && !from.May("string") {
					note = ": a string takes the text of every " + describeTypes(from.Types) + " value"
					if s.Dir == Response {
						note = ": the text of every " + describeTypes(from.Types) + " value is a string"
					}
				}
				s.InRevision(s.Rev.At("type"), "type changed from %s to %s%s", describeTypes(s.Base.Types), describeTypes(s.Rev.Types), note)
			}
		},
	},
	{
		ID: "request-nullable-removed", Level: Breaking,
		Summary: "a request value no longer accepts null",
		Why:     "consumers that send null are now rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request && s.Base.Nullable && !s.Rev.Nullable {
				s.InRevision(s.Rev.At("type", "nullable", "x-nullable"), "null is no longer accepted")
			}
		},
	},
	{
		ID: "response-nullable-added", Level: Breaking,
		Summary: "a response value may now be null (nullable, x-nullable, type null or a null alternative added)",
		Why:     "consumers that do not expect null fail on it (a JSON null body is null, not an empty object)",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response && !s.Base.Nullable && s.Rev.Nullable {
				s.InRevision(s.Rev.NullAt(), "the value may now be null")
			}
		},
	},
	{
		ID: "request-schema-became-false", Level: Breaking,
		Summary: "a request value the base accepted is now rejected whatever it is: its schema became false (false, items: false, additionalProperties: false, not: {})",
		Why:     "consumers that send such a value are rejected",
		False: func(s *SchemaCheck) {
			if s.Dir == Request && s.Rev.False && !s.Base.False {
				s.InRevision(nil, "no value is accepted any more (the schema is false)")
			}
		},
	},
	{
		ID: "response-schema-became-false", Level: Warning,
		Summary: "a response value's schema became false (a body, items, a property's value): the API says it never sends a valid value there",
		Why:     "consumers that expect the value get none that is valid: a removal in disguise, or a mistake",
		False: func(s *SchemaCheck) {
			if s.Dir == Response && s.Rev.False && !s.Base.False {
				s.InRevision(nil, "no value can be sent here any more (the schema is false)")
			}
		},
	},
	{
		ID: "response-schema-no-longer-false", Level: Breaking,
		Summary: "a response value the base ruled out (its schema was false, as items: false closes a tuple) may now be sent",
		Why:     "consumers do not expect it: a closed tuple gets more items, a value appears where none could",
		False: func(s *SchemaCheck) {
			if s.Dir == Response && s.Base.False && !s.Rev.False {
				s.InRevision(nil, "values may now be sent here (the base's schema was false)")
			}
		},
	},

	// Values.
	{
		ID: "request-enum-narrowed", Level: Breaking,
		Summary: "a request value accepts fewer enum values, or an enum was added",
		Why:     "consumers that send a value no longer listed are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request {
				return
			}
			b, bok := enumValues(s.Base, s.Text)
			r, rok := enumValues(s.Rev, s.Text)
			switch {
			case bok && rok:
				if gone := missing(b, r); len(gone) > 0 {
					s.InRevision(s.Rev.At("enum", "const"), "enum no longer accepts %s", listValues(gone))
				}
			case rok:
				s.InRevision(s.Rev.At("enum", "const"), "values are now restricted to %s", listValues(r))
			}
		},
	},
	{
		ID: "response-enum-widened", Level: Breaking,
		Summary: "a response value may take enum values the base does not list, or its enum was removed",
		Why:     "consumers that switch over the known values meet one they do not handle",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Response {
				return
			}
			b, bok := enumValues(s.Base, s.Text)
			r, rok := enumValues(s.Rev, s.Text)
			switch {
			case bok && rok:
				if added := missing(r, b); len(added) > 0 {
					s.InRevision(s.Rev.At("enum", "const"), "enum may now return %s", listValues(added))
				}
			case bok:
				s.InRevision(nil, "the enum %s was removed: any value may be returned", listValues(b))
			}
		},
	},
	{
		ID: "request-extensible-enum-narrowed", Level: Breaking,
		Summary: "a request value's x-extensible-enum lost values",
		Why:     "an extensible enum may grow, never shrink: consumers that send a value it no longer lists are rejected",
		Schema: func(s *SchemaCheck) {
			b, bok := extensibleEnum(s.Base, s.Text)
			r, rok := extensibleEnum(s.Rev, s.Text)
			if s.Dir == Request && bok && rok {
				if gone := missing(b, r); len(gone) > 0 {
					s.InRevision(s.Rev.At("x-extensible-enum"), "x-extensible-enum no longer lists %s", listValues(gone))
				}
			}
		},
	},
	{
		ID: "response-extensible-enum-widened", Level: Info,
		Summary: "a response value's x-extensible-enum lists new values",
		Why:     "consumers of an extensible enum must handle values they do not know",
		Schema: func(s *SchemaCheck) {
			b, bok := extensibleEnum(s.Base, s.Text)
			r, rok := extensibleEnum(s.Rev, s.Text)
			if s.Dir == Response && bok && rok {
				if added := missing(r, b); len(added) > 0 {
					s.InRevision(s.Rev.At("x-extensible-enum"), "x-extensible-enum now also lists %s", listValues(added))
				}
			}
		},
	},
	{
		ID: "request-range-narrowed", Level: Breaking,
		Summary: "a request number's minimum rose or maximum fell (or one was added, or became exclusive)",
		Why:     "consumers that send values outside the new range are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request && s.both("number") {
				rangeChanges(s, false)
			}
		},
	},
	{
		ID: "response-range-widened", Level: Breaking,
		Summary: "a response number's minimum fell or maximum rose (or one was removed, or stopped being exclusive)",
		Why:     "the base guaranteed the range: consumers that size, validate or store values by it fail on values outside",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response && s.both("number") {
				rangeChanges(s, true)
			}
		},
	},
	{
		ID: "request-multiple-of-narrowed", Level: Breaking,
		Summary: "a request number must now be a multiple of a factor the base's values are not all multiples of (multipleOf added or changed)",
		Why:     "consumers that send values the new factor does not divide are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request && s.both("number") {
				multipleOfChanges(s, s.Base, s.Rev)
			}
		},
	},
	{
		ID: "response-multiple-of-widened", Level: Breaking,
		Summary: "a response number is no longer always a multiple of the base's multipleOf (it was removed or changed)",
		Why:     "consumers that rely on the step (cents, whole units) meet values between",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response && s.both("number") {
				multipleOfChanges(s, s.Rev, s.Base)
			}
		},
	},
	{
		ID: "request-length-narrowed", Level: Breaking,
		Summary: "a request string's or array's minimum length or items rose, or its maximum fell (or one was added); an object's property counts likewise",
		Why:     "consumers that send shorter or longer values are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request {
				lengthChanges(s, false)
			}
		},
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir != Request || base == nil || rev == nil {
				return
			}
			if sh := c.d.paramShape(base, rev); sh.becameArray {
				if n, p := sh.rev.Keyword("minItems"); n != nil && n.Kind == spec.Number {
					if v, err := strconv.ParseFloat(n.Value, 64); err == nil && v > 1 {
						c.Revision(join(rev.SchemaSource, p), "%s now takes at least %s values: a single value, which the base took, is rejected", describeParam(rev), n.Value)
					}
				}
			}
		},
	},
	{
		ID: "response-length-widened", Level: Breaking,
		Summary: "a response string's or array's minimum length or items fell, or its maximum rose (or one was removed); an object's property counts likewise",
		Why:     "the base guaranteed the limits: consumers that size buffers or validate by them fail",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response {
				lengthChanges(s, true)
			}
		},
	},
	{
		ID: "request-unique-items-added", Level: Breaking,
		Summary: "a request array must now hold unique items",
		Why:     "consumers that send an item twice are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request && s.both("array") && !s.Base.flag("uniqueItems") && s.Rev.flag("uniqueItems") {
				s.InRevision(s.Rev.At("uniqueItems"), "items must now be unique")
			}
		},
	},
	{
		ID: "response-unique-items-removed", Level: Breaking,
		Summary: "a response array may now hold an item twice",
		Why:     "consumers that read the array as a set or index it by item meet duplicates",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response && s.both("array") && s.Base.flag("uniqueItems") && !s.Rev.flag("uniqueItems") {
				s.InRevision(s.Rev.At("uniqueItems"), "items are no longer guaranteed unique")
			}
		},
	},
	{
		ID: "request-pattern-narrowed", Level: Breaking,
		Summary: "a request string's pattern was added or changed",
		Why:     "consumers that send values the new pattern does not match are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request || !s.stringsOnWire() {
				return
			}
			bp := patterns(s.Base)
			for _, o := range s.Rev.Occurrences("pattern") {
				if p := o.Value.Str(); p != "" && !slices.Contains(bp, p) {
					if len(bp) == 0 {
						s.InRevision(o.Path, "pattern %q was added", p)
					} else {
						s.InRevision(o.Path, "pattern changed from %q to %q", bp[0], p)
					}
				}
			}
		},
	},
	{
		ID: "response-pattern-changed", Level: Breaking,
		Summary: "a response string's pattern was removed or changed",
		Why:     "the base guaranteed the pattern: consumers that parse or validate values by it may fail on new ones",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Response || !s.stringsOnWire() {
				return
			}
			rp := patterns(s.Rev)
			for _, o := range s.Base.Occurrences("pattern") {
				p := o.Value.Str()
				if p == "" || slices.Contains(rp, p) {
					continue
				}
				if len(rp) == 0 {
					s.inRevisionWas(nil, o.Path, "pattern %q was removed", p)
				} else {
					s.inRevisionWas(s.Rev.At("pattern"), o.Path, "pattern changed from %q to %q", p, rp[0])
				}
			}
		},
	},
	{
		ID: "request-format-narrowed", Level: Breaking,
		Summary: "a request value's format was added or changed (int32 to int64 and float to double widen, and are fine)",
		Why:     "consumers that send values in the old format are rejected",
		Schema: func(s *SchemaCheck) {
			bf, rf := s.Base.Str("format"), s.Rev.Str("format")
			if s.Dir == Request && rf != "" && rf != bf && widerFormat[bf] != rf {
				s.InRevision(s.Rev.At("format"), "format changed from %s to %q", describeFormat(bf), rf)
			}
		},
	},
	{
		ID: "response-format-changed", Level: Breaking,
		Summary: "a response value's format was removed or changed (int64 to int32 and double to float narrow, and are fine)",
		Why:     "consumers parse values in the old format and fail on others",
		Schema: func(s *SchemaCheck) {
			bf, rf := s.Base.Str("format"), s.Rev.Str("format")
			if s.Dir == Response && bf != "" && rf != bf && widerFormat[rf] != bf {
				s.InRevision(s.Rev.At("format"), "format changed from %q to %s", bf, describeFormat(rf))
			}
		},
	},
	{
		ID: "content-encoding-changed", Level: Breaking,
		Summary: "a string's contentEncoding or contentMediaType changed, was added or removed (requests and responses alike)",
		Why:     "the string carries content encoded another way: consumers encode or decode it the way the base described",
		Schema: func(s *SchemaCheck) {
			if !s.stringsOnWire() {
				return
			}
			for _, kw := range []string{"contentEncoding", "contentMediaType"} {
				b, r := s.Base.Str(kw), s.Rev.Str(kw)
				if !strings.EqualFold(b, r) {
					s.InRevision(s.Rev.At(kw), "%s changed from %s to %s", kw, describeFormat(b), describeFormat(r))
				}
			}
		},
	},
	{
		ID: "request-default-changed", Level: Warning,
		Summary: "the default of a request value changed",
		Why:     "consumers that omit the value get different behaviour",
		Schema: func(s *SchemaCheck) {
			bd, _ := s.Base.Keyword("default")
			rd, rp := s.Rev.Keyword("default")
			if s.Dir == Request && bd != nil && rd != nil && canonical(bd) != canonical(rd) {
				s.InRevision(rp, "default changed from %s to %s", canonical(bd), canonical(rd))
			}
		},
	},

	// Arrays and objects: what items must be there, what properties go
	// together.
	{
		ID: "request-contains-narrowed", Level: Breaking,
		Summary: "a request array must now contain an item matching contains, more of them (minContains rose), or fewer (maxContains fell)",
		Why:     "consumers that send arrays without such items, or with too many, are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Request && s.both("array") {
				containsChanges(s, s.Base, s.Rev, false)
			}
		},
	},
	{
		ID: "response-contains-widened", Level: Breaking,
		Summary: "a response array no longer guarantees the items contains asked for: contains removed, minContains lowered, maxContains raised",
		Why:     "consumers that look for the item the base guaranteed may not find it",
		Schema: func(s *SchemaCheck) {
			if s.Dir == Response && s.both("array") {
				containsChanges(s, s.Rev, s.Base, true)
			}
		},
	},
	{
		ID: "request-dependency-added", Level: Breaking,
		Summary: "a request object must now carry properties together (dependentRequired) or meet a schema when a property is present (dependentSchemas), and values the base accepted fail it",
		Why:     "consumers that send the property without the others, or without meeting the schema, are rejected",
		Schema:  breakingFindings(Request, "dependencies", dependencyFindings),
	},
	{
		ID: "response-dependency-removed", Level: Breaking,
		Summary: "a response object no longer guarantees properties that came together (dependentRequired) or a schema that held when a property was present (dependentSchemas)",
		Why:     "consumers that read the properties the base guaranteed may not get them",
		Schema:  breakingFindings(Response, "dependencies", dependencyFindings),
	},
	{
		ID: "request-conditional-narrowed", Level: Breaking,
		Summary: "a request schema's if/then/else was added or its if changed, and its then or else rejects values the base accepted (judged conservatively)",
		Why:     "consumers that send such values are rejected",
		Schema:  breakingFindings(Request, "conditional", conditionalFindings),
	},
	{
		ID: "response-conditional-widened", Level: Breaking,
		Summary: "a response schema's if/then/else was removed or its if changed, and the revision may send values its then or else ruled out (judged conservatively)",
		Why:     "consumers that rely on what the condition guaranteed may not get it",
		Schema:  breakingFindings(Response, "conditional", conditionalFindings),
	},
	{
		ID: "request-not-narrowed", Level: Breaking,
		Summary: "a request schema's not was added or changed and may exclude values the base accepted (judged conservatively)",
		Why:     "consumers that send a value the new not excludes are rejected",
		Schema:  breakingFindings(Request, "not", notFindings),
	},
	{
		ID: "response-not-widened", Level: Breaking,
		Summary: "a response schema's not was removed or changed and may no longer exclude values the base ruled out (judged conservatively)",
		Why:     "consumers meet values the base guaranteed they would not",
		Schema:  breakingFindings(Response, "not", notFindings),
	},
	{
		ID: "schema-condition-changed", Level: Info,
		Summary: "a not, if/then/else, dependentRequired or dependentSchemas changed in a way that rejects nothing consumers sent (requests) and sends nothing they did not expect (responses)",
		Why:     "consumers keep working; the change is listed so that it is seen",
		Schema: func(s *SchemaCheck) {
			s.reportFindings(s.findings("dependencies", dependencyFindings), false)
			s.reportFindings(s.findings("conditional", conditionalFindings), false)
			s.reportFindings(s.findings("not", notFindings), false)
		},
	},

	// Object properties.
	{
		ID: "request-property-added-required", Level: Breaking,
		Summary: "a request object has a new required property",
		Why:     "requests of existing consumers lack it and are rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request || !s.both("object") {
				return
			}
			for name, path := range sortedRequired(s.Rev.Required) {
				if _, was := s.Base.Required[name]; was || s.Base.Property(name) != nil || s.readOnly(s.Rev, name) {
					continue
				}
				if p := s.Rev.Property(name); p != nil {
					path = p.Path
				}
				s.InRevision(path, "new required property %q", name)
			}
		},
	},
	{
		ID: "request-property-became-required", Level: Breaking,
		Summary: "an optional request property became required",
		Why:     "consumers that omit it are now rejected",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request || !s.both("object") {
				return
			}
			for name, path := range sortedRequired(s.Rev.Required) {
				if _, was := s.Base.Required[name]; !was && s.Base.Property(name) != nil && !s.readOnly(s.Rev, name) {
					s.inRevisionWas(path, s.Base.Property(name).Path, "property %q became required", name)
				}
			}
		},
	},
	{
		ID: "request-property-added", Level: Info,
		Summary: "a request object has a new optional property",
		Why:     "existing consumers do not send it, which the API accepts",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request || !s.both("object") {
				return
			}
			for _, p := range s.Rev.Properties {
				if _, req := s.Rev.Required[p.Name]; s.Base.Property(p.Name) == nil && !req && !s.Rev.Flag(p, "readOnly") {
					s.InRevision(p.Path, "new optional property %q", p.Name)
				}
			}
		},
	},
	{
		ID: "request-property-became-optional", Level: Info,
		Summary: "a required request property became optional",
		Why:     "consumers that send it keep working",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request || !s.both("object") {
				return
			}
			for name := range sortedRequired(s.Base.Required) {
				if _, req := s.Rev.Required[name]; !req && s.Rev.Property(name) != nil && !s.readOnly(s.Rev, name) {
					s.InRevision(s.Rev.Property(name).Path, "property %q became optional", name)
				}
			}
		},
	},
	{
		ID: "request-property-removed", Level: Warning,
		Summary: "a request object no longer declares a property the base declares",
		Why:     "consumers still send it; the API may ignore it (where the revision forbids undeclared properties, request-schema-became-false says so)",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Request || !s.both("object") {
				return
			}
			for _, p := range s.Base.Properties {
				if s.Rev.Property(p.Name) == nil && !s.Base.Flag(p, "readOnly") {
					s.InBase(p.Path, "property %q was removed", p.Name)
				}
			}
		},
	},
	{
		ID: "response-property-removed", Level: Breaking,
		Summary: "a response object no longer declares a property the base declares",
		Why:     "consumers that read it no longer get it",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Response || !s.both("object") {
				return
			}
			for _, p := range s.Base.Properties {
				if s.Base.Flag(p, "writeOnly") || s.vs().view(s.Base.doc, p.Node).False {
					continue
				}
				if rp := s.Rev.Property(p.Name); rp == nil {
					s.InBase(p.Path, "property %q was removed", p.Name)
				} else if s.vs().view(s.Rev.doc, rp.Node).False {
					s.InRevision(rp.Path, "property %q can no longer be sent (its schema is false)", p.Name)
				}
			}
		},
	},
	{
		ID: "response-property-became-optional", Level: Breaking,
		Summary: "a required response property became optional",
		Why:     "consumers that rely on it being present may not get it",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Response || !s.both("object") {
				return
			}
			for name := range sortedRequired(s.Base.Required) {
				p := s.Rev.Property(name)
				if _, req := s.Rev.Required[name]; !req && p != nil && !s.Rev.Flag(p, "writeOnly") {
					s.InRevision(p.Path, "property %q became optional", name)
				}
			}
		},
	},
	{
		ID: "response-property-added", Level: Info,
		Summary: "a response object has a new property, or may now have properties the base forbade",
		Why:     "consumers ignore properties they do not know",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Response || !s.both("object") {
				return
			}
			for _, p := range s.Rev.Properties {
				bp := s.Base.Property(p.Name)
				switch {
				case s.Rev.Flag(p, "writeOnly"):
				case bp == nil:
					s.InRevision(p.Path, "new property %q", p.Name)
				case s.vs().view(s.Base.doc, bp.Node).False && !s.vs().view(s.Rev.doc, p.Node).False:
					s.InRevision(p.Path, "property %q may now be returned (the base's schema for it was false)", p.Name)
				}
			}
			be, _, _, _ := s.vs().extra(s.Base)
			re, _, rp, _ := s.vs().extra(s.Rev)
			if be.False && !re.False {
				s.InRevision(rp, "properties the schema does not declare may now be returned (the base forbade them)")
			}
		},
	},
	{
		ID: "response-property-became-required", Level: Info,
		Summary: "an optional response property became required",
		Why:     "consumers that handled its absence keep working",
		Schema: func(s *SchemaCheck) {
			if s.Dir != Response || !s.both("object") {
				return
			}
			for name, path := range sortedRequired(s.Rev.Required) {
				if _, was := s.Base.Required[name]; !was && s.Base.Property(name) != nil {
					s.inRevisionWas(path, s.Base.Property(name).Path, "property %q became required", name)
				}
			}
		},
	},

	// Alternatives.
	{
		ID: "request-schema-alternative-removed", Level: Breaking,
		Summary: "a oneOf or anyOf of a request lost an alternative, and no alternative of the revision accepts its values",
		Why:     "consumers that send values of that alternative are rejected",
		Alternatives: func(s *SchemaCheck) {
			for _, p := range s.Pairs {
				if s.Dir == Request && p.Base != nil && p.Rev == nil {
					s.InBase(p.Base.Path, "%s alternative %s was removed", p.Base.Keyword, p.Base.Key)
				}
			}
		},
	},
	{
		ID: "response-schema-alternative-added", Level: Breaking,
		Summary: "a oneOf or anyOf of a response gained an alternative that no alternative of the base covers",
		Why:     "consumers meet values of a shape they do not handle",
		Alternatives: func(s *SchemaCheck) {
			for _, p := range s.Pairs {
				if s.Dir == Response && p.Rev != nil && p.Base == nil {
					s.InRevision(p.Rev.Path, "%s alternative %s was added", p.Rev.Keyword, p.Rev.Key)
				}
			}
		},
	},
	{
		ID: "request-alternatives-overlap", Level: Breaking,
		Summary: "values the base accepted now match more than one alternative of a request oneOf, which oneOf rejects",
		Why:     "consumers that send such values are rejected, although each alternative alone accepts them",
		Alternatives: func(s *SchemaCheck) {
			for _, p := range s.Pairs {
				if s.Dir == Request && p.Overlap != nil {
					what := "the base's values"
					if p.Base.Keyword != "" {
						what = "values of the base's " + p.Base.Keyword + " alternative " + p.Base.Key
					}
					s.InRevision(p.Overlap.Path, "%s now match both oneOf alternatives %s and %s", what, p.Rev.Key, p.Overlap.Key)
				}
			}
		},
	},
}
