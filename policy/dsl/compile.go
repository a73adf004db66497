package dsl

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// Env is what a definition compiles against: the aliases and custom
// functions in scope, and the formats a rule gets when it names none.
type Env struct {
	Aliases   map[string]*Alias
	Functions map[string]string // custom function name -> Rego reference, e.g. data.acme.functions.isSorted
	Formats   []string          // default formats (the ruleset's); nil means every format
}

// AllFormats are the formats of a rule that names none: Spectral runs such
// a rule on every document.
var AllFormats = []string{"oas", "asyncapi", "arazzo"}

// Compiled is a definition turned into a Rego module.
type Compiled struct {
	ID     string
	Def    *RuleDef
	File   string // the module's name: "<ruleset file>#<rule id>"
	Source string
}

// MissingFunctionError names a custom function that has no Rego
// implementation, and where it is used.
type MissingFunctionError struct {
	Function string
	Rule     string
	File     string
	Pos      spec.Pos
}

func (e *MissingFunctionError) Error() string {
	return fmt.Sprintf("%s:%d:%d: rule %q uses function %q, which has no Rego implementation (write it as a Rego function named %s in the ruleset's functions folder)",
		e.File, e.Pos.Line, e.Pos.Col, e.Rule, e.Function, e.Function)
}

// UnsupportedError is a rule specgate cannot run as written, for a reason
// other than a missing function.
type UnsupportedError struct {
	Rule, File, Reason string
	Pos                spec.Pos
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s:%d:%d: rule %q cannot run: %s", e.File, e.Pos.Line, e.Pos.Col, e.Rule, e.Reason)
}

// builtinFunctions are Spectral's core functions.
var builtinFunctions = []string{"truthy", "falsy", "defined", "undefined", "pattern", "casing", "enumeration",
	"length", "alphabetical", "xor", "or", "schema", "typedEnum", "unreferencedReusableObject"}

// Compile turns one definition into a Rego module. Errors are positioned
// in the ruleset file.
func Compile(def *RuleDef, env *Env) (*Compiled, error) {
	g := &gen{def: def, env: env, e: &errs{file: def.File}}
	src := g.module()
	if err := g.e.err(); err != nil {
		return nil, err
	}
	return &Compiled{ID: def.ID, Def: def, File: def.File + "#" + def.ID, Source: src}, nil
}

type gen struct {
	def    *RuleDef
	env    *Env
	e      *errs
	n      int // counter for fresh variable names
	helper strings.Builder
}

func (g *gen) fresh(prefix string) string {
	g.n++
	return prefix + strconv.Itoa(g.n)
}

func (g *gen) module() string {
	d := g.def
	var b strings.Builder
	g.metadata(&b)
	fmt.Fprintf(&b, "package specgate.rules[%s]\n\nimport data.specgate.dsl\n\n", quote(d.ID))

	for _, given := range d.Given {
		for _, body := range g.given(given) {
			fmt.Fprintf(&b, "# given: %s\n_targets contains [f, p, v] if {\n", oneLine(given.Value))
			for _, l := range body {
				b.WriteString("\t" + l + "\n")
			}
			b.WriteString("}\n\n")
		}
	}
	template := d.Message
	if template == "" {
		template = "{{error}}"
		if d.Description != "" {
			template = d.Description
		}
	}
	for i, t := range d.Then {
		call := g.function(t)
		if call == "" {
			continue
		}
		fmt.Fprintf(&b, "# then: %s %s\nviolations contains dsl.violation(tf, rp, msg) if {\n\tsome [f, p, v] in _targets\n", t.Function, oneLine(t.Field))
		for _, l := range g.field(i, t) {
			b.WriteString("\t" + l + "\n")
		}
		fmt.Fprintf(&b, "\tsome e in %s\n", call)
		b.WriteString("\trp := dsl.full_path(tp, e)\n")
		fmt.Fprintf(&b, "\tmsg := dsl.message(%s, e, rp, tv, %s)\n}\n\n", quote(template), quote(d.Description))
	}
	b.WriteString(g.helper.String())
	return b.String()
}

