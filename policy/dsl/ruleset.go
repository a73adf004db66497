// Package dsl reads rule definitions written in YAML or JSON, in the format
// of Spectral rulesets, and compiles each one into a Rego module with the
// same contract as specgate's built-in rules: a `violations` set of
// {path, message} over the document, evaluated in the same single query.
//
// The pieces: ParsePath (JSONPath-Plus as Spectral rulesets write it),
// TranslateRegex (JavaScript regular expressions checked against RE2),
// ParseRuleset (a ruleset file with positions), Compile (a definition to
// Rego) and the runtime library dsl.rego (navigation with $ref resolution,
// the core functions, message placeholders).
package dsl

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Ruleset is one ruleset file as written.
type Ruleset struct {
	File             string
	Extends          []Extend
	Formats          []string // specgate format tags
	Rules            []*RuleDef
	Aliases          map[string]*Alias
	Functions        []Name // custom functions, resolved in FunctionsDir
	FunctionsDir     string // relative to File; "functions" by default
	Overrides        []*Override
	DocumentationURL string
	Rego             []Name // folders or files of users' own Rego rules
}

// Name is a string with the place it is written.
type Name struct {
	Value string
	Pos   spec.Pos
}

// Extend is one entry of `extends`: a file path, an https URL, or a
// built-in ruleset name, with Spectral's optional mode (off, recommended,
// all).
type Extend struct {
	Name string
	Mode string // "" (recommended), "off", "recommended", "all"
	Pos  spec.Pos
}

// RuleDef is one entry of `rules:`. A definition has Given and Then; an
// entry that only sets a severity (`rule-id: warn`, `rule-id: false`)
// changes a rule inherited through `extends`.
type RuleDef struct {
	ID  string
	Pos spec.Pos

	SeverityOnly bool
	Severity     string // off, warn or error after mapping; "" when not written
	SeverityPos  spec.Pos
	Recommended  bool // Spectral: a rule with recommended: false runs only under `all`

	Description      string
	Message          string
	Given            []Name
	Then             []*Then
	Formats          []string
	FormatsPos       spec.Pos
	Resolved         bool
	DocumentationURL string
	Category         string
	Maturity         string
	Family           string
	HowToFix         string

	File string // the ruleset file that defines it
}

// Then is one check of a rule: a function applied to a field of each
// target.
type Then struct {
	Field       string
	FieldPos    spec.Pos
	Function    string
	FunctionPos spec.Pos
	Options     *spec.Node // nil when not written
}

// Alias is a named JSONPath (or several), optionally per format.
type Alias struct {
	Name    string
	Pos     spec.Pos
	Given   []Name
	Targets []AliasTarget
}

// AliasTarget is a format-scoped alias definition.
type AliasTarget struct {
	Formats []string
	Given   []Name
}

// Override changes rules for the files matching its globs.
type Override struct {
	Files []Name
	Rules []*RuleDef // severity-only entries, or definitions
	Pos   spec.Pos
}

// severities maps Spectral's severity names and numbers to specgate's.
// Spectral's info and hint become warn: specgate has off, warn and error.
var severities = map[string]string{
	"error": "error", "warn": "warn", "warning": "warn", "info": "warn", "information": "warn",
	"hint": "warn", "off": "off", "0": "error", "1": "warn", "2": "warn", "3": "warn", "-1": "off",
}

// spectralFormats maps format names in rulesets to specgate's tags.
var spectralFormats = map[string][]string{
	"oas2": {"oas2"}, "oas3": {"oas3"}, "oas3.0": {"oas3.0"}, "oas3_0": {"oas3.0"}, "oas3.1": {"oas3.1"},
	"oas3_1": {"oas3.1"}, "oas3.2": {"oas3.2"}, "oas3_2": {"oas3.2"}, "oas": {"oas"},
	"asyncapi": {"asyncapi"}, "asyncapi2": {"asyncapi2"}, "aas2": {"asyncapi2"}, "asyncapi3": {"asyncapi3"},
	"aas3": {"asyncapi3"}, "arazzo": {"arazzo"}, "arazzo1": {"arazzo1"},
}

func init() {
	for _, v := range []string{"2_0", "2_1", "2_2", "2_3", "2_4", "2_5", "2_6"} {
		spectralFormats["aas"+v] = []string{"asyncapi2"}
		spectralFormats["asyncapi"+strings.ReplaceAll(v, "_", ".")] = []string{"asyncapi2"}
	}
	spectralFormats["aas3_0"] = []string{"asyncapi3"}
	spectralFormats["asyncapi3.0"] = []string{"asyncapi3"}
}

