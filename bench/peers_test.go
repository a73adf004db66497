package main

import (
	"slices"
	"strings"
	"testing"
)

// A rule list in the shape of `specgate rules list --format json`.
const ruleList = `[
 {"id": "operation-summary", "rulesets": {"recommended": "warn"}, "peers": ["redocly:operation-summary"]},
 {"id": "parameter-description", "rulesets": {"recommended": "warn"}, "peers": ["vacuum:oas3-parameter-description", "redocly:parameter-description"]},
 {"id": "paths-kebab-case", "rulesets": {"recommended": "off"}, "peers": ["redocly:paths-kebab-case"]},
 {"id": "uri-names", "rulesets": {"strict": "warn"}, "peers": ["redocly:no-path-trailing-slash"]},
 {"id": "string-max-length", "rulesets": {"recommended": "warn"}},
 {"id": "info-contact", "rulesets": {"recommended": "warn"}, "peers": ["vacuum:info-contact", "spectral:info-contact"]},
 {"id": "no-unresolved-ref", "rulesets": {"recommended": "error"}, "peers": ["redocly:no-unresolved-refs"]}
]`

func TestSelectPeerRules(t *testing.T) {
	for _, tc := range []struct {
		which string
		want  []string
		err   string
	}{
		// Any Redocly peer, among the rules recommended runs.
		{which: "redocly", want: []string{"no-unresolved-ref", "operation-summary", "parameter-description"}},
		// parameter-description's Redocly peer is off in Redocly's recommended.
		{which: "redocly-recommended", want: []string{"no-unresolved-ref", "operation-summary"}},
		{which: "vacuum", err: `want redocly or redocly-recommended`},
	} {
		got, err := selectPeerRules([]byte(ruleList), tc.which)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one saying %q", tc.which, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.which, got, err, tc.want)
		}
	}
	if _, err := selectPeerRules([]byte(`[{"id": "a", "rulesets": {"recommended": "warn"}}]`), "redocly"); err == nil || !strings.Contains(err.Error(), "no rule of recommended") {
		t.Errorf("a list with no Redocly peer: error %v", err)
	}
	if _, err := selectPeerRules([]byte(`{`), "redocly"); err == nil {
		t.Errorf("a list that is not JSON: no error")
	}
}

// sameChecks runs recommended narrowed to the ids, one --rule each.
func TestSameChecksCommand(t *testing.T) {
	tl := sameChecks("/b/specgate", "redocly", []string{"a", "b"})
	args := strings.Join(tl.cmd("/c", "spec.json"), " ")
	for _, want := range []string{"/b/specgate lint spec.json --ruleset recommended", "--rule a --rule b"} {
		if !strings.Contains(args, want) {
			t.Errorf("command %q lacks %q", args, want)
		}
	}
	if tl.name != "specgate-redocly" || !strings.Contains(tl.version, "2 rules") {
		t.Errorf("tool %q %q", tl.name, tl.version)
	}
}
