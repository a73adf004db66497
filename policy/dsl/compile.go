package dsl

import (
	"encoding/json"
	"fmt"
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
