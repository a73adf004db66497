package rulesets_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// configSeeds are lint configurations: profiles with every key, the
// configuration's own rules, aliases, functions and Rego folders, and
// broken ones.
var configSeeds = []string{
	"profiles:\n  default:\n    rules:\n      extends: [recommended]\n      include: [operation-tags]\n      exclude: [info-license]\n      override: {specgate/info-contact: warn, operation-summary: off}\n",
	"profiles: {default: {rules: {extends: [strict, lenient]}}, ci: {rules: {extends: [recommended, team/ruleset.yaml, 'https://example.com/r.yaml']}}}\n",
	"rego: policies\nfunctions: [isSorted]\naliases:\n  Op: [\"$.paths[*][get,post]\"]\nrules:\n  title-short:\n    given: \"$.info.title\"\n    then: {function: length, functionOptions: {max: 40}}\n  operation-tags: off\noverrides:\n  - files: [\"legacy/**\"]\n    rules: {title-short: warn}\nprofiles:\n  default: {rules: {extends: [recommended]}}\n",
	"profile:\n  default: {}\n",
	"profiles:\n  default:\n    rules:\n      extends: [stict]\n      include: [core-c]\n      override:\n        info-contact: eror\n",
	"profiles: [a]\n",
	"profiles:\n  default: {\n",
	"{\"profiles\": {\"default\": {\"rules\": {\"extends\": [\"recommended\"], \"exclude\": [\"info-license\"]}}}}",
	"extends: [[spectral:oas, all]]\nrules:\n  a: {given: [$.info, '#Missing'], severity: 3, recommended: false, then: [{field: '@key', function: truthy}]}\n",
	"profiles: {a: {}, b: {}}\n",
	"",
	"# only a comment\n",
}

// FuzzParseConfig: any configuration file parses, or fails with errors
// that are all *spec.Errors located in it; profiles of a parsed
// configuration select and resolve without panicking.
func FuzzParseConfig(f *testing.F) {
	for _, s := range configSeeds {
		f.Add([]byte(s))
	}
	for _, name := range []string{"../testdata/custom/ruleset.yaml"} {
		data, err := os.ReadFile(filepath.FromSlash(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := rulesets.ParseConfig("specgate-lint.yaml", data, reg)
		if err != nil {
			if cfg != nil {
				t.Fatalf("both a configuration and an error: %v", err)
			}
			checkConfigErrors(t, err)
			return
		}
		for _, name := range append([]string{""}, profileNames(cfg)...) {
			prof, err := cfg.Profile(name)
			if err != nil {
				if name != "" {
					t.Fatalf("profile %q of the configuration: %v", name, err)
				}
				continue
			}
			// A profile extending ruleset files is resolved by Load.
			if _, err := rulesets.Resolve(reg, prof, ""); err != nil && isBuiltinOnly(prof) {
				t.Fatalf("profile %q of built-in rulesets does not resolve: %v", name, err)
			}
		}
	})
}

func profileNames(cfg *rulesets.Config) []string {
	var out []string
	for name := range cfg.Profiles {
		out = append(out, name)
	}
	return out
}

// isBuiltinOnly reports whether a profile extends only built-in rulesets.
func isBuiltinOnly(p *rulesets.Profile) bool {
	if p == nil || len(p.Files) > 0 {
		return false
	}
	for _, e := range p.Extends {
		if !rulesets.IsBuiltin(e) {
			return false
		}
	}
	return true
}

func checkConfigErrors(t *testing.T, err error) {
	t.Helper()
	for _, e := range dsl.Errors(err) {
		var se *spec.Error
		if !errors.As(e, &se) {
			t.Fatalf("error %T (%v) is not a *spec.Error", e, e)
		}
		if se.File != "specgate-lint.yaml" || se.Msg == "" || se.Pos.Line < 0 || (se.Pos.Line > 0 && se.Pos.Col < 1) {
			t.Fatalf("error not located in the configuration: %#v", se)
		}
		if strings.Contains(se.Msg, "\x00") {
			t.Fatalf("internal marker in a message: %q", se.Msg)
		}
	}
}
