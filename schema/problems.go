package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	plural "github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/spec"
)

var english = message.NewPrinter(language.English)

// problems turns the validator's tree of errors into a flat, sorted list.
func (s *Set) problems(v any, err error) []Problem {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{Keyword: "$schema", Message: err.Error()}}
	}
	var out []Problem
	s.collect(v, ve, &out)
	slices.SortStableFunc(out, func(a, b Problem) int {
		if c := comparePaths(a.Path, b.Path); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Keyword, b.Keyword); c != 0 {
			return c
		}
		return cmp.Compare(a.Message, b.Message)
	})
	return slices.CompactFunc(out, func(a, b Problem) bool {
		return a.Keyword == b.Keyword && a.Message == b.Message && comparePaths(a.Path, b.Path) == 0 &&
			a.Schema.File == b.Schema.File && a.Schema.Pointer == b.Schema.Pointer
	})
}

func comparePaths(a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, xInt := a[i].(int)
		y, yInt := b[i].(int)
		switch {
		case xInt && yInt:
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
		case xInt != yInt:
			if xInt {
				return -1
			}
			return 1
		default:
			if c := cmp.Compare(fmt.Sprint(a[i]), fmt.Sprint(b[i])); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(a), len(b))
}

// collect appends the problems of one error of the tree.
func (s *Set) collect(v any, ve *jsonschema.ValidationError, out *[]Problem) {
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			s.collect(v, c, out)
		}
	case *kind.AnyOf:
		s.closest(v, ve, "anyOf", out)
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			s.closest(v, ve, "oneOf", out)
		} else {
			s.leaf(v, ve, out)
		}
	default:
		s.leaf(v, ve, out)
	}
}

// closest reports a failed anyOf or oneOf by the problems of the branch
// the value came closest to: a branch whose type fits before one whose
// does not, then the branch whose constants (a "type": {"const": …}
// property, say) fit, then the one with the fewest problems. When no
// branch takes the value's type, one problem says which types would do.
func (s *Set) closest(v any, ve *jsonschema.ValidationError, keyword string, out *[]Problem) {
	depth := len(ve.InstanceLocation)
	type branch struct {
		problems  []Problem
		typeMiss  bool
		constMiss int
	}
	var best *branch
	var wanted []string
	for _, c := range ve.Causes {
		b := &branch{}
		s.collect(v, c, &b.problems)
		for _, p := range b.problems {
			if len(p.Path) == depth && p.Keyword == "type" {
				b.typeMiss = true
			}
			if len(p.Path) <= depth+1 && (p.Keyword == "const" || p.Keyword == "enum" || p.Keyword == "discriminator") {
				b.constMiss++
			}
		}
		if b.typeMiss {
			wanted = append(wanted, typesWanted(c, depth)...)
		}
		if best == nil || better(b.typeMiss, b.constMiss, len(b.problems), best.typeMiss, best.constMiss, len(best.problems)) {
			best = b
		}
	}
	if best == nil || best.typeMiss {
		p := Problem{Path: s.instancePath(v, ve.InstanceLocation), Keyword: keyword, Schema: s.location(ve.SchemaURL, []string{keyword})}
		got := valueAt(v, ve.InstanceLocation)
		if types := nullLast(uniqueStrings(wanted)); len(types) > 0 {
			p.Message = fmt.Sprintf("expected %s, found %s", orList(types), describe(got))
		} else {
			p.Message = fmt.Sprintf("%s is valid against none of the %s schemas", describe(got), keyword)
		}
		*out = append(*out, p)
		return
	}
	*out = append(*out, best.problems...)
}

func better(typeMiss bool, constMiss, n int, bestTypeMiss bool, bestConstMiss, bestN int) bool {
	if typeMiss != bestTypeMiss {
		return !typeMiss
	}
	if constMiss != bestConstMiss {
		return constMiss < bestConstMiss
	}
	return n < bestN
}

// typesWanted finds the types a branch wanted of the value at depth.
func typesWanted(ve *jsonschema.ValidationError, depth int) []string {
	if k, ok := ve.ErrorKind.(*kind.Type); ok && len(ve.InstanceLocation) == depth {
		return k.Want
	}
	var out []string
	for _, c := range ve.Causes {
		out = append(out, typesWanted(c, depth)...)
	}
	return out
}

