package dsl

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// field binds tf, tp and tv: the target of one check, from f, p and v.
func (g *gen) field(i int, t *Then) []string {
	switch {
	case t.Field == "":
		return []string{"tf := f", "tp := p", "tv := v"}
	case t.Field == "@key":
		return []string{"some [tf, tp, tv] in dsl.keys_of(f, p, v)"}
	case strings.HasPrefix(t.Field, "$"):
		p, err := ParsePath(t.Field)
		if err != nil {
			g.e.at(t.FieldPos, "field: %v", err)
			return nil
		}
		body, end, ok := g.steps(p, cursor{file: "f", path: "p", value: "v", key: "null"}, Name{t.Field, t.FieldPos})
		if !ok {
			return nil
		}
		name := fmt.Sprintf("_field%d", i)
		last := fmt.Sprintf("[%s, %s, %s]", end.file, end.path, end.value)
		if p.KeyOf {
			last = fmt.Sprintf("[%s, %s, %s]", end.file, end.path, end.key)
		}
		fmt.Fprintf(&g.helper, "%s(f, p, v) := {[f, p, v]} if not dsl.is_obj(v)\n\nelse := ts if {\n\tts := {t |\n", name)
		for _, l := range body {
			g.helper.WriteString("\t\t" + l + "\n")
		}
		fmt.Fprintf(&g.helper, "\t\tt := %s\n\t}\n\tcount(ts) > 0\n} else := {[f, p, dsl.undefined]}\n\n", last)
		return []string{fmt.Sprintf("some [tf, tp, tv] in %s(f, p, v)", name)}
	}
	segs, err := lodashPath(t.Field)
	if err != nil {
		g.e.at(t.FieldPos, "field %q: %v", t.Field, err)
		return nil
	}
	name := fmt.Sprintf("_field%d", i)
	fmt.Fprintf(&g.helper, "%s(f0, p0, v0) := [f0, p0, v0] if not dsl.is_obj(v0)\n\nelse := [f%d, p%d, v%d] if {\n", name, len(segs), len(segs), len(segs))
	for j, s := range segs {
		fmt.Fprintf(&g.helper, "\tx%d := dsl.get(v%d, %s)\n", j+1, j, s)
		if g.def.Resolved {
			fmt.Fprintf(&g.helper, "\t[f%d, p%d, v%d] := dsl.deref(f%d, array.concat(p%d, [%s]), x%d)\n", j+1, j+1, j+1, j, j, s, j+1)
		} else {
			fmt.Fprintf(&g.helper, "\tf%d := f%d\n\tp%d := array.concat(p%d, [%s])\n\tv%d := x%d\n", j+1, j, j+1, j, s, j+1, j+1)
		}
	}
	g.helper.WriteString("}\n\n")
	return []string{fmt.Sprintf("[tf, tp, tv] := %s(f, p, v)", name)}
}

// lodashPath splits a field the way lodash's toPath does: dots and
// brackets, with quoted names; returns Rego terms (numbers stay strings so
// that dsl.get serves objects and arrays alike).
func lodashPath(s string) ([]string, error) {
	var out []string
	i := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == '.':
			i++
		case c == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed '['")
			}
			inner := strings.TrimSpace(s[i+1 : i+end])
			if len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0] {
				inner = inner[1 : len(inner)-1]
			}
			out = append(out, quote(inner))
			i += end + 1
		default:
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			out = append(out, quote(s[i:j]))
			i = j
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty field")
	}
	return out, nil
}