func (g *gen) metadata(b *strings.Builder) {
	d := g.def
	title := d.Description
	if i := strings.IndexAny(title, ".\n"); i > 0 {
		title = title[:i]
	}
	if title == "" {
		title = d.ID
	}
	desc := d.Description
	if desc == "" {
		desc = title
	}
	formats := d.Formats
	if len(formats) == 0 {
		formats = g.env.Formats
	}
	if len(formats) == 0 {
		formats = AllFormats
	}
	category, maturity, family := d.Category, d.Maturity, d.Family
	if category == "" {
		category = "General"
	}
	if maturity == "" {
		maturity = "Bronze"
	}
	if family == "" {
		family = "custom"
	}
	sev := d.Severity
	if sev == "" || sev == "off" {
		sev = "warn" // Spectral's default; "off" is applied by the ruleset, not the rule
	}
	custom := map[string]any{"category": category, "maturity": maturity, "severity": sev, "family": family, "formats": formats}
	if d.HowToFix != "" {
		custom["howToFix"] = d.HowToFix
	}
	meta := map[string]any{"title": title, "description": desc, "custom": custom}
	// JSON is valid YAML: one line keeps the comment block simple.
	js, _ := json.Marshal(meta)
	fmt.Fprintf(b, "# METADATA\n# %s\n", js)
}

// ---- given ----------------------------------------------------------------

type cursor struct {
	file, path, value, key string // Rego expressions
	root                   bool   // a file's root, which is never a reference
}

// given compiles one JSONPath (expanding aliases) into rule bodies that
// bind f, p and v.
func (g *gen) given(n Name) [][]string {
	paths := g.expand(n, nil)
	var bodies [][]string
	for _, ap := range paths {
		var lines []string
		if len(ap.formats) > 0 {
			lines = append(lines, "some fmt in input.formats", "fmt in "+regoSet(ap.formats))
		}
		c := cursor{file: `""`, path: "[]", value: "input.document", key: "null", root: true}
		if g.def.Resolved && len(ap.path.Segments) > 0 && ap.path.Segments[0].Descend {
			lines = append(lines, "some rf, rv in dsl.roots")
			c = cursor{file: "rf", path: "[]", value: "rv", key: "null", root: true}
		}
		body, end, ok := g.steps(ap.path, c, n)
		if !ok {
			continue
		}
		lines = append(lines, body...)
		if ap.path.KeyOf {
			lines = append(lines, "f := "+end.file, "p := "+end.path, "v := "+end.key)
		} else if g.def.Resolved {
			lines = append(lines, fmt.Sprintf("[f, p, v] := dsl.deref(%s, %s, %s)", end.file, end.path, end.value))
		} else {
			lines = append(lines, "f := "+end.file, "p := "+end.path, "v := "+end.value)
		}
		bodies = append(bodies, lines)
	}
	return bodies
}

type aliasedPath struct {
	path    *Path
	formats []string
}

// expand parses a given path and replaces a leading #Alias by its
// definitions (recursively), keeping the rest of the path.
func (g *gen) expand(n Name, seen []string) []aliasedPath {
	p, err := ParsePath(n.Value)
	if err != nil {
		g.e.at(n.Pos, "%v", err)
		return nil
	}
	if p.Alias == "" {
		return []aliasedPath{{path: p}}
	}
	a := g.env.Aliases[p.Alias]
	if a == nil {
		g.e.at(n.Pos, "unknown alias #%s%s", p.Alias, Suggest(p.Alias, slices.Sorted(maps.Keys(g.env.Aliases))))
		return nil
	}
	if slices.Contains(seen, p.Alias) {
		g.e.at(n.Pos, "alias #%s refers to itself (through %s)", p.Alias, strings.Join(seen, " -> "))
		return nil
	}
	seen = append(seen, p.Alias)
	var out []aliasedPath
	add := func(defs []Name, formats []string) {
		for _, d := range defs {
			for _, ap := range g.expand(d, seen) {
				ap.path.Segments = append(slices.Clip(ap.path.Segments), p.Segments...)
				ap.path.KeyOf = ap.path.KeyOf || p.KeyOf
				if len(formats) > 0 {
					ap.formats = formats
				}
				out = append(out, ap)
			}
		}
	}
	add(a.Given, nil)
	for _, t := range a.Targets {
		add(t.Given, t.Formats)
	}
	return out
}