// errs collects positioned errors.
type errs struct {
	file string
	list []error
}

func (e *errs) at(pos spec.Pos, format string, args ...any) {
	e.list = append(e.list, &spec.Error{File: e.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return errors.Join(e.list...)
}

// Errors lists the errors that err joins, at any depth of errors.Join, as
// ParseRuleset and Compile join theirs (and the rulesets built on them
// join those): err itself when it joins none.
func Errors(err error) []error {
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range u.Unwrap() {
			out = append(out, Errors(e)...)
		}
		return out
	}
	return []error{err}
}

// ParseRuleset reads a ruleset file. Every error is a *spec.Error with the
// file, line and column.
func ParseRuleset(file string, data []byte) (*Ruleset, error) {
	root, err := spec.Parse(file, data, spec.DefaultLimits())
	if err != nil {
		return nil, err
	}
	return ParseRulesetNode(file, root)
}

// RulesetKeys are the keys of a ruleset file.
var RulesetKeys = []string{"extends", "formats", "rules", "aliases", "functions", "functionsDir", "overrides", "documentationUrl", "description", "parserOptions", "rego"}

// ParseRulesetNode reads a ruleset from a parsed node. The lint
// configuration uses it for its own `rules:` section. The ruleset is
// returned with whatever could be read, even with errors.
func ParseRulesetNode(file string, root *spec.Node) (*Ruleset, error) {
	e := &errs{file: file}
	rs := parseRuleset(file, root, e)
	return rs, e.err()
}

func parseRuleset(file string, root *spec.Node, e *errs) *Ruleset {
	rs := &Ruleset{File: file, Aliases: map[string]*Alias{}, FunctionsDir: "functions"}
	if root.Kind != spec.Object {
		e.at(root.Range.Start, "a ruleset must be a mapping, found %s", root.Kind)
		return rs
	}
	for _, f := range root.Fields {
		v := f.Value
		switch f.Key {
		case "extends":
			rs.Extends = parseExtends(v, e)
		case "formats":
			rs.Formats = parseFormats(v, e)
		case "rules":
			rs.Rules = parseRules(file, v, e)
		case "aliases":
			parseAliases(rs, v, e)
		case "functions":
			rs.Functions = stringList(v, "functions", e)
		case "functionsDir":
			if s, ok := str(v, "functionsDir", e); ok {
				rs.FunctionsDir = s
			}
		case "overrides":
			rs.Overrides = parseOverrides(file, v, e)
		case "documentationUrl":
			rs.DocumentationURL, _ = str(v, "documentationUrl", e)
		case "rego":
			rs.Rego = stringList(v, "rego", e)
		case "description", "parserOptions":
			// Informational; parser options do not apply to specgate's loader.
		default:
			e.at(f.KeyRange.Start, "unknown key %q in the ruleset%s", f.Key, Suggest(f.Key, RulesetKeys))
		}
	}
	return rs
}

func parseExtends(v *spec.Node, e *errs) []Extend {
	one := func(n *spec.Node) (Extend, bool) {
		switch n.Kind {
		case spec.String:
			return Extend{Name: n.Value, Pos: n.Range.Start}, true
		case spec.Array:
			// [name, mode]
			if len(n.Items) == 2 && n.Items[0].Kind == spec.String && n.Items[1].Kind == spec.String {
				mode := n.Items[1].Value
				if !slices.Contains([]string{"off", "recommended", "all"}, mode) {
					e.at(n.Items[1].Range.Start, "extends mode must be off, recommended or all, found %q%s", mode, Suggest(mode, []string{"off", "recommended", "all"}))
					return Extend{}, false
				}
				return Extend{Name: n.Items[0].Value, Mode: mode, Pos: n.Items[0].Range.Start}, true
			}
		}
		e.at(n.Range.Start, "an extends entry is a ruleset name or [name, mode], found %s", n.Kind)
		return Extend{}, false
	}
	if v.Kind == spec.String {
		x, _ := one(v)
		return []Extend{x}
	}
	if v.Kind != spec.Array {
		e.at(v.Range.Start, "extends must be a ruleset name or a list, found %s", v.Kind)
		return nil
	}
	// A two-item list whose second item is a mode is one [name, mode] entry.
	if len(v.Items) == 2 && v.Items[1].Kind == spec.String && slices.Contains([]string{"off", "recommended", "all"}, v.Items[1].Value) && v.Items[0].Kind == spec.String {
		x, ok := one(v)
		if ok {
			return []Extend{x}
		}
	}
	var out []Extend
	for _, it := range v.Items {
		if x, ok := one(it); ok {
			out = append(out, x)
		}
	}
	return out
}

func parseFormats(v *spec.Node, e *errs) []string {
	names := stringList(v, "formats", e)
	var out []string
	for _, n := range names {
		tags, ok := spectralFormats[n.Value]
		if !ok {
			if strings.HasPrefix(n.Value, "json-schema") {
				e.at(n.Pos, "format %q is not supported: specgate lints API descriptions (OpenAPI, AsyncAPI, Arazzo)", n.Value)
				continue
			}
			e.at(n.Pos, "unknown format %q%s", n.Value, Suggest(n.Value, slices.Sorted(maps.Keys(spectralFormats))))
			continue
		}
		for _, t := range tags {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

var ruleKeys = []string{"description", "message", "severity", "given", "then", "formats", "resolved", "recommended",
	"documentationUrl", "category", "maturity", "family", "howToFix", "tags", "type", "extensions"}

func parseRules(file string, v *spec.Node, e *errs) []*RuleDef {
	if v.Kind != spec.Object {
		e.at(v.Range.Start, "rules must be a mapping of rule ids to definitions, found %s", v.Kind)
		return nil
	}
	var out []*RuleDef
	for _, f := range v.Fields {
		if r := parseRule(file, f.Key, f.KeyRange.Start, f.Value, e); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func parseRule(file, id string, pos spec.Pos, v *spec.Node, e *errs) *RuleDef {
	r := &RuleDef{ID: id, Pos: pos, Resolved: true, Recommended: true, File: file}
	if strings.TrimSpace(id) == "" || strings.ContainsAny(id, "\"\\\n") {
		e.at(pos, "rule id %q must not be empty or contain quotes, backslashes or newlines", id)
		return nil
	}
	switch v.Kind {
	case spec.String, spec.Number:
		r.SeverityOnly = true
		r.Severity, r.SeverityPos = severity(v, e), v.Range.Start
		return r
	case spec.Bool:
		r.SeverityOnly = true
		r.SeverityPos = v.Range.Start
		if v.Value == "false" {
			r.Severity = "off"
		}
		return r
	case spec.Object:
	default:
		e.at(v.Range.Start, "rule %q must be a definition (a mapping) or a severity, found %s", id, v.Kind)
		return nil
	}
	for _, f := range v.Fields {
		x := f.Value
		switch f.Key {
		case "description":
			r.Description, _ = str(x, "description", e)
		case "message":
			r.Message, _ = str(x, "message", e)
		case "severity":
			r.Severity, r.SeverityPos = severity(x, e), x.Range.Start
		case "given":
			r.Given = stringList(x, "given", e)
		case "then":
			r.Then = parseThen(x, e)
		case "formats":
			r.Formats, r.FormatsPos = parseFormats(x, e), x.Range.Start
		case "resolved":
			r.Resolved = boolean(x, "resolved", e)
		case "recommended":
			r.Recommended = boolean(x, "recommended", e)
		case "documentationUrl":
			r.DocumentationURL, _ = str(x, "documentationUrl", e)
		case "category":
			r.Category, _ = str(x, "category", e)
		case "maturity":
			r.Maturity, _ = str(x, "maturity", e)
		case "family":
			r.Family, _ = str(x, "family", e)
		case "howToFix":
			r.HowToFix, _ = str(x, "howToFix", e)
		case "tags", "type", "extensions":
		default:
			e.at(f.KeyRange.Start, "unknown key %q in rule %q%s", f.Key, id, Suggest(f.Key, ruleKeys))
		}
	}
	if v.Get("given") == nil && v.Get("then") == nil {
		// Only metadata: it changes an inherited rule.
		r.SeverityOnly = true
		return r
	}
	if len(r.Given) == 0 {
		e.at(pos, "rule %q has no given (the JSONPath of the values it checks)", id)
	}
	if len(r.Then) == 0 {
		e.at(pos, "rule %q has no then (the function that checks each value)", id)
	}
	return r
}

var thenKeys = []string{"field", "function", "functionOptions"}

func parseThen(v *spec.Node, e *errs) []*Then {
	items := []*spec.Node{v}
	if v.Kind == spec.Array {
		items = v.Items
	}
	var out []*Then
	for _, it := range items {
		if it.Kind != spec.Object {
			e.at(it.Range.Start, "then must be a mapping {field, function, functionOptions}, found %s", it.Kind)
			continue
		}
		t := &Then{}
		for _, f := range it.Fields {
			switch f.Key {
			case "field":
				t.Field, _ = str(f.Value, "field", e)
				t.FieldPos = f.Value.Range.Start
			case "function":
				t.Function, _ = str(f.Value, "function", e)
				t.FunctionPos = f.Value.Range.Start
			case "functionOptions":
				t.Options = f.Value
			default:
				e.at(f.KeyRange.Start, "unknown key %q in then%s", f.Key, Suggest(f.Key, thenKeys))
			}
		}
		if t.Function == "" {
			e.at(it.Range.Start, "then has no function")
			continue
		}
		out = append(out, t)
	}
	return out
}

func parseAliases(rs *Ruleset, v *spec.Node, e *errs) {
	if v.Kind != spec.Object {
		e.at(v.Range.Start, "aliases must be a mapping, found %s", v.Kind)
		return
	}
	for _, f := range v.Fields {
		a := &Alias{Name: f.Key, Pos: f.KeyRange.Start}
		x := f.Value
		switch x.Kind {
		case spec.String, spec.Array:
			a.Given = stringList(x, "alias "+f.Key, e)
		case spec.Object:
			targets := x.Get("targets")
			if targets == nil || targets.Kind != spec.Array {
				e.at(x.Range.Start, "alias %q: a scoped alias has targets: [{formats, given}]", f.Key)
				continue
			}
			for _, t := range targets.Items {
				if t.Kind != spec.Object || t.Get("given") == nil || t.Get("formats") == nil {
					e.at(t.Range.Start, "alias %q: each target has formats and given", f.Key)
					continue
				}
				a.Targets = append(a.Targets, AliasTarget{Formats: parseFormats(t.Get("formats"), e), Given: stringList(t.Get("given"), "given", e)})
			}
		default:
			e.at(x.Range.Start, "alias %q must be a JSONPath or a list of them, found %s", f.Key, x.Kind)
			continue
		}
		rs.Aliases[f.Key] = a
	}
}

func parseOverrides(file string, v *spec.Node, e *errs) []*Override {
	if v.Kind != spec.Array {
		e.at(v.Range.Start, "overrides must be a list, found %s", v.Kind)
		return nil
	}
	var out []*Override
	for _, it := range v.Items {
		if it.Kind != spec.Object {
			e.at(it.Range.Start, "an override is a mapping {files, rules}, found %s", it.Kind)
			continue
		}
		o := &Override{Pos: it.Range.Start}
		for _, f := range it.Fields {
			switch f.Key {
			case "files":
				o.Files = stringList(f.Value, "files", e)
			case "rules":
				o.Rules = parseRules(file, f.Value, e)
			default:
				e.at(f.KeyRange.Start, "unknown key %q in an override%s", f.Key, Suggest(f.Key, []string{"files", "rules"}))
			}
		}
		if len(o.Files) == 0 {
			e.at(it.Range.Start, "an override needs files: [globs]")
			continue
		}
		out = append(out, o)
	}
	return out
}

func severity(v *spec.Node, e *errs) string {
	if v.Kind != spec.String && v.Kind != spec.Number {
		e.at(v.Range.Start, "severity must be error, warn, info, hint or off, found %s", v.Kind)
		return ""
	}
	s, ok := severities[v.Value]
	if !ok {
		e.at(v.Range.Start, "severity must be error, warn, info, hint or off, found %q%s", v.Value,
			Suggest(v.Value, []string{"error", "warn", "info", "hint", "off"}))
	}
	return s
}

func str(v *spec.Node, what string, e *errs) (string, bool) {
	if v.Kind != spec.String {
		e.at(v.Range.Start, "%s must be a string, found %s", what, v.Kind)
		return "", false
	}
	return v.Value, true
}

func boolean(v *spec.Node, what string, e *errs) bool {
	if v.Kind != spec.Bool {
		e.at(v.Range.Start, "%s must be true or false, found %s", what, v.Kind)
		return true
	}
	return v.Value == "true"
}

func stringList(v *spec.Node, what string, e *errs) []Name {
	if v.Kind == spec.String {
		return []Name{{v.Value, v.Range.Start}}
	}
	if v.Kind != spec.Array {
		e.at(v.Range.Start, "%s must be a list of strings, found %s", what, v.Kind)
		return nil
	}
	var out []Name
	for _, it := range v.Items {
		if it.Kind != spec.String {
			e.at(it.Range.Start, "%s must be a list of strings, found %s in it", what, it.Kind)
			continue
		}
		out = append(out, Name{it.Value, it.Range.Start})
	}
	return out
}

// Suggest returns "; did you mean %q?" for the candidate closest to got,
// or "" when none is close.
func Suggest(got string, candidates []string) string { return suggest.Hint(got, candidates) }
