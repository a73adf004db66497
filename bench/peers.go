package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// redoclyRecommended are the rules that Redocly CLI's recommended ruleset
// (redoclyVersion) runs on OpenAPI 2.0, 3.0 and 3.1 descriptions (the
// broad corpus's versions) besides its structural check: the rules its
// configuration sets to warn or error. Its other rules
// (operation-description, parameter-description, component-name-unique,
// spec-strict-refs, …) are off there.
var redoclyRecommended = []string{
	"info-license", "info-license-strict", "no-ambiguous-paths", "no-duplicated-enum-values",
	"no-duplicated-tag-names", "no-empty-servers", "no-enum-type-mismatch",
	"no-example-value-and-externalValue", "no-identical-paths", "no-illogical-composition-keywords",
	"no-invalid-media-type-examples", "no-invalid-parameter-examples", "no-invalid-schema-examples",
	"no-mixed-number-range-constraints", "no-path-trailing-slash",
	"no-required-schema-properties-undefined", "no-schema-type-mismatch", "no-server-example.com",
	"no-server-trailing-slash", "no-server-variables-empty-enum", "no-undefined-server-variable",
	"no-unresolved-refs", "no-unsafe-markdown", "no-unused-components", "nullable-type-sibling",
	"operation-2xx-response", "operation-4xx-response", "operation-operationId",
	"operation-operationId-unique", "operation-operationId-url-safe", "operation-parameters-unique",
	"operation-summary", "path-declaration-must-exist", "path-not-include-query",
	"path-parameters-defined", "security-defined", "security-scopes-defined",
	"spec-components-invalid-map-name", "spec-ref-siblings", "tag-description",
}

// peerRuleIDs lists the rules of specgate's recommended ruleset whose
// metadata name a peer's rule (selectPeerRules), asking the binary at sg
// which rules there are, as `rules list` does.
func peerRuleIDs(sg, which string) ([]string, error) {
	out, err := exec.Command(sg, "rules", "list", "--format", "json", "--ruleset", "recommended").Output()
	if err != nil {
		return nil, fmt.Errorf("listing specgate's rules: %v", err)
	}
	return selectPeerRules(out, which)
}

// selectPeerRules picks from `rules list --format json` the rules that
// recommended runs and that name a peer's rule: with which "redocly", any
// Redocly rule; with "redocly-recommended", a rule Redocly's recommended
// ruleset runs. The ids come sorted.
func selectPeerRules(list []byte, which string) ([]string, error) {
	peer, onlyRecommended := which, false
	switch which {
	case "redocly":
	case "redocly-recommended":
		peer, onlyRecommended = "redocly", true
	default:
		return nil, fmt.Errorf("-peer-rules %q: want redocly or redocly-recommended", which)
	}
	var rules []struct {
		ID       string            `json:"id"`
		Rulesets map[string]string `json:"rulesets"`
		Peers    []string          `json:"peers"`
	}
	if err := json.Unmarshal(list, &rules); err != nil {
		return nil, fmt.Errorf("reading specgate's rule list: %v", err)
	}
	var ids []string
	for _, r := range rules {
		if sev := r.Rulesets["recommended"]; sev == "" || sev == "off" {
			continue
		}
		if slices.ContainsFunc(r.Peers, func(p string) bool {
			name, ok := strings.CutPrefix(p, peer+":")
			return ok && (!onlyRecommended || slices.Contains(redoclyRecommended, name))
		}) {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("-peer-rules %s: no rule of recommended names that peer", which)
	}
	slices.Sort(ids)
	return ids, nil
}

// sameChecks is specgate bin linting with the recommended ruleset narrowed
// to ids by --rule; its report's rule count says how many ran.
func sameChecks(bin, which string, ids []string) tool {
	return tool{
		name: "specgate-" + which, version: fmt.Sprintf("(%s's checks: %d rules)", which, len(ids)),
		cmd: func(_, s string) []string {
			args := specgateLint(bin, s)
			for _, id := range ids {
				args = append(args, "--rule", id)
			}
			return args
		},
		parse: parseSpecgate,
	}
}
