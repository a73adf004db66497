package rulesets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/spec"
)

// Options say where lint's rules come from.
type Options struct {
	Config   string // configuration file; "" looks for ConfigName from Dir upward
	Dir      string // where the search starts ("." when empty)
	NoSearch bool   // do not look for a configuration file
	Profile  string // profile of the configuration
	// Ruleset replaces the profile's extends: a built-in ruleset name, or a
	// ruleset file or https URL.
	Ruleset string
	// Fetch reads rulesets named by URL; nil refuses them.
	Fetch Fetcher
	// SkipMissingFunctions leaves out, and lists in Setup.Skipped, the
	// rules whose custom functions have no Rego implementation, instead of
	// failing.
	SkipMissingFunctions bool
	// Cache keeps the built-in rules' metadata between runs; nil reads it
	// from the modules.
	Cache *policy.Cache
}

// Setup is everything the lint pipeline needs from configuration.
type Setup struct {
	Registry   *policy.Registry // built-in and custom rules
	Severities Severities
	Overrides  []FileOverride
	Profile    string // the profile used, "" without a configuration
	ConfigFile string
	Compiled   []*dsl.Compiled // custom definitions and their Rego
	Skipped    []SkippedRule
	Warnings   []string // positioned notes about the configuration that do not stop linting
}

// Load resolves the rules and severities to lint with: built-in rulesets,
// ruleset files and their extends chains, the configuration's own rules
// and Rego, the chosen profile's include, exclude and override.
func Load(opts Options) (*Setup, error) {
	reg, err := policy.LoadFS(rules.FS, ".", true, opts.Cache)
	if err != nil {
		return nil, err
	}
	path := opts.Config
	if path == "" && !opts.NoSearch {
		dir := opts.Dir
		if dir == "" {
			dir = "."
		}
		if found, ok := FindConfig(dir); ok {
			path = found
		}
	}
	l := &rulesetLoader{reg: reg, fetch: opts.Fetch}
	set := newCustomSet()
	setup := &Setup{Registry: reg, ConfigFile: path}

	var data []byte
	var prof *Profile
	var firstErr error // structural errors of the configuration, reported with the rest
	if path != "" {
		if data, err = os.ReadFile(path); err != nil {
			return nil, &spec.Error{File: path, Msg: "cannot read configuration: " + fsroot.UnwrapPath(err).Error(), Err: err}
		}
		// First pass: the structure, the custom rules and the chosen
		// profile's ruleset files; rule ids are checked once every rule
		// is known.
		cfg, err := parseConfig(path, data, nil, noProfile)
		if cfg == nil {
			return nil, err
		}
		firstErr = err
		if prof, err = cfg.Profile(opts.Profile); err != nil {
			return nil, errors.Join(firstErr, err)
		}
		if cfg.Custom != nil {
			set.merge(l.resolve(cfg.Custom, ""))
		}
		if prof != nil && opts.Ruleset == "" {
			for _, f := range prof.Files {
				if s := l.load(join(filepath.Dir(path), f.Value), path, f.Pos, ""); s != nil {
					set.merge(s)
				}
			}
		}
	} else if opts.Profile != "" {
		return nil, fmt.Errorf("--profile %q needs a configuration file (%s or --config)", opts.Profile, ConfigName)
	}

	base := []string{}
	switch {
	case opts.Ruleset != "" && IsBuiltin(opts.Ruleset):
		base = []string{opts.Ruleset}
	case opts.Ruleset != "":
		if !isRulesetFile(opts.Ruleset) {
			return nil, fmt.Errorf("unknown ruleset %q (a built-in ruleset: lenient, recommended, strict; or a ruleset file or https URL)%s", opts.Ruleset, Suggest(opts.Ruleset, Names))
		}
		s := l.load(opts.Ruleset, "", spec.Pos{}, "")
		if s != nil {
			base = s.builtins
			set.merge(s)
		}
	case prof != nil && (len(prof.Extends) > 0 || len(prof.Files) > 0):
		base = append(prof.Extends, set.builtins...)
	default:
		base = append([]string{Default}, set.builtins...)
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(append([]error{firstErr}, l.errs...)...)
	}
	compiled, skipped, err := compileAll(reg, set, opts.SkipMissingFunctions)
	if err != nil {
		return nil, err
	}
	setup.Compiled, setup.Skipped, setup.Warnings = compiled, skipped, l.warnings

	sevs, err := builtinLayers(reg, base)
	if err != nil {
		return nil, err
	}
	for id, s := range set.sev {
		sevs[id] = s
	}
	for _, r := range reg.Rules {
		// Users' own Rego rules run at their METADATA severity unless a
		// ruleset said otherwise.
		if _, ok := sevs[r.ID]; !ok && !r.Builtin && set.def(r.ID) == nil {
			sevs[r.ID] = r.Severity
		}
	}
	for _, s := range skipped {
		delete(sevs, s.Rule)
	}
	if path != "" {
		// Second pass: check the chosen profile's rule ids against every
		// rule, then apply include, exclude and override.
		cfg, err := parseConfig(path, data, reg, profileName(prof))
		if err != nil {
			return nil, err
		}
		if prof, err = cfg.Profile(opts.Profile); err != nil {
			return nil, err
		}
		if prof != nil {
			setup.Profile = prof.Name
		}
		prof.apply(reg, sevs)
	}
	setup.Severities = sevs
	setup.Overrides = set.overrides
	return setup, nil
}

func profileName(p *Profile) string {
	if p == nil {
		return noProfile
	}
	return p.Name
}
