package rulesets_test

import (
	"strings"
	"testing"

	"github.com/specgate/specgate/rulesets"
)

// TestPeersOfRulesExist checks every `peers` entry of the built-in rules'
// METADATA against the inventory of peer rules, so that a misspelt peer id
// fails here instead of silently leaving a peer rule uncovered; it also
// refuses a peer rule that is both mirrored and given a reason not to be,
// and one that is neither: every peer rule has a specgate equivalent or a
// recorded reason (issue 4, parity).
func TestPeersOfRulesExist(t *testing.T) {
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		t.Fatal(err)
	}
	peers, err := rulesets.Peers()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]rulesets.PeerRule{}
	for _, p := range peers {
		known[p.Key()] = p
	}
	infos := rulesets.Catalog(reg)
	for _, r := range infos {
		for _, key := range r.Peers {
			p, ok := known[key]
			switch {
			case !ok:
				t.Errorf("rule %s names peer %q, which rulesets/peers.yaml does not list%s", r.ID, key, suggestPeer(key, known))
			case p.Reason != "":
				t.Errorf("rule %s mirrors %s, but rulesets/peers.yaml gives a reason not to mirror it: drop one", r.ID, key)
			}
		}
	}
	mirrors := rulesets.Mirrors(infos)
	for _, p := range peers {
		if len(mirrors[p.Key()]) == 0 && p.Reason == "" {
			t.Errorf("peer rule %s (%s %s) is not covered: name it in the peers of the rule that checks the same thing, or give rulesets/peers.yaml a reason not to mirror it", p.Key(), p.Peer, p.Ruleset)
		}
	}
}

func suggestPeer(key string, known map[string]rulesets.PeerRule) string {
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	return rulesets.Suggest(key, names)
}

func TestParsePeersErrors(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string
	}{
		{"not a list", "peers: {}\n", []string{`peers.yaml:1:8: peers must be a list`}},
		{"missing fields", "peers:\n  - name: p\n    version: '1'\n    rulesets:\n      - name: r\n        about: a\n        rules:\n          - {id: x, formats: [oas3]}\n",
			[]string{`peers.yaml:8:13: "severity" must be a non-empty string`, `peers.yaml:8:13: "meaning" must be a non-empty string`}},
		{"bad severity, format and duplicate", "peers:\n  - name: p\n    version: '1'\n    rulesets:\n      - name: r\n        about: a\n        rules:\n" +
			"          - {id: x, severity: fatal, formats: [oas4], meaning: m}\n          - {id: x, severity: warn, formats: [], meaning: m}\n",
			[]string{`peers.yaml:8:48: unknown format "oas4" of p:x`, `peers.yaml:8:31: severity of p:x must start with error, warn, info, hint or off`, `peers.yaml:9:13: p:x is listed twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rulesets.ParsePeers("peers.yaml", []byte(tt.data))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestParityDocument(t *testing.T) {
	peers := []rulesets.PeerRule{
		{Peer: "vacuum", Version: "v1", Ruleset: "all", About: "every rule", ID: "a", Severity: "warn", Formats: []string{"oas3"}, Meaning: "a | b"},
		{Peer: "vacuum", Version: "v1", Ruleset: "all", About: "every rule", ID: "b", Severity: "off", Meaning: "b", Reason: "not wanted"},
		{Peer: "redocly", Version: "2", Ruleset: "recommended", About: "recommended", ID: "c", Severity: "error", Meaning: "c"},
	}
	infos := []rulesets.RuleInfo{{ID: "rule-x", Peers: []string{"vacuum:a"}}, {ID: "rule-y", Peers: []string{"vacuum:a", "spectral:z"}}}
	doc := rulesets.Parity(infos, peers)
	for _, want := range []string{
		"| vacuum v1 | [all](#vacuum-all) | 2 | 1 | 1 | 0 |",
		"| redocly 2 | [recommended](#redocly-recommended) | 1 | 0 | 0 | 1 |",
		"| `a` | warn | oas3 | a \\| b | [rule-x](rule-x.md), [rule-y](rule-y.md) |",
		"| `b` | off |  | b | not mirrored: not wanted |",
		"| `c` | error |  | c | *not yet covered* |",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("parity document lacks %q:\n%s", want, doc)
		}
	}
}
