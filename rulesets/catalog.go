package rulesets

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/spec"
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
	"proto": "Protocol Buffers (proto2, proto3, editions)", "graphql": "GraphQL (SDL, introspection)", "wsdl": "WSDL 1.1, 2.0",
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
	fmt.Fprintf(&b, "\n## Configuration\n\n```yaml\n# specgate-lint.yaml\nprofiles:\n  default:\n    rules:\n      override:\n        %s: error   # or warn, off\n```\n\n", info.ID)
	if comment := ignoreComments[strings.Join(info.Formats, ",")]; comment != "" {
		fmt.Fprintf(&b, "Silence it on one element and everything under it with a comment before it or on its line: `%s`.\n", fmt.Sprintf(comment, info.ID))
	} else {
		fmt.Fprintf(&b, "Silence it on one node and everything under it with `x-lint-ignore: [%s]`.\n", info.ID)
	}
	return b.String()
}

// ignoreComments are the comments that silence a rule on an element of the
// formats that write no x-lint-ignore (docs/formats.md).
var ignoreComments = map[string]string{
	"proto": "// specgate:ignore %s", "graphql": "# specgate:ignore %s", "wsdl": "<!-- specgate:ignore %s -->",
}

// Index renders the rule index page.
func Index(infos []RuleInfo) string {
	var b strings.Builder
	b.WriteString("# Built-in rules\n\nGenerated from the rules' METADATA by `go test ./rulesets -update`; do not edit by hand.\n\n")
	b.WriteString("How these rules map onto the rules of vacuum, Spectral and Redocly: [parity with other linters](parity.md).\n\n")
	b.WriteString("| Rule | Category | Maturity | Original | lenient | recommended | strict |\n|---|---|---|---|---|---|---|\n")
	for _, r := range infos {
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s | %s | %s | %s |\n", r.ID, r.ID, r.Category, r.Maturity,
			r.Severity, r.Rulesets[Lenient], r.Rulesets[Recommended], r.Rulesets[Strict])
	}
	return b.String()
}

// PeerRule is one rule of a peer linter's ruleset, as listed in
// rulesets/peers.yaml: the inventory that docs/rules/parity.md maps onto
// specgate's rules.
type PeerRule struct {
	Peer     string // vacuum, spectral, redocly
	Version  string // the peer version the inventory was taken from
	Ruleset  string // the peer's ruleset (all, owasp, oas, recommended, …)
	About    string // what the ruleset is, for the docs
	ID       string // the rule id as the peer spells it
	Severity string // what the peer's default ruleset does with it; "off" when disabled
	Formats  []string
	Meaning  string
	Reason   string // why specgate deliberately does not mirror it; "" otherwise
}

// Key is how rule METADATA names a peer rule: "vacuum:owasp-no-http-basic".
func (p PeerRule) Key() string { return p.Peer + ":" + p.ID }

//go:embed peers.yaml
var peersYAML []byte

// Peers returns the inventory of peer rules, in file order; the slice is
// shared, so callers must not modify it.
func Peers() ([]PeerRule, error) { return peers() }

// peers parses the embedded inventory once: configuration loading asks for
// it per ruleset and per unknown rule name.
var peers = sync.OnceValues(func() ([]PeerRule, error) { return ParsePeers("rulesets/peers.yaml", peersYAML) })

var peerSeverityRE = lazyregexp.New(`^(error|warn|info|hint|off)\b`)

// ParsePeers reads an inventory of peer rules (the format of
// rulesets/peers.yaml). Every problem is reported with its line and column.
func ParsePeers(file string, data []byte) ([]PeerRule, error) {
	root, err := spec.Parse(file, data, spec.DefaultLimits())
	if err != nil {
		return nil, err
	}
	var errs []error
	fail := func(n *spec.Node, format string, args ...any) {
		errs = append(errs, &spec.Error{File: file, Pos: n.Range.Start, Msg: fmt.Sprintf(format, args...)})
	}
	list := func(n *spec.Node, what string) []*spec.Node {
		if n == nil || n.Kind != spec.Array {
			fail(orNode(n, root), "%s must be a list", what)
			return nil
		}
		return n.Items
	}
	str := func(n *spec.Node, key string, required bool) string {
		v := n.Get(key)
		if v == nil && !required {
			return ""
		}
		if v == nil || v.Kind != spec.String || strings.TrimSpace(v.Value) == "" {
			fail(orNode(v, n), "%q must be a non-empty string", key)
			return ""
		}
		return v.Value
	}
	var out []PeerRule
	seen := map[string]bool{}
	for _, peer := range list(root.Get("peers"), "peers") {
		name, version := str(peer, "name", true), str(peer, "version", true)
		for _, rs := range list(peer.Get("rulesets"), "rulesets of "+name) {
			rsName, about := str(rs, "name", true), str(rs, "about", true)
			for _, r := range list(rs.Get("rules"), "rules of "+name+" "+rsName) {
				pr := PeerRule{Peer: name, Version: version, Ruleset: rsName, About: about,
					ID: str(r, "id", true), Severity: str(r, "severity", true), Meaning: str(r, "meaning", true), Reason: str(r, "reason", false)}
				for _, f := range list(r.Get("formats"), "formats of "+pr.Key()) {
					if !slices.Contains(policy.FormatTags, f.Value) {
						fail(f, "unknown format %q of %s", f.Value, pr.Key())
					}
					pr.Formats = append(pr.Formats, f.Value)
				}
				if pr.Severity != "" && !peerSeverityRE().MatchString(pr.Severity) {
					fail(r.Get("severity"), "severity of %s must start with error, warn, info, hint or off", pr.Key())
				}
				if seen[pr.Key()] {
					fail(r, "%s is listed twice", pr.Key())
				}
				seen[pr.Key()] = true
				out = append(out, pr)
			}
		}
	}
	return out, errors.Join(errs...)
}