// function validates a check's function and options and returns the call
// expression yielding its error set, or "" after reporting an error.
func (g *gen) function(t *Then) string {
	opts := t.Options
	noOptions := func() bool {
		if opts != nil && opts.Kind != spec.Null {
			g.e.at(opts.Range.Start, "%q function does not accept any options", t.Function)
			return false
		}
		return true
	}
	switch t.Function {
	case "truthy", "falsy", "defined", "undefined", "typedEnum":
		if !noOptions() {
			return ""
		}
		return fmt.Sprintf("dsl.fn_%s(tv, null)", t.Function)
	case "pattern":
		o := g.eitherOption(t, "match", "notMatch")
		if o == nil {
			return ""
		}
		args := map[string]any{"match": nil, "notMatch": nil, "matchSource": nil, "notMatchSource": nil}
		for _, k := range []string{"match", "notMatch"} {
			if n := o[k]; n != nil {
				s, ok := str(n, k, g.e)
				if !ok {
					return ""
				}
				re, err := ParsePattern(s)
				if err != nil {
					g.e.at(n.Range.Start, "%v", err)
					return ""
				}
				args[k], args[k+"Source"] = re.RE2, s
			}
		}
		return fmt.Sprintf("dsl.fn_pattern(tv, %s)", jsonLit(args))
	case "casing":
		return g.casing(t)
	case "enumeration":
		o := g.options(t, []string{"values"}, []string{"values"})
		if o == nil {
			return ""
		}
		vals := o["values"]
		if vals.Kind != spec.Array {
			g.e.at(vals.Range.Start, `"enumeration" function and its "values" option accepts only an array`)
			return ""
		}
		printed := make([]string, len(vals.Items))
		for i, it := range vals.Items {
			if it.Kind == spec.Object || it.Kind == spec.Array {
				g.e.at(it.Range.Start, `"enumeration" values must be strings, numbers, booleans or null`)
				return ""
			}
			printed[i] = nodeJSON(it)
		}
		return fmt.Sprintf("dsl.fn_enumeration(tv, {\"values\": %s, \"printed\": %s})", nodeJSON(vals), quote(strings.Join(printed, ", ")))
	case "length":
		o := g.eitherOption(t, "min", "max")
		if o == nil {
			return ""
		}
		args := map[string]string{"min": "null", "max": "null"}
		for _, k := range []string{"min", "max"} {
			if n := o[k]; n != nil {
				if n.Kind != spec.Number {
					g.e.at(n.Range.Start, `"length" function and its %q option accepts only a number`, k)
					return ""
				}
				args[k] = n.Value
			}
		}
		return fmt.Sprintf(`dsl.fn_length(tv, {"min": %s, "max": %s})`, args["min"], args["max"])
	case "alphabetical":
		if opts == nil || opts.Kind == spec.Null {
			return `dsl.fn_alphabetical(tf, tp, tv, {"keyedBy": null})`
		}
		o := g.options(t, []string{"keyedBy"}, nil)
		if o == nil {
			return ""
		}
		key := "null"
		if n := o["keyedBy"]; n != nil {
			s, ok := str(n, "keyedBy", g.e)
			if !ok {
				return ""
			}
			key = quote(s)
		}
		return fmt.Sprintf(`dsl.fn_alphabetical(tf, tp, tv, {"keyedBy": %s})`, key)
	case "xor", "or":
		o := g.options(t, []string{"properties"}, []string{"properties"})
		if o == nil {
			return ""
		}
		props := stringList(o["properties"], "properties", g.e)
		if len(props) < 2 {
			g.e.at(o["properties"].Range.Start, "%q function needs at least two properties", t.Function)
			return ""
		}
		names := make([]string, len(props))
		for i, p := range props {
			names[i] = p.Value
		}
		return fmt.Sprintf(`dsl.fn_%s(tv, {"properties": %s})`, t.Function, regoArray(names))
	case "schema":
		o := g.options(t, []string{"schema", "dialect", "allErrors", "prepareResults"}, []string{"schema"})
		if o == nil {
			return ""
		}
		if s := o["schema"]; s.Kind != spec.Object && s.Kind != spec.Bool {
			g.e.at(s.Range.Start, `"schema" function and its "schema" option accepts only an object or a boolean`)
			return ""
		}
		dialect := "auto"
		if n := o["dialect"]; n != nil {
			dialects := []string{"auto", "draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"}
			if n.Kind != spec.String || !slices.Contains(dialects, n.Value) {
				g.e.at(n.Range.Start, `"schema" function and its "dialect" option accepts only: %s%s`, strings.Join(dialects, ", "), Suggest(n.Value, dialects))
				return ""
			}
			dialect = n.Value
		}
		if _, err := CheckSchema(nodeJSON(o["schema"]), dialect); err != nil {
			if strings.Contains(err.Error(), "json-pointer in") && strings.Contains(err.Error(), "not found") {
				// A $ref to something the schema does not define: Spectral
				// silently never runs such a rule; specgate says so.
				g.e.list = append(g.e.list, &UnsupportedError{Rule: g.def.ID, File: g.def.File, Pos: o["schema"].Range.Start,
					Reason: fmt.Sprintf("its schema option has a $ref the schema does not define (%v); Spectral ignores such a rule", err)})
				return ""
			}
			g.e.at(o["schema"].Range.Start, "invalid JSON Schema: %v", err)
			return ""
		}
		all := "false"
		if n := o["allErrors"]; n != nil {
			all = strconv.FormatBool(boolean(n, "allErrors", g.e))
		}
		return fmt.Sprintf(`dsl.fn_schema(tv, {"schema": %s, "dialect": %s, "allErrors": %s})`, nodeJSON(o["schema"]), quote(dialect), all)
	case "unreferencedReusableObject":
		o := g.options(t, []string{"reusableObjectsLocation"}, []string{"reusableObjectsLocation"})
		if o == nil {
			return ""
		}
		if s, ok := str(o["reusableObjectsLocation"], "reusableObjectsLocation", g.e); ok && !strings.HasPrefix(s, "#") {
			g.e.at(o["reusableObjectsLocation"].Range.Start, `"reusableObjectsLocation" is a JSON pointer fragment such as "#/components/schemas"`)
			return ""
		}
		return "dsl.fn_unreferencedReusableObject(tf, tp, tv, null)"
	}
	if ref, ok := g.env.Functions[t.Function]; ok {
		o := "null"
		if opts != nil {
			o = nodeJSON(opts)
		}
		return fmt.Sprintf(`dsl.custom_results(%s(tv, %s, {"path": tp, "file": tf, "given": p, "rule": %s}))`, ref, o, quote(g.def.ID))
	}
	if d := Suggest(t.Function, builtinFunctions); d != "" {
		g.e.at(t.FunctionPos, "unknown function %q%s", t.Function, d)
		return ""
	}
	g.e.list = append(g.e.list, &MissingFunctionError{Function: t.Function, Rule: g.def.ID, File: g.def.File, Pos: t.FunctionPos})
	return ""
}