// steps compiles the segments of a path from cursor c.
func (g *gen) steps(p *Path, c cursor, at Name) ([]string, cursor, bool) {
	var lines []string
	for _, s := range p.Segments {
		if s.Descend {
			q, w := g.fresh("q"), g.fresh("w")
			lines = append(lines, fmt.Sprintf("walk(%s, [%s, %s])", c.value, q, w))
			c = cursor{file: c.file, path: fmt.Sprintf("array.concat(%s, %s)", c.path, q), value: w,
				key: fmt.Sprintf("dsl.last_key(%s, %s)", q, c.key)}
		} else if g.def.Resolved && !c.root {
			f, pp, v := g.fresh("f"), g.fresh("p"), g.fresh("v")
			lines = append(lines, fmt.Sprintf("[%s, %s, %s] := dsl.deref(%s, %s, %s)", f, pp, v, c.file, c.path, c.value))
			c = cursor{file: f, path: pp, value: v, key: c.key}
		}
		k, v := g.fresh("k"), g.fresh("v")
		next := cursor{file: c.file, path: fmt.Sprintf("array.concat(%s, [%s])", c.path, k), value: v, key: k}
		switch s.Kind {
		case Child:
			if len(s.Names) == 1 {
				lines = append(lines, fmt.Sprintf("%s := %s", k, quote(s.Names[0])))
			} else {
				lines = append(lines, fmt.Sprintf("some %s in %s", k, regoArray(s.Names)))
			}
			lines = append(lines, fmt.Sprintf("%s := %s[%s]", v, c.value, k))
		case Wildcard:
			lines = append(lines, fmt.Sprintf("some %s, %s in %s", k, v, c.value))
		case Index:
			lines = append(lines, "is_array("+c.value+")")
			if len(s.Indices) == 1 {
				i := s.Indices[0]
				if i < 0 {
					lines = append(lines, fmt.Sprintf("%s := count(%s) - %d", k, c.value, -i))
				} else {
					lines = append(lines, fmt.Sprintf("%s := %d", k, i))
				}
			} else {
				ids := make([]string, len(s.Indices))
				for j, i := range s.Indices {
					ids[j] = strconv.Itoa(i)
				}
				lines = append(lines, fmt.Sprintf("some %s in [%s]", k, strings.Join(ids, ", ")))
			}
			lines = append(lines, fmt.Sprintf("%s := %s[%s]", v, c.value, k))
		case Slice:
			lines = append(lines, "is_array("+c.value+")", fmt.Sprintf("some %s, %s in %s", k, v, c.value))
			if s.Start != nil {
				lines = append(lines, fmt.Sprintf("%s >= %s", k, bound(*s.Start, c.value)))
			}
			if s.End != nil {
				lines = append(lines, fmt.Sprintf("%s < %s", k, bound(*s.End, c.value)))
			}
		case Filter:
			lines = append(lines, fmt.Sprintf("some %s, %s in %s", k, v, c.value))
			name, ok := g.filter(s.Expr, at)
			if !ok {
				return nil, c, false
			}
			lines = append(lines, fmt.Sprintf("%s(%s, %s, %s)", name, v, k, c.key))
		}
		c = next
	}
	return lines, c, true
}

