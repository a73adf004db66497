package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"

	"github.com/specgate/specgate/spec"
)

// discriminator converts an OpenAPI discriminator. With a oneOf or anyOf
// beside it, the converted schema holds that list under kwDiscriminator
// instead, so that the value of the property selects the one branch to
// check (and to report about). Without one, it is kept for generation: a
// value of a subtype names the subtype (inheritance through allOf).
func (cv *converter) discriminator(n *spec.Node, out map[string]any) {
	d := n.Get("discriminator")
	if d == nil {
		return
	}
	ext := map[string]any{}
	var mapping *spec.Node
	kw := []any{"discriminator"}
	switch {
	case d.Kind == spec.String && cv.s.dialect == swagger2:
		ext["propertyName"] = d.Value
	case d.Kind == spec.Object && cv.s.dialect != swagger2 && d.Get("propertyName") != nil && d.Get("propertyName").Kind == spec.String:
		ext["propertyName"] = d.GetStr("propertyName")
		mapping = d.Get("mapping")
		kw = append(kw, "propertyName")
	default:
		return
	}
	ext["keyword"] = kw
	of := cv.discriminated(n)
	var branches []*spec.Node
	if _, ok := out[of]; ok {
		ext["of"] = of
		ext[of] = out[of]
		delete(out, of)
		branches = n.Get(of).Items
		names := make([]any, len(branches))
		for i, b := range branches {
			names[i] = ""
			if r := cv.s.doc.RefOf(b); r != nil && r.Target != nil {
				names[i] = lastToken(r.TargetPtr)
			}
		}
		ext["names"] = names
	}
	if mapping != nil && mapping.Kind == spec.Object {
		var entries []any
		for _, f := range mapping.Fields {
			if f.Value.Kind != spec.String {
				continue
			}
			if target := cv.mappingTarget(f.Value.Value, branches); target != nil {
				entries = append(entries, []any{f.Key, target})
			}
		}
		ext["mapping"] = entries
	}
	out[kwDiscriminator] = ext
}

// discriminated returns the list of schemas, oneOf or anyOf, that the
// discriminator of n selects from; "" when there is none.
func (cv *converter) discriminated(n *spec.Node) string {
	d := n.Get("discriminator")
	if d == nil || d.Kind != spec.Object || cv.s.dialect == swagger2 {
		return ""
	}
	if p := d.Get("propertyName"); p == nil || p.Kind != spec.String {
		return ""
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if l := n.Get(k); l != nil && l.Kind == spec.Array && len(l.Items) > 0 {
			return k
		}
	}
	return ""
}

// mappingTarget resolves a discriminator mapping value, a schema name or a
// reference: to the index of the branch it names (json.Number), else to
// the URL of its unit; nil when it resolves to nothing.
func (cv *converter) mappingTarget(value string, branches []*spec.Node) any {
	for i, b := range branches {
		if ref := b.GetStr("$ref"); ref != "" && ref == value {
			return json.Number(strconv.Itoa(i))
		}
	}
	ptr := value
	file := cv.u.file
	if !strings.Contains(value, "#") && !strings.Contains(value, "/") {
		ptr = "#/components/schemas/" + escapeToken(value)
		if cv.s.dialect == swagger2 {
			ptr = "#/definitions/" + escapeToken(value)
		}
		file = cv.s.doc.Root
	}
	loc, target := cv.s.locate(file, ptr)
	if target == nil {
		// A reference to another file: matched by the schema's name.
		for i, b := range branches {
			if r := cv.s.doc.RefOf(b); r != nil && r.Target != nil && lastToken(r.TargetPtr) == lastToken(value) {
				return json.Number(strconv.Itoa(i))
			}
		}
		return nil
	}
	for i, b := range branches {
		if cv.s.doc.Deref(b) == target {
			return json.Number(strconv.Itoa(i))
		}
	}
	return cv.s.unitFor(target, loc.File, loc.Pointer, cv.u.dir).url
}

