package rulesets

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/spec"
)

// ConfigName is the lint configuration file looked up from the working
// directory upward.
const ConfigName = "specgate-lint.yaml"

// BuiltinPrefix may precede a built-in rule id in configuration, as in
// "specgate/health-endpoint".
const BuiltinPrefix = "specgate/"

// Config is a lint configuration file.
type Config struct {
	File     string
	Profiles map[string]*Profile
	// Custom holds the configuration's own rule definitions, aliases,
	// functions and Rego folders (every top-level key but profiles), in the
	// format of a ruleset file; nil when there are none.
	Custom *dsl.Ruleset
}

// Profile is one named profile: rulesets to extend, then rules to include
// at their original severity, rules to exclude, and per-rule overrides.
type Profile struct {
	Name     string
	Extends  []string   // built-in rulesets
	Files    []dsl.Name // ruleset files or URLs, relative to the configuration
	Include  []string
	Exclude  []string
	Override map[string]level.Severity
}

// FindConfig looks for ConfigName in dir and its parents.
func FindConfig(dir string) (string, bool) {
	return fsroot.FindUp(dir, ConfigName)
}

// LoadConfig reads and checks a configuration file against the registry.
// Every error is a *spec.Error with the file, line and column, and a
// suggestion when a name is misspelt.
func LoadConfig(path string, reg *policy.Registry) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &spec.Error{File: path, Msg: "cannot read configuration: " + strings.TrimPrefix(err.Error(), "open "+path+": "), Err: err}
	}
	return ParseConfig(path, data, reg)
}