func bound(i int, arr string) string {
	if i < 0 {
		return fmt.Sprintf("count(%s) - %d", arr, -i)
	}
	return strconv.Itoa(i)
}

// ---- filters ----------------------------------------------------------------

// filter compiles a filter expression into a helper rule
// name(v, k, pk): true when the candidate v (key k, parent key pk) passes.
func (g *gen) filter(e Expr, at Name) (string, bool) {
	name := g.fresh("_filter")
	body, ok := g.pred(e, at)
	if !ok {
		return "", false
	}
	g.rule(name, body)
	return name, true
}

func (g *gen) rule(name string, body []string) {
	fmt.Fprintf(&g.helper, "%s(v, k, pk) if {\n", name)
	if len(body) == 0 {
		body = []string{"true"}
	}
	for _, l := range body {
		g.helper.WriteString("\t" + l + "\n")
	}
	g.helper.WriteString("}\n\n")
}

// pred compiles e in a condition: lines that hold when e is truthy.
func (g *gen) pred(e Expr, at Name) ([]string, bool) {
	switch x := e.(type) {
	case Binary:
		switch x.Op {
		case "&&":
			l, ok1 := g.pred(x.L, at)
			r, ok2 := g.pred(x.R, at)
			return append(l, r...), ok1 && ok2
		case "||":
			name := g.fresh("_or")
			l, ok1 := g.pred(x.L, at)
			r, ok2 := g.pred(x.R, at)
			g.rule(name, l)
			g.rule(name, r)
			return []string{name + "(v, k, pk)"}, ok1 && ok2
		}
		l, ok1 := g.value(x.L, at)
		r, ok2 := g.value(x.R, at)
		fn := map[string]string{"==": "loose_eq", "===": "strict_eq", "<": "js_lt", "<=": "js_le", ">": "js_gt", ">=": "js_ge"}
		switch x.Op {
		case "!=", "!==":
			eq := "dsl.loose_eq"
			if x.Op == "!==" {
				eq = "dsl.strict_eq"
			}
			return []string{fmt.Sprintf("not %s(%s, %s)", eq, l, r)}, ok1 && ok2
		}
		return []string{fmt.Sprintf("dsl.%s(%s, %s)", fn[x.Op], l, r)}, ok1 && ok2
	case Not:
		name := g.fresh("_not")
		body, ok := g.pred(x.X, at)
		g.rule(name, body)
		return []string{fmt.Sprintf("not %s(v, k, pk)", name)}, ok
	}
	v, ok := g.value(e, at)
	return []string{fmt.Sprintf("dsl.truthy_value(%s)", v)}, ok
}

// value compiles e into a Rego term whose value is the JavaScript value
// (undefined is dsl.undefined).
func (g *gen) value(e Expr, at Name) (string, bool) {
	switch x := e.(type) {
	case Current:
		return "v", true
	case Property:
		return "k", true
	case ParentProperty:
		return "pk", true
	case Literal:
		switch lv := x.Value.(type) {
		case Undefined:
			return "dsl.undefined", true
		case float64:
			return strconv.FormatFloat(lv, 'g', -1, 64), true
		case string:
			return quote(lv), true
		case bool:
			return strconv.FormatBool(lv), true
		case nil:
			return "null", true
		}
	case Member:
		obj, ok := g.value(x.X, at)
		if x.Idx != nil {
			return fmt.Sprintf("dsl.member(%s, %d)", obj, *x.Idx), ok
		}
		return fmt.Sprintf("dsl.member(%s, %s)", obj, quote(x.Name)), ok
	case TypeOf:
		v, ok := g.value(x.X, at)
		return fmt.Sprintf("dsl.typeof(%s)", v), ok
	case Call:
		return g.call(x, at)
	case Regex:
		g.e.at(at.Pos, "in %q: a regular expression is only usable with .match() or .test()", at.Value)
		return "", false
	case Binary, Not:
		g.e.at(at.Pos, "in %q: logical operators and comparisons may only be used as conditions, not as values", at.Value)
		return "", false
	}
	g.e.at(at.Pos, "in %q: unsupported expression", at.Value)
	return "", false
}

