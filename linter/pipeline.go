package linter

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// Config is what a lint runs with: the rules, as rulesets.Load finds them
// (a configuration's profile, a ruleset, the compiled rules' cache), and
// how they run.
type Config struct {
	Rules rulesets.Options
	// Only runs these rules alone (the lint command's --rule), each at its
	// severity in the ruleset, or at its original one where the ruleset
	// turns it off. An id may carry rulesets.BuiltinPrefix.
	Only    []string
	Loader  *spec.Loader
	Timeout time.Duration // per document; 0 means no limit
	Timings bool          // see Options.Timings
}

// Pipeline is the lint pipeline every front end runs (the lint command,
// the lint server, the studio, the MCP server): the rules a configuration
// names, loaded and compiled once, and the Linter that runs them. Its
// report is lintreport.Of's. It is safe for concurrent use.
type Pipeline struct {
	*Linter
	// Setup is what the configuration resolved to: the registry, the
	// severities (Config.Only applied), overrides, warnings and the
	// custom rules skipped.
	Setup *rulesets.Setup
}

// SetupError is an error of loading the rulesets (a configuration,
// ruleset or custom rule that does not load), as opposed to compiling
// the rules.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// Open loads the rulesets cfg names and compiles their enabled rules.
func Open(ctx context.Context, cfg Config) (*Pipeline, error) {
	setup, err := rulesets.Load(cfg.Rules)
	if err != nil {
		return nil, &SetupError{Err: err}
	}
	if len(cfg.Only) > 0 {
		if setup.Severities, err = onlyRules(setup.Registry, setup.Severities, cfg.Only); err != nil {
			return nil, err
		}
	}
	l, err := New(ctx, Options{Registry: setup.Registry, Severities: setup.Severities, Overrides: setup.Overrides,
		Loader: cfg.Loader, Timeout: cfg.Timeout, Cache: cfg.Rules.Cache, Timings: cfg.Timings})
	if err != nil {
		return nil, err
	}
	return &Pipeline{Linter: l, Setup: setup}, nil
}

// onlyRules keeps the named rules: at their resolved severity, or at their
// original one when the ruleset turns them off.
func onlyRules(reg *policy.Registry, sevs rulesets.Severities, ids []string) (rulesets.Severities, error) {
	out := rulesets.Severities{}
	for _, name := range ids {
		id := strings.TrimPrefix(name, rulesets.BuiltinPrefix)
		r := reg.Rule(id)
		if r == nil {
			return nil, fmt.Errorf("--rule: no rule %q%s", name, rulesets.Suggest(id, reg.IDs()))
		}
		out[id] = sevs[id]
		if out[id] == level.Off {
			out[id] = r.Severity
		}
	}
	return out, nil
}