// optionsPos is where a check's options are written, or its function
// when it has none.
func optionsPos(t *Then) spec.Pos {
	if t.Options != nil {
		return t.Options.Range.Start
	}
	return t.FunctionPos
}

// options checks a function's options object: only known keys, required
// ones present. It returns nil after reporting an error.
func (g *gen) options(t *Then, known, required []string) map[string]*spec.Node {
	o := t.Options
	if o == nil || o.Kind == spec.Null {
		if len(required) > 0 {
			g.e.at(t.FunctionPos, "%q function is missing %q option", t.Function, required[0])
			return nil
		}
		return map[string]*spec.Node{}
	}
	if o.Kind != spec.Object {
		g.e.at(o.Range.Start, "functionOptions of %q must be a mapping, found %s", t.Function, o.Kind)
		return nil
	}
	out := map[string]*spec.Node{}
	ok := true
	for _, f := range o.Fields {
		if !slices.Contains(known, f.Key) {
			g.e.at(f.KeyRange.Start, "%q function does not support %q option%s", t.Function, f.Key, Suggest(f.Key, known))
			ok = false
			continue
		}
		out[f.Key] = f.Value
	}
	for _, r := range required {
		if out[r] == nil {
			g.e.at(o.Range.Start, "%q function is missing %q option", t.Function, r)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return out
}

// eitherOption checks the options of a function that takes the options a
// and b, one of them at least: pattern's match and notMatch, length's min
// and max. It returns nil after reporting an error.
func (g *gen) eitherOption(t *Then, a, b string) map[string]*spec.Node {
	o := g.options(t, []string{a, b}, nil)
	if o != nil && o[a] == nil && o[b] == nil {
		g.e.at(optionsPos(t), "%q function needs a %q or %q option", t.Function, a, b)
		return nil
	}
	return o
}

var casingTypes = []string{"flat", "camel", "pascal", "kebab", "cobol", "snake", "macro"}

// casingPatterns are the word shapes of each casing; D stands for the
// digit class, empty when digits are disallowed.
var casingPatterns = map[string]string{
	"flat":   `[a-zD]*`,
	"camel":  `[a-zD]*(?:[A-ZD](?:[a-zD]+|$))*`,
	"pascal": `[a-zD]*(?:[A-ZD](?:[a-zD]+|$))*`,
	"kebab":  `[a-zD]*(?:-[a-zD]+)*`,
	"cobol":  `[A-ZD]*(?:-[A-ZD]+)*`,
	"snake":  `[a-zD]*(?:_[a-zD]+)*`,
	"macro":  `[A-ZD]*(?:_[A-ZD]+)*`,
}

func (g *gen) casing(t *Then) string {
	o := g.options(t, []string{"type", "disallowDigits", "separator"}, []string{"type"})
	if o == nil {
		return ""
	}
	typ, ok := str(o["type"], "type", g.e)
	if !ok {
		return ""
	}
	if !slices.Contains(casingTypes, typ) {
		g.e.at(o["type"].Range.Start, `"casing" function and its "type" option accept the following values: %s%s`, strings.Join(casingTypes, ", "), Suggest(typ, casingTypes))
		return ""
	}
	digits := "0-9"
	if n := o["disallowDigits"]; n != nil && boolean(n, "disallowDigits", g.e) {
		digits = ""
	}
	first := map[string]string{"flat": "[a-z]", "camel": "[a-z]", "pascal": "[A-Z]", "kebab": "[a-z]", "cobol": "[A-Z]", "snake": "[a-z]", "macro": "[A-Z]"}[typ]
	word := first + strings.ReplaceAll(casingPatterns[typ], "D", digits)
	pattern := "^" + word + "$"
	leading := "null"
	if sep := o["separator"]; sep != nil {
		if sep.Kind != spec.Object || sep.Get("char") == nil {
			g.e.at(sep.Range.Start, `"casing" function's "separator" option is {char, allowLeading}`)
			return ""
		}
		for _, f := range sep.Fields {
			if f.Key != "char" && f.Key != "allowLeading" {
				g.e.at(f.KeyRange.Start, `"casing" function does not support "separator.%s" option%s`, f.Key, Suggest(f.Key, []string{"char", "allowLeading"}))
				return ""
			}
		}
		ch, ok := str(sep.Get("char"), "separator.char", g.e)
		if !ok || len([]rune(ch)) != 1 {
			g.e.at(sep.Get("char").Range.Start, `"casing" function and its "separator.char" option accepts only one character, such as "/" or "-"`)
			return ""
		}
		sepClass := "[" + regexp.QuoteMeta(ch) + "]"
		lead := ""
		if al := sep.Get("allowLeading"); al != nil && boolean(al, "separator.allowLeading", g.e) {
			lead = sepClass + "?"
			leading = quote(ch)
		}
		pattern = "^" + lead + word + "(?:" + sepClass + word + ")*$"
	}
	return fmt.Sprintf(`dsl.fn_casing(tv, {"type": %s, "regex": %s, "leadingAlone": %s})`, quote(typ), quote(pattern), leading)
}