// nullLast lists types with null last: "string or null".
func nullLast(types []string) []string {
	i := slices.Index(types, "null")
	if i < 0 || i == len(types)-1 {
		return types
	}
	return append(slices.Delete(slices.Clone(types), i, i+1), "null")
}

func uniqueStrings(l []string) []string {
	var out []string
	for _, s := range l {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// leaf appends the problems of an error that is not a group of others.
func (s *Set) leaf(v any, ve *jsonschema.ValidationError, out *[]Problem) {
	path := s.instancePath(v, ve.InstanceLocation)
	got := valueAt(v, ve.InstanceLocation)
	kw := ve.ErrorKind.KeywordPath()
	keyword := ""
	if len(kw) > 0 {
		keyword = kw[0]
	}
	add := func(path []any, keyword, msg string, kwPath []string) {
		*out = append(*out, Problem{Path: path, Keyword: keyword, Message: msg, Schema: s.location(ve.SchemaURL, kwPath)})
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			add(path, "required", fmt.Sprintf("missing required property %q", name), s.requiredEntry(ve.SchemaURL, "required", name))
		}
	case *kind.DependentRequired:
		for _, name := range k.Missing {
			add(path, "dependentRequired", fmt.Sprintf("property %q requires property %q", k.Prop, name), kw)
		}
	case *kind.Dependency:
		for _, name := range k.Missing {
			add(path, "dependencies", fmt.Sprintf("property %q requires property %q", k.Prop, name), kw)
		}
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			add(append(slices.Clip(path), name), "additionalProperties", fmt.Sprintf("property %q is not allowed", name), kw)
		}
	case *kind.FalseSchema:
		parent, msg := falseSchemaMessage(ve.SchemaURL, path)
		*out = append(*out, Problem{Path: path, Keyword: parent, Message: msg, Schema: s.location(ve.SchemaURL, nil)})
	default:
		if keyword == "" {
			keyword = "$ref"
		}
		if _, ok := ve.ErrorKind.(*discriminatorKind); ok {
			keyword = "discriminator"
		}
		add(path, keyword, wording(ve, got), kw)
	}
}

// falseSchemaMessage words the failure of a false schema by where it is
// written: after additionalProperties, unevaluatedProperties, items, … it
// forbids a property or an item.
func falseSchemaMessage(schemaURL string, path []any) (keyword, msg string) {
	_, frag, _ := strings.Cut(schemaURL, "#")
	frag, _ = url.PathUnescape(frag)
	toks := strings.Split(frag, "/")
	keyword = toks[len(toks)-1]
	if len(toks) >= 2 && toks[len(toks)-2] == "properties" {
		keyword = "properties"
	}
	var last any
	if len(path) > 0 {
		last = path[len(path)-1]
	}
	switch keyword {
	case "additionalProperties", "unevaluatedProperties", "properties", "patternProperties":
		if name, ok := last.(string); ok {
			return keyword, fmt.Sprintf("property %q is not allowed", name)
		}
	case "items", "additionalItems", "unevaluatedItems", "prefixItems":
		if i, ok := last.(int); ok {
			return keyword, fmt.Sprintf("item %d is not allowed", i)
		}
	}
	if keyword == "" || strings.HasPrefix(keyword, "x-specgate") {
		keyword = "false"
	}
	return keyword, "no value is allowed here"
}

