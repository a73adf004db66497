// Package ruletest writes the Rego modules of rules that tests register:
// a rule's METADATA header, its package line and its body, and registries
// of such rules. It imports no package of specgate, so the tests of policy
// itself can use it as well as those of linter, reports and rulesets. Only
// tests import it.
package ruletest

import (
	"strings"
	"testing"
)

// Never is the body of a rule that finds nothing.
const Never = `violations contains {"path": [], "message": "m"} if false`

// Meta is the METADATA of a rule. A field left empty takes the value that
// any valid rule may have: title T, description D, category Operations,
// maturity Gold, severity warn, family correctness, formats [oas3].
type Meta struct {
	Title string
	// Description may hold several lines: it is written as a YAML block.
	Description string
	// Related is further METADATA lines written after the description,
	// such as related_resources, each starting with "# " and ending with
	// a newline.
	Related                              string
	Category, Maturity, Severity, Family string
	// Formats is the list of formats without its brackets: "oas2, oas3".
	Formats string
	// HowToFix is written only when it is set.
	HowToFix string
}

// Module is the module of the rule id with this metadata and the Rego
// body, which follows the package line after a blank line. The METADATA
// header takes nine lines when Related is empty, so the package line is
// line 10 and the body starts on line 12.
func (m Meta) Module(id, body string) string {
	var b strings.Builder
	b.WriteString("# METADATA\n")
	b.WriteString("# title: " + or(m.Title, "T") + "\n")
	if desc := or(m.Description, "D"); strings.Contains(desc, "\n") {
		b.WriteString("# description: |\n")
		for line := range strings.Lines(desc) {
			b.WriteString(strings.TrimRight("#   "+line, " \n") + "\n")
		}
	} else {
		b.WriteString("# description: " + desc + "\n")
	}
	b.WriteString(m.Related)
	b.WriteString("# custom:\n")
	b.WriteString("#   category: " + or(m.Category, "Operations") + "\n")
	b.WriteString("#   maturity: " + or(m.Maturity, "Gold") + "\n")
	b.WriteString("#   severity: " + or(m.Severity, "warn") + "\n")
	b.WriteString("#   family: " + or(m.Family, "correctness") + "\n")
	b.WriteString("#   formats: [" + or(m.Formats, "oas3") + "]\n")
	if m.HowToFix != "" {
		b.WriteString("#   howToFix: " + m.HowToFix + "\n")
	}
	b.WriteString("package specgate.rules[\"" + id + "\"]\n\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// Module is the module of the rule id with the default metadata (see
// Meta) and the Rego body.
func Module(id, body string) string { return Meta{}.Module(id, body) }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Rule is a rule to register: its module's file name as the registry
// knows it, its id, metadata and body (Never when empty), and whether
// it is built in.
type Rule struct {
	File    string
	ID      string
	Meta    Meta
	Body    string
	Builtin bool
}

// Module is the text of the rule's module.
func (r Rule) Module() string {
	body := r.Body
	if body == "" {
		body = Never
	}
	return r.Meta.Module(r.ID, body)
}

// Registry is what a test fills with rules: a *policy.Registry.
type Registry interface {
	AddModule(file, src string, builtin bool) error
}

// Register adds each rule's module to reg, failing the test if one is
// refused.
func Register(t testing.TB, reg Registry, rules ...Rule) {
	t.Helper()
	for _, r := range rules {
		if err := reg.AddModule(r.File, r.Module(), r.Builtin); err != nil {
			t.Fatal(err)
		}
	}
}

// Linked is three rules whose documentation a report links to in each of
// the three ways: the built-in info-license to its page under docs/rules,
// the custom operation-has-owner to the first related_resources URL of its
// METADATA (https://wiki.example.com/api-guidelines#owners), and the
// custom no-page nowhere.
var Linked = []Rule{
	{File: "info-license/info-license.rego", ID: "info-license", Builtin: true},
	{File: "policies/operation-has-owner.rego", ID: "operation-has-owner", Meta: Meta{
		Related: "# related_resources:\n# - ref: https://wiki.example.com/api-guidelines#owners\n#   description: the guideline\n"}},
	{File: "policies/no-page.rego", ID: "no-page"},
}
