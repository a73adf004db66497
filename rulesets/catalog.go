package rulesets

import (
	"fmt"
	"strings"

	"github.com/specgate/specgate/policy"
)

// RuleInfo is a rule as `rules list` and the docs show it: its metadata and
// its severity in each built-in ruleset.
type RuleInfo struct {
	ID          string            `json:"id"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Category    string            `json:"category"`
	Maturity    string            `json:"maturity"`
	Severity    string            `json:"severity"`
	Rulesets    map[string]string `json:"rulesets"`
	Formats     []string          `json:"formats"`
	Family      string            `json:"family"`
	HowToFix    string            `json:"howToFix,omitempty"`
	Peers       []string          `json:"peers,omitempty"`
	Builtin     bool              `json:"builtin"`
}

// Catalog describes every rule of the registry, sorted by id.
func Catalog(reg *policy.Registry) []RuleInfo {
	out := make([]RuleInfo, 0, len(reg.Rules))
	for _, r := range reg.Rules {
		info := RuleInfo{
			ID: r.ID, Title: r.Title, Description: r.Description, Category: r.Category,
			Maturity: r.Maturity, Severity: r.Severity.String(), Formats: r.Formats,
			Family: r.Family, HowToFix: r.HowToFix, Peers: r.Peers, Builtin: r.Builtin,
			Rulesets: map[string]string{},
		}
		for _, name := range Names {
			sev, _ := builtinSeverity(r, name)
			if !r.Builtin {
				// The built-in rulesets transform built-in rules only;
				// custom rules keep the severity their ruleset gives them.
				sev = r.Severity
			}
			info.Rulesets[name] = sev.String()
		}
		out = append(out, info)
	}
	return out
}

var formatNames = map[string]string{
	"oas": "Swagger 2.0, OpenAPI 3.x", "oas2": "Swagger 2.0", "oas3": "OpenAPI 3.0, 3.1, 3.2",
	"oas3.0": "OpenAPI 3.0", "oas3.1": "OpenAPI 3.1", "oas3.2": "OpenAPI 3.2",
	"asyncapi": "AsyncAPI 2.x, 3.x", "asyncapi2": "AsyncAPI 2.x", "asyncapi3": "AsyncAPI 3.x",
	"arazzo": "Arazzo 1.x", "arazzo1": "Arazzo 1.x",
}

// Markdown renders a rule's documentation page.
func (info RuleInfo) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", info.ID, info.Title)
	b.WriteString("| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Category | %s |\n| Maturity | %s |\n| Family | %s |\n", info.Category, info.Maturity, info.Family)
	fmt.Fprintf(&b, "| Original severity | %s |\n", info.Severity)
	fmt.Fprintf(&b, "| Severity in lenient / recommended / strict | %s / %s / %s |\n",
		info.Rulesets[Lenient], info.Rulesets[Recommended], info.Rulesets[Strict])
	formats := make([]string, len(info.Formats))
	for i, f := range info.Formats {
		formats[i] = formatNames[f]
	}
	fmt.Fprintf(&b, "| Formats | %s |\n", strings.Join(formats, "; "))
	if len(info.Peers) > 0 {
		fmt.Fprintf(&b, "| Equivalent in other linters | %s |\n", strings.Join(info.Peers, ", "))
	}
	fmt.Fprintf(&b, "\n## What it checks\n\n%s\n", info.Description)
	if info.HowToFix != "" {
		fmt.Fprintf(&b, "\n## How to fix\n\n%s\n", info.HowToFix)
	}
	fmt.Fprintf(&b, "\n## Configuration\n\n```yaml\n# specgate-lint.yaml\nprofiles:\n  default:\n    rules:\n      override:\n        %s: error   # or warn, off\n```\n\nSilence it on one node and everything under it with `x-lint-ignore: [%s]`.\n", info.ID, info.ID)
	return b.String()
}

// Index renders the rule index page.
func Index(infos []RuleInfo) string {
	var b strings.Builder
	b.WriteString("# Built-in rules\n\nGenerated from the rules' METADATA by `go test ./rulesets -update`; do not edit by hand.\n\n")
	b.WriteString("| Rule | Category | Maturity | Original | lenient | recommended | strict |\n|---|---|---|---|---|---|---|\n")
	for _, r := range infos {
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s | %s | %s | %s |\n", r.ID, r.ID, r.Category, r.Maturity,
			r.Severity, r.Rulesets[Lenient], r.Rulesets[Recommended], r.Rulesets[Strict])
	}
	return b.String()
}