// wording words a failure: what was expected, what was found.
func wording(ve *jsonschema.ValidationError, got any) string {
	switch k := ve.ErrorKind.(type) {
	case *kind.Type:
		return fmt.Sprintf("expected %s, found %s", orList(nullLast(k.Want)), describe(got))
	case *kind.Enum:
		return fmt.Sprintf("expected one of %s, found %s", valueList(k.Want), describe(got))
	case *kind.Const:
		return fmt.Sprintf("expected %s, found %s", literal(k.Want), describe(got))
	case *kind.Format:
		msg := fmt.Sprintf("%s is not a valid %s", describe(got), k.Want)
		if k.Err != nil {
			msg += ": " + k.Err.Error()
		}
		return msg
	case *kind.Pattern:
		return fmt.Sprintf("%s does not match pattern \"%s\"", describe(got), k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("expected at least %s, found %d", plural.Count(k.Want, "character", "characters"), k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("expected at most %s, found %d", plural.Count(k.Want, "character", "characters"), k.Got)
	case *kind.Minimum:
		return fmt.Sprintf("expected a number >= %s, found %s", ratString(k.Want), describe(got))
	case *kind.Maximum:
		return fmt.Sprintf("expected a number <= %s, found %s", ratString(k.Want), describe(got))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("expected a number > %s, found %s", ratString(k.Want), describe(got))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("expected a number < %s, found %s", ratString(k.Want), describe(got))
	case *kind.MultipleOf:
		return fmt.Sprintf("expected a multiple of %s, found %s", ratString(k.Want), describe(got))
	case *kind.MinItems:
		return fmt.Sprintf("expected at least %s, found %d", plural.Count(k.Want, "item", "items"), k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("expected at most %s, found %d", plural.Count(k.Want, "item", "items"), k.Got)
	case *kind.AdditionalItems:
		return fmt.Sprintf("%s more than the schema allows", plural.Count(k.Count, "item", "items"))
	case *kind.UniqueItems:
		return fmt.Sprintf("items %d and %d are equal; expected unique items", k.Duplicates[0], k.Duplicates[1])
	case *kind.MinProperties:
		return fmt.Sprintf("expected at least %s, found %d", plural.Count(k.Want, "property", "properties"), k.Got)
	case *kind.MaxProperties:
		return fmt.Sprintf("expected at most %s, found %d", plural.Count(k.Want, "property", "properties"), k.Got)
	case *kind.Contains:
		return "expected at least one item valid against the contains schema, found none"
	case *kind.MinContains:
		return fmt.Sprintf("expected at least %s valid against the contains schema, found %d", plural.Count(k.Want, "item", "items"), len(k.Got))
	case *kind.MaxContains:
		return fmt.Sprintf("expected at most %s valid against the contains schema, found %d", plural.Count(k.Want, "item", "items"), len(k.Got))
	case *kind.Not:
		return fmt.Sprintf("%s must not be valid against the not schema", describe(got))
	case *kind.OneOf:
		return fmt.Sprintf("%s is valid against more than one oneOf schema (%d and %d); expected exactly one", describe(got), k.Subschemas[0], k.Subschemas[1])
	case *kind.PropertyNames:
		var causes []string
		for _, c := range ve.Causes {
			causes = append(causes, wording(c, k.Property))
		}
		msg := fmt.Sprintf("property name %q is not valid", k.Property)
		if len(causes) > 0 {
			msg += ": " + strings.Join(causes, "; ")
		}
		return msg
	case *kind.InvalidJsonValue:
		return fmt.Sprintf("%T is not a JSON value", k.Value)
	case *kind.RefCycle:
		return "the schema refers to itself without reaching a value"
	case *discriminatorKind:
		return k.message()
	}
	return ve.ErrorKind.LocalizedString(english)
}

// orList joins names with commas and a final "or".
func orList(l []string) string {
	if len(l) == 0 {
		return "nothing"
	}
	return plural.List(l, "or")
}

// valueList renders the values of an enum, the first few of a long one.
func valueList(values []any) string {
	const shown = 10
	parts := make([]string, 0, min(len(values), shown)+1)
	for i, v := range values {
		if i == shown {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(values)-shown))
			break
		}
		parts = append(parts, literal(v))
	}
	return strings.Join(parts, ", ")
}

// describe renders a found value for a message: its type, and a scalar's
// value (long strings cut).
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("boolean %t", v)
	case string:
		return "string " + literal(v)
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		return "number " + literal(v)
	}
	return fmt.Sprintf("%T", v)
}