// ParseConfig is LoadConfig on bytes.
func ParseConfig(path string, data []byte, reg *policy.Registry) (*Config, error) {
	cfg, err := parseConfig(path, data, reg, "")
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// noProfile, as parseConfig's only, checks the rule ids of no profile.
const noProfile = "\x00"

// parseConfig is ParseConfig checking only one profile's rule ids (all
// when only is "", none when it is noProfile; reg may then be nil).
func parseConfig(path string, data []byte, reg *policy.Registry, only string) (*Config, error) {
	root, err := spec.Parse(path, data, spec.DefaultLimits())
	if err != nil {
		return nil, err
	}
	p := &configParser{file: path, reg: reg, only: only}
	cfg := p.config(root)
	if len(p.errs) > 0 {
		return cfg, errors.Join(p.errs...)
	}
	return cfg, nil
}

type configParser struct {
	file string
	reg  *policy.Registry
	errs []error
	// only, when set, limits rule id checks to that profile: the others
	// may name rules of ruleset files that were not loaded.
	only string
}

func (p *configParser) errorf(at spec.Pos, format string, args ...any) {
	p.errs = append(p.errs, &spec.Error{File: p.file, Pos: at, Msg: fmt.Sprintf(format, args...)})
}

func (p *configParser) mapping(n *spec.Node, what string) bool {
	if n.Kind != spec.Object {
		p.errorf(n.Range.Start, "%s must be a mapping, found %s", what, n.Kind)
		return false
	}
	return true
}

// keys checks that an object has only known keys.
func (p *configParser) keys(n *spec.Node, what string, known ...string) bool {
	if !p.mapping(n, what) {
		return false
	}
	for _, f := range n.Fields {
		if !slices.Contains(known, f.Key) {
			p.errorf(f.KeyRange.Start, "unknown key %q in %s%s", f.Key, what, Suggest(f.Key, known))
		}
	}
	return true
}

func (p *configParser) config(root *spec.Node) *Config {
	cfg := &Config{File: p.file, Profiles: map[string]*Profile{}}
	if !p.keys(root, "the configuration", append([]string{"profiles"}, dsl.RulesetKeys...)...) {
		return cfg
	}
	custom := &spec.Node{Kind: spec.Object, Range: root.Range}
	for _, f := range root.Fields {
		if f.Key != "profiles" && slices.Contains(dsl.RulesetKeys, f.Key) {
			custom.Fields = append(custom.Fields, f)
		}
	}
	if len(custom.Fields) > 0 {
		rs, err := dsl.ParseRulesetNode(p.file, custom)
		if err != nil {
			p.errs = append(p.errs, err)
		}
		cfg.Custom = rs
	}
	profiles := root.Get("profiles")
	if profiles == nil {
		return cfg
	}
	if profiles.Kind != spec.Object {
		p.errorf(profiles.Range.Start, "profiles must be a mapping of profile names, found %s", profiles.Kind)
		return cfg
	}
	for _, f := range profiles.Fields {
		cfg.Profiles[f.Key] = p.profile(f.Key, f.Value)
	}
	return cfg
}

func (p *configParser) profile(name string, n *spec.Node) *Profile {
	prof := &Profile{Name: name, Override: map[string]level.Severity{}}
	what := fmt.Sprintf("profile %q", name)
	if !p.keys(n, what, "rules") {
		return prof
	}
	rules := n.Get("rules")
	if rules == nil || !p.keys(rules, what+" rules", "extends", "include", "exclude", "override") {
		return prof
	}
	for _, it := range p.stringList(rules.Get("extends"), "extends") {
		switch {
		case IsBuiltin(it.Value):
			prof.Extends = append(prof.Extends, it.Value)
		case isRulesetFile(it.Value):
			prof.Files = append(prof.Files, dsl.Name{Value: it.Value, Pos: it.Range.Start})
		default:
			if hint := Suggest(it.Value, Names); hint != "" {
				p.errorf(it.Range.Start, "unknown ruleset %q%s", it.Value, hint)
			} else {
				p.errorf(it.Range.Start, "unknown ruleset %q (a built-in ruleset: %s; or a ruleset file .yaml/.yml/.json or https URL)", it.Value, strings.Join(Names, ", "))
			}
		}
	}
	if p.only != "" && p.only != name {
		return prof
	}
	for _, it := range p.stringList(rules.Get("include"), "include") {
		if id, ok := p.ruleID(it.Value, it.Range.Start); ok {
			prof.Include = append(prof.Include, id)
		}
	}
	for _, it := range p.stringList(rules.Get("exclude"), "exclude") {
		if id, ok := p.ruleID(it.Value, it.Range.Start); ok {
			prof.Exclude = append(prof.Exclude, id)
		}
	}
	if ov := rules.Get("override"); ov != nil && p.mapping(ov, "override") {
		for _, f := range ov.Fields {
			id, ok := p.ruleID(f.Key, f.KeyRange.Start)
			if !ok {
				continue
			}
			sev, ok := level.ParseSeverity(f.Value.Value)
			if f.Value.Kind != spec.String || !ok {
				p.errorf(f.Value.Range.Start, "severity of %s must be off, warn or error, found %q%s", f.Key, f.Value.Value, Suggest(f.Value.Value, []string{"off", "warn", "error"}))
				continue
			}
			prof.Override[id] = sev
		}
	}
	return prof
}

// stringList reads a string or a list of strings; nil means absent.
func (p *configParser) stringList(n *spec.Node, what string) []*spec.Node {
	if n == nil {
		return nil
	}
	if n.Kind == spec.String {
		return []*spec.Node{n}
	}
	if n.Kind != spec.Array {
		p.errorf(n.Range.Start, "%s must be a list, found %s", what, n.Kind)
		return nil
	}
	var out []*spec.Node
	for _, it := range n.Items {
		if it.Kind != spec.String {
			p.errorf(it.Range.Start, "%s entries must be strings, found %s", what, it.Kind)
			continue
		}
		out = append(out, it)
	}
	return out
}

func (p *configParser) ruleID(name string, at spec.Pos) (string, bool) {
	id := strings.TrimPrefix(name, BuiltinPrefix)
	if p.reg.Rule(id) == nil {
		p.errorf(at, "unknown rule %q%s", name, Suggest(id, p.reg.IDs()))
		return "", false
	}
	return id, true
}

// Suggest returns `; did you mean "x"?` for the closest candidate, if one
// is close enough to be a likely typo.
func Suggest(got string, candidates []string) string { return dsl.Suggest(got, candidates) }

// isRulesetFile tells a ruleset file or URL from a misspelt ruleset name.
func isRulesetFile(s string) bool {
	ext := strings.ToLower(filepath.Ext(s))
	return isURL(s) || ext == ".yaml" || ext == ".yml" || ext == ".json" || strings.ContainsAny(s, "/\\") || strings.HasPrefix(s, "spectral:")
}

// Profile picks a profile by name; an empty name means "default", or the
// only profile when there is exactly one.
func (c *Config) Profile(name string) (*Profile, error) {
	if name == "" {
		if p, ok := c.Profiles["default"]; ok {
			return p, nil
		}
		if len(c.Profiles) == 1 {
			for _, p := range c.Profiles {
				return p, nil
			}
		}
		if len(c.Profiles) == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: several profiles and none named \"default\": choose one with --profile (%s)", c.File, strings.Join(c.names(), ", "))
	}
	p, ok := c.Profiles[name]
	if !ok {
		return nil, fmt.Errorf("%s: no profile %q%s (profiles: %s)", c.File, name, Suggest(name, c.names()), strings.Join(c.names(), ", "))
	}
	return p, nil
}

func (c *Config) names() []string {
	return slices.Sorted(maps.Keys(c.Profiles))
}

// Resolve layers a profile over the registry: extends (the default ruleset
// when it names none, and baseRuleset instead when that is set), then
// include, exclude and override. prof may be nil.
func Resolve(reg *policy.Registry, prof *Profile, baseRuleset string) (Severities, error) {
	extends := []string{Default}
	if prof != nil && len(prof.Extends) > 0 {
		extends = prof.Extends
	}
	if baseRuleset != "" {
		extends = []string{baseRuleset}
	}
	out, err := builtinLayers(reg, extends)
	if err != nil {
		return nil, err
	}
	prof.apply(reg, out)
	return out, nil
}

// builtinLayers merges the named built-in rulesets, later ones winning.
func builtinLayers(reg *policy.Registry, names []string) (Severities, error) {
	out := Severities{}
	for _, name := range names {
		sevs, err := Builtin(reg, name)
		if err != nil {
			return nil, err
		}
		for id, s := range sevs {
			out[id] = s
		}
	}
	return out, nil
}

// apply layers the profile's include, exclude and override over sevs, in
// that order; a nil profile changes nothing.
func (p *Profile) apply(reg *policy.Registry, sevs Severities) {
	if p == nil {
		return
	}
	for _, id := range p.Include {
		sevs[id] = reg.Rule(id).Severity
	}
	for _, id := range p.Exclude {
		sevs[id] = level.Off
	}
	for id, s := range p.Override {
		sevs[id] = s
	}
}