func (g *gen) call(x Call, at Name) (string, bool) {
	if x.Method == "test" {
		re, ok := x.X.(Regex)
		if !ok {
			g.e.at(at.Pos, "in %q: .test() is called on a regular expression literal, /re/.test(@property)", at.Value)
			return "", false
		}
		arg, ok := g.value(x.Args[0], at)
		return fmt.Sprintf("dsl.call_match(%s, %s)", arg, quote(re.RE2)), ok
	}
	recv, ok := g.value(x.X, at)
	if !ok {
		return "", false
	}
	switch x.Method {
	case "match":
		var re string
		switch a := x.Args[0].(type) {
		case Regex:
			re = a.RE2
		case Literal:
			s, isStr := a.Value.(string)
			if !isStr {
				g.e.at(at.Pos, "in %q: match() takes a regular expression", at.Value)
				return "", false
			}
			r, err := TranslateRegex(s, "")
			if err != nil {
				g.e.at(at.Pos, "in %q: %v", at.Value, err)
				return "", false
			}
			re = r.RE2
		default:
			g.e.at(at.Pos, "in %q: match() takes a regular expression literal", at.Value)
			return "", false
		}
		return fmt.Sprintf("dsl.call_match(%s, %s)", recv, quote(re)), true
	case "toLowerCase":
		return fmt.Sprintf("dsl.call_lower(%s)", recv), true
	case "toUpperCase":
		return fmt.Sprintf("dsl.call_upper(%s)", recv), true
	case "trim":
		return fmt.Sprintf("dsl.call_trim(%s)", recv), true
	}
	arg, ok := g.value(x.Args[0], at)
	fn := map[string]string{"startsWith": "call_starts_with", "endsWith": "call_ends_with", "includes": "call_includes", "indexOf": "call_index_of"}[x.Method]
	return fmt.Sprintf("dsl.%s(%s, %s)", fn, recv, arg), ok
}

// ---- then ---------------------------------------------------------------------

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

// ---- functions ----------------------------------------------------------------

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
		o := g.options(t, []string{"match", "notMatch"}, nil)
		if o == nil {
			return ""
		}
		if o["match"] == nil && o["notMatch"] == nil {
			g.e.at(optionsPos(t), `"pattern" function needs a "match" or "notMatch" option`)
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
		o := g.options(t, []string{"min", "max"}, nil)
		if o == nil {
			return ""
		}
		if o["min"] == nil && o["max"] == nil {
			g.e.at(optionsPos(t), `"length" function needs a "min" or "max" option`)
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

// ---- literals -----------------------------------------------------------------

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func jsonLit(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func regoArray(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func regoSet(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "{" + strings.Join(q, ", ") + "}"
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// nodeJSON writes a node as JSON (valid Rego), keys in source order.
func nodeJSON(n *spec.Node) string {
	var b strings.Builder
	writeJSON(&b, n)
	return b.String()
}

func writeJSON(b *strings.Builder, n *spec.Node) {
	switch n.Kind {
	case spec.Null:
		b.WriteString("null")
	case spec.Bool:
		b.WriteString(n.Value)
	case spec.Number:
		if _, err := strconv.ParseFloat(n.Value, 64); err == nil && !strings.ContainsAny(n.Value, "xob_") {
			b.WriteString(n.Value)
		} else {
			b.WriteString(quote(n.Value))
		}
	case spec.String:
		b.WriteString(quote(n.Value))
	case spec.Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, it)
		}
		b.WriteByte(']')
	case spec.Object:
		b.WriteByte('{')
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(f.Key))
			b.WriteString(": ")
			writeJSON(b, f.Value)
		}
		b.WriteByte('}')
	}
}