// lastToken returns the last token of a JSON pointer or a $ref, unescaped.
func lastToken(ref string) string {
	if i := strings.LastIndexByte(ref, '/'); i >= 0 {
		ref = ref[i+1:]
	}
	return strings.ReplaceAll(strings.ReplaceAll(ref, "~1", "/"), "~0", "~")
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// vocabulary is specgate's vocabulary of the keywords that the conversion
// writes for what JSON Schema cannot say.
var vocabulary = &jsonschema.Vocabulary{
	URL: "https://specgate.invalid/vocab/openapi",
	Subschemas: []jsonschema.SchemaPath{
		{jsonschema.Prop(kwNullable)},
		{jsonschema.Prop(kwDiscriminator), jsonschema.Prop("oneOf"), jsonschema.AllItem{}},
		{jsonschema.Prop(kwDiscriminator), jsonschema.Prop("anyOf"), jsonschema.AllItem{}},
	},
	Compile: compileVocabulary,
}

func compileVocabulary(ctx *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
	if _, ok := obj[kwNullable]; ok {
		return &nullableExt{schema: ctx.Enqueue([]string{kwNullable})}, nil
	}
	d, ok := obj[kwDiscriminator].(map[string]any)
	if !ok {
		return nil, nil
	}
	ext := &discriminatorExt{prop: d["propertyName"].(string)}
	for _, k := range d["keyword"].([]any) {
		ext.keyword = append(ext.keyword, k.(string))
	}
	ext.of, _ = d["of"].(string)
	if ext.of != "" {
		for i := range d[ext.of].([]any) {
			ext.branches = append(ext.branches, ctx.Enqueue([]string{kwDiscriminator, ext.of, strconv.Itoa(i)}))
		}
		for _, name := range d["names"].([]any) {
			ext.names = append(ext.names, name.(string))
		}
	}
	entries, _ := d["mapping"].([]any)
	for _, e := range entries {
		pair := e.([]any)
		m := mappingEntry{value: pair[0].(string), branch: -1}
		switch t := pair[1].(type) {
		case json.Number:
			i, _ := strconv.Atoi(string(t))
			m.branch = i
			m.schema = ext.branches[i]
		case string:
			m.url = t
			if ext.of != "" {
				sch, err := ctx.EnqueueRef(t)
				if err != nil {
					return nil, err
				}
				m.schema = sch
			}
		}
		ext.mapping = append(ext.mapping, m)
	}
	return ext, nil
}

// nullableExt accepts null, and checks any other value against the
// schema as written.
type nullableExt struct {
	schema *jsonschema.Schema
}

func (e *nullableExt) Validate(ctx *jsonschema.ValidatorContext, v any) {
	if v == nil {
		return
	}
	if err := ctx.Validate(e.schema, v, nil); err != nil {
		ctx.AddErr(err)
	}
}

// discriminatorExt is an OpenAPI discriminator: the value of prop selects
// the branch of of (oneOf or anyOf) that a value is checked against, by
// the mapping, else by the names of the branches' schemas. of is empty when
// the discriminator only names subtypes.
type discriminatorExt struct {
	prop     string
	keyword  []string // where the discriminator is written, for problems
	of       string
	branches []*jsonschema.Schema
	names    []string // the implicit value of each branch, "" for none
	mapping  []mappingEntry
}

type mappingEntry struct {
	value  string
	branch int                // index in branches, or -1
	schema *jsonschema.Schema // nil when not compiled (of is empty)
	url    string             // the unit of a schema that is no branch
}

// selected returns the schema a discriminator value selects, or nil.
func (e *discriminatorExt) selected(value string) *jsonschema.Schema {
	for _, m := range e.mapping {
		if m.value == value {
			return m.schema
		}
	}
	for i, name := range e.names {
		if name != "" && name == value {
			return e.branches[i]
		}
	}
	return nil
}

// values lists the discriminator values that select a schema, mapping
// first.
func (e *discriminatorExt) values() []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range e.mapping {
		if !seen[m.value] && m.schema != nil {
			seen[m.value] = true
			out = append(out, m.value)
		}
	}
	for _, name := range e.names {
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

func (e *discriminatorExt) Validate(ctx *jsonschema.ValidatorContext, v any) {
	if e.of == "" {
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		e.any(ctx, v)
		return
	}
	pv, ok := obj[e.prop]
	if !ok {
		ctx.AddError(&discriminatorKind{ext: e, missing: true})
		return
	}
	var sch *jsonschema.Schema
	if s, ok := pv.(string); ok {
		sch = e.selected(s)
	}
	switch {
	case sch != nil:
		if err := ctx.Validate(sch, v, nil); err != nil {
			ctx.AddErr(err)
		}
	case len(e.mapping) > 0:
		ctx.AddError(&discriminatorKind{ext: e, got: pv})
	default:
		// Without a mapping, a value that names no branch is checked
		// against all of them, as kin-openapi does: many documents use
		// values that are not their schemas' names.
		e.any(ctx, v)
	}
}

// any checks a value as oneOf or anyOf do.
func (e *discriminatorExt) any(ctx *jsonschema.ValidatorContext, v any) {
	var errs []*jsonschema.ValidationError
	var matched []int
	for i, b := range e.branches {
		if err := ctx.Validate(b, v, nil); err != nil {
			errs = append(errs, err.(*jsonschema.ValidationError))
		} else {
			matched = append(matched, i)
		}
	}
	switch {
	case len(matched) == 0 && e.of == "oneOf":
		ctx.AddErrors(errs, &kind.OneOf{})
	case len(matched) == 0:
		ctx.AddErrors(errs, &kind.AnyOf{})
	case len(matched) > 1 && e.of == "oneOf":
		ctx.AddError(&kind.OneOf{Subschemas: matched[:2]})
	}
}

// discriminatorKind is the failure of a value to carry a discriminator
// value that selects a schema.
type discriminatorKind struct {
	ext     *discriminatorExt
	missing bool
	got     any
}

func (k *discriminatorKind) KeywordPath() []string {
	if !k.missing && len(k.ext.mapping) > 0 {
		return []string{"discriminator", "mapping"}
	}
	return k.ext.keyword
}

func (k *discriminatorKind) LocalizedString(*message.Printer) string {
	return k.message()
}

func (k *discriminatorKind) message() string {
	if k.missing {
		return fmt.Sprintf("missing discriminator property %q", k.ext.prop)
	}
	values := k.ext.values()
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	return fmt.Sprintf("discriminator property %q is %s, which is not one of the discriminator mapping values %s", k.ext.prop, literal(k.got), strings.Join(quoted, ", "))
}
