package rulesets_test

import (
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

var update = flag.Bool("update", false, "rewrite docs/rules from the registry")

// fakeRegistry builds a registry of one rule per family, so ruleset
// resolution is tested independently of the real catalogue.
func fakeRegistry(t *testing.T) *policy.Registry {
	t.Helper()
	reg := &policy.Registry{}
	for _, r := range []struct{ id, family, sev string }{
		{"core-a", "correctness", "error"},
		{"core-b", "correctness", "warn"},
		{"doc-a", "documentation", "warn"},
		{"name-a", "naming", "warn"},
		{"health-a", "health", "error"},
		{"ref-a", "integrity", "error"},
	} {
		ruletest.Register(t, reg, ruletest.Rule{File: "rules/" + r.id + "/" + r.id + ".rego", ID: r.id,
			Meta: ruletest.Meta{Severity: r.sev, Family: r.family}, Builtin: true})
	}
	if err := reg.Validate(); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestBuiltinRulesets(t *testing.T) {
	reg := fakeRegistry(t)
	want := map[string]map[string]string{
		"lenient":     {"core-a": "warn", "core-b": "warn", "doc-a": "warn", "name-a": "warn", "health-a": "warn", "ref-a": "error"},
		"recommended": {"core-a": "error", "core-b": "warn", "doc-a": "warn", "name-a": "off", "health-a": "error", "ref-a": "error"},
		"strict":      {"core-a": "error", "core-b": "warn", "doc-a": "error", "name-a": "error", "health-a": "error", "ref-a": "error"},
	}
	for name, exp := range want {
		got, err := rulesets.Builtin(reg, name)
		if err != nil {
			t.Fatal(err)
		}
		for id, sev := range exp {
			if got[id].String() != sev {
				t.Errorf("%s: %s = %s, want %s", name, id, got[id], sev)
			}
		}
	}
	if _, err := rulesets.Builtin(reg, "bogus"); err == nil {
		t.Error("unknown ruleset: no error")
	}
}

func TestProfileLayering(t *testing.T) {
	reg := fakeRegistry(t)
	tests := []struct {
		name    string
		config  string
		profile string
		ruleset string
		want    map[string]string
	}{
		{"no profile is lenient", "", "", "", map[string]string{"core-a": "warn", "name-a": "warn"}},
		{"--ruleset alone", "", "", "strict", map[string]string{"name-a": "error", "doc-a": "error"}},
		{"extends recommended", "profiles: {default: {rules: {extends: [recommended]}}}", "", "", map[string]string{"core-a": "error", "name-a": "off"}},
		{"later extends win", "profiles: {default: {rules: {extends: [strict, lenient]}}}", "", "", map[string]string{"core-a": "warn", "name-a": "warn"}},
		{"include restores original severity", "profiles: {default: {rules: {extends: [recommended], include: [name-a]}}}", "", "", map[string]string{"name-a": "warn"}},
		{"exclude after include", "profiles: {default: {rules: {extends: [strict], include: [name-a], exclude: [name-a, core-a]}}}", "", "", map[string]string{"name-a": "off", "core-a": "off", "doc-a": "error"}},
		{"override last, with prefix", "profiles: {default: {rules: {extends: [strict], exclude: [core-a], override: {specgate/core-a: warn, doc-a: off}}}}", "", "", map[string]string{"core-a": "warn", "doc-a": "off"}},
		{"only profile is picked", "profiles: {team: {rules: {extends: [strict]}}}", "", "", map[string]string{"name-a": "error"}},
		{"named profile", "profiles: {default: {rules: {extends: [strict]}}, ci: {rules: {extends: [recommended]}}}", "ci", "", map[string]string{"name-a": "off"}},
		{"--ruleset replaces extends", "profiles: {default: {rules: {extends: [strict], override: {core-b: error}}}}", "", "lenient", map[string]string{"name-a": "warn", "core-b": "error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prof *rulesets.Profile
			if tt.config != "" {
				cfg, err := rulesets.ParseConfig("specgate-lint.yaml", []byte(tt.config), reg)
				if err != nil {
					t.Fatal(err)
				}
				if prof, err = cfg.Profile(tt.profile); err != nil {
					t.Fatal(err)
				}
			}
			got, err := rulesets.Resolve(reg, prof, tt.ruleset)
			if err != nil {
				t.Fatal(err)
			}
			for id, sev := range tt.want {
				if got[id].String() != sev {
					t.Errorf("%s = %s, want %s", id, got[id], sev)
				}
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	reg := fakeRegistry(t)
	tests := []struct {
		name, config string
		want         []string // "line:col: message" substrings, in order
	}{
		{"unknown top-level key", "profile:\n  default: {}\n", []string{`1:1: unknown key "profile" in the configuration; did you mean "profiles"?`}},
		{"unknown ruleset", "profiles:\n  default:\n    rules:\n      extends: [stict]\n", []string{`4:17: unknown ruleset "stict"; did you mean "strict"?`}},
		{"unknown rule", "profiles:\n  default:\n    rules:\n      exclude: [core-c]\n", []string{`4:17: unknown rule "core-c"; did you mean "core-a"?`}},
		{"no suggestion when far", "profiles:\n  default:\n    rules:\n      include: [completely-different]\n", []string{`4:17: unknown rule "completely-different"`}},
		{"bad severity", "profiles:\n  default:\n    rules:\n      override:\n        core-a: eror\n", []string{`5:17: severity of core-a must be off, warn or error, found "eror"; did you mean "error"?`}},
		{"unknown rules key", "profiles:\n  default:\n    rules:\n      extend: [strict]\n", []string{`4:7: unknown key "extend" in profile "default" rules; did you mean "extends"?`}},
		{"several errors at once", "profiles:\n  default:\n    rules:\n      extends: [x]\n      include: [y]\n", []string{`4:17: unknown ruleset "x"`, `5:17: unknown rule "y"`}},
		{"not a mapping", "profiles: [a]\n", []string{`1:11: profiles must be a mapping`}},
		{"yaml syntax", "profiles:\n  default: {\n", []string{`specgate-lint.yaml:`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rulesets.ParseConfig("specgate-lint.yaml", []byte(tt.config), reg)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
			var se *spec.Error
			if !errors.As(err, &se) || se.File != "specgate-lint.yaml" {
				t.Errorf("error is not located in the configuration file: %#v", err)
			}
		})
	}
}

func TestProfileSelectionErrors(t *testing.T) {
	reg := fakeRegistry(t)
	cfg, err := rulesets.ParseConfig("c.yaml", []byte("profiles: {a: {}, b: {}}"), reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.Profile(""); err == nil || !strings.Contains(err.Error(), `several profiles and none named "default"`) {
		t.Errorf("no default among several: %v", err)
	}
	if _, err := cfg.Profile("c"); err == nil || !strings.Contains(err.Error(), `no profile "c"`) || !strings.HasSuffix(err.Error(), "(profiles: a, b)") {
		t.Errorf("missing profile: %v", err)
	}
}

// handWritten are the pages of docs/rules that are not generated: -update
// leaves them alone.
var handWritten = map[string]bool{"agreement.md": true}

// TestDocsAreGenerated checks docs/rules against the registry; run with
// -update to regenerate them.
func TestDocsAreGenerated(t *testing.T) {
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		t.Fatal(err)
	}
	infos := rulesets.Catalog(reg)
	dir := filepath.Join("..", "docs", "rules")
	peers, err := rulesets.Peers()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"README.md": rulesets.Index(infos), "parity.md": rulesets.Parity(infos, peers)}
	for _, info := range infos {
		want[info.ID+".md"] = info.Markdown()
	}
	if *update {
		old, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		for _, f := range old {
			if !handWritten[filepath.Base(f)] {
				os.Remove(f)
			}
		}
		for name, content := range want {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for name, content := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != content {
			t.Errorf("docs/rules/%s is out of date: run go test ./rulesets -update", name)
		}
	}
}

// TestUnreadableFiles: a configuration or a ruleset file that cannot be
// read is named once in the error, with the system's reason and not its
// path again; a ruleset file the configuration extends is placed where it
// is named.
func TestUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "specgate-lint.yaml")
	_, err := rulesets.Load(rulesets.Options{Config: config})
	if err == nil || !errors.Is(err, fs.ErrNotExist) || strings.Count(err.Error(), config) != 1 ||
		!strings.Contains(err.Error(), "cannot read configuration: "+syscall.ENOENT.Error()) {
		t.Errorf("missing configuration: %v", err)
	}

	if err := os.WriteFile(config, []byte("profiles:\n  default:\n    rules:\n      extends: [team/ruleset.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = rulesets.Load(rulesets.Options{Config: config})
	ruleset := filepath.Join(dir, "team", "ruleset.yaml")
	var se *spec.Error
	if !errors.As(err, &se) || se.File != config || se.Pos.Line != 4 || se.Pos.Col != 17 ||
		se.Msg != "cannot read ruleset "+ruleset+": "+syscall.ENOENT.Error() {
		t.Errorf("missing ruleset: %v", err)
	}
}