func orNode(n, fallback *spec.Node) *spec.Node {
	if n != nil {
		return n
	}
	return fallback
}

// Mirrors maps each peer rule key to the specgate rules whose METADATA
// names it, sorted by id.
func Mirrors(infos []RuleInfo) map[string][]string {
	out := map[string][]string{}
	for _, r := range infos {
		for _, p := range r.Peers {
			out[p] = append(out[p], r.ID)
		}
	}
	return out
}

// Parity renders docs/rules/parity.md: every peer rule with the specgate
// rules that mirror it, or the reason specgate does not, or "not yet
// covered".
func Parity(infos []RuleInfo, peers []PeerRule) string {
	mirrors := Mirrors(infos)
	type group struct {
		peer, version, ruleset, about string
		rules                         []PeerRule
	}
	var groups []*group
	for _, p := range peers {
		if len(groups) == 0 || groups[len(groups)-1].peer != p.Peer || groups[len(groups)-1].ruleset != p.Ruleset {
			groups = append(groups, &group{peer: p.Peer, version: p.Version, ruleset: p.Ruleset, about: p.About})
		}
		g := groups[len(groups)-1]
		g.rules = append(g.rules, p)
	}
	var b strings.Builder
	b.WriteString("# Parity with other linters\n\nGenerated from rulesets/peers.yaml and the rules' METADATA by `go test ./rulesets -update`; do not edit by hand.\n\n")
	b.WriteString("Every rule of the peer rulesets below is listed with the specgate rules that check the same thing (their METADATA names it " +
		"as `<peer>:<id>`), or the reason specgate deliberately does not mirror it (the parity test fails on a peer rule that has neither). " +
		"To move a peer configuration to specgate, look up each rule it configures and set the specgate rules in the `rules` of a profile " +
		"(`include`, `exclude`, `override`). *Default* is what the peer's default ruleset does with the rule.\n\n")
	b.WriteString("| Peer | Ruleset | Rules | Mirrored | Not mirrored, with a reason | Not yet covered |\n|---|---|---|---|---|---|\n")
	for _, g := range groups {
		var mirrored, reasoned, open int
		for _, p := range g.rules {
			switch {
			case len(mirrors[p.Key()]) > 0:
				mirrored++
			case p.Reason != "":
				reasoned++
			default:
				open++
			}
		}
		fmt.Fprintf(&b, "| %s %s | [%s](#%s) | %d | %d | %d | %d |\n", g.peer, g.version, g.ruleset, anchor(g.peer+"-"+g.ruleset), len(g.rules), mirrored, reasoned, open)
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n## %s-%s\n\n%s\n\n", g.peer, g.ruleset, g.about)
		b.WriteString("| Rule | Default | Formats | Meaning | specgate |\n|---|---|---|---|---|\n")
		for _, p := range g.rules {
			var cell string
			switch ids := mirrors[p.Key()]; {
			case len(ids) > 0:
				links := make([]string, len(ids))
				for i, id := range ids {
					links[i] = fmt.Sprintf("[%s](%s.md)", id, id)
				}
				cell = strings.Join(links, ", ")
			case p.Reason != "":
				cell = "not mirrored: " + p.Reason
			default:
				cell = "*not yet covered*"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.ID, cellText(p.Severity), strings.Join(p.Formats, ", "), cellText(p.Meaning), cellText(cell))
		}
	}
	return b.String()
}

// anchor is the GitHub heading anchor of a heading made of words and
// hyphens.
func anchor(heading string) string { return strings.ToLower(heading) }

// cellText escapes what would end a Markdown table cell.
func cellText(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