// literal renders a value as JSON text, cutting long strings.
func literal(v any) string {
	const maxRunes = 60
	if s, ok := v.(string); ok && utf8.RuneCountInString(s) > maxRunes {
		r := []rune(s)
		return strconv.Quote(string(r[:maxRunes])+"…") + fmt.Sprintf(" (%d characters)", len(r))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// ratString writes an exact number in decimal notation where it has one.
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	if s, exact := r.FloatPrec(); exact {
		return r.FloatString(s)
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// instancePath converts the validator's instance location (tokens) into a
// Problem path, with ints for array indices.
func (s *Set) instancePath(v any, loc []string) []any {
	path := make([]any, len(loc))
	cur := v
	for i, tok := range loc {
		switch c := cur.(type) {
		case []any:
			n, err := strconv.Atoi(tok)
			if err == nil && n >= 0 && n < len(c) {
				path[i], cur = n, c[n]
				continue
			}
		case map[string]any:
			path[i], cur = tok, c[tok]
			continue
		}
		path[i], cur = tok, nil
	}
	return path
}

// valueAt returns the value at an instance location.
func valueAt(v any, loc []string) any {
	cur := v
	for _, tok := range loc {
		switch c := cur.(type) {
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(c) {
				return nil
			}
			cur = c[n]
		case map[string]any:
			cur = c[tok]
		default:
			return nil
		}
	}
	return cur
}

// sourcePath maps a schema location of the validator (a unit's URL and a
// pointer within its converted value) to the unit and the path, from the
// unit's file root, where the source writes it.
func (s *Set) sourcePath(schemaURL string, kw []string) (*unit, []any) {
	base, frag, _ := strings.Cut(schemaURL, "#")
	uv, ok := s.byURL.Load(base)
	if !ok {
		return nil, nil
	}
	u := uv.(*unit)
	frag, _ = url.PathUnescape(frag)
	path := spec.PointerPath(u.ptr)
	for _, tok := range spec.PointerPath(frag) {
		if t := tok.(string); t == kwNullable || t == kwDiscriminator {
			continue
		}
		path = append(path, tok)
	}
	for _, k := range kw {
		path = append(path, k)
	}
	return u, path
}

// location is where a keyword of a schema is written.
func (s *Set) location(schemaURL string, kw []string) spec.Location {
	u, path := s.sourcePath(schemaURL, kw)
	if u == nil {
		return spec.Location{}
	}
	return s.doc.LocateIn(u.file, path, nil)
}

// requiredEntry returns the keyword path of one name of a required list
// ("required", 3), as the source writes it; the list when it is not found.
func (s *Set) requiredEntry(schemaURL, keyword, name string) []string {
	u, path := s.sourcePath(schemaURL, nil)
	if u == nil {
		return []string{keyword}
	}
	var list *spec.Node
	loc := s.doc.LocateIn(u.file, append(path, keyword), func(n *spec.Node) { list = n })
	if loc.Exact && list != nil && list.Kind == spec.Array {
		for i, it := range list.Items {
			if it.Kind == spec.String && it.Value == name {
				return []string{keyword, strconv.Itoa(i)}
			}
		}
	}
	return []string{keyword}
}

// compileError turns an error of the compiler into a *spec.Error naming
// the position of what does not compile.
func (s *Set) compileError(entry *unit, err error) error {
	var at string // the validator's location of the failure
	msg := err.Error()
	switch e := err.(type) {
	case *jsonschema.LoadURLError:
		if se, ok := e.Err.(*spec.Error); ok {
			return se
		}
		at, msg = e.URL, e.Err.Error()
	case *jsonschema.InvalidRegexError:
		at, msg = e.URL, fmt.Sprintf("invalid regular expression %q: %v", e.Regex, e.Err)
	case *jsonschema.SchemaValidationError:
		at = e.URL
		if ve, ok := e.Err.(*jsonschema.ValidationError); ok {
			leafErr := firstLeaf(ve)
			kw := leafErr.InstanceLocation
			msg = "invalid schema: " + wording(leafErr, nil)
			if len(kw) > 0 {
				msg = fmt.Sprintf("invalid %s: %s", kw[len(kw)-1], wording(leafErr, nil))
			}
			at = strings.TrimSuffix(e.URL, "#") + "#" + pointerJoin(strings.SplitN(strings.TrimPrefix(fragmentOf(e.URL), "/"), "/", -1), kw)
		}
	}
	file, ptr := entry.file, entry.ptr
	var path []any
	if u, p := s.sourcePath(at, nil); u != nil {
		file, ptr, path = u.file, spec.Pointer(p), p
	} else {
		path = spec.PointerPath(ptr)
	}
	loc := s.doc.LocateIn(file, path, nil)
	return &spec.Error{File: file.Name, Pos: loc.Range.Start, Pointer: ptr, Msg: msg, Err: err}
}

func firstLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve
}

func fragmentOf(u string) string {
	_, frag, _ := strings.Cut(u, "#")
	frag, _ = url.PathUnescape(frag)
	return frag
}

func pointerJoin(base, more []string) string {
	var b strings.Builder
	for _, t := range append(base, more...) {
		if t == "" {
			continue
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(escapeToken(t)))
	}
	return b.String()
}
